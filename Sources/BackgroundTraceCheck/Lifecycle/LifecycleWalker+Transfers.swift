import BackgroundTrace
import _BackgroundTraceStorage

/// Background `URLSession`s: a session belongs to the process that creates it; a wake
/// (`net.wake`, the system calling `handleEventsForBackgroundURLSession`) owes the
/// session's completion handler one call (`net.handler`) until its process is
/// suspended or ends; a process woken for a session must create it to receive its
/// events (docs/rules.md, "Background transfers").
extension LifecycleWalker {
  mutating func createSession(_ session: String, into observer: inout some LifecycleObserver) {
    var life = sessions[session] ?? SessionLife()
    let first = life.createdAt
    if first == nil { life.createdAt = now }
    sessions[session] = life
    observer.observe(.sessionCreated(session: session, first: first), in: process)
  }

  mutating func wakeSession(_ session: String, into observer: inout some LifecycleObserver) {
    var life = sessions[session] ?? SessionLife()
    life.wokenAt = now
    life.eventsDoneAt = nil
    if life.firstWakeAt == nil { life.firstWakeAt = now }
    sessions[session] = life
    observer.observe(.sessionWoken(session: session), in: process)
  }

  mutating func finishSessionEvents(_ session: String, into observer: inout some LifecycleObserver) {
    var life = sessions[session] ?? SessionLife()
    if life.wokenAt != nil { life.eventsDoneAt = now }
    sessions[session] = life
    observer.observe(.sessionEventsDone(session: session, wokenAt: life.wokenAt), in: process)
  }

  mutating func callSessionHandler(_ session: String, into observer: inout some LifecycleObserver) {
    var life = sessions[session] ?? SessionLife()
    let (wokenAt, eventsDoneAt) = (life.wokenAt, life.eventsDoneAt)
    life.wokenAt = nil
    life.eventsDoneAt = nil
    sessions[session] = life
    observer.observe(.handlerCalled(session: session, wokenAt: wokenAt, eventsDoneAt: eventsDoneAt), in: process)
  }

  /// Ends the outstanding wakes, which the app can no longer answer once suspended or
  /// ended; when the process ends, also reports the sessions it was woken for and never
  /// created, and forgets its sessions. A wake of a session the process never created
  /// is reported as not recreated, the root cause, not as a handler not called.
  mutating func closeSessions(_ end: ProcessEnd, into observer: inout some LifecycleObserver) {
    guard !sessions.isEmpty else { return }  // spares sorting (and allocating) no keys
    for session in sessions.keys.sorted() {
      guard var life = sessions[session] else { continue }
      if life.createdAt == nil, !life.notRecreatedReported, let wokenAt = life.firstWakeAt,
        life.wokenAt != nil || end != .suspended
      {
        observer.observe(.sessionNotRecreated(session: session, wokenAt: wokenAt, end), in: process)
        life.notRecreatedReported = true
      } else if let wokenAt = life.wokenAt, life.createdAt != nil {
        observer.observe(
          .handlerNotCalled(session: session, wokenAt: wokenAt, eventsDoneAt: life.eventsDoneAt, end), in: process)
      }
      life.wokenAt = nil
      life.eventsDoneAt = nil
      sessions[session] = life
    }
    if end != .suspended { sessions.removeAll() }
  }
}
