/// Why a request that is due has not started: one word of the `reasons=` of a
/// `work.wait` or `sched.wait` event.
///
/// A request is due once its own dates allow it to run: an iOS request's earliest
/// begin date, a work's initial delay, backoff or period have passed. Those dates are
/// in the trace already (`sched.submit earliest=`, `work.enqueue`, `work.result
/// outcome=retry`), so they are not reasons. Each reason is declared once, here, with
/// what it means; the simulation records the reasons in force whenever a due request
/// waits and again when they change, and
/// `bgtrace explain --why` reads them back as sentences (``sentence``). The Android
/// reasons are the platform's own: `JobScheduler.getPendingJobReasons` (Android 16,
/// `JobScheduler.java` `PENDING_JOB_REASON_*`) names each, and the doc comment of
/// each case says which. The words' order is their order in `reasons=`: a new reason
/// goes last.
public enum WaitReason: String, Sendable, Hashable, CaseIterable {
  /// The request needs a network connection and there is none, or none of the type
  /// it requires (WorkManager `setRequiredNetworkType`, JobScheduler
  /// `PENDING_JOB_REASON_CONSTRAINT_CONNECTIVITY`; iOS `requiresNetworkConnectivity`).
  case network
  /// The request needs the device on external power and it is not (WorkManager
  /// `setRequiresCharging`, JobScheduler `PENDING_JOB_REASON_CONSTRAINT_CHARGING`;
  /// iOS `requiresExternalPower`).
  case power
  /// iOS: a processing task launches only while the device is idle (on its charger,
  /// not in use), whatever the request requires (the simulation's `LaunchPolicy`).
  case idle
  /// iOS: the app is in the foreground; the system launches scheduled tasks only in the
  /// background.
  case foreground
  /// The user stopped the app, and nothing of it runs until they open it again. iOS:
  /// they closed it from the app switcher, and it gets no launches. Android: they
  /// force-stopped it, JobScheduler dropped its jobs and no broadcast starts it
  /// (JobScheduler `PENDING_JOB_REASON_USER`).
  case quit
  /// iOS: the earliest date has passed, and the system has not chosen to launch it yet
  /// (launches come minutes to hours after the earliest date).
  case scheduler
  /// iOS: every continued-processing slot is taken; a queued request waits for one.
  case slot
  /// Android: the app has spent the job quota of its standby bucket (AOSP
  /// `QuotaController`: 10 minutes per rolling window, 24 hours in the rare bucket;
  /// JobScheduler `PENDING_JOB_REASON_QUOTA`); on Android 9, its bucket defers its next
  /// job a number of heartbeats after its last (`STANDBY_BEATS`).
  case quota
  /// Android: the device is in light or deep Doze, and regular jobs wait for its next
  /// maintenance window (AOSP `DeviceIdleJobsController`; JobScheduler
  /// `PENDING_JOB_REASON_DEVICE_STATE`).
  case doze
  /// iOS: the work is in the app's own queue, and the app is not running (suspended or
  /// not launched), so nothing can start it.
  case notRunning = "not-running"
  /// Android: the request needs a battery that is not low, and it is low (WorkManager
  /// `setRequiresBatteryNotLow`, JobScheduler
  /// `PENDING_JOB_REASON_CONSTRAINT_BATTERY_NOT_LOW`).
  case battery
  /// Android: the request needs storage that is not low, and it is low (WorkManager
  /// `setRequiresStorageNotLow`, JobScheduler
  /// `PENDING_JOB_REASON_CONSTRAINT_STORAGE_NOT_LOW`).
  case storage
  /// Android: the request needs an idle device, and it is in use or has not been idle
  /// long enough (WorkManager `setRequiresDeviceIdle`, JobScheduler
  /// `PENDING_JOB_REASON_CONSTRAINT_DEVICE_IDLE`).
  case deviceIdle = "device-idle"
  /// iOS: a processing task, and the user has not used the app in the past week
  /// (`BGTaskRequest.h`, `BGProcessingTaskRequest`: the system fulfils the request
  /// "as long as the user has used your app within the past week").
  case unused
  /// Android: the device rebooted and the app's process has not run since, so
  /// WorkManager has not scheduled its work again: its JobScheduler jobs are not
  /// persisted (androidx `SystemJobInfoConverter`: `setPersisted(false)`, "we reschedule
  /// these jobs on BOOT_COMPLETED"), and `ForceStopRunnable` reschedules them when the
  /// process starts (`RescheduleReceiver` on `BOOT_COMPLETED`, or the user opening the
  /// app).
  case rebooted
  /// Android: the app is in the restricted standby bucket, out of its quota, and the
  /// device does not meet the terms its jobs run on outside it that the job did not
  /// ask for itself: battery not low, charging, idle (AOSP `JobStatus`
  /// `DYNAMIC_RESTRICTED_CONSTRAINTS`; `getPendingJobReasons` gives JobScheduler
  /// `PENDING_JOB_REASON_APP_STANDBY` for them, and a job's own constraint its own
  /// reason, and the unmetered network it needs there `network`).
  case standby
  /// Android: the user restricted the app's background use (its battery usage set to
  /// "Restricted", `ActivityManager.isBackgroundRestricted`), and the app is neither on
  /// top nor running a foreground service, nor on the temporary allowlist (AOSP
  /// `AppStateTrackerImpl.areJobsRestricted`; JobScheduler
  /// `PENDING_JOB_REASON_BACKGROUND_RESTRICTION`). Expedited work waits too.
  case backgroundRestriction = "background-restriction"

  /// What the reason says in `bgtrace explain --why`: a clause that completes "it
  /// waited because …".
  public var sentence: String {
    switch self {
    case .network: "it needs a network connection of the type it asks for, and there was none"
    case .power: "it needs external power and the device was not charging"
    case .idle: "a processing task launches only while the device is idle on its charger"
    case .foreground: "the app was in the foreground, and scheduled tasks launch only in the background"
    case .quit:
      "the user had stopped the app (closed it from the app switcher on iOS, force-stopped it on Android), "
        + "and nothing of it runs until they open it again"
    case .scheduler: "the system had not chosen to launch it yet (it launches minutes to hours after the earliest date)"
    case .slot: "every continued-processing slot was taken"
    case .quota: "the app had spent the job quota of its standby bucket"
    case .doze: "the device was in Doze, and jobs wait for its next maintenance window"
    case .notRunning: "the app was not running, and the work is in its own in-process queue"
    case .battery: "it needs a battery that is not low, and the battery was low"
    case .storage: "it needs storage that is not low, and storage was low"
    case .deviceIdle: "it needs an idle device, and the device was in use or not idle long enough"
    case .unused: "the user had not used the app in the past week, and processing tasks launch only for apps used in it"
    case .rebooted:
      "the device had rebooted, and WorkManager schedules work again only once the app's process runs (BOOT_COMPLETED)"
    case .standby:
      "the app was in the restricted standby bucket, whose jobs run outside their quota only with the battery not low, "
        + "the device charging and idle"
    case .backgroundRestriction:
      "the user had restricted the app's background use, and its jobs run only while it is on top or runs a "
        + "foreground service"
    }
  }

  /// The reasons as docs/events.md lists them ("Why a request waits"): a Markdown
  /// table of each word and what `bgtrace explain --why` says of it, in declaration
  /// order. `swift test` checks that the page holds exactly this table.
  package static var documentationTable: String {
    var table = "| reason | it waited because … |\n|---|---|\n"
    for reason in allCases { table += "| `\(reason.rawValue)` | \(reason.sentence) |\n" }
    return table
  }

  /// `reasons` as `reasons=` writes them: the words in declaration order, joined by `+` (`network+power`).
  public static func field(_ reasons: Set<WaitReason>) -> String {
    allCases.filter(reasons.contains).map(\.rawValue).joined(separator: "+")
  }

  /// The reasons a `reasons=` value names, or `nil` when it is empty or names a word
  /// that is not a reason.
  public static func parse(_ field: String) -> Set<WaitReason>? {
    guard !field.isEmpty else { return nil }
    var reasons = Set<WaitReason>()
    for word in field.split(separator: "+", omittingEmptySubsequences: false) {
      guard let reason = WaitReason(rawValue: String(word)) else { return nil }
      reasons.insert(reason)
    }
    return reasons
  }
}

/// The request a `wait` event is about: work the app enqueued (`work=`) or a task
/// request it submitted to the scheduler (`ident=`).
public enum WaitingRequest: Sendable, Hashable {
  /// The unique work `work=` names.
  case work(String)
  /// The scheduler request for the identifier `ident=` names.
  case taskRequest(String)

  /// The work name or the identifier.
  public var name: String {
    switch self {
    case .work(let name), .taskRequest(let name): name
    }
  }
}
