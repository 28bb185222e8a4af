public import BackgroundTrace

/// One background transfer: it runs out of process, so it outlives the app's process,
/// and its result waits for the app to hold its session again.
struct SimulatedTransfer {
  enum Phase {
    /// Waiting for what it needs: the network, and for a discretionary one Wi-Fi and
    /// power (modelled as the network and charging).
    case waiting
    case running(VirtualTimeScheduler.TimerID)
    /// Done, its result not yet delivered to the app.
    case finished(TransferOutcome)
    case delivered
  }

  var session: String
  var task: Int
  var discretionary: Bool
  var phase = Phase.waiting
}

/// Background `URLSession`s as iOS runs them (Apple, "Downloading files in the
/// background" and `URLSessionConfiguration.background(withIdentifier:)`):
///
/// - transfers run out of process on the virtual clock, for a duration drawn from the
///   seed (``SimulationConfiguration/transferDuration``, or a fault plan's hours), and
///   succeed unless the fault plan fails them (``FaultPlan/transferFailurePercent``),
///   while the network is up; a
///   discretionary one, and any started while the app is in the background ("the
///   system assumes this property is true"), also waits for power;
/// - they go on while the app is suspended and after the system terminates it; a user's
///   force-quit cancels them ("If the user terminates the app from the multitasking
///   screen, the system cancels all of the session's background transfers");
/// - a result is delivered to the session's delegate when the app runs and holds the
///   session; otherwise, once all the session's transfers are done, the system wakes
///   the app (launching it in the background after a termination by the system, not
///   after a force-quit) and calls `handleEventsForBackgroundURLSession`: the app must
///   create the session to receive the results, then `urlSessionDidFinishEvents` is
///   called, and the app stays awake until it calls the completion handler or its
///   background time runs out (then it is suspended, the handler owed:
///   `net-handler-not-called`).
extension SimulatedSystem: BackgroundTransfers {
  /// Records `net.create`; the first delegate of a session in a process stays (URLSession
  /// returns the existing session). Results waiting for the session are delivered.
  public func session(identifier: String, discretionary: Bool, delegate: any BackgroundSessionDelegate)
    -> any BackgroundSession
  {
    record(.netCreate(session: identifier))
    if sessionDelegates[identifier] == nil { sessionDelegates[identifier] = delegate }
    scheduler.schedule(after: .zero) { [self] in deliverResults(of: identifier) }
    return PlatformSession(identifier: identifier) { [unowned self] kind in
      startTransfer(session: identifier, kind: kind, discretionary: discretionary)
    }
  }

  /// Starts transfer number `n` of `session`: `net.submit`, then out of process.
  func startTransfer(session: String, kind: TransferKind, discretionary: Bool) -> Int {
    let task = transferCounters[session, default: 0] + 1
    transferCounters[session] = task
    // Started in the background, the system treats it as discretionary.
    let discretionary = discretionary || appState == .background
    record(.netSubmit(session: session, task: task, kind: kind, discretionary: discretionary ? true : nil))
    transfers.append(SimulatedTransfer(session: session, task: task, discretionary: discretionary))
    startWaitingTransfers()
    return task
  }

  /// Starts every waiting transfer whose conditions hold; pauses the running ones whose
  /// network went away (they resume, from the start of their duration, when it is back).
  func startWaitingTransfers() {
    for index in transfers.indices {
      let transfer = transfers[index]
      let mayRun = networkAvailable && (!transfer.discretionary || charging)
      switch transfer.phase {
      case .waiting where mayRun:
        let duration =
          faults.transferDuration.map { randomDuration(in: $0, using: &faultRandom) }
          ?? randomDuration(in: configuration.transferDuration, using: &random)
        let fails =
          faults.transferFailurePercent > 0
          && Int(faultRandom.next() % 100) < faults.transferFailurePercent
        let timer = scheduler.schedule(after: duration) { [self] in
          finishTransfer(session: transfer.session, task: transfer.task, outcome: fails ? .failed : .success)
        }
        transfers[index].phase = .running(timer)
      case .running(let timer) where !mayRun:
        scheduler.cancel(timer)
        transfers[index].phase = .waiting
      default:
        break
      }
    }
  }

  /// The transfer ended out of process: delivered now if the app can take it, else when
  /// it holds the session; the last of a session's transfers wakes the app for them.
  func finishTransfer(session: String, task: Int, outcome: TransferOutcome) {
    guard let index = transfers.firstIndex(where: { $0.session == session && $0.task == task }) else { return }
    transfers[index].phase = .finished(outcome)
    if appRuns, sessionDelegates[session] != nil, !wokenSessions.contains(session) {
      deliverResults(of: session)
      return
    }
    let inFlight = transfers.contains {
      guard $0.session == session else { return false }
      switch $0.phase {
      case .waiting, .running: return true
      case .finished, .delivered: return false
      }
    }
    if !inFlight && !quitByUser { wake(for: session) }
  }

  /// `handleEventsForBackgroundURLSession`: launches or resumes the app in the
  /// background and hands it the completion handler.
  func wake(for session: String) {
    // An app in the foreground gets the results when it creates the session: no wake.
    guard !appInForeground else { return }
    // The launch for the wake comes first; the results wait for the wake, as on a device
    // (handleEventsForBackgroundURLSession, then the session's delegate).
    wakingSessions.insert(session)
    wakeForBackgroundWork()
    wakingSessions.remove(session)
    guard processRunning else { return }
    wokenSessions.insert(session)
    eventsOwed.insert(session)
    record(.netWake(session: session))
    appDelegate?.handleEvents(forBackgroundSession: session) { [self] in
      // Called from the app's code on the simulation's thread.
      record(.netHandler(session: session))
      wokenSessions.remove(session)
      suspendIfIdle(after: configuration.suspensionDelay)
    }
    // The wake's background time: unanswered by then, the app is suspended anyway.
    scheduler.schedule(after: configuration.budget) { [self] in
      guard wokenSessions.remove(session) != nil else { return }
      suspendIfIdle(after: .zero)
    }
    if sessionDelegates[session] != nil { deliverResults(of: session) }
  }

  /// Delivers the session's finished transfers to its delegate, then, in a wake,
  /// `urlSessionDidFinishEvents`.
  func deliverResults(of session: String) {
    guard appRuns, !wakingSessions.contains(session), let delegate = sessionDelegates[session] else { return }
    for index in transfers.indices where transfers[index].session == session {
      guard case .finished(let outcome) = transfers[index].phase else { continue }
      transfers[index].phase = .delivered
      record(.netFinish(session: session, task: transfers[index].task, outcome: outcome))
      delegate.transferDidComplete(session: session, task: transfers[index].task, outcome: outcome)
    }
    if eventsOwed.remove(session) != nil {
      record(.netEventsDone(session: session))
      delegate.sessionDidFinishEvents(session: session)
    }
  }

  /// A force-quit cancels every transfer not finished; the app learns of it when it
  /// next creates the session.
  func cancelTransfers() {
    for index in transfers.indices {
      switch transfers[index].phase {
      case .running(let timer):
        scheduler.cancel(timer)
        transfers[index].phase = .finished(.cancelled)
      case .waiting:
        transfers[index].phase = .finished(.cancelled)
      case .finished, .delivered:
        break
      }
    }
  }
}

/// A background session whose transfers its platform (the simulation, a replay) starts.
final class PlatformSession: BackgroundSession, @unchecked Sendable {
  let identifier: String
  private let start: (TransferKind) -> Int

  init(identifier: String, start: @escaping (TransferKind) -> Int) {
    self.identifier = identifier
    self.start = start
  }

  func startTransfer(_ request: TransferRequest) -> Int? { start(request.kind) }
}
