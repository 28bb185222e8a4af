public import BackgroundTrace

/// The platform model's numbers (docs/platform-model.md), each configurable because Apple
/// documents few of them.
public struct SimulationConfiguration: Sendable {
  /// The device modelled: what keeps the process running and which APIs exist
  /// (``SimulatedPlatform``). Recorded as `meta platform=`.
  public var platform = SimulatedPlatform.ios
  /// Background time after entering the background (iOS 13+: about 30 s).
  public var budget: Duration = .seconds(30)
  /// How long before the budget ends the expiration handlers run.
  public var expirationLead: Duration = .seconds(1)
  /// How long after entering the background with no task open an iOS app is suspended.
  /// An Android app is frozen after its release's
  /// ``/BackgroundTrace/AndroidRelease/cachedAppFreezeDelay`` instead.
  public var suspensionDelay: Duration = .seconds(3)
  /// Identifiers in `BGTaskSchedulerPermittedIdentifiers`; `nil` permits every one of
  /// at most 128 UTF-16 units. An entry `<bundle>.<context>.*` (a continued-processing
  /// wildcard) permits every identifier under `<bundle>.<context>.` when it starts with
  /// ``bundleIdentifier`` (``SimulatedSystem/isPermitted(_:)``).
  public var permittedIdentifiers: Set<String>? = nil
  /// The app's bundle identifier, which a continued-processing wildcard in
  /// ``permittedIdentifiers`` must start with; `nil`: no wildcard entry is valid.
  public var bundleIdentifier: String? = nil
  /// Whether Background App Refresh is on (off: submits fail with `unavailable`).
  public var backgroundRefreshEnabled = true
  /// What `BGTaskScheduler.supportedResources` holds on the device: a continued-processing
  /// request that needs a resource not in it is refused `unavailable`. None by default,
  /// as on a device without background GPU use (or an app without the entitlement).
  public var supportedContinuedProcessingResources: Set<ContinuedProcessingResource> = []
  /// How long a continued-processing run may go without its progress moving before the
  /// system expires it. Apple: "Tasks that appear stalled may be forcibly expired"; the
  /// model takes the strict reading, with the shortest window reported
  /// (``/BackgroundTrace/TraceMetadata/defaultContinuedProcessingStallWindow``, 30 s). `nil` never expires a
  /// stalled run (more lenient than a device).
  public var continuedProcessingStallWindow: Duration? =
    TraceMetadata.defaultContinuedProcessingStallWindow.duration
  /// How many continued-processing runs the system runs at once: a request past it is
  /// queued (`strategy=queue`) or refused `immediateRunIneligible` (`strategy=fail`).
  /// Apple gives no number ("the maximum level of concurrent tasks"); the model's
  /// strict default is 1.
  public var continuedProcessingSlots = 1
  /// When the scheduler launches requests and how long their runs get: by default
  /// ``LaunchPolicy/realistic`` (hours, idle device, short refresh runs);
  /// ``LaunchPolicy/immediate`` for tests that want launches at once.
  public var launchPolicy = LaunchPolicy.realistic
  /// JobScheduler stops a worker's job after this long (Android only: an iOS in-process
  /// queue has no system time limit): AOSP `JobSchedulerService.Constants`
  /// `DEFAULT_RUNTIME_MIN_GUARANTEE_MS`, 10 minutes, the guarantee every regular job
  /// gets, and the limit before Android 14.
  public var workTimeout: Duration = .seconds(600)
  /// From Android 14, how long a regular job may run when its quota does not limit it
  /// (while the device charges, with the app on top or running a foreground service,
  /// and in the `active` and `exempted` buckets):
  /// `DEFAULT_RUNTIME_FREE_QUOTA_MAX_LIMIT_MS`, 30 minutes
  /// (`QuotaController.getMaxJobExecutionTimeMsLocked`; the job gets the larger of this
  /// and ``workTimeout``).
  public var workTimeoutWhileCharging: Duration = .seconds(30 * 60)
  /// The least an expedited job runs before its quota can stop it, from Android 14:
  /// `DEFAULT_RUNTIME_MIN_EJ_GUARANTEE_MS`, 3 minutes.
  public var expeditedGuarantee: Duration = .seconds(3 * 60)
  /// The delay between work becoming eligible and its start.
  public var workDispatchDelay: Duration = .milliseconds(100)
  /// How long after a scheduler run's expiration handler ran the app is killed
  /// (`app.terminate reason=watchdog`) if the run is still not completed. Apple:
  /// not calling `setTaskCompleted` "may result in the system killing your app"; the
  /// model takes the strict reading. `nil` never kills (more lenient than a device).
  public var uncompletedRunKill: Duration? = .seconds(1)
  /// Which locks held at a suspension get an iOS app terminated (`0xdead10cc`):
  /// ``FileLockTermination/anyFile`` by default, the strict reading of Apple's
  /// description; ``FileLockTermination/sharedContainersOnly`` where reports come from.
  public var fileLockTermination = FileLockTermination.anyFile
  /// How long a background transfer takes out of process once it may run: drawn from
  /// this range by the seed (Apple documents none; transfers of the app's own files).
  public var transferDuration: ClosedRange<Duration> = .seconds(5)...(.seconds(120))
  /// How long a woken app waits for each of a session's events — each transfer's
  /// result, then `urlSessionDidFinishEvents` — once it holds the session: drawn from
  /// this range by the seed for each event. The events are messages the transfer
  /// daemon sends to the app it resumed or launched, delivered on the session's
  /// delegate queue; Apple documents no figure, so this is the model's assumption.
  /// While they are delivered another session's wake, or the user, can come in between.
  public var transferEventDelay: ClosedRange<Duration> = .milliseconds(100)...(.seconds(1))
  /// `nsurlsessiond`'s resume rate limiter: the delay set at the first time it resumes
  /// or relaunches the app in the background for a session's events, doubled at each
  /// later one up to ``transferResumeDelayCap``, and reset when the user brings the app
  /// to the foreground or twice the delay passes without such a wake. A discretionary
  /// transfer the app starts meanwhile does not begin until the delay has passed (docs/platform-model.md,
  /// "Background URLSession transfers"). 60 s, as iOS 26.1's `nsurlsessiond` sets it
  /// and as measured on iOS 12.4 (Apple Developer Forums thread 128813); `nil` turns
  /// the limiter off.
  public var transferResumeDelay: Duration? = .seconds(60)
  /// The most the resume rate limiter's delay grows to: 3600 s in iOS 26.1's
  /// `nsurlsessiond`.
  public var transferResumeDelayCap: Duration = .seconds(3600)
  /// Whether UIKit calls `applicationDidEnterBackground` (``/BackgroundTrace/BackgroundAppDelegate/didEnterBackground()``)
  /// when it launches the app straight into the background for a scheduler launch or a
  /// background session's events (iOS only). Apple's "About the background execution
  /// sequence" says it does, the default; apps observed on devices (iOS 5, 7 and 11)
  /// got no such call, and iOS 26.1's UIKitCore launch path
  /// (`-[UIApplication _runWithMainScene:transitionContext:completion:]`) makes none
  /// (docs/platform-model.md, "Background launch"). An app whose background-launch
  /// path must work either way is tested with both. Recorded as
  /// `meta launch-enters-background=false` when off, which a replay follows.
  public var launchEntersBackground = true
  /// The Android release modelled (Android only): which foreground-service rules hold
  /// (``/BackgroundTrace/AndroidRelease``). Recorded as `meta android=` when it is not
  /// ``/BackgroundTrace/AndroidRelease/current``, which a trace without it is read as.
  public var androidRelease = AndroidRelease.current
  /// The standing exemptions the app holds from Android 12's restriction on starting
  /// foreground services from the background (a companion device, battery optimizations
  /// off, …): with one that holds on the release, a start or a worker's `setForeground`
  /// from the background is allowed. Recorded as `meta fgs-exempt=`. None by default,
  /// the strict case.
  public var backgroundStartExemptions: Set<BackgroundStartExemption> = []
  /// Whether the user has restricted the app's background use at the start (Android:
  /// its battery usage set to "Restricted"; ``SimulatedSystem/setBackgroundRestricted(_:)``
  /// changes it). Recorded at 0 s as `env.set background-restricted=true` when set.
  public var backgroundRestricted = false
  /// How long an Android app's uid stays active after the app leaves the foreground,
  /// so that the user's background restriction does not yet hold its jobs and alarms.
  /// AOSP's default is a minute (`ActivityManagerConstants.DEFAULT_BACKGROUND_SETTLE_TIME`,
  /// after which `idleUids` reports the uid idle); the model's is none, the strict case.
  public var backgroundSettleTime: Duration = .zero
  /// How long a `dataSync` or `mediaProcessing` foreground service may run in 24 hours
  /// on Android 15 and later before `onTimeout`: AOSP
  /// `ActivityManagerConstants.DEFAULT_DATA_SYNC_FGS_TIMEOUT_DURATION` (and
  /// `DEFAULT_MEDIA_PROCESSING_FGS_TIMEOUT_DURATION`), 6 hours.
  public var dataSyncServiceBudget: Duration = .seconds(6 * 3600)
  /// How long a `shortService` may run a start before `onTimeout`: AOSP
  /// `DEFAULT_SHORT_FGS_TIMEOUT_DURATION = 3 * 60_000`.
  public var shortServiceLimit: Duration = .seconds(180)
  /// How long after `onTimeout` a service that has not stopped is left running: AOSP
  /// `DEFAULT_FGS_CRASH_EXTRA_WAIT_DURATION = 10_000` (then the app crashes; a
  /// `shortService` gets an ANR after `DEFAULT_SHORT_FGS_ANR_EXTRA_WAIT_DURATION`, also
  /// 10 s).
  public var serviceStopWait: Duration = .seconds(10)
  /// The app's standby bucket (Android), which sets its expedited-work quota
  /// (``StandbyBucket/expeditedQuota(on:)``) and its regular jobs' execution quota
  /// (``StandbyBucket/jobQuotaWindow``): the bucket until the user first opens the app,
  /// after which it follows the app's use (``standbyBucketFollowsUse``). By default
  /// `active`, an app in use; a test of an app the user has not opened for a while
  /// sets `rare` or `restricted`, and pins it (``standbyBucketFollowsUse`` off) if the
  /// test opens the app.
  public var standbyBucket = StandbyBucket.active
  /// Whether the bucket follows the app's use as AOSP `AppStandbyController` moves it
  /// (Android only): `active` while the app is in the foreground and for 12 hours after,
  /// then down by ``StandbyBucket/afterDisuse(elapsed:screenOn:on:)`` (`working_set`
  /// at 12 hours, `frequent` at 24, `rare` at 48, `restricted` after 8 days), each move
  /// recorded as `env.set bucket=`; ``standbyBucket`` is the bucket until the user
  /// first opens the app. On by default, the strict case; off, the bucket stays
  /// ``standbyBucket``. The model moves the app as each threshold passes, where the
  /// device looks every 3 hours at most (`mCheckIdleIntervalMillis`).
  public var standbyBucketFollowsUse = true
  /// Whether the expedited quota earns back time as AOSP `QuotaController` gives it
  /// (Android): 10 s for each 30 s the app is on top, the last part rounded up from
  /// 1 s (`DEFAULT_EJ_REWARD_TOP_APP_MS`, `DEFAULT_EJ_TOP_APP_TIME_CHUNK_SIZE_MS`),
  /// credited when it leaves the top and counted while it is there, and 15 s for each
  /// user action in the app (`DEFAULT_EJ_REWARD_INTERACTION_MS`, a `USER_INTERACTION`).
  /// A reward pays back quota used, never more (`ShrinkableDebits`); credit beyond it
  /// is lost, and a running expedited job keeps the stop time its start set. Off by
  /// default, the strict case: an app runs out of expedited quota no later than on a
  /// device (``ExpeditedQuotaReward``).
  public var expeditedQuotaRewards = false
  /// How much of its job quota an app out of quota needs before its jobs run again:
  /// AOSP `QuotaController.QcConstants.DEFAULT_IN_QUOTA_BUFFER_MS`, 30 seconds. The
  /// model asks it of every start, the strict reading.
  public var inQuotaBuffer: Duration = .seconds(30)
  /// The foreground service types whose permission the app's manifest declares
  /// (``/BackgroundTrace/ForegroundServiceType/permission``); `nil`: every type's. From
  /// Android 14 `startForeground` with a type not among them is refused
  /// (`fgs.refuse reason=permission`; a worker's `work.refuse reason=permission`, and
  /// the app crashes).
  public var foregroundServicePermissions: Set<ForegroundServiceType>?
  /// Whether the user granted the app `ACCESS_BACKGROUND_LOCATION`: then a `location`
  /// foreground service may be created from the background on Android 14+ (its
  /// location permission is not a while-in-use one). `false`, the strict default: the
  /// app holds location only while in use
  /// (``/BackgroundTrace/AndroidRelease/checksWhileInUsePermissions``).
  public var backgroundLocationGranted = false
  /// What the app's `health` foreground service relies on (AOSP
  /// `ForegroundServiceTypePolicy.FGS_TYPE_POLICY_HEALTH`: one of `ACTIVITY_RECOGNITION`,
  /// `BODY_SENSORS`, `HIGH_SAMPLING_RATE_SENSORS`). ``HealthServicePermission/bodySensors``,
  /// the strict default: a while-in-use permission, so such a service created from the
  /// background is refused on Android 14+.
  public var healthServicePermission = HealthServicePermission.bodySensors
  /// Whether the app may set exact alarms on Android 12 and later: it holds
  /// `SCHEDULE_EXACT_ALARM` (granted by the user) or `USE_EXACT_ALARM` (alarm and
  /// calendar apps). `false` by default, the strict case: Android 14 no longer
  /// pre-grants `SCHEDULE_EXACT_ALARM` to apps targeting Android 13, and without it
  /// `setExact`, `setExactAndAllowWhileIdle` and `setAlarmClock` throw
  /// (``/BackgroundTrace/AlarmPermissionError``).
  public var exactAlarmsPermitted = false
  /// How long an app's regular jobs may run in any 24 hours, whatever its bucket
  /// (`active` included): AOSP `QuotaController.QcConstants.DEFAULT_MAX_EXECUTION_TIME_MS`,
  /// 4 hours, over `MAX_PERIOD_MS`, 24 hours (since Android 10; "an overall time limit
  /// for all apps, including ACTIVE apps"). `nil` lifts it.
  public var maxJobExecutionTime: Duration? = .seconds(4 * 3600)
  /// How many regular jobs an app may start in any ``jobRateLimitWindow``, whatever its
  /// bucket: AOSP `DEFAULT_MAX_JOB_COUNT_PER_RATE_LIMITING_WINDOW`, 20, over
  /// `DEFAULT_RATE_LIMITING_WINDOW_MS`, 1 minute (since Android 11). The device resets
  /// its count when its window expires; the model counts the last minute, the strict
  /// reading. `nil` lifts it.
  public var jobRateLimit: Int? = 20
  /// The window of ``jobRateLimit``: 1 minute.
  public var jobRateLimitWindow: Duration = .seconds(60)
  /// How far apart two timing sessions of an app's regular jobs may be and still count
  /// as one against ``StandbyBucket/sessionCountLimit``: AOSP
  /// `DEFAULT_TIMING_SESSION_COALESCING_DURATION_MS`, 5 seconds.
  public var sessionCoalescing: Duration = .seconds(5)
  /// The environment at the start: network connectivity.
  public var networkAvailable = true
  /// The environment at the start: on external power.
  public var charging = false
  /// How recently the user must have used the app for its processing tasks to launch
  /// (iOS): `BGTaskRequest.h` says the system fulfils a `BGProcessingTaskRequest` "as
  /// long as the user has used your app within the past week". `nil`: no condition.
  public var processingUseWindow: Duration? = .seconds(7 * 86_400)
  /// How long before the simulation starts the user last used the app (iOS): 0, just
  /// now. A test of an app left unopened for days sets more.
  public var lastUsedBeforeStart: Duration = .zero
  /// The environment at the start: whether the network connection is metered (cellular
  /// data; `false`: Wi-Fi).
  public var networkMetered = false
  /// The environment at the start: whether the network connection is roaming.
  public var networkRoaming = false
  /// The environment at the start: whether the network connection is temporarily not
  /// metered (`NET_CAPABILITY_TEMPORARILY_NOT_METERED`: a carrier's network, metered in
  /// general, unmetered for now), which ``/BackgroundTrace/WorkConstraint/temporarilyUnmetered`` asks for.
  public var networkTemporarilyUnmetered = false
  /// The environment at the start: the battery's level, in percent.
  public var batteryLevel = 100
  /// The environment at the start: whether the device's storage is low.
  public var storageLow = false
  /// How long the screen must have been off before an Android device counts as idle
  /// for the idle constraint (``/BackgroundTrace/WorkConstraint/deviceIdle``): AOSP
  /// `DeviceIdlenessTracker`'s inactivity threshold.
  public var deviceIdleThreshold: Duration = .seconds(31 * 60)
  /// The device at the start (Android): whether its screen is on. With the screen off
  /// and the charger out the device dozes (``doze``).
  public var screenOn = true
  /// The device at the start (Android): whether it lies still, the way into deep Doze.
  public var stationary = false
  /// When the Android device dozes: AOSP's `DeviceIdleController` by default.
  public var doze = DozePolicy.aosp
  /// Whether the app's main-actor work runs under the simulation's control
  /// (``VirtualTimeScheduler/drivesMainActor``). Off by default: it costs two hops to
  /// the main queue per step, and code that never touches the main actor needs none.
  public var drivesMainActor = false

  /// The defaults above, for `platform` (an iPhone unless told otherwise).
  public init(platform: SimulatedPlatform = .ios) {
    self.platform = platform
  }

  /// Whether the app is on the power allowlist (its battery optimizations off,
  /// ``/BackgroundTrace/BackgroundStartExemption/batteryUnrestricted``): AOSP puts it in
  /// the `exempted` standby bucket (`AppStandbyController.getAppMinBucket`), and
  /// `DeviceIdleJobsController` lets its jobs run in Doze (`isWhitelistedLocked`).
  var onPowerAllowlist: Bool { backgroundStartExemptions.contains(.batteryUnrestricted) }

  /// The bucket the app starts in: ``standbyBucket``, or `exempted` on the power
  /// allowlist.
  var initialStandbyBucket: StandbyBucket { onPowerAllowlist ? .exempted : standbyBucket }
}

/// An Android app standby bucket (`UsageStatsManager.STANDBY_BUCKET_*`): how recently the
/// user used the app, which sets its JobScheduler quotas; from the most to the least
/// favoured.
public enum StandbyBucket: String, Sendable, Hashable, CaseIterable {
  /// `exempted`: the app is on the power allowlist, its battery optimizations turned off
  /// (``/BackgroundTrace/BackgroundStartExemption/batteryUnrestricted``), and never falls
  /// lower (AOSP `AppStandbyController.getAppMinBucket`: `isNonIdleWhitelisted` gives
  /// `STANDBY_BUCKET_EXEMPTED`).
  case exempted
  case active, workingSet, frequent, rare, restricted

  /// How much expedited work the app may run per 24 hours in this bucket on `release`:
  /// AOSP `QuotaController.QcConstants` `DEFAULT_EJ_LIMIT_EXEMPTED_MS` 45 minutes (60
  /// from Android 16, beside its `DEFAULT_LEGACY_*` constants),
  /// `DEFAULT_EJ_LIMIT_ACTIVE_MS` 30 minutes, `DEFAULT_EJ_LIMIT_WORKING_MS` 30 minutes
  /// (15 from Android 16, `DEFAULT_CURRENT_EJ_LIMIT_WORKING_MS`),
  /// `DEFAULT_EJ_LIMIT_FREQUENT_MS` and `DEFAULT_EJ_LIMIT_RARE_MS` 10 minutes,
  /// `DEFAULT_EJ_LIMIT_RESTRICTED_MS` 5 minutes.
  public func expeditedQuota(on release: AndroidRelease) -> Duration {
    let adjusted = release.hasAdjustedJobQuotas
    return switch self {
    case .exempted: .seconds((adjusted ? 60 : 45) * 60)
    case .active: .seconds(30 * 60)
    case .workingSet: .seconds((adjusted ? 15 : 30) * 60)
    case .frequent, .rare: .seconds(10 * 60)
    case .restricted: .seconds(5 * 60)
    }
  }

  /// How long the app's regular jobs (WorkManager's work on Android, expedited work
  /// aside) may run in each ``jobQuotaWindow(on:)`` on `release`: AOSP
  /// `QuotaController.QcConstants` `DEFAULT_ALLOWED_TIME_PER_PERIOD_*_MS`, 10 minutes in
  /// every bucket; from Android 16 20 in `exempted` and `active`
  /// (`DEFAULT_CURRENT_ALLOWED_TIME_PER_PERIOD_EXEMPTED_MS`, `_ACTIVE_MS`).
  public func jobQuota(on release: AndroidRelease) -> Duration {
    switch self {
    case .exempted, .active: .seconds((release.hasAdjustedJobQuotas ? 20 : 10) * 60)
    case .workingSet, .frequent, .rare, .restricted: .seconds(10 * 60)
    }
  }

  /// The rolling window ``jobQuota(on:)`` applies over on `release`: AOSP
  /// `DEFAULT_WINDOW_SIZE_ACTIVE_MS` and `DEFAULT_WINDOW_SIZE_EXEMPTED_MS` 10 minutes
  /// (the quota itself: "ACTIVE apps can run jobs at any time"),
  /// `DEFAULT_WINDOW_SIZE_WORKING_MS` 2 hours, `DEFAULT_WINDOW_SIZE_FREQUENT_MS` 8 hours,
  /// `DEFAULT_WINDOW_SIZE_RARE_MS` and `DEFAULT_WINDOW_SIZE_RESTRICTED_MS` 24 hours; from
  /// Android 16 `DEFAULT_LATEST_WINDOW_SIZE_EXEMPTED_MS` 40 minutes and `_ACTIVE_MS` 60
  /// (so `active` is limited too), `DEFAULT_CURRENT_WINDOW_SIZE_WORKING_MS` 4 hours and
  /// `_FREQUENT_MS` 12.
  public func jobQuotaWindow(on release: AndroidRelease) -> Duration {
    let adjusted = release.hasAdjustedJobQuotas
    return switch self {
    case .exempted: .seconds((adjusted ? 40 : 10) * 60)
    case .active: .seconds((adjusted ? 60 : 10) * 60)
    case .workingSet: .seconds((adjusted ? 4 : 2) * 3600)
    case .frequent: .seconds((adjusted ? 12 : 8) * 3600)
    case .rare, .restricted: .seconds(24 * 3600)
    }
  }

  /// ``jobQuota(on:)`` on Android 15 and earlier.
  public var jobQuota: Duration { jobQuota(on: AndroidRelease(15)) }

  /// ``jobQuotaWindow(on:)`` on Android 15 and earlier.
  public var jobQuotaWindow: Duration { jobQuotaWindow(on: AndroidRelease(15)) }

  /// On Android 9, how long after the app's last alarm went off its next one may go off
  /// in this bucket (AOSP `AlarmManagerService` for Pie, `DEFAULT_APP_STANDBY_DELAYS`: 6
  /// minutes working, 30 frequent, 2 hours rare, in
  /// `adjustDeliveryTimeBasedOnStandbyBucketLocked`; developer.android.com, "Power
  /// management restrictions", Android 9: alarms "deferred up to 6 minutes", "30
  /// minutes", "2 hours"); `nil`: not deferred. Android 10 and later use
  /// ``alarmQuota`` instead. The restricted bucket came with Android 11: here it waits
  /// as rare.
  public var alarmDelay: Duration? {
    switch self {
    case .exempted, .active: nil
    case .workingSet: .seconds(6 * 60)
    case .frequent: .seconds(30 * 60)
    case .rare, .restricted: .seconds(2 * 3600)
    }
  }

  /// How many of the app's alarms may go off per window in this bucket (AOSP
  /// `AlarmManagerService`, Android 10 and later: `DEFAULT_APP_STANDBY_QUOTAS` 720, 10,
  /// 2 and 1 per `DEFAULT_APP_STANDBY_WINDOW`, an hour, from `active` to `rare`;
  /// `DEFAULT_APP_STANDBY_RESTRICTED_QUOTA` 1 per `DEFAULT_APP_STANDBY_RESTRICTED_WINDOW`,
  /// a day); `nil`: not limited (`exempted`). Alarm clocks and allow-while-idle alarms are
  /// exempt, and every alarm while the device charges.
  public var alarmQuota: (count: Int, window: Duration)? {
    switch self {
    case .exempted: nil
    case .active: (720, .seconds(3600))
    case .workingSet: (10, .seconds(3600))
    case .frequent: (2, .seconds(3600))
    case .rare: (1, .seconds(3600))
    case .restricted: (1, .seconds(86_400))
    }
  }

  /// How many regular jobs the app may start in each ``jobQuotaWindow``: AOSP
  /// `QuotaController.QcConstants` `DEFAULT_MAX_JOB_COUNT_EXEMPTED` and
  /// `DEFAULT_MAX_JOB_COUNT_ACTIVE` 75,
  /// `DEFAULT_MAX_JOB_COUNT_WORKING` 120, `DEFAULT_MAX_JOB_COUNT_FREQUENT` 200,
  /// `DEFAULT_MAX_JOB_COUNT_RARE` 48 and `DEFAULT_MAX_JOB_COUNT_RESTRICTED` 10
  /// (`isUnderJobCountQuotaLocked`).
  public var jobCountLimit: Int {
    switch self {
    case .exempted, .active: 75
    case .workingSet: 120
    case .frequent: 200
    case .rare: 48
    case .restricted: 10
    }
  }

  /// How many timing sessions of its regular jobs the app may have in each
  /// ``jobQuotaWindow``: AOSP `DEFAULT_MAX_SESSION_COUNT_EXEMPTED` and
  /// `DEFAULT_MAX_SESSION_COUNT_ACTIVE` 75,
  /// `DEFAULT_MAX_SESSION_COUNT_WORKING` 10, `DEFAULT_MAX_SESSION_COUNT_FREQUENT` 8,
  /// `DEFAULT_MAX_SESSION_COUNT_RARE` 3 and `DEFAULT_MAX_SESSION_COUNT_RESTRICTED` 1
  /// (`isUnderSessionCountQuotaLocked`): a rare app's jobs run in at most three
  /// sessions a day.
  public var sessionCountLimit: Int {
    switch self {
    case .exempted, .active: 75
    case .workingSet: 10
    case .frequent: 8
    case .rare: 3
    case .restricted: 1
    }
  }

  /// Its name in the trace (`env.set bucket=`): `UsageStatsManager`'s, in lower case.
  public var traceName: String {
    switch self {
    case .exempted: "exempted"
    case .active: "active"
    case .workingSet: "working_set"
    case .frequent: "frequent"
    case .rare: "rare"
    case .restricted: "restricted"
    }
  }

  /// The bucket an app falls to when it has not been used for `elapsed` of device time,
  /// `screenOn` of it with the screen on: AOSP `AppStandbyController`
  /// `DEFAULT_ELAPSED_TIME_THRESHOLDS` {0, 12 h, 24 h, 48 h, 8 days} and
  /// `DEFAULT_SCREEN_TIME_THRESHOLDS` {0, 0, 1 h, 2 h, 6 h} for `THRESHOLD_BUCKETS`
  /// {active, working_set, frequent, rare, restricted}; the lowest whose two
  /// thresholds have both passed (`AppIdleHistory.getThresholdIndex`). Restricted
  /// after 8 days from Android 13, 45 days on 12 and 12L, never before 12
  /// (``restrictedAfter(on:)``).
  public static func afterDisuse(elapsed: Duration, screenOn: Duration, on release: AndroidRelease) -> StandbyBucket {
    disuseThresholds(on: release).first { elapsed >= $0.elapsed && screenOn >= $0.screenOn }?.bucket ?? .active
  }

  /// The thresholds of ``afterDisuse(elapsed:screenOn:on:)``, the lowest bucket first.
  static func disuseThresholds(on release: AndroidRelease) -> [(
    bucket: StandbyBucket, elapsed: Duration, screenOn: Duration
  )] {
    let hour = 3600
    var thresholds: [(bucket: StandbyBucket, elapsed: Duration, screenOn: Duration)] = [
      (.rare, .seconds(48 * hour), .seconds(2 * hour)), (.frequent, .seconds(24 * hour), .seconds(hour)),
      (.workingSet, .seconds(12 * hour), .zero),
    ]
    if let restricted = restrictedAfter(on: release) {
      thresholds.insert((.restricted, restricted, .seconds(6 * hour)), at: 0)
    }
    return thresholds
  }

  /// How long without use moves an app to `restricted`: 8 days from Android 13 ("Android
  /// 13 reduces the number of days to 8", developer.android.com, "App Standby Buckets"),
  /// 45 days on Android 12 and 12L, and never before 12 (`STANDBY_BUCKET_RESTRICTED`:
  /// "this bucket is not enabled in Build.VERSION_CODES#R").
  public static func restrictedAfter(on release: AndroidRelease) -> Duration? {
    switch release.major {
    case ..<12: nil
    case 12: .seconds(45 * 86_400)
    default: .seconds(8 * 86_400)
    }
  }

  /// Whether the bucket's regular jobs run under a quota at all on `release`: not when
  /// its window is no longer than its quota (`QuotaController.getTimeUntilQuotaConsumedLocked`),
  /// the `active` and `exempted` buckets before Android 16.
  func limitsJobs(on release: AndroidRelease) -> Bool { jobQuotaWindow(on: release) > jobQuota(on: release) }

  /// JobScheduler's heartbeat on Android 9 (`DEFAULT_STANDBY_HEARTBEAT_TIME`, 11
  /// minutes): the unit of ``standbyBeats``.
  public static let standbyHeartbeat: Duration = .seconds(11 * 60)

  /// On Android 9 (``/BackgroundTrace/AndroidRelease/defersJobsByStandbyHeartbeats``),
  /// how many heartbeats after the app's last job run its next job waits in this bucket
  /// (AOSP `JobSchedulerService` `DEFAULT_STANDBY_WORKING_BEATS` 11, about 2 hours,
  /// `_FREQUENT_BEATS` 43, about 8, `_RARE_BEATS` 130, about 24; developer.android.com,
  /// "Power management restrictions": jobs "deferred up to 2 hours", "8 hours", "24
  /// hours"). The restricted bucket came with Android 11: here it waits as rare.
  public var standbyBeats: Int {
    switch self {
    case .exempted, .active: 0
    case .workingSet: 11
    case .frequent: 43
    case .rare, .restricted: 130
    }
  }

  /// What lets a restricted app's regular job run outside its quota: AOSP `JobStatus`
  /// adds `DYNAMIC_RESTRICTED_CONSTRAINTS` (battery not low, charging, idle, and
  /// connectivity for a job that needs a network) to every job of an app in this
  /// bucket, and a job is ready within quota or with all of them met (`isReady`); out of
  /// quota its network must be unmetered (`ConnectivityController.isStrictSatisfied`).
  /// Empty for the other buckets.
  public func constraintsOutsideQuota(needsNetwork: Bool) -> Set<WorkConstraint> {
    guard self == .restricted else { return [] }
    return needsNetwork
      ? [.batteryNotLow, .charging, .deviceIdle, .unmetered] : [.batteryNotLow, .charging, .deviceIdle]
  }
}

/// The runtime permission an app's `health` foreground service relies on, of those
/// `ForegroundServiceTypePolicy` accepts for the type (``SimulationConfiguration/healthServicePermission``).
public enum HealthServicePermission: Sendable, Hashable, CaseIterable {
  /// `BODY_SENSORS`, held only while the app is in use: a health service created from the
  /// background is refused on Android 14+ (`while-in-use`).
  case bodySensors
  /// `BODY_SENSORS` with `BODY_SENSORS_BACKGROUND`, held in the background too.
  case bodySensorsInBackground
  /// `ACTIVITY_RECOGNITION` or `HIGH_SAMPLING_RATE_SENSORS`, neither a while-in-use one.
  case other

  /// Whether the service's permission is held only while the app is in use.
  public var isWhileInUse: Bool { self == .bodySensors }
}
