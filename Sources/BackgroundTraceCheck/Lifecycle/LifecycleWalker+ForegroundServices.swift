import BackgroundTrace
import _BackgroundTraceStorage

/// Android's foreground services, workers promoted to the foreground, and expedited
/// work's quota: a service belongs to the process that starts it; `fgs.start` owes it a
/// `startForeground` (`fgs.foreground`); `fgs.timeout` owes it a stop (`fgs.stop`); a
/// refused start leaves nothing running; `work.refuse` and `work.quota` are handed on
/// (docs/rules.md, "Foreground services").
extension LifecycleWalker {
  /// Applies a foreground-service event (`fgs.*`, `work.foreground`, `work.refuse`,
  /// `work.quota`), or a temporary allowlist window (`app.allowlist`).
  mutating func applyForegroundService(_ kind: TraceEvent.Kind, into observer: inout some LifecycleObserver) {
    switch kind {
    case .fgsStart(let service): startService(service, into: &observer)
    case .fgsForeground(let service, let type): promoteService(service, type: type, into: &observer)
    case .fgsStop(let service):
      let life = services.removeValue(forKey: service)
      observer.observe(.serviceStopped(service: service, life), in: process)
    case .fgsRefuse(let service, let reason):
      _ = services.removeValue(forKey: service)
      observer.observe(.serviceRefused(service: service, reason), in: process)
    case .fgsTimeout(let service, let type):
      var life = services[service] ?? ServiceLife(foregroundAt: now)
      life.timedOutAt = now
      services[service] = life
      observer.observe(.serviceTimedOut(service: service, type), in: process)
    case .workForeground(let work, let attempt):
      observer.observe(.workPromoted(work: work, attempt: attempt, inBackground: startsInBackground), in: process)
    case .workRefuse(let work, let attempt, let reason):
      observer.observe(.workRefused(work: work, attempt: attempt, reason), in: process)
    case .workQuota(let work, let policy):
      observer.observe(.expeditedOutOfQuota(work: work, policy: policy), in: process)
    case .appAllowlist(_, let duration):
      let end = now + duration
      allowlistedUntil = max(allowlistedUntil ?? end, end)
    default:
      break
    }
  }

  private mutating func startService(_ service: String, into observer: inout some LifecycleObserver) {
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
  private var startsInBackground: Bool {
    (process.state == .background || process.state == .suspended)
      && !(leftForegroundAt.map { now <= $0 + AndroidRelease.foregroundToBackgroundGrace } ?? false)
      && !(allowlistedUntil.map { now < $0 } ?? false)
  }

  private mutating func promoteService(
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
  mutating func noteForegroundLeft(from previous: AppState?, to state: AppState) {
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
