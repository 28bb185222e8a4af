public import BackgroundTrace
public import Dispatch

/// A submitted request waiting to launch.
struct PendingRequest {
  var request: TaskRequest
  var earliest: TraceTime
  var timer: VirtualTimeScheduler.TimerID?
}

/// A task the simulated scheduler launched.
public final class SimulatedScheduledTask: ScheduledTask, @unchecked Sendable {
  /// The identifier the task was launched for.
  public let identifier: String
  /// The run number in the trace (`sched.launch run=`).
  public var run: Int? { runNumber }
  let runNumber: Int
  /// Refresh or processing.
  let type: SchedulerRequestType
  /// Run when the task's runtime is spent (`sched.expire`); with none set, the run ends
  /// as complete and unsuccessful, as on iOS.
  public var expirationHandler: (() -> Void)?
  weak var system: SimulatedSystem?
  var completed = false
  /// The timer of its expiration, until it expires.
  var expiry: VirtualTimeScheduler.TimerID?

  init(identifier: String, run: Int, type: SchedulerRequestType, system: SimulatedSystem) {
    self.identifier = identifier
    self.runNumber = run
    self.type = type
    self.system = system
  }

  /// Records `sched.complete`; the first call ends the run, so an otherwise idle app can
  /// be suspended.
  public func setTaskCompleted(success: Bool) {
    system?.complete(self, success: success)
  }
}

/// BGTaskScheduler, as docs/platform-model.md describes it.
extension SimulatedSystem: TaskScheduling {
  /// Records `sched.register` and keeps the launch handler, as docs/platform-model.md describes:
  /// an identifier the configuration does not permit is refused (`ok=false`), as is
  /// every identifier on Android, and a second registration, or one after launch,
  /// terminates the app (`reason=crash`).
  ///
  /// - Parameters:
  ///   - identifier: the task identifier.
  ///   - queue: ignored: launch handlers run on the simulation's virtual-time executor.
  ///   - launchHandler: called with the task each time the system launches it.
  /// - Returns: `true` when the handler is registered; `false` when the identifier is not
  ///   permitted or the registration killed the app.
  @discardableResult
  public func register(
    forTaskWithIdentifier identifier: String, using queue: DispatchQueue?,
    launchHandler: @escaping (any ScheduledTask) -> Void
  ) -> Bool {
    // Android has no BGTaskScheduler: nothing is registered.
    guard configuration.platform == .ios, configuration.permittedIdentifiers?.contains(identifier) ?? true else {
      record(.schedRegister(identifier: identifier, ok: false))
      return false
    }
    record(.schedRegister(identifier: identifier, ok: nil))
    if launchHandlers[identifier] != nil {
      // "Launch handler for task with identifier … has already been registered"
      terminate(reason: "crash")
      return false
    }
    if !launching {
      // "All launch handlers must be registered before application finishes launching"
      terminate(reason: "crash")
      return false
    }
    launchHandlers[identifier] = launchHandler
    return true
  }

  /// Records `sched.submit`, then either rejects the request (`sched.reject`) or plans its
  /// launch after its earliest date plus a seeded delay, replacing a pending request
  /// with the same identifier. A request given an `earliestBeginDate` is read against the
  /// wall clock at this call, so only an `earliestBeginDelay` gives the same trace every run.
  ///
  /// - Parameter request: the request to launch later.
  /// - Throws: ``TaskSchedulerError`` with `notPermitted` for an identifier not permitted,
  ///   `unavailable` when background refresh is off or on Android, and `tooManyPendingTaskRequests`
  ///   past 1 pending refresh or 10 pending processing requests.
  public func submit(_ request: TaskRequest) throws(TaskSchedulerError) {
    let submission = request.submission(at: now)
    record(.schedSubmit(submission))
    if let rejection = rejection(for: request) {
      record(.schedReject(identifier: request.identifier, error: rejection))
      throw TaskSchedulerError(rejection)
    }
    if let timer = pendingRequests[request.identifier]?.timer { scheduler.cancel(timer) }
    pendingRequests[request.identifier] = PendingRequest(request: request, earliest: submission.earliest ?? now)
    scheduleLaunch(request.identifier)
  }

  private func rejection(for request: TaskRequest) -> SchedulerRejection? {
    guard configuration.platform == .ios else { return .unavailable }
    guard configuration.permittedIdentifiers?.contains(request.identifier) ?? true else { return .notPermitted }
    guard configuration.backgroundRefreshEnabled else { return .unavailable }
    // Resubmitting a pending identifier replaces it, so it does not count.
    let others = pendingRequests.values.filter {
      $0.request.identifier != request.identifier && $0.request.type == request.type
    }
    let limit = request.type == .refresh ? 1 : 10
    return others.count >= limit ? .tooManyPendingTaskRequests : nil
  }

  /// Records `sched.cancel` and drops the pending request with this identifier, if any.
  public func cancel(taskRequestWithIdentifier identifier: String) {
    record(.schedCancel(.identifier(identifier)))
    if let timer = pendingRequests.removeValue(forKey: identifier)?.timer { scheduler.cancel(timer) }
  }

  /// Records `sched.cancel all=true` and drops every pending request.
  public func cancelAllTaskRequests() {
    record(.schedCancel(.all))
    for pending in pendingRequests.values {
      if let timer = pending.timer { scheduler.cancel(timer) }
    }
    pendingRequests.removeAll()
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
    pending.timer = scheduler.schedule(at: time) { [self] in
      pendingRequests[identifier]?.timer = nil
      launchIfEligible(identifier)
    }
    pendingRequests[identifier] = pending
  }

  /// Launches requests whose time has come and whose requirements now hold.
  func launchEligibleRequests() {
    for identifier in pendingRequests.keys.sorted() where pendingRequests[identifier]?.timer == nil {
      launchIfEligible(identifier)
    }
  }

  private func launchIfEligible(_ identifier: String) {
    guard let pending = pendingRequests[identifier], pending.timer == nil, now >= pending.earliest else { return }
    let request = pending.request
    // Scheduled tasks run in the background, and processing tasks wait for their
    // requirements; both are re-checked when the app or the environment changes. An
    // app the user quit gets no launches until the user opens it again.
    guard !appInForeground, !quitByUser else { return }
    if request.type == .processing {
      if request.requiresNetworkConnectivity && !networkAvailable { return }
      if request.requiresExternalPower && !charging { return }
      if configuration.launchPolicy.processingNeedsIdleDevice && !deviceIdle { return }
    }
    launch(pending)
  }

  /// Launches a pending request now: records `sched.launch`, starts the app if needed
  /// and calls the launch handler — or, with none registered, crashes the app as iOS
  /// does ("No launch handler registered for task with identifier …").
  private func launch(_ pending: PendingRequest) {
    let request = pending.request
    let identifier = request.identifier
    if let timer = pending.timer { scheduler.cancel(timer) }
    pendingRequests[identifier] = nil
    wakeForBackgroundWork()
    let run = nextRun
    nextRun += 1
    record(.schedLaunch(identifier: identifier, run: run))
    let task = SimulatedScheduledTask(identifier: identifier, run: run, type: request.type, system: self)
    runningTasks[run] = task
    let policy = configuration.launchPolicy
    let fullRuntime = randomDuration(
      in: request.type == .refresh ? policy.refreshRuntime : policy.processingRuntime, using: &random)
    let runtime =
      faults.schedulerRuntime.map { min(randomDuration(in: $0, using: &faultRandom), fullRuntime) } ?? fullRuntime
    task.expiry = scheduler.schedule(after: runtime) { [self] in expire(task) }
    guard let handler = launchHandlers[identifier] else {
      terminate(reason: "crash")
      return
    }
    handler(task)
    // The app runs again: an iOS in-process queue picks up the work that waited.
    startInProcessWork()
  }

  /// Launches the pending request for `identifier` now, whatever its earliest date,
  /// the app's state or its requirements — as the debugger command
  /// `_simulateLaunchForTaskWithIdentifier` does on a device.
  ///
  /// - Returns: `false` when no request for `identifier` is pending.
  @discardableResult
  public func simulateLaunch(forTaskWithIdentifier identifier: String) -> Bool {
    guard let pending = pendingRequests[identifier] else { return false }
    launch(pending)
    scheduler.runPending()
    return true
  }

  /// Runs the expiration of the running task launched for `identifier` now — as the
  /// debugger command `_simulateExpirationForTaskWithIdentifier` does on a device.
  ///
  /// - Returns: `false` when no task for `identifier` is running.
  @discardableResult
  public func simulateExpiration(forTaskWithIdentifier identifier: String) -> Bool {
    guard
      let task = runningTasks.keys.sorted().compactMap({ runningTasks[$0] }).first(where: {
        $0.identifier == identifier
      })
    else { return false }
    if let timer = task.expiry { scheduler.cancel(timer) }
    expire(task)
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
      guard let task = runningTasks[run], task.type == .processing, !task.completed, task.expiry != nil else {
        continue
      }
      if let timer = task.expiry { scheduler.cancel(timer) }
      expire(task)
    }
  }

  private func expire(_ task: SimulatedScheduledTask) {
    guard !task.completed, runningTasks[task.runNumber] === task else { return }
    task.expiry = nil
    record(.schedExpire(run: task.runNumber))
    if let handler = task.expirationHandler {
      handler()
      // Apple: a task not completed "may result in the system killing your app".
      if let grace = configuration.uncompletedRunKill, !task.completed {
        scheduler.schedule(after: grace) { [self] in
          if !task.completed, runningTasks[task.runNumber] === task { terminate(reason: "watchdog") }
        }
      }
    } else {
      // With no expiration handler the system marks the task complete and unsuccessful.
      task.completed = true
      runningTasks[task.runNumber] = nil
      suspendIfIdle(after: configuration.suspensionDelay)
    }
  }

  func complete(_ task: SimulatedScheduledTask, success: Bool) {
    record(.schedComplete(run: task.runNumber, success: success))
    guard !task.completed else { return }
    task.completed = true
    if runningTasks[task.runNumber] === task { runningTasks[task.runNumber] = nil }
    suspendIfIdle(after: configuration.suspensionDelay)
  }
}
