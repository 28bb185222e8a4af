import Synchronization

/// What a worker returns (`ListenableWorker.Result`): its outcome and, for a success or
/// a failure, its output data.
public struct WorkResult: Sendable, Hashable {
  /// `success`: the work is done; `failure`: it failed, and one-time work does not run
  /// again; `retry`: run it again after the backoff, with `runAttemptCount` one higher.
  /// The trace's `outcome=` value.
  public var outcome: WorkOutcome
  /// The output (androidx `Result.success(Data)`, `Result.failure(Data)`): what
  /// ``WorkInfo/outputData`` reports once one-time work has finished, and what work that
  /// waits for it gets merged into its input (``InputMerger``). A retry has none, and
  /// periodic work's is dropped, as androidx drops them.
  public var outputData: WorkData

  /// A result of `outcome` with `outputData`.
  public init(outcome: WorkOutcome, outputData: WorkData = .empty) {
    self.outcome = outcome
    self.outputData = outcome == .retry ? .empty : outputData
  }

  /// `Result.success()`.
  public static let success = WorkResult(outcome: .success)
  /// `Result.failure()`.
  public static let failure = WorkResult(outcome: .failure)
  /// `Result.retry()`.
  public static let retry = WorkResult(outcome: .retry)

  /// `Result.success(outputData)`.
  public static func success(_ outputData: WorkData) -> WorkResult {
    WorkResult(outcome: .success, outputData: outputData)
  }

  /// `Result.failure(outputData)`.
  public static func failure(_ outputData: WorkData) -> WorkResult {
    WorkResult(outcome: .failure, outputData: outputData)
  }

  /// The result as WorkManager ends the attempt with it: a failure when its output is
  /// larger than WorkManager takes (``WorkData/fitsWorkManager``), as the
  /// `IllegalStateException` building that `Data` in `doWork` would make it.
  package var takenByWorkManager: WorkResult { outputData.fitsWorkManager ? self : .failure }
}

/// What a worker run is told (`WorkerParameters`).
public struct WorkContext: Sendable {
  /// The work's id.
  public var work: String
  /// 0 on the first run, one more on each start (`runAttemptCount`).
  public var runAttemptCount: Int
  /// What ``setForeground(_:)`` does for this run: the queue's (`nil`: nothing).
  public var foreground: (@Sendable (ForegroundInfo) async throws(ForegroundServiceError) -> Void)?
  /// The run's input (androidx `getInputData()`): the request's own
  /// ``WorkRequest/inputData`` merged with the output of the work it waited for
  /// (``InputMerger``).
  public var inputData: WorkData
  /// What ``setProgress(_:)`` does for this run: the queue's (`nil`: nothing).
  public var progress: (@Sendable (WorkData) -> Void)?

  /// Creates a context.
  public init(
    work: String, runAttemptCount: Int,
    foreground: (@Sendable (ForegroundInfo) async throws(ForegroundServiceError) -> Void)? = nil,
    inputData: WorkData = .empty, progress: (@Sendable (WorkData) -> Void)? = nil
  ) {
    self.work = work
    self.runAttemptCount = runAttemptCount
    self.foreground = foreground
    self.inputData = inputData
    self.progress = progress
  }

  /// `setProgress(Data)`: while the run goes on, ``WorkInfo/progress`` reports `data`;
  /// it is cleared when the worker returns. androidx ignores progress set when the work
  /// is not running (`WorkProgressUpdater`: "Ignoring setProgressAsync(...)").
  public func setProgress(_ data: WorkData) async {
    progress?(data)
  }

  /// `setForeground(ForegroundInfo)`: the run goes on as a foreground service of
  /// `info`'s type (`work.foreground`), so WorkManager no longer stops it at ten minutes.
  /// Await it before the worker returns, as `setForegroundAsync` must complete first.
  /// On Android 14 and later `info` needs a type (declared on WorkManager's
  /// `SystemForegroundService` in the manifest), or the app crashes.
  ///
  /// - Throws: ``ForegroundServiceError`` with reason `background` when the app is
  ///   subject to foreground-service restrictions (Android 12 and later, from the
  ///   background): androidx "will throw the ForegroundServiceStartNotAllowedException"
  ///   (WorkManager 2.7.0-alpha04 release notes). The run goes on as a job.
  public func setForeground(_ info: ForegroundInfo) async throws(ForegroundServiceError) {
    try await foreground?(info)
  }
}

/// A unit of background work (`CoroutineWorker`): the queue calls ``doWork(_:)`` on
/// each attempt.
public protocol BackgroundWorker: Sendable {
  /// Does the work once. Return `.retry` to run again after the backoff; the app
  /// decides the retry limit (WorkManager has none), usually from `runAttemptCount`.
  /// An error it throws fails the attempt, as an exception from `doWork` does
  /// (``result(of:)``).
  func doWork(_ context: WorkContext) async throws -> WorkResult

  /// `getForegroundInfo()`: the foreground service the worker runs as when it must run
  /// as one (expedited work on Android 11 and earlier); `nil`, the default, provides
  /// none, as `CoroutineWorker` does. A worker that calls ``WorkContext/setForeground(_:)``
  /// passes its info there.
  func foregroundInfo() -> ForegroundInfo?
}

extension BackgroundWorker {
  /// Provides no foreground info, as `CoroutineWorker.getForegroundInfo` does by default.
  public func foregroundInfo() -> ForegroundInfo? { nil }

  /// Runs ``doWork(_:)`` once as WorkManager's `WorkerWrapper` does: an error it throws
  /// is a `failure` (androidx `WorkerWrapperTest.testException_isTreatedAsFailure`), so
  /// one-time work fails and is not retried.
  public func result(of context: WorkContext) async -> WorkResult {
    do { return try await doWork(context) } catch { return .failure }
  }
}

/// What a worker's foreground service is (`androidx.work.ForegroundInfo`), without its
/// notification, which the model does not need: its type decides its time limit
/// (Android 15: `dataSync` 6 hours in 24) and whether Android 14 and later accept it.
public struct ForegroundInfo: Sendable, Hashable {
  /// The foreground service type (`nil`: none given).
  public var type: ForegroundServiceType?

  /// Info for a foreground service of `type`.
  public init(type: ForegroundServiceType?) {
    self.type = type
  }
}

/// A request to run a worker (`OneTimeWorkRequest` / `PeriodicWorkRequest`).
public struct WorkRequest: Sendable {
  /// The work's unique id (the unique-work name).
  public var work: String
  /// The request's own id (androidx `WorkRequest.getId()`); `nil`: the queue gives it
  /// one when it is enqueued (``WorkInfo/id``).
  public var id: WorkRequestID?
  /// The unique name the request is enqueued under when ``work`` is an id of its own:
  /// one of several requests under the name (``WorkQueue/enqueueUniqueWork(_:policy:_:)``,
  /// a unique continuation's step of several, or a step after one); `nil` when ``work``
  /// is the unique name, or the work has none. Recorded as `unique=`. The queue sets
  /// it, when it makes the request a work of its own.
  public package(set) var uniqueName: String?
  /// The worker's name, for traces.
  public var name: String?
  /// Linear or exponential backoff (`nil`: exponential).
  public var backoff: BackoffPolicy?
  /// The backoff delay (`nil`: 30 s).
  public var backoffDelay: Duration?
  /// The retry limit the app's worker enforces, recorded so the checker can hold it to it.
  public var retryLimit: Int?
  /// The repeat interval for periodic work (at least 15 minutes).
  public var period: Duration?
  /// Periodic work's flex interval (androidx `flexInterval`, at least 5 minutes and at
  /// most the period): the first period runs only in its last `flex`, not at once.
  /// `nil`: no flex, the first period runs at once.
  public var flex: Duration?
  /// The initial delay (androidx `setInitialDelay`): the first run, or a periodic
  /// request's first period, waits this long after the enqueue (``WorkSchedule``).
  /// `nil`: none. Expedited work cannot be delayed (``WorkRequestCheck/expeditedDelayed``).
  public var initialDelay: Duration?
  /// The network it needs (`setRequiredNetworkType`); `nil`: none.
  public var requiredNetworkType: NetworkType?
  /// Run only with network connectivity: ``requiredNetworkType`` is set.
  /// Setting it `true` asks for ``NetworkType/connected`` (unless a type is set),
  /// `false` for none.
  public var requiresNetwork: Bool {
    get { requiredNetworkType != nil }
    set { requiredNetworkType = newValue ? requiredNetworkType ?? .connected : nil }
  }
  /// Run only while charging (`setRequiresCharging`).
  public var requiresCharging: Bool
  /// Run only while the battery is not low (`setRequiresBatteryNotLow`).
  public var requiresBatteryNotLow: Bool
  /// Run only while storage is not low (`setRequiresStorageNotLow`).
  public var requiresStorageNotLow: Bool
  /// Run only while the device is idle (`setRequiresDeviceIdle`).
  public var requiresDeviceIdle: Bool
  /// An expedited request (`setExpedited(OutOfQuotaPolicy)`): what to do when the app's
  /// expedited quota is spent; `nil`: not expedited.
  public var expedited: ExpeditedPolicy?
  /// The input its worker is given (`setInputData`), merged with the output of the work
  /// it waits for (``inputMerger``).
  public var inputData: WorkData = .empty
  /// How its input is merged with that output (`setInputMerger`).
  public var inputMerger: InputMerger = .overwriting
  /// The request's tags (`WorkRequest.Builder.addTag`), in the order added. WorkManager
  /// prints them, with the worker's class name, where each attempt ends; the trace
  /// records them there too, as `tags=` on `work.result` and `work.stop` (``WorkTags``).
  public var tags: [String]
  /// The worker.
  public var worker: any BackgroundWorker
  /// Periodic work's next schedule time override (androidx
  /// `PeriodicWorkRequest.Builder.setNextScheduleTimeOverride`): its next period may run
  /// at this time, whatever its interval, flex, initial delay or backoff say
  /// (``WorkSchedule``); set it with ``setNextScheduleTimeOverride(_:)``. `nil`: none.
  public private(set) var nextScheduleTimeOverride: TraceTime?
  /// Whether the request sets or clears the override (androidx: the builder's
  /// `nextScheduleTimeOverrideGeneration` is 1): an update (``ExistingWorkPolicy/update``,
  /// `updateWork`) that does neither keeps the override the work has.
  public private(set) var changesNextScheduleTimeOverride = false

  /// Sets the next schedule time override (androidx
  /// `PeriodicWorkRequest.Builder.setNextScheduleTimeOverride`). Only periodic work
  /// takes one (``WorkRequestCheck/overrideOneTime``), enqueued as unique work with
  /// `keep` or `update` (``WorkRequestCheck/overrideReplaced``). The override is cleared
  /// once a run ends with a success, a failure or a retry; a stop keeps it.
  public mutating func setNextScheduleTimeOverride(_ time: TraceTime) {
    nextScheduleTimeOverride = time
    changesNextScheduleTimeOverride = true
  }

  /// Clears the next schedule time override (androidx
  /// `PeriodicWorkRequest.Builder.clearNextScheduleTimeOverride`): an update with this
  /// request removes the work's override, and its next period is scheduled from its
  /// interval again.
  public mutating func clearNextScheduleTimeOverride() {
    nextScheduleTimeOverride = nil
    changesNextScheduleTimeOverride = true
  }

  /// Creates a request.
  public init(
    work: String, name: String? = nil, backoff: BackoffPolicy? = nil, backoffDelay: Duration? = nil,
    retryLimit: Int? = nil, period: Duration? = nil, flex: Duration? = nil, requiresNetwork: Bool = false,
    requiresCharging: Bool = false, expedited: ExpeditedPolicy? = nil, tags: [String] = [],
    initialDelay: Duration? = nil, id: WorkRequestID? = nil, requiredNetworkType: NetworkType? = nil,
    requiresBatteryNotLow: Bool = false, requiresStorageNotLow: Bool = false, requiresDeviceIdle: Bool = false,
    worker: any BackgroundWorker
  ) {
    self.requiredNetworkType = requiredNetworkType ?? (requiresNetwork ? .connected : nil)
    self.requiresBatteryNotLow = requiresBatteryNotLow
    self.requiresStorageNotLow = requiresStorageNotLow
    self.requiresDeviceIdle = requiresDeviceIdle
    self.id = id
    self.expedited = expedited
    self.initialDelay = initialDelay
    self.tags = tags
    self.work = work
    self.name = name
    self.backoff = backoff
    self.backoffDelay = backoffDelay
    self.retryLimit = retryLimit
    self.period = period
    self.flex = flex
    self.requiresCharging = requiresCharging
    self.worker = worker
  }
}

/// A WorkManager-style queue.
public protocol WorkQueue: AnyObject {
  /// Enqueues work as unique work, resolving a conflict with `policy` (`nil`: replace),
  /// and returns whether the request was enqueued (or, with `update`, applied): `false`
  /// when `policy` is `keep` and unfinished work holds the name, which stays as it was
  /// (androidx `EnqueueRunnable` inserts nothing then, and a unique continuation's later
  /// steps are not enqueued either: ``beginUniqueWork(_:policy:_:)-(_,_,[WorkRequest])``),
  /// or when an `update` finds the work finished and changes nothing.
  ///
  /// - Throws: ``WorkRequestError`` for a request WorkManager refuses to build or to
  ///   enqueue with `policy` (``WorkRequest/validate(policy:)``); nothing is enqueued or
  ///   recorded.
  @discardableResult
  func enqueue(_ request: WorkRequest, policy: ExistingWorkPolicy?) throws(WorkRequestError) -> Bool
  /// Enqueues `request` as work of its own (its ``WorkRequest/work`` is its id) that
  /// runs only once every work in `prerequisites` has succeeded, and fails or is
  /// cancelled with any of them (androidx `EnqueueRunnable`); with none it is
  /// ``enqueue(_:policy:)`` with no policy. ``WorkContinuation`` calls it; the trace
  /// records `work.enqueue` and a `work.after` per prerequisite.
  ///
  /// - Throws: ``WorkRequestError`` for a request WorkManager refuses to build, for
  ///   periodic work with prerequisites, or for a prerequisite the queue does not hold
  ///   (``WorkRequestCheck/prerequisiteUnknown``); nothing is enqueued or recorded.
  func enqueue(_ request: WorkRequest, after prerequisites: [String]) throws(WorkRequestError)
  /// Enqueues `requests` side by side under the unique name `name`, resolving a
  /// conflict with the name's works with `policy` as androidx `EnqueueRunnable` does
  /// (`WorkManager.enqueueUniqueWork(name, policy, List)`, and the first step of
  /// ``beginUniqueWork(_:policy:_:)-(_,_,[WorkRequest])``): `keep` enqueues nothing
  /// while a work of the name is unfinished; `replace` cancels them all first; `append`
  /// and `appendOrReplace` make the requests wait for the name's leaves, its works that
  /// no other work of it waits for (`appendOrReplace` starts afresh when one of them
  /// failed or was cancelled).
  ///
  /// One request under a name whose works are its own id is enqueued as
  /// ``enqueue(_:policy:)`` enqueues it, as work `name`. Otherwise each request becomes a
  /// work of its own (``WorkIDs``, `TAG:N`) with ``WorkRequest/uniqueName`` set, and the
  /// trace records `work.enqueue work=TAG:N unique=NAME`, the first with the policy and
  /// the others without, then a `work.after` per leaf it waits for (docs/events.md,
  /// "Work requests"). A queue that models one request a name (the default
  /// implementation) refuses several (``WorkRequestCheck/uniqueStepOfSeveral``).
  ///
  /// - Returns: the works the requests became, in order, and what they wait for; no
  ///   works when `keep` kept the name's unfinished work.
  /// - Throws: ``WorkRequestError`` for no requests
  ///   (``WorkRequestCheck/beginUniqueWorkEmpty``), a request WorkManager refuses to
  ///   build, periodic work (``WorkRequestCheck/continuationPeriodic``) or `update`
  ///   (``WorkRequestCheck/uniqueContinuationUpdate``); nothing is enqueued or recorded.
  @discardableResult
  func enqueueUniqueWork(_ name: String, policy: ExistingWorkPolicy, _ requests: [WorkRequest])
    throws(WorkRequestError) -> EnqueuedUniqueWork
  /// Cancels the work; a running attempt is stopped. Cancelling a unique name cancels
  /// every work of it (androidx `cancelUniqueWork`).
  func cancel(work: String)
  /// The ids this queue gives work enqueued with ``enqueue(_:)`` (keep one per queue).
  var workIDs: WorkIDs { get }
}

extension WorkQueue {
  /// One request as ``enqueue(_:policy:)`` enqueues it, as work `name`; several are
  /// refused (``WorkRequestCheck/uniqueStepOfSeveral``): a queue that runs several
  /// requests under one name implements this itself.
  @discardableResult
  public func enqueueUniqueWork(_ name: String, policy: ExistingWorkPolicy, _ requests: [WorkRequest])
    throws(WorkRequestError) -> EnqueuedUniqueWork
  {
    try WorkRequest.validate(uniqueStep: requests, name: name, policy: policy)
    guard requests.count == 1 else { throw WorkRequestError(.uniqueStepOfSeveral, work: name) }
    var named = requests[0]
    named.work = name
    return EnqueuedUniqueWork(works: try enqueue(named, policy: policy) ? [name] : [])
  }

  /// Enqueues work that is not unique, as WorkManager's `enqueue(WorkRequest)` does:
  /// every call is a work of its own, however many with the same `work` are pending.
  ///
  /// WorkManager names such work with a random UUID; here it is `TAG:N`, where TAG is
  /// `request.work` and N counts from 1 per tag in this queue, so the trace's `work=`
  /// ids are the same in every run and in a replay.
  ///
  /// - Returns: the work's id, for ``cancel(work:)``.
  /// - Throws: ``WorkRequestError`` for a request WorkManager refuses to build; no id
  ///   is used up.
  @discardableResult
  public func enqueue(_ request: WorkRequest) throws(WorkRequestError) -> String {
    try request.validate()
    var work = request
    work.work = workIDs.next(for: request.work)
    try enqueue(work, policy: nil)
    return work.work
  }
}

/// Gives non-unique work its ids (`sync:1`, `sync:2`, …), counting per tag.
public final class WorkIDs: Sendable {
  private let counts = Mutex<[String: Int]>([:])

  /// Creates a counter that starts at 1 for every tag.
  public init() {}

  /// The next id for `tag`.
  public func next(for tag: String) -> String {
    let number = counts.withLock { counts in
      counts[tag, default: 0] += 1
      return counts[tag]!
    }
    return "\(tag):\(number)"
  }
}

extension WorkRequest {
  /// Its constraints (androidx `Constraints`), each declared once in ``WorkConstraint``.
  public var constraints: Set<WorkConstraint> { Set(WorkConstraint.allCases.filter(needs)) }

  /// Whether it has `constraint`: what ``constraints`` holds, without building the set
  /// (a queue asks it of every waiting request whenever the device changes).
  public func needs(_ constraint: WorkConstraint) -> Bool {
    switch constraint {
    case .network, .unmetered, .notRoaming, .metered, .temporarilyUnmetered:
      requiredNetworkType?.constraint == constraint
    case .charging: requiresCharging
    case .batteryNotLow: requiresBatteryNotLow
    case .storageNotLow: requiresStorageNotLow
    case .deviceIdle: requiresDeviceIdle
    }
  }

  /// The `tags=` of this request's `work.result` and `work.stop` events: ``tags`` in one
  /// string (``WorkTags/joined(_:)``), `nil` for none.
  public var traceTags: String? { WorkTags.joined(tags) }

  /// The input a start of this request gets (androidx `WorkerWrapper.runWorker`):
  /// periodic work its own; one-time work its own, then `outputs`, the output of each
  /// work it waited for, merged by its ``inputMerger``. `nil` when the merger refuses
  /// them or the merge is larger than WorkManager takes: the work fails before its
  /// worker is created.
  package func input(after outputs: [WorkData]) -> WorkData? {
    guard period == nil, !outputs.isEmpty else { return inputData }
    guard let merged = try? inputMerger.merge([inputData] + outputs), merged.fitsWorkManager else { return nil }
    return merged
  }

  /// What WorkManager keeps of `result`'s output for ``WorkInfo/outputData`` and the
  /// work waiting for this one: a success's or failure's of one-time work; `nil` for a
  /// retry (which has none) and for periodic work (`resetPeriodic` drops it).
  package func keptOutput(of result: WorkResult) -> WorkData? {
    result.outcome != .retry && period == nil ? result.outputData : nil
  }

  /// The trace fields of this request's `work.enqueue`.
  public func enqueueEvent(policy: ExistingWorkPolicy?) -> WorkEnqueue {
    WorkEnqueue(
      work: work, name: name, backoff: backoff, backoffDelay: backoffDelay.map(TraceInterval.init),
      retryLimit: retryLimit,
      period: period.map(TraceInterval.init), flex: flex.map(TraceInterval.init), policy: policy,
      expedited: expedited, initialDelay: initialDelay.map(TraceInterval.init), constraints: constraints,
      nextScheduleTimeOverride: nextScheduleTimeOverride, request: id, uniqueName: uniqueName)
  }
}

extension TraceTime {
  /// A time or interval from a `Duration` (negative durations become zero).
  public init(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    if seconds < 0 {
      self = .zero
    } else {
      let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
      self = overflow ? .max : TraceTime(nanoseconds: whole).adding(nanoseconds: UInt64(attoseconds / 1_000_000_000))
    }
  }
}
