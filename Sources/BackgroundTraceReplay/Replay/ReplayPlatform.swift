public import BackgroundSimulation
public import BackgroundTrace
import BackgroundTraceCheck
public import Dispatch

/// The platform a replay gives the app: the same protocols as a device or the
/// simulation, answering from the recorded trace — `beginBackgroundTask` returns the
/// recorded id, a submit gets the recorded rejection, a worker starts at the recorded
/// attempt — and recording what the app does on the virtual clock.
public final class ReplayPlatform: @unchecked Sendable {
  /// The virtual-time scheduler the replay runs on.
  public let scheduler: VirtualTimeScheduler
  let recorder: TraceRecorder
  var script: ReplayScript
  var unapplied: [UnappliedDecision] = []

  // Answers consumed in call order.
  var beginIndex = 0
  var enqueueIndex = 0
  var submitIndex = 0
  var registerIndex = 0
  private var inputIndex: [String: Int] = [:]

  // What the app set up.
  var expirationHandlers: [Int: MainThreadHandler] = [:]
  var launchHandlers: [String: LaunchRegistration] = [:]
  /// The requests the app submitted and the recording did not reject, by identifier,
  /// until the recording launches or the app cancels them: what ``pendingTaskRequests()``
  /// answers.
  var submittedRequests: [String: TaskRequest] = [:]
  var launchedTasks: [Int: ReplayScheduledTask] = [:]
  /// Each work's current request: the one its recorded `work.start` runs.
  var works: [String: WorkRequest] = [:]
  /// The requests appended behind each unfinished work, in order: each becomes the
  /// work's current request when the lifecycle model releases it, once the one before
  /// it succeeded (`queuedWorkReleased`), and all are dropped when the work finishes
  /// otherwise.
  var queuedWorks: [String: [WorkRequest]] = [:]
  /// The unique names that hold works of their own (`unique=`), as the simulation's
  /// queue keeps them: from the first enqueued under the name until a policy deletes them.
  var namesWithOwnWorks: Set<String> = []
  /// The works each work waits for (`work.after`, or the work it was appended to):
  /// their outputs are merged into its input.
  var workPrerequisites: [String: [String]] = [:]
  /// The output of each work's last success or failure, one-time work only.
  var workOutputs: [String: WorkData] = [:]
  /// Whether the replay has passed the recording's `env.set exact-alarm-permission=revoked`:
  /// an exact alarm is refused from then on, as the simulation refuses it.
  var exactAlarmPermissionRevoked = false
  /// The ids of work enqueued without a unique name, counted as in the recorded run.
  public let workIDs = WorkIDs()
  var runningWorkers: [String: (attempt: Int, task: Task<Void, Never>)] = [:]
  /// The background sessions the current process created, with their delegates.
  var sessions: [String: any BackgroundSessionDelegate] = [:]
  /// The SwiftUI-style URL-session actions the current process registered, run at the
  /// recorded `net.wake` of a session they match.
  let sessionActions = SessionActions()
  /// The tasks running SwiftUI-style URL-session actions for a recorded `net.wake`, by
  /// the wake's number, until they return: a recorded suspension while one still runs
  /// is the wake's time running out, which cancels it.
  var sessionActionTasks: [Int: Task<Void, Never>] = [:]
  /// How many `net.wake`s the replay applied, to number them.
  var wakeCount = 0
  /// How many transfers each session started in this replay, to hand out the recorded
  /// task numbers in call order.
  var transferCounts: [String: Int] = [:]
  /// The foreground services the current process started, for the recorded `fgs.timeout`.
  var services: [String: any ForegroundService] = [:]
  var serviceAnswerIndex = 0
  /// How many of the recording's `work.foreground` answers the replay has used.
  var workForegroundAnswerIndex = 0
  /// What is alive in the replayed run (open tasks and whether they expired, the app's
  /// state and background time), decided by the same lifecycle model as the checker's,
  /// from the events the replay records.
  private(set) var lifecycle = LifecycleWalker()
  private var transitions: [LifecycleTransition] = []
  /// How many app actions the replay has recorded, to apply each decision after the
  /// actions the recording has before it.
  private(set) var appActionCount = 0
  /// The background budget: the trace's `meta budget=`, else 30 s.
  let budget: TraceInterval
  /// Whether the recording ran expedited work as a foreground service, from the
  /// worker's foreground info: Android 11 and earlier (`meta platform=android android=`).
  let runsExpeditedWorkInForeground: Bool
  /// Whether a launch into the background calls `didEnterBackground`, as the recording's
  /// simulation did: always on Android, on iOS unless `meta launch-enters-background=false`.
  let launchEntersBackground: Bool
  /// The recording's platform (`meta platform=`) and Android release (`meta android=`).
  let recordedPlatform: String?
  let recordedAndroidRelease: AndroidRelease
  var delegate: (any BackgroundAppDelegate)?
  var makeApp: ((ReplayPlatform) -> any BackgroundAppDelegate)?

  init(script: ReplayScript, meta: TraceMetadata, drivesMainActor: Bool = false) {
    scheduler = VirtualTimeScheduler(drivesMainActor: drivesMainActor)
    self.script = script
    budget = meta.budget
    runsExpeditedWorkInForeground =
      meta["platform"] == "android" && meta.androidRelease.runsExpeditedWorkAsForegroundService
    launchEntersBackground = meta["platform"] == "android" || meta.launchEntersBackground
    recordedPlatform = meta["platform"]
    recordedAndroidRelease = meta.androidRelease
    recorder = TraceRecorder(meta: meta)
  }

  /// The replayed process's app delegate (made by the replay's `makeApp` at the last
  /// `app.launch`), for a test to look at; `nil` after it terminated.
  public func app<App: BackgroundAppDelegate>(as type: App.Type) -> App? {
    delegate as? App
  }

  /// The recording's next `input` for `key`, in the order the app asks for it; `nil`
  /// past the recorded ones.
  func nextRecordedInput(for key: String) -> (time: TraceTime, value: String)? {
    let index = inputIndex[key, default: 0]
    inputIndex[key] = index + 1
    return script.inputs[key].flatMap { index < $0.count ? $0[index] : nil }
  }

  /// A clock on the replay's virtual time, for async app code.
  public var clock: VirtualClock { scheduler.clock }

  /// Inputs answered from the recording.
  public var inputs: any RecordedInputs { ReplayedInputs(platform: self) }

  func record(_ kind: TraceEvent.Kind) {
    recorder.record(kind, at: scheduler.now)
    if kind.side == .app { appActionCount += 1 }
    transitions.removeAll(keepingCapacity: true)
    lifecycle.apply(TraceEvent(time: scheduler.now, kind), into: &transitions)
    for transition in transitions where !queuedWorks.isEmpty {
      switch transition {
      case .queuedWorkReleased(let enqueue):
        guard var queued = queuedWorks[enqueue.work], !queued.isEmpty else { continue }
        works[enqueue.work] = queued.removeFirst()
        queuedWorks[enqueue.work] = queued.isEmpty ? nil : queued
        workPrerequisites[enqueue.work] = [enqueue.work]  // it takes the output of the one before it
      case .workFinished(let work, _) where !lifecycle.isUnfinished(work):  // not released from its queue
        queuedWorks[work] = nil
      default:
        continue
      }
    }
  }
}

extension ReplayPlatform: BackgroundTaskHost {
  /// Records `task.begin` with the id the recording gave this call (ids past the
  /// recording continue after its largest), and keeps the handler for the recorded
  /// `task.expire`.
  ///
  /// - Parameters:
  ///   - taskName: the task's name, recorded as `name=`.
  ///   - handler: run when the replay reaches the recorded `task.expire` for this id.
  /// - Returns: the recorded id; ``/BackgroundTrace/BackgroundTaskID/invalid`` when the system refused
  ///   the task in the recording.
  public func beginBackgroundTask(
    withName taskName: String?, expirationHandler handler: (@MainActor @Sendable () -> Void)?
  ) -> BackgroundTaskID {
    let id = Self.recorded(script.beginIDs, call: beginIndex)
    beginIndex += 1
    record(.taskBegin(id: id, name: taskName))
    if id != 0, let handler { expirationHandlers[id] = MainThreadHandler(handler) }
    return BackgroundTaskID(rawValue: id)
  }

  /// Records `task.end` and forgets the task and its expiration handler.
  public func endBackgroundTask(_ identifier: BackgroundTaskID) {
    record(.taskEnd(id: identifier.rawValue))
    expirationHandlers[identifier.rawValue] = nil
  }

  /// The recorded answer: the next `input key=system.backgroundTimeRemaining` of the
  /// recording, as the recorded run read it (an early expiration included). Past the
  /// recorded reads, what the model says. The read is recorded as in the recording.
  public var backgroundTimeRemaining: Double {
    let key = RecordedAnswer.backgroundTimeRemaining
    let remaining =
      nextRecordedInput(for: key).flatMap { RecordedAnswer.remaining(from: $0.value) } ?? modelledTimeRemaining
    record(RecordedAnswer.backgroundTimeRemainingRead(remaining))
    return remaining
  }

  /// What the model says, as in the simulation: the trace's budget (`meta budget=`,
  /// else 30 s) less the time since the recorded move to the background, once a task
  /// is open; `Double.greatestFiniteMagnitude` otherwise.
  private var modelledTimeRemaining: Double {
    guard lifecycle.isRunning, let since = lifecycle.process.backgroundSince, !lifecycle.tasks.isEmpty else {
      return .greatestFiniteMagnitude
    }
    let end = since + budget
    return scheduler.now >= end ? 0 : end.seconds - scheduler.now.seconds
  }
}

extension ReplayPlatform: TaskScheduling {
  /// Records `sched.register` with the recording's result for this call, and keeps the
  /// launch handler for the recorded `sched.launch` events when it succeeded.
  ///
  /// - Parameters:
  ///   - identifier: the task identifier.
  ///   - queue: launch handlers run on the replay's virtual-time executor, but a
  ///     main-actor handler registered with `nil` or a queue other than `.main` is not
  ///     called: on iOS it traps, as the simulation models it.
  ///   - isolation: the registering code's isolation (see ``/BackgroundTrace/TaskScheduling``).
  ///   - launchHandler: called with the task at each recorded launch of `identifier`.
  /// - Returns: the recorded result; `true` for calls past the recording.
  @discardableResult
  public func register(
    forTaskWithIdentifier identifier: String, using queue: DispatchQueue?, registeredFrom isolation: (any Actor)?,
    launchHandler: @escaping (any ScheduledTask) -> Void
  ) -> Bool {
    let ok = registerIndex < script.registerResults.count ? script.registerResults[registerIndex] : true
    registerIndex += 1
    record(.schedRegister(identifier: identifier, ok: ok ? nil : false))
    if ok {
      launchHandlers[identifier] = LaunchRegistration(queue: queue, isolation: isolation, handler: launchHandler)
    }
    return ok
  }

  /// Records `sched.submit`, and `sched.reject` when the recording rejected this call;
  /// launches come from the recorded `sched.launch` events, not from the request.
  ///
  /// The earliest date is recorded as far after the submission as the app asked, or as
  /// far as the recording has it when that is within a second of what the app asked and
  /// the recorded submission at this call has the same identifier and type. A trace
  /// recorded on the real clock has that distance off by a moment (an
  /// `earliestBeginDate` is read against the wall clock a moment after the app made it;
  /// a delay is added to a clock read a moment before the one that stamps the event),
  /// which a replay cannot reproduce. So the same code records the same request again,
  /// under `.order` and `.exact` alike, and a request for another time still differs.
  ///
  /// - Parameter request: the request, recorded as the app submitted it.
  /// - Throws: ``/BackgroundTrace/TaskSchedulerError`` with the recorded rejection.
  public func submit(_ request: TaskRequest) throws(TaskSchedulerError) {
    let recorded = submitIndex < script.submits.count ? script.submits[submitIndex] : nil
    submitIndex += 1
    var submission = request.submission(at: scheduler.now)
    if let recorded, let earliest = submission.earliest, let recordedEarliest = recorded.submission.earliest,
      recorded.submission.identifier == submission.identifier, recorded.submission.type == submission.type
    {
      let asked = Replayer.offset(earliest, from: scheduler.now)
      let recordedOffset = Replayer.offset(recordedEarliest, from: recorded.time)
      let (apart, overflow) = asked.subtractingReportingOverflow(recordedOffset)
      if !overflow && apart.magnitude <= Self.recordedEarliestTolerance.nanoseconds {
        submission.earliest = recordedEarliest.moved(from: recorded.time, to: scheduler.now)
      }
    }
    record(.schedSubmit(submission))
    if let rejection = recorded?.rejection ?? refreshOffRejection(of: submission, recorded: recorded) {
      record(.schedReject(identifier: request.identifier, error: rejection))
      throw TaskSchedulerError(rejection)
    }
    submittedRequests[request.identifier] = request
  }

  /// Whether Background App Refresh was on at this point of the recorded run: off when
  /// the recording's `input key=system.backgroundRefreshStatus` in effect says `denied`
  /// or `restricted` (`UIKitBackgroundTaskHost.recordBackgroundRefreshStatus(in:)`) — the
  /// last one at or before now, else the first one (the adapter records it at launch, and
  /// the setting held before the trace began). On without any, as
  /// ``/BackgroundSimulation/SimulationConfiguration/backgroundRefreshEnabled`` is by default.
  public var backgroundRefreshEnabled: Bool {
    guard let statuses = script.inputs[RecordedAnswer.backgroundRefreshStatus], let first = statuses.first else {
      return true
    }
    let status = statuses.last { $0.time <= scheduler.now } ?? first
    return status.value != "denied" && status.value != "restricted"
  }

  /// The simulation's answer to a submission the recording did not answer (a call past
  /// the recording, or one for another identifier or type than the recording's at this
  /// call) while Background App Refresh was off: `unavailable` for a refresh or
  /// processing request, as `SimulatedSystem` rejects it with `backgroundRefreshEnabled`
  /// off (docs/platform-model.md, "Submit errors"); `nil` otherwise. A recorded answer to
  /// the same request always wins: the setting may have changed without a new input.
  private func refreshOffRejection(of submission: SchedulerSubmission, recorded: ReplayScript.Submit?)
    -> SchedulerRejection?
  {
    guard submission.type != .continued, !backgroundRefreshEnabled else { return nil }
    if let recorded, recorded.submission.identifier == submission.identifier,
      recorded.submission.type == submission.type
    {
      return nil
    }
    return .unavailable
  }

  /// How far a submitted request's earliest date, counted from its submission, may be
  /// from the recording's for the replay to take the recorded one: 1 s, far more than
  /// the moment an app takes between reading the clock for a date and submitting it, and
  /// far less than any request a scheduler treats differently.
  static let recordedEarliestTolerance = TraceInterval(seconds: 1)

  /// Records `sched.cancel`; nothing else changes, since launches come from the recording.
  public func cancel(taskRequestWithIdentifier identifier: String) {
    record(.schedCancel(.identifier(identifier)))
    submittedRequests[identifier] = nil
  }

  /// Records `sched.cancel all=true`; nothing else changes, since launches come from the
  /// recording.
  public func cancelAllTaskRequests() {
    record(.schedCancel(.all))
    submittedRequests.removeAll()
  }

  /// The requests the app submitted in this replay that the recording neither rejected
  /// nor has launched yet, and the app did not cancel, sorted by identifier as the
  /// simulation answers. They persist across the replayed processes, as on iOS.
  public func pendingTaskRequests() -> [TaskRequest] {
    submittedRequests.values.sorted { $0.identifier < $1.identifier }
  }
}

extension ReplayPlatform: WorkQueue {
  /// Records `work.enqueue` and keeps the request for the recorded `work.start` events.
  /// Whether the work is unfinished is the lifecycle model's answer, as the checker's:
  /// with `keep`, unfinished work stays as it was, and the call returns false; with
  /// `append` or `appendOrReplace`, the request waits behind it until the model
  /// releases it. `update` acts as in the simulation: it gives unfinished work's request
  /// the new settings, and it keeps what the work waits for; it leaves finished work
  /// alone, records nothing and returns false; over cancelled work, or none, it enqueues.
  /// A request androidx refuses to build throws, as in the simulation, and so does an
  /// update of a name that holds a chain or of another type of work.
  @discardableResult
  public func enqueue(_ request: WorkRequest, policy: ExistingWorkPolicy?) throws(WorkRequestError) -> Bool {
    try request.validate(policy: policy)
    if let policy, policy != .update, request.uniqueName == nil, holdsWorksOfTheirOwn(request.work) {
      // The name holds works of their own: the policy acts on them all, as in the simulation.
      return try !enqueueUniqueWork(request.work, policy: policy, [request]).works.isEmpty
    }
    let unfinished = lifecycle.isUnfinished(request.work)
    let ending = lifecycle.ending(of: request.work)
    if policy == .update, unfinished || (ending != nil && ending != .cancelled) {
      return try update(request, unfinished: unfinished)
    }
    let request = identified(request)
    record(.workEnqueue(request.enqueueEvent(policy: policy)))
    switch policy {
    case .keep? where unfinished:
      return false
    case .append? where unfinished, .appendOrReplace? where unfinished:
      queuedWorks[request.work, default: []].append(request)
      return true
    default:
      // androidx EnqueueRunnable: an `append` over finished work, and an
      // `appendOrReplace` over succeeded work, wait for the request before them.
      let appended = (policy == .append && ending != nil) || (policy == .appendOrReplace && ending == .succeeded)
      hold(request, after: appended ? [request.work] : [])
      return true
    }
  }

  /// An update of work that is unfinished or finished other than cancelled, as
  /// `SimulatedSystem` makes it (androidx `WorkerUpdater.enqueueUniquelyNamedPeriodic`):
  /// refused for a name that holds more than one request (one queued behind the work,
  /// or a finished one it waits for) or for another type of work; for unfinished work,
  /// recorded with the current request's id, which takes the new settings.
  private func update(_ request: WorkRequest, unfinished: Bool) throws(WorkRequestError) -> Bool {
    let current = works[request.work]
    if queuedWorks[request.work]?.isEmpty == false || workPrerequisites[request.work] == [request.work]
      || holdsWorksOfTheirOwn(request.work)
    {
      throw WorkRequestError(.updateChain, work: request.work)
    }
    if let current, (current.period != nil) != (request.period != nil) {
      throw WorkRequestError(.updateType, work: request.work)
    }
    guard unfinished else { return false }  // finished one-time work takes no update
    var updated = identified(request)
    if let current { updated.id = current.id }
    record(.workEnqueue(updated.enqueueEvent(policy: .update)))
    works[request.work] = updated
    return true
  }

  /// Records what the simulation records for `requests` under the unique name `name`
  /// (``/BackgroundSimulation/SimulatedSystem/enqueueUniqueWork(_:policy:_:)``), and
  /// keeps each request for the recorded `work.start` events. Whether `keep` keeps the
  /// request out is the lifecycle model's answer; the leaves an `append` waits for, and
  /// whether an `appendOrReplace` started afresh, are the recording's (its `work.after`
  /// lines, and a `work.enqueue` without `unique=`).
  @discardableResult
  public func enqueueUniqueWork(_ name: String, policy: ExistingWorkPolicy, _ requests: [WorkRequest])
    throws(WorkRequestError) -> EnqueuedUniqueWork
  {
    try WorkRequest.validate(uniqueStep: requests, name: name, policy: policy)
    var named = requests[0]
    named.work = name
    if requests.count == 1, !holdsWorksOfTheirOwn(name) || policy == .update {
      return EnqueuedUniqueWork(works: try enqueue(named, policy: policy) ? [name] : [])
    }
    if policy == .keep, lifecycle.holdsWork(uniqueName: name) {
      record(.workEnqueue(identified(named).enqueueEvent(policy: .keep)))
      return EnqueuedUniqueWork(works: [])
    }
    // `replace`, `keep` over finished works, and an `appendOrReplace` that started afresh
    // (the recording enqueued it without `unique=`) delete the name's works: one
    // request is the name's own work again.
    let afresh = policy == .appendOrReplace && recordedEnqueue.map { $0.uniqueName == nil } == true
    if policy == .replace || policy == .keep || afresh {
      namesWithOwnWorks.remove(name)
      if requests.count == 1 {
        // Afresh, whatever the lifecycle model has not yet seen end of the works it deletes.
        let named = identified(named)
        record(.workEnqueue(named.enqueueEvent(policy: policy)))
        hold(named, after: [])
        return EnqueuedUniqueWork(works: [name])
      }
    }
    namesWithOwnWorks.insert(name)
    let prerequisites = recordedEnqueue?.prerequisites ?? []
    var enqueued: [String] = []
    for (index, request) in requests.enumerated() {
      var own = request
      own.work = workIDs.next(for: request.work)
      own.uniqueName = name
      own = identified(own)
      record(.workEnqueue(own.enqueueEvent(policy: index == 0 ? policy : nil)))
      for prerequisite in prerequisites { record(.workAfter(work: own.work, prerequisite: prerequisite)) }
      hold(own, after: prerequisites)
      enqueued.append(own.work)
    }
    return EnqueuedUniqueWork(works: enqueued, prerequisites: prerequisites)
  }

  /// Whether the unique name `name` holds works of their own (`unique=`), as the
  /// simulation's queue keeps them: from the replay's first such enqueue under the name
  /// until a policy deletes them.
  private func holdsWorksOfTheirOwn(_ name: String) -> Bool { namesWithOwnWorks.contains(name) }

  /// The recording's `work.enqueue` at this call; `nil` past the recording.
  private var recordedEnqueue: ReplayScript.Enqueue? {
    enqueueIndex < script.enqueues.count ? script.enqueues[enqueueIndex] : nil
  }

  /// Records `work.enqueue` and a `work.after` per prerequisite, and keeps the request
  /// for the recorded `work.start` events: the recording says when it ran.
  public func enqueue(_ request: WorkRequest, after prerequisites: [String]) throws(WorkRequestError) {
    try request.validate(prerequisites: prerequisites)
    let request = identified(request)
    record(.workEnqueue(request.enqueueEvent(policy: nil)))
    for prerequisite in prerequisites { record(.workAfter(work: request.work, prerequisite: prerequisite)) }
    if let name = request.uniqueName { namesWithOwnWorks.insert(name) }
    hold(request, after: prerequisites)
  }

  /// Makes `request` its work's current request, afresh: it waits for `prerequisites`
  /// (their outputs merged into its input), and nothing is queued behind it.
  private func hold(_ request: WorkRequest, after prerequisites: [String]) {
    works[request.work] = request
    workPrerequisites[request.work] = prerequisites.isEmpty ? nil : prerequisites
    queuedWorks[request.work] = nil
  }

  /// The input a start of `work`'s `request` gets, as in the simulation
  /// (`WorkRequest.input(after:)`), from its prerequisites' outputs.
  func input(of work: String, _ request: WorkRequest) -> WorkData? {
    request.input(after: (workPrerequisites[work] ?? []).compactMap { workOutputs[$0] })
  }

  /// `request` with the id the recording gave this enqueue, unless the app gave it one:
  /// the replay's requests have the recording's ids.
  private func identified(_ request: WorkRequest) -> WorkRequest {
    defer { enqueueIndex += 1 }
    guard request.id == nil, let recorded = recordedEnqueue else { return request }
    var identified = request
    identified.id = recorded.request
    return identified
  }

  /// Records `work.cancel`; a running attempt stops at the recorded `work.stop`.
  public func cancel(work: String) {
    record(.workCancel(work: work))
  }
}

/// A launched task in a replay.
class ReplayScheduledTask: ScheduledTask, @unchecked Sendable {
  let identifier: String
  var run: Int? { runNumber }
  let runNumber: Int
  var expirationHandler: (() -> Void)?
  weak var platform: ReplayPlatform?

  init(identifier: String, run: Int, platform: ReplayPlatform) {
    self.identifier = identifier
    self.runNumber = run
    self.platform = platform
  }

  func setTaskCompleted(success: Bool) {
    platform?.record(.schedComplete(run: runNumber, success: success))
  }
}

/// A launched continued-processing task in a replay: each move of its progress is
/// recorded as `sched.progress`, which the replay compares with the recording's.
final class ReplayContinuedTask: ReplayScheduledTask, ContinuedProcessingTask, @unchecked Sendable {
  let progress = TaskProgress()
  private(set) var title: String
  private(set) var subtitle: String

  init(identifier: String, run: Int, request: TaskRequest, platform: ReplayPlatform) {
    self.title = request.title
    self.subtitle = request.subtitle
    super.init(identifier: identifier, run: run, platform: platform)
    progress.observe { [weak platform] completed, total in
      platform?.record(.schedProgress(run: run, completed: Int(max(completed, 0)), total: Int(max(total, 0))))
    }
  }

  func updateTitle(_ title: String, subtitle: String) {
    self.title = title
    self.subtitle = subtitle
  }
}

/// Inputs in a replay: the recorded value, handed back at the recorded time.
struct ReplayedInputs: RecordedInputs {
  let platform: ReplayPlatform

  func value(for key: String, _ operation: @escaping @Sendable () async -> String) async -> String {
    guard let (time, value) = platform.nextRecordedInput(for: key) else {
      // Not in the recording: the operation had not completed when the recording
      // ended (or the process died first), so in the replay it never completes either.
      // No real operation runs.
      await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
      return ""
    }
    try? await platform.clock.sleep(until: VirtualClock.Instant(offset: time.duration))
    platform.record(.input(key: key, value: value))
    return value
  }

  func valueNow(for key: String, _ make: () -> String) -> String {
    let value = platform.nextRecordedInput(for: key)?.value ?? make()
    platform.record(.input(key: key, value: value))
    return value
  }
}

extension ReplayPlatform: BackgroundTransfers {
  /// Records `net.create` and keeps `delegate` for what the recording delivers to the
  /// session in this process (`net.finish`, `net.events-done`).
  public func session(identifier: String, discretionary: Bool, delegate: any BackgroundSessionDelegate)
    -> any BackgroundSession
  {
    record(.netCreate(session: identifier))
    if sessions[identifier] == nil { sessions[identifier] = delegate }  // as URLSession: the first one stays
    // Its transfers get the recorded task numbers.
    return PlatformSession(identifier: identifier) { [unowned self] kind in
      let task = transferTask(session: identifier)
      record(.netSubmit(session: identifier, task: task, kind: kind, discretionary: discretionary ? true : nil))
      return task
    }
  }

  /// The task number the recording gave the session's `count`th transfer (0-based);
  /// past the recording, numbers continue after its largest.
  func transferTask(session: String) -> Int {
    let count = transferCounts[session, default: 0]
    transferCounts[session] = count + 1
    return Self.recorded(script.transferTasks[session] ?? [], call: count)
  }

  /// The number the recording gave the `call`th call (0-based) of a kind that the
  /// system numbers (task ids, transfer tasks); past the recording, numbers continue
  /// after its largest.
  static func recorded(_ numbers: [Int], call: Int) -> Int {
    if call < numbers.count { return numbers[call] }
    return (numbers.max() ?? 0) + call - numbers.count + 1
  }
}
