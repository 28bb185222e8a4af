import BackgroundTrace

/// How a finished background transfer's result reaches the app (docs/platform-model.md,
/// "Background URLSession transfers"; Apple,
/// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`):
///
/// - at once, to the session's delegate, when the app runs and holds the session and is
///   in the foreground, or the session still has transfers in flight, or the session's
///   wake is under way;
/// - otherwise, once all of the session's transfers are done and the app is not in the
///   foreground, by a wake: "The app calls this method when all background transfers
///   associated with an URLSession object are done", also in an app that runs and holds
///   the session ("If your app already has a session object with the specified
///   identifier and is running or suspended, you do not need to create a new session
///   object"); a suspended app is resumed and a terminated one launched in the
///   background first;
/// - in a wake, once the app holds the session, event by event: each result, then
///   `urlSessionDidFinishEvents`, each its own step on the virtual clock,
///   ``SimulationConfiguration/transferEventDelay`` after the one before, so another
///   session's wake, or the user opening the app, can come in between.
///
/// The woken app stays awake until it calls the completion handler or its background
/// time runs out (then it is suspended, the handler owed: `net-handler-not-called`).
extension SimulatedSystem {
  /// The app created `session` (its `net.create` is recorded): in a wake for it, its
  /// events start coming; otherwise the results waiting for it are delivered at once.
  func sessionCreated(_ session: String) {
    if eventsOwed.contains(session) {
      deliverEvents(of: session)
    } else {
      deliverAtOnce(session)
    }
  }

  /// A transfer of `session` finished: its result goes to the app at once, waits for a
  /// delivery under way or for the session, or — the session's last — wakes the app.
  func resultReady(session: String) {
    // A wake's delivery under way hands this result over too, before its end.
    guard deliveries[session] == nil else { return }
    let inFlight = transfers.contains { $0.session == session && $0.inFlight }
    if appRuns, sessionDelegates[session] != nil, appInForeground || inFlight || wokenSessions[session] != nil {
      deliverAtOnce(session)
    } else if !inFlight && !quitByUser {
      wake(for: session)
    }
  }

  /// `handleEventsForBackgroundURLSession`: launches or resumes the app in the
  /// background, or finds it running there, and hands it the completion handler; the
  /// session's events follow once the app holds it.
  func wake(for session: String) {
    // An app in the foreground gets the results when it creates the session: no wake.
    guard !appInForeground else { return }
    // The launch for the wake comes first; the results wait for the wake, as on a device
    // (handleEventsForBackgroundURLSession, then the session's delegate).
    // A wake that resumes or relaunches the app moves the resume rate limiter; nothing
    // wakes an app that runs ("Not waking up client … since it's already connected").
    let resumes = !processRunning || appState == .suspended
    wakingSessions.insert(session)
    wakeForBackgroundWork()
    wakingSessions.remove(session)
    guard processRunning else { return }
    if resumes { noteTransferWake() }
    wakeCount += 1
    let wake = wakeCount
    wokenSessions[session] = wake
    eventsOwed.insert(session)
    record(.netWake(session: session))
    let completionHandler: @Sendable () -> Void = { [self] in
      // Called from the app's code on the simulation's thread; every call is recorded,
      // but only the first ends this wake (a later wake has a handler of its own), and
      // only that call moves the suspension: a call after the wake's time ran out (a
      // cancelled SwiftUI action returning) leaves the time-out's suspension as it is.
      record(.netHandler(session: session))
      guard wokenSessions[session] == wake else { return }
      wokenSessions[session] = nil
      suspendIfIdle(after: idleSuspensionDelay)
    }
    let actions = sessionActions.matching(session)
    if actions.isEmpty {
      appDelegate?.handleEvents(forBackgroundSession: session, completionHandler: completionHandler)
    } else {
      // SwiftUI's `.backgroundTask(.urlSession(…))` is the delegate: it calls the
      // completion handler when the actions return (docs/platform-model.md, "SwiftUI's
      // backgroundTask").
      sessionActionTasks[wake] = SessionActions.run(actions, for: session, on: actionExecutor) { [self] in
        sessionActionTasks[wake] = nil
        completionHandler()
      }
    }
    // The wake's background time: unanswered by then, the app is suspended anyway, and
    // SwiftUI's actions are cancelled.
    scheduler.schedule(after: configuration.budget) { [self] in
      guard wokenSessions[session] == wake else { return }
      wokenSessions[session] = nil
      sessionActionTasks[wake]?.cancel()
      suspendIfIdle(after: .zero)
    }
    if sessionDelegates[session] != nil { deliverEvents(of: session) }
  }

  /// In a wake: sends the session's next event after a delay drawn from
  /// ``SimulationConfiguration/transferEventDelay``, unless one is on its way already.
  func deliverEvents(of session: String) {
    guard deliveries[session] == nil else { return }
    let delay = randomDuration(in: configuration.transferEventDelay, using: &random)
    deliveries[session] = scheduler.schedule(after: delay) { [self] in
      deliveries[session] = nil
      deliverNextEvent(of: session)
    }
  }

  /// A woken session's next event: its next result not yet delivered, else
  /// `urlSessionDidFinishEvents`.
  private func deliverNextEvent(of session: String) {
    // Suspended (its background time ran out), the app takes no events; a later wake
    // delivers the rest.
    guard appRuns, let delegate = sessionDelegates[session] else { return }
    if let index = transfers.firstIndex(where: { $0.session == session && $0.undeliveredOutcome != nil }) {
      deliver(index, to: delegate)
      // The delegate's code may have ended the process, and the session with it.
      if sessionDelegates[session] != nil { deliverEvents(of: session) }
    } else if eventsOwed.remove(session) != nil {
      record(.netEventsDone(session: session))
      delegate.sessionDidFinishEvents(session: session)
    }
  }

  /// Delivers the session's waiting results now: the app runs and holds the session,
  /// and no wake's delivery of it is under way.
  func deliverAtOnce(_ session: String) {
    guard appRuns, !wakingSessions.contains(session), deliveries[session] == nil,
      let delegate = sessionDelegates[session]
    else { return }
    // Transfers the delegate starts meanwhile are appended past these indices.
    for index in transfers.indices where transfers[index].session == session {
      deliver(index, to: delegate)
    }
  }

  /// Hands transfer `index`'s result, if done and not yet delivered, to `delegate`:
  /// `net.finish`, then `urlSession(_:task:didCompleteWithError:)`.
  private func deliver(_ index: Int, to delegate: any BackgroundSessionDelegate) {
    guard let outcome = transfers[index].undeliveredOutcome else { return }
    transfers[index].phase = .delivered
    let (session, task) = (transfers[index].session, transfers[index].task)
    record(.netFinish(session: session, task: task, outcome: outcome))
    delegate.transferDidComplete(session: session, task: task, outcome: outcome)
  }

  /// A process ends, or a new one starts: sessions belong to the process that created
  /// them, so their delegates, wakes and deliveries go with it; the transfers stay.
  func forgetSessions() {
    sessionDelegates.removeAll()
    sessionActions.removeAll()
    // The process's executor is retired with it: the actions never resume.
    sessionActionTasks.removeAll()
    wokenSessions.removeAll()
    eventsOwed.removeAll()
    // Cancelling is the same in any order, so the dictionary's order does not matter.
    for timer in deliveries.values { scheduler.cancel(timer) }
    deliveries.removeAll()
  }
}
