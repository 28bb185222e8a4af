public import BackgroundTrace

/// A UIKit background task the app has begun and not ended.
struct OpenTask {
  var name: String?
  var handler: MainThreadHandler?
  var expired = false
}

/// UIKit background tasks (`UIApplication`), as docs/platform-model.md describes them.
extension SimulatedSystem: BackgroundTaskHost {
  /// Records `task.begin` and opens a task with the process's next id. In the
  /// background this arms the expiration and the watchdog at the end of the budget;
  /// the app is not suspended while a task is open.
  ///
  /// - Parameters:
  ///   - taskName: the task's name, recorded as `name=`.
  ///   - handler: run shortly before the budget runs out (`task.expire`).
  /// - Returns: the new id; ``/BackgroundTrace/BackgroundTaskID/invalid`` (recorded as `id=0`) when the
  ///   process is not running or is suspended, or on Android, which has no UIKit tasks.
  public func beginBackgroundTask(
    withName taskName: String?, expirationHandler handler: (@MainActor @Sendable () -> Void)?
  ) -> BackgroundTaskID {
    // No background time for a process that is not running or is suspended, and no
    // UIKit tasks at all on Android.
    guard appRuns, configuration.platform == .ios else {
      record(.taskBegin(id: 0, name: taskName))
      return .invalid
    }
    let id = nextTaskID
    nextTaskID += 1
    openTasks[id] = OpenTask(name: taskName, handler: handler.map(MainThreadHandler.init))
    record(.taskBegin(id: id, name: taskName))
    if let timer = suspensionTimer {
      scheduler.cancel(timer)
      suspensionTimer = nil
    }
    if appState == .background { scheduleExpiration() }
    if faults.backgroundTaskAssertionFailurePercent > 0,
      Int(faultRandom.next() % 100) < faults.backgroundTaskAssertionFailurePercent
    {
      // UIKit could not get the assertion: the handler runs at once, once the call has
      // returned the identifier the handler needs to end the task.
      scheduler.schedule(after: .zero) { [self] in expire(id: id) }
    }
    return BackgroundTaskID(rawValue: id)
  }

  /// Records `task.end` and closes the task; an unknown or ended id changes nothing (iOS
  /// only logs a warning). Ending the last task in the background suspends an idle app.
  public func endBackgroundTask(_ identifier: BackgroundTaskID) {
    // Ending an unknown or ended id only logs a console warning on iOS.
    record(.taskEnd(id: identifier.rawValue))
    guard openTasks.removeValue(forKey: identifier.rawValue) != nil else { return }
    if openTasks.isEmpty && appState == .background {
      suspendIfIdle(after: .zero)
    }
  }

  /// While a task is open in the background, the budget left since the app entered the
  /// background (less the fault plan's early expiration); `Double.greatestFiniteMagnitude`
  /// otherwise. Each read is recorded as `input key=system.backgroundTimeRemaining`, so a
  /// replay answers it as this run did.
  public var backgroundTimeRemaining: Double {
    let remaining = modelledTimeRemaining
    record(RecordedAnswer.backgroundTimeRemainingRead(remaining))
    return remaining
  }

  private var modelledTimeRemaining: Double {
    // Counts down in the background once a task exists (docs/platform-model.md).
    guard let since = backgroundSince, appState == .background, !openTasks.isEmpty else {
      return .greatestFiniteMagnitude
    }
    let end = since + TraceInterval(effectiveBudget)
    return now >= end ? 0 : end.seconds - now.seconds
  }

  /// The budget after the fault plan's early expiration.
  var effectiveBudget: Duration {
    max(configuration.budget - faults.earlyExpiration, .zero)
  }

  /// Schedules the expiration handlers shortly before the budget ends, and the
  /// watchdog at the end: a task still open after its handler ran kills the app.
  func scheduleExpiration() {
    guard let since = backgroundSince, !openTasks.isEmpty, expirationTimer == nil else { return }
    let end = since + TraceInterval(effectiveBudget)
    let expiry = end - TraceInterval(configuration.expirationLead)
    expirationTimer = scheduler.schedule(at: expiry) { [self] in
      expirationTimer = nil
      expireNow()
    }
    if watchdogTimer == nil {
      watchdogTimer = scheduler.schedule(at: end) { [self] in
        watchdogTimer = nil
        if openTasks.values.contains(where: \.expired) { terminate(reason: "watchdog") }
      }
    }
  }

  /// Runs the expiration handler of every open task now (in id order), as the system
  /// does when background time runs out, or as a fault plan's early expiration.
  public func expireNow() {
    for id in openTasks.keys.sorted() { expire(id: id) }
  }

  /// Runs the expiration handler of the open task `id`, once: records `task.expire`.
  private func expire(id: Int) {
    guard var task = openTasks[id], !task.expired else { return }
    task.expired = true
    openTasks[id] = task
    record(.taskExpire(id: id))
    task.handler?.callOnVirtualMainThread()
  }

  func cancelBackgroundTimers() {
    for timer in [expirationTimer, watchdogTimer, suspensionTimer].compactMap(\.self) {
      scheduler.cancel(timer)
    }
    expirationTimer = nil
    watchdogTimer = nil
    suspensionTimer = nil
  }
}
