public import BackgroundTrace

/// One background transfer: it runs out of process, so it outlives the app's process,
/// and its result waits for the app to hold its session again.
struct SimulatedTransfer {
  enum Phase {
    /// Waiting for what it needs: the network, and for a discretionary one Wi-Fi and
    /// power (an unmetered network, and charging).
    case waiting
    case running(VirtualTimeScheduler.TimerID)
    /// Done, its result not yet delivered to the app.
    case finished(TransferOutcome)
    case delivered
  }

  var session: String
  var task: Int
  var discretionary: Bool
  /// When the resume rate limiter lets it begin: set for a discretionary transfer
  /// started while the limiter's delay is running.
  var notBefore: TraceTime?
  var phase = Phase.waiting

  /// Whether it still waits or runs.
  var inFlight: Bool {
    switch phase {
    case .waiting, .running: true
    case .finished, .delivered: false
    }
  }

  /// Its outcome, while done and not yet delivered.
  var undeliveredOutcome: TransferOutcome? {
    guard case .finished(let outcome) = phase else { return nil }
    return outcome
  }
}

/// Background `URLSession`s as iOS runs them (docs/platform-model.md, "Background
/// URLSession transfers"):
///
/// - transfers run out of process on the virtual clock, for a duration drawn from the
///   seed (``SimulationConfiguration/transferDuration``, or a fault plan's hours), and
///   succeed unless the fault plan fails them (``FaultPlan/transferFailurePercent``),
///   while the network is up; a discretionary one, and any started while the app is in
///   the background ("the system assumes this property is true"), also waits for Wi-Fi
///   (an unmetered network, `env.set metered=false`) and power;
/// - they go on while the app is suspended and after the system terminates it; a user's
///   force-quit cancels them ("If the user terminates the app from the multitasking
///   screen, the system cancels all of the session's background transfers");
/// - how a result reaches the app — at once, or by a wake and then event by event — is
///   in `SimulatedSystem+TransferEvents.swift`.
extension SimulatedSystem: BackgroundTransfers {
  /// Records `net.create`; the first delegate of a session in a process stays (URLSession
  /// returns the existing session). Results waiting for the session are delivered: at
  /// once, or in a wake event by event.
  public func session(identifier: String, discretionary: Bool, delegate: any BackgroundSessionDelegate)
    -> any BackgroundSession
  {
    record(.netCreate(session: identifier))
    if sessionDelegates[identifier] == nil { sessionDelegates[identifier] = delegate }
    // URLSession calls its delegate on the delegate queue: after this call returns.
    scheduler.schedule(after: .zero) { [self] in sessionCreated(identifier) }
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
    var transfer = SimulatedTransfer(session: session, task: task, discretionary: discretionary)
    // nsurlsessiond adds its request delay to a discretionary task ("When your app
    // creates a new task while it is in the background, the task does not start until
    // that delay has expired"), and looks again when it has passed.
    if discretionary && transferRequestDelay > .zero {
      let notBefore = now + TraceInterval(transferRequestDelay)
      transfer.notBefore = notBefore
      scheduler.schedule(at: notBefore) { [self] in startWaitingTransfers() }
    }
    transfers.append(transfer)
    startWaitingTransfers()
    return task
  }

  /// Starts every waiting transfer whose conditions hold; pauses the running ones whose
  /// network went away (they resume, from the start of their duration, when it is back).
  func startWaitingTransfers() {
    for index in transfers.indices {
      let transfer = transfers[index]
      let mayRun =
        networkAvailable && (!transfer.discretionary || (charging && !networkMetered))
        && transfer.notBefore.map { now >= $0 } ?? true
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

  /// The transfer ended out of process; its result goes to the app as
  /// ``resultReady(session:)`` decides.
  func finishTransfer(session: String, task: Int, outcome: TransferOutcome) {
    guard let index = transfers.firstIndex(where: { $0.session == session && $0.task == task }) else { return }
    transfers[index].phase = .finished(outcome)
    resultReady(session: session)
  }

  /// The resume rate limiter at a wake that resumed or relaunched the app: the delay
  /// starts at ``SimulationConfiguration/transferResumeDelay`` and doubles at each later
  /// wake up to ``SimulationConfiguration/transferResumeDelayCap`` (iOS 26.1
  /// `nsurlsessiond`: "Set request delay for %@ to %f", 60 s, then twice the last, at
  /// most 3600 s), and is reset when twice the delay passes without another wake (its
  /// timer there; Apple: "It also resets if the delay period elapses without the system
  /// resuming or relaunching your app", the later reading).
  func noteTransferWake() {
    guard let first = configuration.transferResumeDelay else { return }
    transferRequestDelay =
      transferRequestDelay == .zero ? first : min(transferRequestDelay * 2, configuration.transferResumeDelayCap)
    if let timer = transferDelayReset { scheduler.cancel(timer) }
    transferDelayReset = scheduler.schedule(after: transferRequestDelay * 2) { [self] in
      transferDelayReset = nil
      transferRequestDelay = .zero
    }
  }

  /// The user brought the app to the front: the limiter's delay is back to zero
  /// ("The delay is reset to 0 whenever the user brings your app to the foreground").
  func resetTransferRequestDelay() {
    transferRequestDelay = .zero
    if let timer = transferDelayReset { scheduler.cancel(timer) }
    transferDelayReset = nil
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
package final class PlatformSession: BackgroundSession, @unchecked Sendable {
  package let identifier: String
  private let start: (TransferKind) -> Int

  package init(identifier: String, start: @escaping (TransferKind) -> Int) {
    self.identifier = identifier
    self.start = start
  }

  package func startTransfer(_ request: TransferRequest) -> Int? { start(request.kind) }
}
