import BackgroundSimulation
public import BackgroundTrace

/// Foreground services in a replay: the app's calls are recorded, a refusal comes from
/// the recording (the `fgs.refuse` after the same call), and the recorded `fgs.timeout`
/// calls the service's `onTimeout` at its time.
extension ReplayPlatform: ForegroundServices {
  /// Records `fgs.start`; refused as the recording refused this call, else the service's
  /// `onStartCommand` runs next.
  public func startForegroundService(_ name: String, _ service: any ForegroundService) throws(ForegroundServiceError) {
    record(.fgsStart(service: name))
    if let reason = nextServiceAnswer() {
      record(.fgsRefuse(service: name, reason: reason))
      throw ForegroundServiceError(reason, service: name)
    }
    services[name] = service
    let control = ForegroundServiceControl(name: name, services: self)
    scheduler.schedule(after: .zero) { service.onStartCommand(control) }
  }

  /// Records `fgs.foreground`; refused as the recording refused this call.
  public func startForeground(_ name: String, type: ForegroundServiceType?) throws(ForegroundServiceError) {
    record(.fgsForeground(service: name, type: type))
    if let reason = nextServiceAnswer() {
      record(.fgsRefuse(service: name, reason: reason))
      throw ForegroundServiceError(reason, service: name)
    }
  }

  /// Records `fgs.stop` and forgets the service.
  public func stopService(_ name: String) {
    record(.fgsStop(service: name))
    services[name] = nil
  }

  /// Records `work.foreground` for the running attempt's `setForeground`, answered as the
  /// recording answered it: its `work.refuse`, if any, and a throw for a refusal that
  /// throws to the worker (``/BackgroundTrace/ForegroundServiceRefusal/throwsToCaller``).
  func promoteWorker(_ work: String, attempt: Int) throws(ForegroundServiceError) {
    record(.workForeground(work: work, attempt: attempt))
    defer { workForegroundAnswerIndex += 1 }
    guard workForegroundAnswerIndex < script.workForegroundAnswers.count,
      let reason = script.workForegroundAnswers[workForegroundAnswerIndex]
    else { return }
    record(.workRefuse(work: work, attempt: attempt, reason: reason))
    if reason.throwsToCaller { throw ForegroundServiceError(reason, service: work) }
  }

  /// The recorded refusal of the next start or `startForeground` call, in call order.
  private func nextServiceAnswer() -> ForegroundServiceRefusal? {
    defer { serviceAnswerIndex += 1 }
    return serviceAnswerIndex < script.serviceAnswers.count ? script.serviceAnswers[serviceAnswerIndex] : nil
  }
}
