/// An Android release (its major version: 12 is API level 31), for the rules that
/// depend on it. A trace says its release with `meta android=N`; a trace that does not
/// is held to the current one, whose rules are the strictest.
public struct AndroidRelease: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The major version (`android=14`).
  public var major: Int

  /// The release the model takes where none is given: Android 16.
  public static let current = AndroidRelease(16)

  /// The release `major`.
  public init(_ major: Int) {
    self.major = major
  }

  /// The release a `meta android=` value names (`14`, or `14.0`), or `nil` when it names
  /// none.
  public init?(metaValue value: String) {
    let whole = value.split(separator: ".", maxSplits: 1).first.map(String.init) ?? value
    guard let major = Int(whole), (1...99).contains(major) else { return nil }
    self.major = major
  }

  /// `android 14`.
  public var description: String { "android \(major)" }

  /// Whether `lhs` is an earlier release than `rhs`.
  public static func < (lhs: AndroidRelease, rhs: AndroidRelease) -> Bool { lhs.major < rhs.major }

  /// Android 12 (API 31) and later refuse a foreground service started from the
  /// background (`ForegroundServiceStartNotAllowedException`).
  public var forbidsBackgroundServiceStarts: Bool { major >= 12 }
  /// How long after leaving the foreground an app may still start a foreground service
  /// on a release that ``forbidsBackgroundServiceStarts``: AOSP
  /// `ActivityManagerConstants.DEFAULT_FG_TO_BG_FGS_GRACE_DURATION` (5,000 ms).
  public static let foregroundToBackgroundGrace = TraceInterval(nanoseconds: 5_000_000_000)
  /// Android 11 (API 30) and earlier run expedited work as a foreground service, from
  /// the worker's `getForegroundInfo()`; later releases run it as an expedited job.
  public var runsExpeditedWorkAsForegroundService: Bool { major < 12 }
  /// Android 14 (API 34) and later refuse `startForeground` without a type
  /// (`MissingForegroundServiceTypeException`, "Starting FGS without a type").
  public var requiresServiceType: Bool { major >= 14 }
  /// Android 14 (API 34) and later check, at `startForeground`, that the app holds the
  /// runtime permissions of the service's type now: a *while-in-use* permission
  /// (``ForegroundServiceType/needsWhileInUsePermission``) is held only while the app is
  /// in the foreground, so a service of such a type created from the background is
  /// refused with a `SecurityException` (developer.android.com, "Restrictions on starting
  /// foreground services that need while-in-use permissions"). Android 11 to 13 let the
  /// service start and silently deny it the camera, microphone and location, which the
  /// model does not show.
  public var checksWhileInUsePermissions: Bool { major >= 14 }
  /// Android 15 (API 35) and later give `dataSync` and `mediaProcessing` services
  /// 6 hours in 24, then call `Service.onTimeout`.
  public var limitsDataSyncServices: Bool { major >= 15 }
  /// Android 14 (API 34) and later have the `shortService` type, 3 minutes a start.
  public var hasShortServices: Bool { major >= 14 }
  /// Android 15 (API 35) and later bar most foreground service types from a start a
  /// `BOOT_COMPLETED` broadcast allowed (compat change `FGS_BOOT_COMPLETED_RESTRICTIONS`,
  /// 296558535, for apps targeting 35; the model's app targets the release it runs on):
  /// ``ForegroundServiceType/mayStartFromBootCompleted``.
  public var restrictsBootCompletedServiceTypes: Bool { major >= 15 }

  /// Whether JobScheduler gives jobs a runtime guarantee and a longer limit while
  /// charging (`JobSchedulerService.Constants` `RUNTIME_MIN_GUARANTEE_MS`,
  /// `RUNTIME_FREE_QUOTA_MAX_LIMIT_MS`, `RUNTIME_MIN_EJ_GUARANTEE_MS`): Android 14+.
  public var hasJobRuntimeGuarantees: Bool { major >= 14 }

  /// Whether JobScheduler's quotas take the values Android 16 adjusted (AOSP
  /// `QuotaController`, flag `adjust_quota_default_constants`: the `DEFAULT_CURRENT_*`
  /// and `DEFAULT_LATEST_*` constants beside the `DEFAULT_LEGACY_*` ones): longer
  /// windows, a limited `active` bucket, less expedited time in `working_set`, smaller
  /// expedited rewards.
  public var hasAdjustedJobQuotas: Bool { major >= 16 }

  /// Whether a regular job started while the app is on top is charged to its quota once
  /// the app leaves the top (AOSP `QuotaController`, flag
  /// `enforce_quota_policy_to_top_started_jobs`): Android 16+. Before, such a job ran
  /// free of the quota to its end (`mTopStartedJobs`: no timing session, no job count).
  public var chargesJobsStartedOnTop: Bool { major >= 16 }

  /// Whether an app running a foreground service has its jobs charged to its quota
  /// (AOSP `QuotaController.getProcessStateQuotaFreeThreshold`, flag
  /// `enforce_quota_policy_to_fgs_jobs`: `PROCESS_STATE_BOUND_TOP`): Android 16+.
  /// Before, `PROCESS_STATE_FOREGROUND_SERVICE` counted as in the foreground
  /// (`mForegroundUids`), which frees both the start check and the timing sessions.
  public var chargesJobsBesideForegroundServices: Bool { major >= 16 }

  /// Whether a regular job of an app in the foreground gets the free runtime
  /// (`RUNTIME_FREE_QUOTA_MAX_LIMIT_MS`) only when it is important (AOSP
  /// `QuotaController.getMaxJobExecutionTimeMsLocked`: `isJobImportant`,
  /// `PRIORITY_HIGH` or ``honoursImportantWhileForeground``'s flag): Android 15+.
  public var limitsForegroundRuntimeToImportantJobs: Bool { major >= 15 }

  /// Whether JobScheduler honours `JobInfo.setImportantWhileForeground`
  /// (`FLAG_IMPORTANT_WHILE_FOREGROUND`): before Android 16, which ignores it (flag
  /// `ignore_important_while_foreground`; `JobInfo.isImportantWhileForeground()`
  /// deprecated at API 36).
  public var honoursImportantWhileForeground: Bool { major < 16 }
  /// Android 9 (API 28) defers an app's regular jobs by its standby bucket with
  /// JobScheduler's heartbeats (`JobSchedulerService.isReadyToBeExecutedLocked`,
  /// `STANDBY_BEATS`), not with `QuotaController`'s execution-time quota, which later
  /// releases use; and its alarms by a delay after its last one, not by an alarm quota.
  public var defersJobsByStandbyHeartbeats: Bool { major <= 9 }

  /// Whether exact alarms need `SCHEDULE_EXACT_ALARM` or `USE_EXACT_ALARM`: from
  /// Android 12 (API 31, AOSP `REQUIRE_EXACT_ALARM_PERMISSION` for apps targeting it).
  public var requiresExactAlarmPermission: Bool { major >= 12 }

  /// How long after an app's process becomes cached (no activity visible, no service,
  /// no job running) the cached-apps freezer freezes it: AOSP `CachedAppOptimizer`
  /// `DEFAULT_FREEZER_DEBOUNCE_TIMEOUT`, 10 s from Android 14 ("App processes in the
  /// cached state are frozen 10 seconds after entering the cached state",
  /// source.android.com, "Cached apps freezer"), 10 minutes in Android 12 and 13.
  /// Android 11's freezer is off by default and older releases have none; the model
  /// freezes their apps after 10 minutes too, the strict reading.
  public var cachedAppFreezeDelay: Duration { major >= 14 ? .seconds(10) : .seconds(600) }

  /// How long a service started with `startForegroundService` has to call
  /// `startForeground` before the system stops it: 10 s up to Android 12 (AOSP
  /// `ActiveServices.SERVICE_START_FOREGROUND_TIMEOUT = 10*1000`), 30 s from Android 13
  /// (`ActivityManagerConstants.DEFAULT_SERVICE_START_FOREGROUND_TIMEOUT_MS = 30 * 1000`).
  public var startForegroundTimeout: Duration { major >= 13 ? .seconds(30) : .seconds(10) }
  /// How long after that stop the app gets its ANR: at once up to Android 12 ("before
  /// we ANR + stop it"), 10 s later from Android 13
  /// (`DEFAULT_SERVICE_START_FOREGROUND_ANR_DELAY_MS = 10 * 1000`).
  public var startForegroundANRDelay: Duration { major >= 13 ? .seconds(10) : .zero }
}

extension TraceMetadata {
  /// The Android release the trace declares (`meta android=N`); ``AndroidRelease/current``
  /// when it declares none or a value that names no release.
  public var androidRelease: AndroidRelease {
    self[Self.androidSetting] ?? .current
  }

  /// How long after `fgs.start` the checker expects `fgs.foreground`: `meta fgs-deadline=`
  /// (seconds), else the strictest a device applies, 10 s (AOSP
  /// `ActiveServices.SERVICE_START_FOREGROUND_TIMEOUT`, Android 9–12; later releases
  /// allow 30 s, but an app that ships to older ones is held to 10).
  public var foregroundServiceDeadline: TraceInterval {
    self[Self.foregroundServiceDeadlineSetting] ?? Self.defaultForegroundServiceDeadline
  }

  /// The strictest deadline for `startForeground` after `fgs.start`: 10 s.
  public static let defaultForegroundServiceDeadline = TraceInterval(nanoseconds: 10_000_000_000)

  /// How long after `fgs.timeout` (`Service.onTimeout`) a service must stop before the
  /// app crashes: AOSP `ActivityManagerConstants.DEFAULT_FGS_CRASH_EXTRA_WAIT_DURATION =
  /// 10_000` ms (`ForegroundServiceDidNotStopInTimeException`).
  public static let foregroundServiceStopWait = TraceInterval(nanoseconds: 10_000_000_000)
}
