/// One thing that happened in an app's background work, at a point in trace time.
///
/// An event is either a *system decision* (the OS or the environment decided it;
/// replay injects these) or an *app action* (the code under test did it; replay
/// compares these). See ``EventTag/side``.
public struct TraceEvent: Sendable, Hashable {
  /// When the event happened, since the trace started.
  public var time: TraceTime
  /// What happened, with its fields.
  public var kind: Kind

  /// Creates an event.
  public init(time: TraceTime, _ kind: Kind) {
    self.time = time
    self.kind = kind
  }
}

extension TraceEvent {
  /// What happened, with its fields: one case per event kind of the trace vocabulary.
  ///
  /// Optional fields are `nil` when the trace leaves them out, so that a field given
  /// explicitly (even at its default value) survives a round trip.
  public enum Kind: Sendable, Hashable {
    /// `app.launch`: a new process started.
    case appLaunch
    /// `app.state to=…`: the app moved to another state.
    case appState(to: AppLifecycleState)
    /// `app.terminate reason=…`: the process ended.
    case appTerminate(reason: String?)
    /// `task.begin id=… name=…`: `beginBackgroundTask` returned `id` (0 is `.invalid`).
    case taskBegin(id: Int, name: String?)
    /// `task.end id=…`: the app called `endBackgroundTask`.
    case taskEnd(id: Int)
    /// `task.expire id=…`: the system ran the task's expiration handler.
    case taskExpire(id: Int)
    /// `sched.register ident=… ok=…`: the app registered a launch handler.
    case schedRegister(identifier: String, ok: Bool?)
    /// `sched.submit …`: the app submitted a scheduler request.
    case schedSubmit(SchedulerSubmission)
    /// `sched.reject ident=… error=…`: the system refused a submission.
    case schedReject(identifier: String, error: SchedulerRejection)
    /// `sched.cancel ident=…` or `sched.cancel all=true`.
    case schedCancel(SchedulerCancelTarget)
    /// `sched.launch ident=… run=…`: the system launched a scheduled task.
    case schedLaunch(identifier: String, run: Int)
    /// `sched.expire run=… reason=…`: the system ran the launched task's expiration
    /// handler; `reason` says why when it was not the task's time running out.
    case schedExpire(run: Int, reason: ExpirationReason? = nil)
    /// `sched.complete run=… success=…`: the app called `setTaskCompleted(success:)`.
    case schedComplete(run: Int, success: Bool)
    /// `work.enqueue …`: the app enqueued work.
    indirect case workEnqueue(WorkEnqueue)
    /// `work.start work=… attempt=…`: the system started a worker run.
    case workStart(work: String, attempt: Int)
    /// `work.result work=… attempt=… outcome=… tags=…`: the worker returned. `tags`: the
    /// work's tags as the device log's line for the result prints them (``WorkTags``);
    /// `nil` when not known. Out of line (`indirect`), as the optional field would make
    /// every event in memory larger.
    indirect case workResult(work: String, attempt: Int, outcome: WorkOutcome, tags: String? = nil)
    /// `work.stop work=… attempt=… reason=… tags=…`: the system stopped a running worker.
    /// `tags` as on ``workResult(work:attempt:outcome:tags:)``.
    indirect case workStop(work: String, attempt: Int, reason: String, tags: String? = nil)
    /// `work.cancel work=…`: the app cancelled work.
    case workCancel(work: String)
    /// `env.set key=value …`: the environment changed (network, charging, …).
    case envSet([EnvironmentSetting])
    /// `input key=… value=…`: a recorded nondeterministic input.
    case input(key: String, value: String)
    /// `mark label=…`: a user annotation.
    case mark(label: String)
    /// `net.create session=…`: the app created a background `URLSession` with the
    /// configuration identifier `session` in this process.
    case netCreate(session: String)
    /// `net.submit session=… task=… kind=… discretionary=…`: the app resumed transfer
    /// task `task` (unique within its session) in the background session `session`.
    case netSubmit(session: String, task: Int, kind: TransferKind, discretionary: Bool?)
    /// `net.finish session=… task=… outcome=…`: the system ended the transfer; its
    /// `urlSession(_:task:didCompleteWithError:)` is delivered when the app next holds
    /// the session.
    case netFinish(session: String, task: Int, outcome: TransferOutcome)
    /// `net.wake session=…`: the system called
    /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)` for the
    /// session, waking or launching the app in the background.
    case netWake(session: String)
    /// `net.events-done session=…`: the system called
    /// `urlSessionDidFinishEvents(forBackgroundURLSession:)` for the session.
    case netEventsDone(session: String)
    /// `net.handler session=…`: the app called the completion handler the wake gave it.
    case netHandler(session: String)
    /// `sched.progress run=… completed=… total=…`: the app set the progress of launched
    /// run `run` (a continued-processing task's `progress`) to `completed` of `total`
    /// units.
    case schedProgress(run: Int, completed: Int, total: Int)
    /// `fgs.start service=…`: the app started the service `service` to run in the
    /// foreground (`Context.startForegroundService`); it must call `startForeground` in
    /// time.
    case fgsStart(service: String)
    /// `fgs.foreground service=… type=…`: the service called `Service.startForeground`
    /// with the foreground service type `type` (`nil`: none given).
    case fgsForeground(service: String, type: ForegroundServiceType?)
    /// `fgs.stop service=…`: the app stopped the service (`stopSelf`, `stopService`, or
    /// `stopForeground(STOP_FOREGROUND_REMOVE)`).
    case fgsStop(service: String)
    /// `fgs.refuse service=… reason=…`: the system refused the service's start or its
    /// `startForeground`: the call threw.
    case fgsRefuse(service: String, reason: ForegroundServiceRefusal)
    /// `fgs.timeout service=… type=…`: the system called the service's
    /// `Service.onTimeout`: its type's time limit is spent, and it must stop.
    case fgsTimeout(service: String, type: ForegroundServiceType)
    /// `work.foreground work=… attempt=…`: the running attempt `attempt` of `work` called
    /// `setForeground`: it runs as a foreground service.
    case workForeground(work: String, attempt: Int)
    /// `work.refuse work=… attempt=… reason=…`: the system refused the `setForeground` of
    /// the running attempt `attempt` of `work` (the foreground service WorkManager
    /// starts for it was refused): it stays a job, with its ten minutes.
    case workRefuse(work: String, attempt: Int, reason: ForegroundServiceRefusal)
    /// `work.quota work=… policy=…`: the expedited request for `work` came with the
    /// app's expedited quota spent, and the system applied its out-of-quota `policy`:
    /// `drop` dropped it (it never runs), `runAsRegular` enqueued it as regular work.
    case workQuota(work: String, policy: ExpeditedPolicy)
    /// `app.allowlist reason=… duration=…`: the system put the app on its temporary
    /// allowlist for `duration`, for `reason`: until then it may start foreground
    /// services from the background (Android 12+; AOSP
    /// `TEMPORARY_ALLOW_LIST_TYPE_FOREGROUND_SERVICE_ALLOWED`).
    case appAllowlist(reason: TemporaryAllowlistReason, duration: TraceInterval)
    /// `file.lock path=… shared=…`: the app took a lock on a file (an SQLite or Core
    /// Data write); `shared`: the file is in a container shared with other processes
    /// (an app group). iOS terminates an app suspended while it holds one (`0xdead10cc`).
    case fileLock(path: String, shared: Bool)
    /// `file.unlock path=…`: the app released its lock on a file.
    case fileUnlock(path: String)
    /// `work.wait work=… reasons=…`: `work` waits to start, for `reasons` (never
    /// empty). The system writes it when the work starts waiting and again when its
    /// reasons change; its start or cancel ends the wait.
    case workWait(work: String, reasons: Set<WaitReason>)
    /// `sched.wait ident=… reasons=…`: the submitted request for `identifier` waits to
    /// launch, for `reasons` (never empty), written as ``workWait(work:reasons:)`` is;
    /// its launch or cancel ends the wait.
    case schedWait(identifier: String, reasons: Set<WaitReason>)
    /// `work.after work=… prerequisite=…`: `work`, just enqueued, runs only once
    /// `prerequisite` has succeeded (androidx `WorkContinuation.then`, `combine`).
    case workAfter(work: String, prerequisite: String)
    /// `alarm.set alarm=… at=… type=…`: the app set the alarm `alarm` to go off at `at`
    /// (Android `AlarmManager`, the call `type` names), replacing one of that name:
    /// `window`, the window a `setWindow` alarm asked for; `interval`, the interval a
    /// repeating alarm asked for. Out of line (`indirect`), as its optional fields would
    /// make every event larger.
    indirect case alarmSet(
      alarm: String, at: TraceTime, type: AlarmType, window: TraceInterval? = nil, interval: TraceInterval? = nil)
    /// `alarm.fire alarm=…`: the system delivered the alarm; the app's receiver runs.
    case alarmFire(alarm: String)
    /// `alarm.cancel alarm=…`: the app cancelled the alarm.
    case alarmCancel(alarm: String)
  }
}

/// A foreground service's type (`android:foregroundServiceType`,
/// `ServiceInfo.FOREGROUND_SERVICE_TYPE_*`), as `startForeground` is given it. The
/// words' order is their binary code: a new type goes last.
public enum ForegroundServiceType: String, Sendable, Hashable, CaseIterable {
  /// `dataSync`: uploads, downloads, backups (Android 15: 6 h per 24 h);
  /// `mediaProcessing`: transcoding (Android 15: 6 h per 24 h); `shortService`: a short
  /// critical task (3 minutes); the others as Android names them.
  case dataSync, mediaProcessing, shortService, mediaPlayback, location, connectedDevice, camera, microphone,
    health, phoneCall, remoteMessaging, mediaProjection, specialUse, systemExempted

  /// The manifest permission a service of this type needs from Android 14 (apps
  /// targeting 34, compat change `FGS_TYPE_PERMISSION_CHANGE_ID`; developer.android.com,
  /// "Foreground service types"; AOSP `ForegroundServiceTypePolicy`):
  /// `android.permission.FOREGROUND_SERVICE_` and the type's name in upper snake case;
  /// none for `shortService`.
  public var permission: String? {
    guard self != .shortService else { return nil }
    var name = ""
    for character in rawValue {
      if character.isUppercase { name += "_" }
      name += character.uppercased()
    }
    return "android.permission.FOREGROUND_SERVICE_" + name
  }

  /// Whether the type's runtime permission may be a *while-in-use* one, held only while
  /// the app is in the foreground: `camera` (`CAMERA`), `microphone` (`RECORD_AUDIO`),
  /// `location` (`ACCESS_FINE_LOCATION` or `ACCESS_COARSE_LOCATION`, unless the app also
  /// holds `ACCESS_BACKGROUND_LOCATION`) and `health` when the service relies on a body
  /// sensor (`BODY_SENSORS`, unless the app also holds `BODY_SENSORS_BACKGROUND`; a
  /// health service may rely on `ACTIVITY_RECOGNITION` or `HIGH_SAMPLING_RATE_SENSORS`
  /// instead, which are not); developer.android.com, "Restrictions on starting foreground
  /// services that need while-in-use permissions" ("body sensor, camera, microphone, or
  /// location permissions").
  public var needsWhileInUsePermission: Bool { !whileInUsePermissions.isEmpty }

  /// The while-in-use permissions of which a service of this type needs one
  /// (``needsWhileInUsePermission``), as ForegroundServiceTypePolicy lists them (its
  /// `FGS_TYPE_POLICY_HEALTH` lists `BODY_SENSORS` among `ACTIVITY_RECOGNITION` and
  /// `HIGH_SAMPLING_RATE_SENSORS`, Android 14 and 15); none for the other types.
  public var whileInUsePermissions: [String] {
    switch self {
    case .camera: ["android.permission.CAMERA"]
    case .microphone: ["android.permission.RECORD_AUDIO"]
    case .location: ["android.permission.ACCESS_COARSE_LOCATION", "android.permission.ACCESS_FINE_LOCATION"]
    case .health: ["android.permission.BODY_SENSORS"]
    case .dataSync, .mediaProcessing, .shortService, .mediaPlayback, .connectedDevice, .phoneCall, .remoteMessaging,
      .mediaProjection, .specialUse, .systemExempted:
      []
    }
  }

  /// Whether a service of this type may be brought to the foreground when the start was
  /// allowed by a `BOOT_COMPLETED` broadcast, on a release that restricts it
  /// (``AndroidRelease/restrictsBootCompletedServiceTypes``): AOSP
  /// `ActiveServices.shouldAllowBootCompletedStart` allows `location`,
  /// `connectedDevice`, `remoteMessaging`, `health`, `systemExempted` and `specialUse`
  /// only (developer.android.com names `dataSync`, `camera`, `mediaPlayback`,
  /// `phoneCall`, `mediaProjection` and `microphone` as barred; the code bars
  /// `shortService` and `mediaProcessing` too).
  public var mayStartFromBootCompleted: Bool {
    switch self {
    case .location, .connectedDevice, .remoteMessaging, .health, .systemExempted, .specialUse: true
    case .dataSync, .mediaProcessing, .shortService, .mediaPlayback, .camera, .microphone, .phoneCall,
      .mediaProjection:
      false
    }
  }
}

/// Why the system refused a foreground service. The words' order is their binary code.
public enum ForegroundServiceRefusal: String, Sendable, Hashable, CaseIterable {
  /// `background`: started while the app was in the background, outside the exemptions
  /// (Android 12+, `ForegroundServiceStartNotAllowedException`).
  case background
  /// `no-type`: `startForeground` without a type where the release requires one
  /// (Android 14+, `MissingForegroundServiceTypeException`).
  case noType = "no-type"
  /// `exhausted`: the type's time limit is already spent in this 24 hours
  /// ("Time limit already exhausted for foreground service type …", Android 15+).
  case exhausted
  /// `not-running` (`work.refuse` only): the worker called `setForeground` after its
  /// attempt ended (it returned, was stopped, or its work was replaced or cancelled);
  /// androidx `WorkForegroundUpdater` throws `IllegalStateException`.
  case notRunning = "not-running"
  /// `boot-completed`: `startForeground` with a type barred from a start that a
  /// `BOOT_COMPLETED` broadcast allowed (Android 15+, an app targeting 35:
  /// `ForegroundServiceStartNotAllowedException`, "FGS type … not allowed to start from
  /// BOOT_COMPLETED!"; ``ForegroundServiceType/mayStartFromBootCompleted``).
  case bootCompleted = "boot-completed"
  /// `permission`: `startForeground` with a type whose manifest permission
  /// (``ForegroundServiceType/permission``) the app does not declare (Android 14+,
  /// `SecurityException`: "Starting FGS with type … requires permissions: …").
  case permission
  /// `while-in-use`: `startForeground` with a `camera`, `microphone` or `location` type
  /// for a service created from the background, where the app does not hold the type's
  /// while-in-use permission (Android 14+, `SecurityException`;
  /// ``ForegroundServiceType/needsWhileInUsePermission``).
  case whileInUse = "while-in-use"

  /// Whether a foreground service's start can be refused for this reason (all but
  /// `not-running`, which is about a worker's attempt).
  public var appliesToServices: Bool { self != .notRunning }

  /// Whether `setForeground` (or `startForeground`) throws this refusal to the caller:
  /// `background` and `not-running` do; `no-type` crashes the app instead, and
  /// `exhausted` is caught and logged by WorkManager's `SystemForegroundService`.
  public var throwsToCaller: Bool {
    switch self {
    case .background, .notRunning, .bootCompleted, .permission, .whileInUse: true
    case .noType, .exhausted: false
    }
  }
}

/// What WorkManager does with an expedited request once the app's expedited quota is
/// spent (`OutOfQuotaPolicy`).
public enum ExpeditedPolicy: String, Sendable, Hashable, CaseIterable {
  /// `run-as-regular`: `RUN_AS_NON_EXPEDITED_WORK_REQUEST`, run it as ordinary work.
  case runAsRegular = "run-as-regular"
  /// `drop`: `DROP_WORK_REQUEST`, drop the request.
  case drop
}

/// What a background transfer moves: `upload` (`uploadTask(with:fromFile:)`) or
/// `download` (`downloadTask(with:)`).
public enum TransferKind: String, Sendable, Hashable, CaseIterable {
  case upload, download
}

/// How a background transfer ended: `success` (its task completed with no error),
/// `failed` (with an error), `cancelled` (the app or the user cancelled it; a force-quit
/// cancels every transfer of the app).
public enum TransferOutcome: String, Sendable, Hashable, CaseIterable {
  case success, failed, cancelled
}

/// Whether an event is decided by the system or done by the app under test.
public enum EventSide: String, Sendable, Hashable, CaseIterable {
  /// The OS or the environment decided it: replay injects these.
  case system
  /// The code under test did it: replay compares these.
  case app
  /// Neither (`mark`): an annotation.
  case neither
}

/// The state an app moves to in `app.state`.
public enum AppLifecycleState: String, Sendable, Hashable, CaseIterable {
  /// `active`: in the foreground, receiving events; `inactive`: in the foreground, not
  /// receiving events (on the way in or out); `background`: running in the background;
  /// `suspended`: in memory, running no code.
  case active, inactive, background, suspended
}

/// The kind of a `BGTaskScheduler` request.
public enum SchedulerRequestType: String, Sendable, Hashable, CaseIterable {
  /// A `BGAppRefreshTaskRequest`.
  case refresh
  /// A `BGProcessingTaskRequest`.
  case processing
  /// A `BGContinuedProcessingTaskRequest` (iOS 26): work the user started in the
  /// foreground, which may go on in the background with the system's progress UI.
  case continued
}

/// What the scheduler does with a continued-processing request it cannot run at once
/// (`BGContinuedProcessingTaskRequest.SubmissionStrategy`).
public enum ContinuedProcessingStrategy: String, Sendable, Hashable, CaseIterable {
  /// `fail`: the submission fails with `immediateRunIneligible`; `queue` (the default):
  /// the request waits at the back of a queue and runs as soon as it can.
  case fail, queue
}

/// A system resource a continued-processing request needs beyond the default
/// (`BGContinuedProcessingTaskRequest.Resources`); no value means the default.
public enum ContinuedProcessingResource: String, Sendable, Hashable, CaseIterable {
  /// `gpu`: background GPU use, which needs the Background GPU Access entitlement and
  /// a device whose `BGTaskScheduler.supportedResources` contains `.gpu`.
  case gpu
}

/// Why the scheduler refused a submission (`BGTaskScheduler.Error.Code`).
public enum SchedulerRejection: String, Sendable, Hashable, CaseIterable {
  /// `unavailable` (1): background refresh is off, or the app runs in the Simulator;
  /// `tooManyPendingTaskRequests` (2): 1 refresh or 10 processing requests are already
  /// pending; `notPermitted` (3): the background mode is missing or the identifier is not
  /// permitted; `immediateRunIneligible` (4, iOS 26): a continued-processing request
  /// could not start right away.
  case unavailable, tooManyPendingTaskRequests, notPermitted, immediateRunIneligible
}

/// Why the system expired a launched task, when the trace knows it was not the task's
/// time running out (`sched.expire reason=`; no reason: its time ran out, or the system's
/// conditions changed).
public enum ExpirationReason: String, Sendable, Hashable, CaseIterable {
  /// `stalled`: a continued-processing task reported no progress for the stall window
  /// ("Tasks that appear stalled may be forcibly expired", BGTask.h); `user`: the user
  /// cancelled a continued-processing task from its Live Activity, and iOS ran its
  /// expiration handler.
  case stalled, user
}

/// What `sched.cancel` cancels: one identifier's pending request, or all of them.
public enum SchedulerCancelTarget: Sendable, Hashable {
  /// `cancel(taskRequestWithIdentifier:)`.
  case identifier(String)
  /// `cancelAllTaskRequests()`.
  case all
}

/// What a worker returned.
public enum WorkOutcome: String, Sendable, Hashable, CaseIterable {
  /// `success`: the work is done; `failure`: it failed, and one-time work does not run
  /// again; `retry`: it runs again after the backoff.
  case success, failure, retry
}

/// How WorkManager spaces retries.
public enum BackoffPolicy: String, Sendable, Hashable, CaseIterable {
  /// `exponential`: a retry waits `delay × 2^(attempt − 1)`; `linear`: it waits
  /// `delay × attempt`, where `attempt` is the run about to happen; both cap at 5 h.
  case exponential, linear
}

/// What an enqueue does when unique work of the same name exists.
public enum ExistingWorkPolicy: String, Sendable, Hashable, CaseIterable {
  /// For unfinished work with the same id: `replace` stops it and starts the new request
  /// afresh; `keep` ignores the new request; `append` runs the new request after it, and
  /// not at all if it fails; `appendOrReplace` runs the new request after it either way;
  /// `update` (androidx `ExistingPeriodicWorkPolicy.UPDATE`, and `updateWork`) gives it
  /// the new request's settings, keeping its id, attempts and enqueue time, and a running
  /// attempt runs on.
  case replace, keep, append, appendOrReplace, update
}

/// The fields of a `sched.submit` event.
public struct SchedulerSubmission: Sendable, Hashable {
  /// The task identifier (`BGTaskSchedulerPermittedIdentifiers` entry).
  public var identifier: String
  /// `earliestBeginDate`, as trace time; `nil` means no delay.
  public var earliest: TraceTime?
  /// Refresh, processing or continued processing.
  public var type: SchedulerRequestType
  /// `requiresNetworkConnectivity`, when given.
  public var network: Bool?
  /// `requiresExternalPower`, when given.
  public var power: Bool?
  /// The continued-processing fields, out of line: most events are not continued
  /// submissions, and inline these four would make every ``TraceEvent/Kind`` (and so
  /// every event in memory) nearly twice its size.
  private var continued: ContinuedFields?

  /// A continued-processing request's `title`, which the system's progress UI shows.
  public var title: String? {
    get { continued?.title }
    set { update { $0.title = newValue } }
  }
  /// A continued-processing request's `subtitle`.
  public var subtitle: String? {
    get { continued?.subtitle }
    set { update { $0.subtitle = newValue } }
  }
  /// A continued-processing request's `strategy`, when recorded (`queue` by default).
  public var strategy: ContinuedProcessingStrategy? {
    get { continued?.strategy }
    set { update { $0.strategy = newValue } }
  }
  /// A continued-processing request's `requiredResources` beyond the default.
  public var resources: ContinuedProcessingResource? {
    get { continued?.resources }
    set { update { $0.resources = newValue } }
  }

  /// The four continued-processing fields, immutable once boxed (a change boxes anew).
  private final class ContinuedFields: Sendable, Hashable {
    let title: String?
    let subtitle: String?
    let strategy: ContinuedProcessingStrategy?
    let resources: ContinuedProcessingResource?

    init(_ values: Values) {
      title = values.title
      subtitle = values.subtitle
      strategy = values.strategy
      resources = values.resources
    }

    var values: Values { Values(title: title, subtitle: subtitle, strategy: strategy, resources: resources) }

    static func == (lhs: ContinuedFields, rhs: ContinuedFields) -> Bool { lhs.values == rhs.values }
    func hash(into hasher: inout Hasher) { hasher.combine(values) }

    struct Values: Hashable {
      var title: String?
      var subtitle: String?
      var strategy: ContinuedProcessingStrategy?
      var resources: ContinuedProcessingResource?

      var isEmpty: Bool { title == nil && subtitle == nil && strategy == nil && resources == nil }
    }
  }

  private mutating func update(_ change: (inout ContinuedFields.Values) -> Void) {
    var values = continued?.values ?? ContinuedFields.Values()
    change(&values)
    continued = values.isEmpty ? nil : ContinuedFields(values)
  }

  /// Creates a submission. `title`, `subtitle`, `strategy` and `resources` belong to
  /// continued-processing requests only (the text and binary forms refuse them on
  /// another type).
  public init(
    identifier: String, type: SchedulerRequestType, earliest: TraceTime? = nil,
    network: Bool? = nil, power: Bool? = nil, title: String? = nil, subtitle: String? = nil,
    strategy: ContinuedProcessingStrategy? = nil, resources: ContinuedProcessingResource? = nil
  ) {
    self.identifier = identifier
    self.type = type
    self.earliest = earliest
    self.network = network
    self.power = power
    let values = ContinuedFields.Values(title: title, subtitle: subtitle, strategy: strategy, resources: resources)
    self.continued = values.isEmpty ? nil : ContinuedFields(values)
  }

  /// Whether a field only a continued-processing request has is set.
  var hasContinuedFields: Bool { continued != nil }
}

/// The fields of a `work.enqueue` event.
public struct WorkEnqueue: Sendable, Hashable {
  /// The work's identifier word.
  public var work: String
  /// The worker's name, when given.
  public var name: String?
  /// The backoff policy; `nil` means the default (exponential).
  public var backoff: BackoffPolicy?
  /// The backoff delay (`delay=`); `nil` means the default (30 s).
  public var backoffDelay: TraceInterval?
  /// The retry limit (`limit=`): the most retries the app allows (a run whose
  /// `runAttemptCount < retryLimit` may retry).
  public var retryLimit: Int?
  /// The repeat interval of periodic work.
  public var period: TraceInterval?
  /// Periodic work's flex interval: the first period runs in its last `flex`.
  public var flex: TraceInterval?
  /// The unique-work policy, when enqueued as unique work.
  public var policy: ExistingWorkPolicy?
  /// For an expedited request (`setExpedited`), what to do once the expedited quota is
  /// spent; `nil`: not expedited.
  public var expedited: ExpeditedPolicy?
  /// The initial delay (`initial=`, androidx `setInitialDelay`): the first run waits this
  /// long after the enqueue; `nil`: none.
  public var initialDelay: TraceInterval?
  /// What the work needs of the device (`needs=`, androidx `Constraints`); `nil`: none
  /// recorded (never an empty set).
  public var constraints: Set<WorkConstraint>?
  /// Periodic work's next schedule time override (`override=`, androidx
  /// `PeriodicWorkRequest.Builder.setNextScheduleTimeOverride`): when its next period may
  /// run, whatever its interval, flex, initial delay or backoff say; `nil`: none.
  public var nextScheduleTimeOverride: TraceTime?
  /// The request's own id (`request=`, androidx `WorkRequest.getId()`): which request
  /// of the work this enqueue adds, or updates with `policy=update`; `nil`: not
  /// recorded (a trace from before ids were recorded, or a queue that gives none).
  public var request: WorkRequestID?
  /// The unique name the request is enqueued under when its work is its own (`unique=`,
  /// androidx `enqueueUniqueWork` with several requests, or appended behind several
  /// works of the name): one work of several under the name; `nil` when `work` is the
  /// unique name, or the work has none (docs/events.md, "Work requests").
  public var uniqueName: String?

  /// Creates an enqueue.
  public init(
    work: String, name: String? = nil, backoff: BackoffPolicy? = nil, backoffDelay: TraceInterval? = nil,
    retryLimit: Int? = nil, period: TraceInterval? = nil, flex: TraceInterval? = nil,
    policy: ExistingWorkPolicy? = nil, expedited: ExpeditedPolicy? = nil, initialDelay: TraceInterval? = nil,
    constraints: Set<WorkConstraint>? = nil, nextScheduleTimeOverride: TraceTime? = nil,
    request: WorkRequestID? = nil, uniqueName: String? = nil
  ) {
    self.uniqueName = uniqueName
    self.request = request
    self.nextScheduleTimeOverride = nextScheduleTimeOverride
    self.expedited = expedited
    self.initialDelay = initialDelay
    self.constraints = constraints?.isEmpty == true ? nil : constraints
    self.work = work
    self.name = name
    self.backoff = backoff
    self.backoffDelay = backoffDelay
    self.retryLimit = retryLimit
    self.period = period
    self.flex = flex
    self.policy = policy
  }
}

/// A work's tags (WorkManager's `addTag`s and the worker's class name, which
/// `WorkRequest.Builder` adds), as a trace holds them: one string, as androidx
/// `WorkerWrapper` prints them in its work description `Work [ id=…, tags={ TAGS } ]`
/// (`tags.joinToString(",")` in the Kotlin WorkerWrapper, `, ` between them in the Java
/// one before it). One string, not a list: a tag may itself hold a comma, and the log
/// does not say which commas are its, so the import keeps the bytes the line has.
public enum WorkTags: Sendable {
  /// The one-string form of `tags`, as WorkManager 2.8 and later prints them: joined by
  /// `,`, in the order given; `nil` for none.
  public static func joined(_ tags: [String]) -> String? {
    tags.isEmpty ? nil : tags.joined(separator: ",")
  }
}

/// One `key=value` pair of an `env.set` event.
public struct EnvironmentSetting: Sendable, Hashable {
  /// The setting's name (`network`, `charging`, …).
  public var key: String
  /// Its new value (`offline`, `true`, …).
  public var value: String

  /// Creates a setting.
  public init(key: String, value: String) {
    self.key = key
    self.value = value
  }
}
