/// Which `AlarmManager` call set an alarm, as `alarm.set type=` records it: it decides
/// how late the alarm may go off, and whether Doze holds it (docs/platform-model.md,
/// "Alarms").
public enum AlarmType: String, Sendable, Hashable, CaseIterable {
  /// `set(RTC_WAKEUP, …)`: inexact; it may go off later than asked, and Doze holds it.
  case inexact
  /// `setExact`: on time, but Doze holds it.
  case exact
  /// `setAndAllowWhileIdle`: inexact, and it goes off in Doze, within the idle quota.
  case allowWhileIdle = "allow-while-idle"
  /// `setExactAndAllowWhileIdle`: on time, also in Doze, within the idle quota.
  case exactAllowWhileIdle = "exact-allow-while-idle"
  /// `setAlarmClock`: on time whatever the device's state; the user sees it as an alarm
  /// clock.
  case alarmClock = "alarm-clock"
  /// `setWindow`: any time within a window the app gives (`alarm.set window=`), which
  /// Android 12 widens to at least the smaller of 10 minutes and three quarters of the
  /// time to its start; Doze holds it.
  case window
  /// `setRepeating` or `setInexactRepeating`, the same call for apps targeting API 19 and
  /// later: inexact, going off again every `alarm.set interval=`
  /// (``RepeatingAlarm``); Doze holds it, and it needs no exact-alarm permission.
  case repeating

  /// Whether it goes off at the time asked (an exact alarm).
  public var isExact: Bool { self == .exact || self == .exactAllowWhileIdle || self == .alarmClock }

  /// Whether it goes off while the device is in Doze (`FLAG_ALLOW_WHILE_IDLE`, or
  /// `FLAG_WAKE_FROM_IDLE` for an alarm clock).
  public var goesOffInDoze: Bool { self != .inexact && self != .exact && self != .window && self != .repeating }

  /// Whether it goes off in Doze within an idle quota (`FLAG_ALLOW_WHILE_IDLE`): the
  /// allow-while-idle calls; an alarm clock has none.
  public var hasIdleQuota: Bool { self == .allowWhileIdle || self == .exactAllowWhileIdle }

  /// The `AlarmManager` method that sets it: `setExact`.
  public var call: String {
    switch self {
    case .inexact: "set"
    case .exact: "setExact"
    case .allowWhileIdle: "setAndAllowWhileIdle"
    case .exactAllowWhileIdle: "setExactAndAllowWhileIdle"
    case .alarmClock: "setAlarmClock"
    case .window: "setWindow"
    case .repeating: "setRepeating"
    }
  }

  /// Whether setting it needs the exact-alarm permission from Android 12 (API 31):
  /// `setExact`, `setExactAndAllowWhileIdle` and `setAlarmClock` with a `PendingIntent`
  /// (AOSP `AlarmManagerService`, `REQUIRE_EXACT_ALARM_PERMISSION`).
  public var needsExactAlarmPermission: Bool { isExact }
}

/// A repeating alarm's schedule, as AOSP `AlarmManagerService` keeps it
/// (`setImpl`, `maxTriggerTime`, `triggerAlarmsLocked`): the interval is clamped to
/// between a minute and a year; each occurrence may go off up to three quarters of the
/// interval after its time (``AlarmType/repeating`` is inexact, with no hour's cap); and
/// after a delivery the next occurrence is asked for on the alarm's first grid, the
/// occurrences missed meanwhile (held by Doze, or a quota) counted into the one delivery
/// (`EXTRA_ALARM_COUNT`), not delivered each.
public enum RepeatingAlarm: Sendable {
  /// `MIN_INTERVAL` (`DEFAULT_MIN_INTERVAL`): a shorter interval is expanded to it
  /// ("Suspiciously short interval … expanding to 60 seconds").
  public static let minimumInterval = TraceInterval(nanoseconds: 60_000_000_000)
  /// `MAX_INTERVAL` (`DEFAULT_MAX_INTERVAL`, 365 days): a longer interval is cut to it.
  public static let maximumInterval = TraceInterval(nanoseconds: 365 * 86_400 * 1_000_000_000)

  /// The interval Android repeats at for `asked`.
  public static func interval(asked: TraceInterval) -> TraceInterval {
    min(max(asked, minimumInterval), maximumInterval)
  }

  /// How long after its time an occurrence may go off: `WINDOW_HEURISTIC`'s three
  /// quarters of the interval (`maxTriggerTime` takes the interval as the futurity of a
  /// repeating alarm).
  public static func window(interval: TraceInterval) -> TraceInterval {
    TraceInterval(nanoseconds: interval.nanoseconds / 4 * 3)
  }

  /// The time the next occurrence is asked for, after the one asked for `requested`
  /// went off at `delivered`: `requested + count × interval`, with
  /// `count = 1 + (delivered − requested) / interval`.
  public static func nextRequest(
    after requested: TraceTime, deliveredAt delivered: TraceTime, interval: TraceInterval
  ) -> TraceTime {
    let late = delivered > requested ? delivered.interval(since: requested).nanoseconds : 0
    let count = 1 + late / max(interval.nanoseconds, 1)
    return requested + TraceInterval(nanoseconds: count * interval.nanoseconds)
  }
}

extension EnvironmentSetting {
  /// `env.set exact-alarm-permission=revoked`: the user took `SCHEDULE_EXACT_ALARM` back
  /// (Settings, "Alarms & reminders"). From then on the app may set no exact alarm,
  /// and AOSP `AlarmManagerService.removeExactAlarmsOnPermissionRevoked` has removed
  /// those it had set and killed its process (docs/platform-model.md, "Alarms").
  public static let exactAlarmPermissionRevoked = EnvironmentSetting(key: "exact-alarm-permission", value: "revoked")
}

/// Android refused to set an exact alarm (`SecurityException`): from Android 12 an app
/// targeting it needs `SCHEDULE_EXACT_ALARM` (which the user grants, and which Android 14
/// no longer pre-grants to apps targeting 13) or `USE_EXACT_ALARM` (alarm and calendar
/// apps) to call `setExact`, `setExactAndAllowWhileIdle` or `setAlarmClock`.
public struct AlarmPermissionError: BackgroundTraceError, Hashable {
  /// The alarm refused.
  public var alarm: String
  /// The call refused.
  public var type: AlarmType

  /// A refusal of the alarm `alarm`, set with `type`.
  public init(alarm: String, type: AlarmType) {
    self.alarm = alarm
    self.type = type
  }

  /// Always ``TraceErrorKind/alarmRefusal``.
  public var kind: TraceErrorKind { .alarmRefusal }
  /// `nil`: the refusal is in no input.
  public var file: String? { nil }
  /// `nil`: the refusal is in no input.
  public var position: TracePosition? { nil }
  /// The exception's message, as AOSP `AlarmManagerService` words it.
  public var message: String {
    "SecurityException: Caller needs to hold android.permission.SCHEDULE_EXACT_ALARM or "
      + "android.permission.USE_EXACT_ALARM to set exact alarms (alarm \(alarm), \(type.rawValue))"
  }
}

/// Android's `AlarmManager` as app code uses it: an alarm named by the app (its
/// `PendingIntent`) goes off once, and the system then delivers it to the app's
/// receiver, ``BackgroundAppDelegate/handleAlarm(_:)``, starting the app's process if
/// none runs. Setting an alarm of the same name replaces it, as a `PendingIntent` that
/// is equal does.
///
/// ```swift
/// try alarms.setAlarm("refresh", after: .seconds(15 * 60), type: .exactAllowWhileIdle)
/// // alarm.set alarm=refresh at=900 type=exact-allow-while-idle; later alarm.fire alarm=refresh
/// ```
public protocol AlarmScheduling: AnyObject, Sendable {
  /// `AlarmManager.set…(RTC_WAKEUP, now + delay, pendingIntent)`, the call `type` names.
  /// ``AlarmType/window`` and ``AlarmType/repeating`` have calls of their own; given
  /// here, the alarm's window is empty, or it repeats every `delay`.
  ///
  /// - Throws: ``AlarmPermissionError`` for an exact alarm
  ///   (``AlarmType/needsExactAlarmPermission``) from Android 12 when the app may not set
  ///   one; the alarm is then not set.
  func setAlarm(_ name: String, after delay: Duration, type: AlarmType) throws(AlarmPermissionError)
  /// `AlarmManager.setWindow(RTC_WAKEUP, now + delay, window, pendingIntent)`: the alarm
  /// `name` goes off at some time in the `window` after `delay` (``AlarmType/window``).
  func setWindowAlarm(_ name: String, after delay: Duration, window: Duration)
  /// `AlarmManager.setRepeating(RTC_WAKEUP, now + delay, interval, pendingIntent)`, or
  /// `setInexactRepeating`, the same call for apps targeting API 19 and later: the alarm
  /// `name` goes off after `delay` and then every `interval` until cancelled
  /// (``AlarmType/repeating``, ``RepeatingAlarm``).
  func setRepeatingAlarm(_ name: String, after delay: Duration, every interval: Duration)
  /// `AlarmManager.cancel(pendingIntent)`: the alarm `name` does not go off.
  func cancelAlarm(_ name: String)
}

extension AlarmScheduling {
  /// Sets an alarm whose type has a call of its own (``AlarmType/window``,
  /// ``AlarmType/repeating``) through that call, as ``setAlarm(_:after:type:)`` promises
  /// for them; `false`, doing nothing, for the other types.
  package func setThroughItsOwnCall(_ name: String, after delay: Duration, type: AlarmType) -> Bool {
    switch type {
    case .window: setWindowAlarm(name, after: delay, window: .zero)
    case .repeating: setRepeatingAlarm(name, after: delay, every: delay)
    case .inexact, .exact, .allowWhileIdle, .exactAllowWhileIdle, .alarmClock: return false
    }
    return true
  }
}
