public import BackgroundTrace
public import Dispatch

/// A submitted request waiting to launch.
struct PendingRequest {
  var request: TaskRequest
  var earliest: TraceTime
  var timer: VirtualTimeScheduler.TimerID?
  /// When ``timer`` launches it: the system's chosen time.
  var launchAt: TraceTime?
  /// A continued-processing request's place in the queue (submission order).
  var queuedAt = 0
}

/// A task the simulated scheduler launched: the `BGTask` the launch handler gets.
///
/// The system keeps only a weak reference to it, as iOS does (`BGTaskScheduler` keeps
/// its running tasks in a strong-to-weak map table): a task the app lets go of before
/// completing it can never complete (docs/platform-model.md, "Runtime and completion").
public class SimulatedScheduledTask: ScheduledTask, @unchecked Sendable {
  /// The identifier the task was launched for.
  public let identifier: String
  /// The run number in the trace (`sched.launch run=`).
  public var run: Int? { runNumber }
  let runNumber: Int
  /// Run when the task's runtime is spent (`sched.expire`); with none set, the run ends
  /// as complete and unsuccessful, as on iOS. The system sets it to `nil` before calling
  /// it, and when the task completes, as `BGTask` does.
  public var expirationHandler: (() -> Void)?
  weak var system: SimulatedSystem?
  var completed = false

  init(identifier: String, run: Int, system: SimulatedSystem) {
    self.identifier = identifier
    self.runNumber = run
    self.system = system
  }

  /// Records `sched.complete`; the first call ends the run, so an otherwise idle app can
  /// be suspended.
  public func setTaskCompleted(success: Bool) {
    system?.complete(self, success: success)
  }
}

/// A launched continued-processing task (`BGContinuedProcessingTask`): each move of its
/// ``progress`` is recorded as `sched.progress` and restarts the run's stall window
/// (``SimulationConfiguration/continuedProcessingStallWindow``).
public final class SimulatedContinuedTask: SimulatedScheduledTask, ContinuedProcessingTask, @unchecked Sendable {
  /// The task's progress: report to it as the work goes on.
  public let progress = TaskProgress()
  /// The title the system's progress UI shows.
  public private(set) var title: String
  /// The subtitle the system's progress UI shows.
  public private(set) var subtitle: String

  init(identifier: String, run: Int, title: String, subtitle: String, system: SimulatedSystem) {
    self.title = title
    self.subtitle = subtitle
    super.init(identifier: identifier, run: run, system: system)
    progress.observe { [weak system] completed, total in
      system?.progressed(run: run, completed: completed, total: total)
    }
  }

  /// Changes the title and subtitle; the trace records neither.
  public func updateTitle(_ title: String, subtitle: String) {
    self.title = title
    self.subtitle = subtitle
  }
}

/// A run the simulated scheduler launched and has not seen completed.
struct SchedulerRun {
  /// The identifier it was launched for.
  let identifier: String
  /// Refresh or processing.
  let type: SchedulerRequestType
  /// Whether ``SimulatedSystem/simulateLaunch(forTaskWithIdentifier:)`` launched it, as
  /// the debugger command `_simulateLaunchForTaskWithIdentifier` launches a task with
  /// no scheduler activity behind it.
  let simulated: Bool
  /// The app's task, while the app holds it: iOS keeps it weakly.
  weak var task: SimulatedScheduledTask?
  /// The timer of its expiration, until it expires (for a continued run, the end of its
  /// stall window, restarted when its progress moves).
  var expiry: VirtualTimeScheduler.TimerID?
}

/// A registered launch handler, with what iOS decides the handler's queue from.
package struct LaunchRegistration {
  /// The queue the app passed (`using:`); `nil` lets BGTaskScheduler make one.
  package let queue: DispatchQueue?
  /// The isolation of the code that registered it, which a handler closure written
  /// there inherits (`#isolation` at the call).
  package let isolation: (any Actor)?
  /// The app's launch handler.
  package let handler: (any ScheduledTask) -> Void

  /// Whether calling the handler traps on iOS: a main-actor handler on a queue other
  /// than the main one (BGTaskScheduler's own serial queue when `queue` is `nil`).
  package init(queue: DispatchQueue?, isolation: (any Actor)?, handler: @escaping (any ScheduledTask) -> Void) {
    self.queue = queue
    self.isolation = isolation
    self.handler = handler
  }

  package var trapsOnItsQueue: Bool {
    // By label: swift-corelibs-dispatch hands out a new `DispatchQueue.main` object per read.
    isolation === MainActor.shared && queue?.label != DispatchQueue.main.label
  }
}

/// BGTaskScheduler, as docs/platform-model.md describes it.
extension SimulatedSystem: TaskScheduling {
  /// Records `sched.register` and keeps the launch handler, as docs/platform-model.md describes:
  /// an identifier iOS would not permit (``isPermitted(_:)``) is refused (`ok=false`), as
  /// is every identifier on Android, and a second registration, or one after launch,
  /// terminates the app (`reason=crash`).
  ///
  /// - Parameters:
  ///   - identifier: the task identifier.
  ///   - queue: the handler's queue. Launch handlers run on the simulation's
  ///     virtual-time executor whatever it is, but with `nil` or a queue other than
  ///     `.main`, a main-actor handler crashes the app at launch, as on iOS.
  ///   - isolation: the registering code's isolation (see ``/BackgroundTrace/TaskScheduling``).
  ///   - launchHandler: called with the task each time the system launches it.
  /// - Returns: `true` when the handler is registered; `false` when the identifier is not
  ///   permitted or the registration killed the app.
  @discardableResult
  public func register(
    forTaskWithIdentifier identifier: String, using queue: DispatchQueue?, registeredFrom isolation: (any Actor)?,
    launchHandler: @escaping (any ScheduledTask) -> Void
  ) -> Bool {
    guard !unwindingCrash else { return false }
    // Android has no BGTaskScheduler: nothing is registered.
    guard configuration.platform == .ios, isPermitted(identifier) else {
      // "Registration rejected; %@ is not advertised in the application's Info.plist"
      record(.schedRegister(identifier: identifier, ok: false))
      return false
    }
    record(.schedRegister(identifier: identifier, ok: nil))
    if launchHandlers[identifier] != nil {
      crash("Launch handler for task with identifier \(identifier) has already been registered")
      return false
    }
    // BGTaskScheduler.h exempts continued-processing identifiers (those a wildcard
    // composes, registered when the user starts the work) from registering at launch.
    if !launching && !isComposedFromContinuedProcessingWildcard(identifier) {
      crash("All launch handlers must be registered before application finishes launching")
      return false
    }
    launchHandlers[identifier] = LaunchRegistration(queue: queue, isolation: isolation, handler: launchHandler)
    return true
  }

  /// Whether iOS accepts `identifier` for a registration or a submission, as
  /// `_BGTaskIdentifierRegistry isPermissibleFullyComposedIdentifier:` decides: at most
  /// 128 UTF-16 units, and listed in ``SimulationConfiguration/permittedIdentifiers``
  /// (every identifier when that is `nil`) or made from a listed continued-processing
  /// wildcard `<bundle>.<context>.*` (``SimulationConfiguration/bundleIdentifier``) by
  /// replacing the `*`. A listed entry longer than 128 units, or with `.*` not in that
  /// form, permits nothing, and the wildcard itself is refused.
  public func isPermitted(_ identifier: String) -> Bool {
    // "Identifier is too long, must be less than 128 characters: %@" (an NSString length).
    guard identifier.utf16.count <= 128 else { return false }
    guard let listed = configuration.permittedIdentifiers else { return true }
    let entries = listed.filter { entry in
      entry.utf16.count <= 128 && (!entry.contains(".*") || isContinuedProcessingWildcard(entry))
    }
    if isContinuedProcessingWildcard(identifier) { return false }
    if entries.contains(identifier) { return true }
    // A wildcard's base, `<bundle>.<context>.`, permits every longer identifier under it.
    return entries.filter(isContinuedProcessingWildcard).contains { wildcard in
      let base = String(wildcard.dropLast())
      return identifier.hasPrefix(base) && identifier != base
    }
  }

  /// Whether `identifier` is permitted only through a listed continued-processing wildcard
  /// (not listed itself): an identifier of continued-processing work.
  func isComposedFromContinuedProcessingWildcard(_ identifier: String) -> Bool {
    guard let listed = configuration.permittedIdentifiers, !listed.contains(identifier) else { return false }
    return isPermitted(identifier)
  }

  /// `isIdentifierValidContinuedProcessingWildcardNotation:`: ends in the only `.*` and
  /// starts with the app's bundle identifier (none is valid without one).
  private func isContinuedProcessingWildcard(_ identifier: String) -> Bool {
    guard let bundle = configuration.bundleIdentifier, identifier.hasSuffix(".*") else { return false }
    return identifier.ranges(of: ".*").count <= 1 && identifier.hasPrefix(bundle)
  }

  /// Records `sched.submit`, then either rejects the request (`sched.reject`) or plans its
  /// launch after its earliest date plus a seeded delay, replacing a pending request
  /// with the same identifier. A request given an `earliestBeginDate` is read against the
  /// wall clock at this call, so only an `earliestBeginDelay` gives the same trace every run.
  ///
  /// A request for a permitted identifier with no launch handler registered in this process
  /// crashes the app (`app.terminate reason=crash`), as iOS raises "No launch handler
  /// registered for task with identifier …" in `submitTaskRequest:error:`; the call then
  /// returns without throwing, and nothing the dead process does after it is recorded.
  ///
  /// - Parameter request: the request to launch later.
  /// - Throws: ``/BackgroundTrace/TaskSchedulerError`` with `notPermitted` for an identifier not permitted,
  ///   `unavailable` when background refresh is off or on Android, and `tooManyPendingTaskRequests`
  ///   past 1 pending refresh or 10 pending processing requests.
  public func submit(_ request: TaskRequest) throws(TaskSchedulerError) {
    guard !unwindingCrash else { return }
    let submission = request.submission(at: now)
    record(.schedSubmit(submission))
    if configuration.platform == .ios, launchHandlers[request.identifier] == nil, isPermitted(request.identifier) {
      // BGTaskScheduler checks the registration before anything else, and raises.
      crash("No launch handler registered for task with identifier \(request.identifier)")
      return
    }
    if let rejection = rejection(for: request) {
      record(.schedReject(identifier: request.identifier, error: rejection))
      throw TaskSchedulerError(rejection)
    }
    if let timer = pendingRequests[request.identifier]?.timer { scheduler.cancel(timer) }
    recordedWaits[.taskRequest(request.identifier)] = nil  // a new request: its wait is recorded afresh
    if request.type == .continued {
      // It begins at once when a slot is free, or waits in the queue (`strategy=queue`);
      // its earliest date is not a delay (docs/platform-model.md, "Continued processing").
      pendingRequests[request.identifier] = PendingRequest(request: request, earliest: now, queuedAt: nextQueued)
      nextQueued += 1
      scheduler.schedule(after: .zero) { [self] in launchEligibleRequests() }
      return
    }
    pendingRequests[request.identifier] = PendingRequest(request: request, earliest: submission.earliest ?? now)
    scheduleLaunch(request.identifier)
  }

  private func rejection(for request: TaskRequest) -> SchedulerRejection? {
    guard configuration.platform == .ios else { return .unavailable }
    // "%{public}@ is not advertised in the application's Info.plist": code 3.
    guard isPermitted(request.identifier) else { return .notPermitted }
    if request.type == .continued { return continuedRejection(for: request) }
    guard configuration.backgroundRefreshEnabled else { return .unavailable }
    // Resubmitting a pending identifier replaces it, so it does not count.
    let others = pendingRequests.values.filter {
      $0.request.identifier != request.identifier && $0.request.type == request.type
    }
    let limit = request.type == .refresh ? 1 : 10
    return others.count >= limit ? .tooManyPendingTaskRequests : nil
  }

  /// Why iOS refuses a continued-processing request (docs/platform-model.md, "Continued
  /// processing"): a resource `supportedResources` lacks is `unavailable`
  /// (`_unsafe_submitTaskRequest:error:`, code 1); a submission from the background is
  /// refused (`notPermitted`: Apple documents no code); with `strategy=fail` and no slot
  /// free, `immediateRunIneligible`.
  private func continuedRejection(for request: TaskRequest) -> SchedulerRejection? {
    if let resource = request.requiredResources, !configuration.supportedContinuedProcessingResources.contains(resource)
    {
      return .unavailable
    }
    guard appInForeground else { return .notPermitted }
    if request.strategy == .fail && !continuedSlotFree() { return .immediateRunIneligible }
    return nil
  }

  /// Whether a continued-processing run may start now: fewer run than
  /// ``SimulationConfiguration/continuedProcessingSlots``.
  func continuedSlotFree() -> Bool {
    let running = runningTasks.values.filter { $0.type == .continued }.count
    return running < configuration.continuedProcessingSlots
  }

  /// Drops the queued continued-processing requests: the user closed the app from the app
  /// switcher (Apple, `SubmissionStrategy.queue`: "The system cancels queued
  /// `BGContinuedProcessingTaskRequest` objects if someone closes your app using the app
  /// switcher").
  func dropQueuedContinuedRequests() {
    for (identifier, pending) in pendingRequests where pending.request.type == .continued {
      if let timer = pending.timer { scheduler.cancel(timer) }
      pendingRequests[identifier] = nil
    }
  }

  /// Records `sched.cancel` and drops the pending request with this identifier, if any.
  public func cancel(taskRequestWithIdentifier identifier: String) {
    record(.schedCancel(.identifier(identifier)))
    if let timer = pendingRequests.removeValue(forKey: identifier)?.timer { scheduler.cancel(timer) }
    noteWaits()
  }

  /// Records `sched.cancel all=true` and drops every pending request.
  public func cancelAllTaskRequests() {
    record(.schedCancel(.all))
    for pending in pendingRequests.values {
      if let timer = pending.timer { scheduler.cancel(timer) }
    }
    pendingRequests.removeAll()
    noteWaits()
  }

  /// The requests submitted and not yet launched or cancelled.
  ///
  /// - Returns: the pending requests, sorted by identifier so the order is stable.
  public func pendingTaskRequests() -> [TaskRequest] {
    pendingRequests.values.map(\.request).sorted { $0.identifier < $1.identifier }
  }

  /// Plans a launch no earlier than the request's earliest date, after a seeded delay.
  private func scheduleLaunch(_ identifier: String) {
    guard var pending = pendingRequests[identifier] else { return }
    let policy = configuration.launchPolicy
    let delay =
      randomDuration(
        in: pending.request.type == .refresh ? policy.refreshDelay : policy.processingDelay, using: &random)
      + randomDuration(in: faults.extraLaunchDelay, using: &faultRandom)
    let time = max(pending.earliest, now).adding(nanoseconds: TraceTime(delay).nanoseconds)
    pending.launchAt = time
    pending.timer = scheduler.schedule(at: time) { [self] in
      pendingRequests[identifier]?.timer = nil
      launchIfEligible(identifier)
    }
    pendingRequests[identifier] = pending
    noteWaits()
    noteWaits(at: pending.earliest)
  }

  /// Launches requests whose time has come and whose requirements now hold: queued
  /// continued-processing requests first, in the order submitted, while slots are free.
  func launchEligibleRequests() {
    let queued = pendingRequests.values.filter { $0.request.type == .continued }.sorted { $0.queuedAt < $1.queuedAt }
    for pending in queued {
      guard continuedSlotFree(), !quitByUser, !unwindingCrash else { break }
      launch(pending)
    }
    for identifier in pendingRequests.keys.sorted() where pendingRequests[identifier]?.timer == nil {
      launchIfEligible(identifier)
    }
    noteWaits()
  }

  /// Launches the request when nothing holds it back (``waitReasons(for:)-(PendingRequest)``):
  /// scheduled tasks run in the background, processing tasks wait for their
  /// requirements, both re-checked when the app or the environment changes, and an app
  /// the user quit gets no launches until the user opens it again. Otherwise records
  /// why it waits.
  private func launchIfEligible(_ identifier: String) {
    guard let pending = pendingRequests[identifier], pending.timer == nil else { return }
    guard pending.request.type != .continued else { return }  // launched from the queue, above
    guard waitReasons(for: pending)?.isEmpty == true else { return noteWaits() }
    launch(pending)
  }

  /// Launches a pending request now: records `sched.launch`, starts the app if needed
  /// and calls the launch handler — or, with none registered, crashes the app as iOS
  /// does ("No launch handler registered for task with identifier …"), and with a
  /// main-actor handler on a queue other than the main one, crashes it as Swift's
  /// isolation check does on BGTaskScheduler's background queue.
  private func launch(_ pending: PendingRequest, simulated: Bool = false) {
    let request = pending.request
    let identifier = request.identifier
    if let timer = pending.timer { scheduler.cancel(timer) }
    pendingRequests[identifier] = nil
    recordedWaits[.taskRequest(identifier)] = nil
    wakeForBackgroundWork()
    let run = nextRun
    nextRun += 1
    record(.schedLaunch(identifier: identifier, run: run))
    let task: SimulatedScheduledTask
    let expiry: VirtualTimeScheduler.TimerID?
    if request.type == .continued {
      // No fixed runtime: the run lasts while its progress moves (Apple Developer Forums,
      // DTS: "There isn't any specific time limit").
      task = SimulatedContinuedTask(
        identifier: identifier, run: run, title: request.title, subtitle: request.subtitle, system: self)
      expiry = configuration.continuedProcessingStallWindow.map { window in
        scheduler.schedule(after: window) { [self] in expire(run: run, reason: .stalled) }
      }
    } else {
      task = SimulatedScheduledTask(identifier: identifier, run: run, system: self)
      let policy = configuration.launchPolicy
      let fullRuntime = randomDuration(
        in: request.type == .refresh ? policy.refreshRuntime : policy.processingRuntime, using: &random)
      let runtime =
        faults.schedulerRuntime.map { min(randomDuration(in: $0, using: &faultRandom), fullRuntime) } ?? fullRuntime
      expiry = scheduler.schedule(after: runtime) { [self] in expire(run: run) }
    }
    runningTasks[run] = SchedulerRun(
      identifier: identifier, type: request.type, simulated: simulated, task: task, expiry: expiry)
    guard let registration = launchHandlers[identifier] else {
      crash("No launch handler registered for task with identifier \(identifier)")
      return
    }
    if registration.trapsOnItsQueue {
      // BGTaskScheduler runs the handler on the registered queue, or on a serial queue of
      // its own (`_queueForRegistration:`); Swift checks a main-actor closure's queue
      // when it is called there, and traps.
      let queue = registration.queue?.label ?? "com.apple.BGTaskScheduler (\(identifier))"
      crash(
        "The launch handler for \(identifier) is main-actor code, but BGTaskScheduler runs it on the queue "
          + "\(queue): Swift's isolation check traps (_dispatch_assert_queue_fail). Register it with "
          + "`using: .main`, or make the handler nonisolated.")
      return
    }
    registration.handler(task)
    // An expiration that comes before the app finished launching waits, and is delivered
    // right after the launch handler ran (BGTaskScheduler `_handleAppLaunch`).
    if faults.expirationAtLaunchPercent > 0, Int(faultRandom.next() % 100) < faults.expirationAtLaunchPercent {
      if let timer = runningTasks[run]?.expiry { scheduler.cancel(timer) }
      expire(run: run)
    }
    // The app runs again: an iOS in-process queue picks up the work that waited.
    startInProcessWork()
  }

  /// Launches the pending request for `identifier` now, whatever its earliest date,
  /// the app's state or its requirements — as the debugger command
  /// `_simulateLaunchForTaskWithIdentifier` does on a device, which refuses while a run
  /// of the identifier is running ("Task with identifier %{public}@ is already running")
  /// and launches only a pending request ("No task request with identifier %{public}@
  /// has been scheduled"). Only a run launched this way can be expired with
  /// ``simulateExpiration(forTaskWithIdentifier:)``.
  ///
  /// - Returns: `false` when no request for `identifier` is pending, or a run of it is
  ///   running.
  @discardableResult
  public func simulateLaunch(forTaskWithIdentifier identifier: String) -> Bool {
    guard let pending = pendingRequests[identifier],
      !runningTasks.values.contains(where: { $0.identifier == identifier })
    else { return false }
    launch(pending, simulated: true)
    scheduler.runPending()
    return true
  }

  /// Runs the expiration of the run of `identifier` that
  /// ``simulateLaunch(forTaskWithIdentifier:)`` launched — as the debugger command
  /// `_simulateExpirationForTaskWithIdentifier` does on a device: it works only on a
  /// simulated launch ("Task with identifier %{public}@ is not currently being
  /// simulated"), and with no expiration handler set it only logs ("No expiration
  /// handler for task: %{public}@"), leaving the task running.
  ///
  /// - Returns: `false` when no simulated run of `identifier` is running, or its task has
  ///   no expiration handler.
  @discardableResult
  public func simulateExpiration(forTaskWithIdentifier identifier: String) -> Bool {
    guard
      let run = runningTasks.keys.sorted().first(where: {
        runningTasks[$0]?.identifier == identifier && runningTasks[$0]?.simulated == true
      }),
      let task = runningTasks[run]?.task, task.expirationHandler != nil
    else { return false }
    if let timer = runningTasks[run]?.expiry { scheduler.cancel(timer) }
    expire(run: run)
    scheduler.runPending()
    return true
  }

  /// The app moved a continued-processing run's progress: records `sched.progress` and
  /// restarts the run's stall window, unless the run already expired or ended.
  func progressed(run: Int, completed: Int64, total: Int64) {
    guard !unwindingCrash, appRuns else { return }
    record(.schedProgress(run: run, completed: Int(max(completed, 0)), total: Int(max(total, 0))))
    guard let timer = runningTasks[run]?.expiry, let window = configuration.continuedProcessingStallWindow else {
      return
    }
    scheduler.cancel(timer)
    runningTasks[run]?.expiry = scheduler.schedule(after: window) { [self] in expire(run: run, reason: .stalled) }
  }

  /// The user cancels the running continued-processing task of `identifier` from the
  /// system's progress UI: the system runs its expiration handler (Apple, "Performing
  /// long-running tasks on iOS and iPadOS": "If a person cancels a task through the
  /// interface, the system calls the task's expiration handler"), recorded as
  /// `sched.expire reason=user` (a stall's expiry is `reason=stalled`), and the app must
  /// still complete it.
  ///
  /// - Returns: `false` when no continued-processing run of `identifier` is running or
  ///   it has already expired.
  @discardableResult
  public func userCancelContinuedProcessing(identifier: String) -> Bool {
    guard
      let run = runningTasks.keys.sorted().first(where: {
        runningTasks[$0]?.identifier == identifier && runningTasks[$0]?.type == .continued
      }),
      let timer = runningTasks[run]?.expiry
    else { return false }
    scheduler.cancel(timer)
    expire(run: run, reason: .user)
    scheduler.runPending()
    return true
  }

  /// Whether the device is idle, as processing tasks need (``LaunchPolicy/processingNeedsIdleDevice``):
  /// on external power, with the app not in use.
  var deviceIdle: Bool {
    charging && !appInForeground
  }

  /// Expires the running processing runs when the device stops being idle. Apple,
  /// `BGProcessingTask`: "The system terminates any background processing tasks
  /// running when the user starts using the device."
  func expireProcessingRunsIfDeviceBusy() {
    guard configuration.launchPolicy.processingNeedsIdleDevice, !deviceIdle else { return }
    for run in runningTasks.keys.sorted() {
      guard let entry = runningTasks[run], entry.type == .processing, let timer = entry.expiry else { continue }
      scheduler.cancel(timer)
      expire(run: run)
    }
  }

  /// The system expires a run: records `sched.expire` (with `reason`, when it is a
  /// continued run's stall or the user's cancel) and calls the task's expiration
  /// handler, setting it to `nil` first, as `BGTask _callExpirationHandlerWithReason:`
  /// does. With no handler the task completes unsuccessfully ("Client didn't provide an
  /// expiration handler for task %{public}@, completing with NO success for them"). A
  /// task the app let go of gets nothing: it can never complete, and the app is killed
  /// as for a handler that did not complete the task.
  private func expire(run: Int, reason: ExpirationReason? = nil) {
    guard var entry = runningTasks[run], entry.expiry != nil else { return }
    entry.expiry = nil
    runningTasks[run] = entry
    record(.schedExpire(run: run, reason: reason))
    if let task = entry.task, !task.completed {
      guard let handler = task.expirationHandler else {
        // With no expiration handler the system marks the task complete and unsuccessful.
        task.completed = true
        runningTasks[run] = nil
        suspendIfIdle(after: idleSuspensionDelay)
        if entry.type == .continued { launchEligibleRequests() }
        return
      }
      task.expirationHandler = nil
      handler()
    }
    // Apple: a task not completed "may result in the system killing your app".
    if let grace = configuration.uncompletedRunKill, runningTasks[run] != nil {
      scheduler.schedule(after: grace) { [self] in
        if runningTasks[run] != nil { terminate(reason: "watchdog") }
      }
    }
  }

  func complete(_ task: SimulatedScheduledTask, success: Bool) {
    guard !unwindingCrash else { return }
    record(.schedComplete(run: task.runNumber, success: success))
    guard !task.completed else { return }
    // `_unsafe_setTaskCompletedWithSuccess:afterDelay:` clears the expiration handler.
    task.completed = true
    task.expirationHandler = nil
    let type = runningTasks[task.runNumber]?.type
    if runningTasks[task.runNumber]?.task === task { runningTasks[task.runNumber] = nil }
    suspendIfIdle(after: idleSuspensionDelay)
    // A slot is free: the next queued continued-processing request runs.
    if type == .continued { launchEligibleRequests() }
  }
}
