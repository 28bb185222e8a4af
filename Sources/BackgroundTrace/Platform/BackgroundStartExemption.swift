/// A standing exemption from Android 12's restriction on starting foreground services
/// from the background: one the app holds for as long as it runs, which the model can
/// therefore express as a setting of the device (`meta fgs-exempt=`). From Android's
/// "Restrictions on starting a foreground service from the background", "Exemptions
/// from background start restrictions", with AOSP `PowerExemptionManager`'s reason for
/// each. The words are their `meta` spelling.
///
/// The model knows two other exemptions, which it derives from the app's state: the app
/// is visible (in the foreground), and the 5 s after it left the foreground
/// (`DEFAULT_FG_TO_BG_FGS_GRACE_DURATION`). The temporary ones, granted by a delivery
/// (a high-priority FCM message, an exact alarm, a notification tapped), are windows a
/// trace records as `app.allowlist` (``TemporaryAllowlistReason``).
public enum BackgroundStartExemption: String, Sendable, Hashable, CaseIterable {
  /// `companion-device`: "Your app uses the Companion Device Manager and declares the
  /// REQUEST_COMPANION_START_FOREGROUND_SERVICES_FROM_BACKGROUND permission or the
  /// REQUEST_COMPANION_RUN_IN_BACKGROUND permission" (`REASON_COMPANION_DEVICE_MANAGER`).
  case companionDevice = "companion-device"
  /// `battery-unrestricted`: "The user turns off battery optimizations for your app"
  /// (the app is on the power allowlist, `REASON_ALLOWLISTED_PACKAGE`).
  case batteryUnrestricted = "battery-unrestricted"
  /// `system-alert-window`: "Your app holds the SYSTEM_ALERT_WINDOW permission"
  /// (`REASON_SYSTEM_ALERT_WINDOW_PERMISSION`); from Android 15 the app "must have a
  /// visible overlay window" too, which the model does not have, so it exempts only up
  /// to Android 14.
  case systemAlertWindow = "system-alert-window"

  /// Whether the exemption holds on `release`.
  public func holds(on release: AndroidRelease) -> Bool {
    switch self {
    case .companionDevice, .batteryUnrestricted: true
    case .systemAlertWindow: release.major < 15
    }
  }
}

extension Set<BackgroundStartExemption> {
  /// Whether one of the exemptions holds on `release`: the app may start foreground
  /// services from the background there.
  public func exempt(on release: AndroidRelease) -> Bool {
    contains { $0.holds(on: release) }
  }

  /// The `meta fgs-exempt=` value: the words, sorted, joined by `+`.
  public var metaValue: String {
    map(\.rawValue).sorted().joined(separator: "+")
  }
}

extension TraceMetadata {
  /// The standing exemptions the trace declares (`meta fgs-exempt=companion-device+…`);
  /// none when it declares none (the readers refuse a word that names no exemption:
  /// ``TraceMetadata/settings``).
  public var backgroundStartExemptions: Set<BackgroundStartExemption> {
    self[Self.backgroundStartExemptionsSetting] ?? []
  }
}

/// Why the system put the app on its temporary allowlist (`app.allowlist reason=`):
/// the deliveries after which Android 12+ lets a background app start a foreground
/// service for a short window ("Restrictions on starting a foreground service from the
/// background", "Exemptions from background start restrictions"). AOSP grants each with
/// `TEMPORARY_ALLOW_LIST_TYPE_FOREGROUND_SERVICE_ALLOWED` and a `PowerExemptionManager`
/// reason code, named on each case.
public enum TemporaryAllowlistReason: String, Sendable, Hashable, CaseIterable {
  /// `fcm-high-priority`: "Your app receives a high priority message using Firebase
  /// Cloud Messaging" (`REASON_PUSH_MESSAGING`, 101). Google Play services grants the
  /// window; AOSP does not fix its length, and the model takes 10 s.
  case fcmHighPriority = "fcm-high-priority"
  /// `exact-alarm`: "Your app invokes an exact alarm to complete an action that the user
  /// requests": a `setExactAndAllowWhileIdle` alarm (`REASON_ALARM_MANAGER_WHILE_IDLE`,
  /// 302) or a `setAlarmClock` one (`REASON_ALARM_MANAGER_ALARM_CLOCK`, 301) firing.
  /// AlarmManagerService allowlists the app for
  /// `DEFAULT_ALLOW_WHILE_IDLE_WHITELIST_DURATION`, 10 s.
  case exactAlarm = "exact-alarm"
  /// `notification`: "The user performs an action on a UI element related to your app
  /// … a notification": its `PendingIntent` is sent (`REASON_NOTIFICATION_SERVICE`,
  /// 310). DeviceIdleController's `NOTIFICATION_ALLOWLIST_DURATION_MS`, 30 s.
  case notification
  /// `boot-completed`: the device finished booting and delivered `BOOT_COMPLETED` to the
  /// app's receiver (`REASON_BOOT_COMPLETED`, 200), once the user has unlocked it and
  /// unless the app is stopped (never opened, or force-stopped). ActivityManagerConstants'
  /// `DEFAULT_BOOT_TIME_TEMP_ALLOWLIST_DURATION`, 20 s. From Android 15 a service started
  /// thanks to it may take only some types
  /// (``ForegroundServiceType/mayStartFromBootCompleted``).
  case bootCompleted = "boot-completed"

  /// Whether a foreground service started thanks to it may use the *while-in-use*
  /// permissions (location, camera, microphone) as if the app were in the foreground:
  /// only a tapped notification's ("The service is started by interacting with a
  /// notification", developer.android.com, Android 11 "Foreground services", exemptions
  /// from the while-in-use restrictions). A high-priority message, an exact alarm or
  /// `BOOT_COMPLETED` lets a service start, not use them ("even if the app falls into
  /// one of the exemptions from background start restrictions", "Restrictions on
  /// starting foreground services that need while-in-use permissions").
  public var grantsWhileInUsePermissions: Bool { self == .notification }

  /// How long the system keeps the app on the allowlist: the figures on the cases.
  public var defaultDuration: Duration {
    switch self {
    case .fcmHighPriority, .exactAlarm: .seconds(10)
    case .notification: .seconds(30)
    case .bootCompleted: .seconds(20)
    }
  }
}
