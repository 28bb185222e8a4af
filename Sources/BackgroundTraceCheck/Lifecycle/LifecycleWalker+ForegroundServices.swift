import BackgroundTrace
import _BackgroundTraceStorage

/// Android's foreground services, workers promoted to the foreground, and expedited
/// work's quota: a service belongs to the process that starts it; `fgs.start` owes it a
/// `startForeground` (`fgs.foreground`); `fgs.timeout` owes it a stop (`fgs.stop`); a
/// refused start leaves nothing running; `work.refuse` and `work.quota` are handed on
/// (docs/rules.md, "Foreground services").
extension LifecycleWalker {
  /// `fgs.stop`: the service is gone, foreground or not.
  mutating func stopService(_ service: String, into observer: inout some LifecycleObserver) {
    let life = services.removeValue(forKey: service)
    observer.observe(.serviceStopped(service: service, life), in: process)
  }

  /// `fgs.refuse`: the start threw, so nothing runs.
  mutating func refuseService(
    _ service: String, _ reason: ForegroundServiceRefusal, into observer: inout some LifecycleObserver
  ) {
    _ = services.removeValue(forKey: service)
    observer.observe(.serviceRefused(service: service, reason), in: process)
  }

  /// `fgs.timeout`: the service now owes a stop.
  mutating func timeOutService(
    _ service: String, _ type: ForegroundServiceType, into observer: inout some LifecycleObserver
  ) {
    var life = services[service] ?? ServiceLife(foregroundAt: now)
    life.timedOutAt = now
    services[service] = life
    observer.observe(.serviceTimedOut(service: service, type), in: process)
  }

  /// `work.foreground`: a running worker's `setForeground`, from the background or not.
  /// A call for an attempt that is not running promotes nothing: its `work.refuse
  /// reason=not-running` follows.
  mutating func promoteWork(_ work: String, attempt: Int, into observer: inout some LifecycleObserver) {
    guard let index = works.index(forKey: work, StableHash(work)),
      works.update(at: index, { $0.running?.attempt == attempt })
    else { return }
    observer.observe(.workPromoted(work: work, attempt: attempt, inBackground: startsInBackground), in: process)
  }

  /// `app.allowlist`: the app may start foreground services from the background until
  /// the window ends.
  mutating func allowlist(for duration: TraceInterval) {
    let end = now + duration
    allowlistedUntil = max(allowlistedUntil ?? end, end)
  }

  mutating func startService(_ service: String, into observer: inout some LifecycleObserver) {
    var life = services[service] ?? ServiceLife()
    // A second start of a service already foreground owes nothing new: it is foreground.
    if life.foregroundAt == nil && life.awaitingForegroundSince == nil { life.awaitingForegroundSince = now }
    services[service] = life
    observer.observe(.serviceStarted(service: service, inBackground: startsInBackground), in: process)
  }

  /// Whether a foreground service started now is started from the background: the app
  /// is in the background (or suspended), left the foreground more than the 5 s grace
  /// ago (`AndroidRelease.foregroundToBackgroundGrace`) or never was in it, and is not
  /// on the temporary allowlist (an `app.allowlist` window, its end excluded).
  ///
  /// Inlined: called out of line from a step whose observer is `inout`, it was handed a
  /// copy of the whole walker (some 2.5 kB).
  private var startsInBackground: Bool {
    @inline(__always) get {
      (process.state == .background || process.state == .suspended)
        && !(leftForegroundAt.map { now <= $0 + AndroidRelease.foregroundToBackgroundGrace } ?? false)
        && !(allowlistedUntil.map { now < $0 } ?? false)
    }
  }

  mutating func promoteService(
    _ service: String, type: ForegroundServiceType?, into observer: inout some LifecycleObserver
  ) {
    var life = services[service] ?? ServiceLife()
    life.awaitingForegroundSince = nil
    if life.foregroundAt == nil { life.foregroundAt = now }
    services[service] = life
    observer.observe(.servicePromoted(service: service, type: type), in: process)
  }

  /// Notes when the app left the foreground for the background (`from` active or
  /// inactive); a launch into the background, or waking from suspension, is no leaving.
  mutating func noteForegroundLeft(from previous: AppLifecycleState?, to state: AppLifecycleState) {
    switch state {
    case .background where previous == .active || previous == .inactive: leftForegroundAt = now
    case .active, .inactive: leftForegroundAt = nil
    case .background, .suspended: break
    }
  }

  /// Ends the process's services with it (not at a suspension: an Android process is
  /// not suspended while a foreground service runs).
  mutating func closeServices(_ end: ProcessEnd, into observer: inout some LifecycleObserver) {
    if end != .suspended { leftForegroundAt = nil }
    guard end != .suspended, !services.isEmpty else { return }  // spares sorting (and allocating) no keys
    for service in services.keys.sorted() {
      guard let life = services[service] else { continue }
      observer.observe(.serviceClosed(service: service, life, end), in: process)
    }
    services.removeAll()
  }
}
