import BackgroundTrace
import _BackgroundTraceStorage

/// What the rules do for a trace imported from a device log (`meta source=ios-log` or
/// `source=android-log`, docs/rules.md#imported-logs): a log is cut at its first and
/// last lines, and what the cuts cause is not the app's fault.
///
/// - At the start: in the process the trace starts in (the implicit one), the first
///   `task.end` of an id the trace never began ended a task begun before the log, and is
///   quiet (a second end of it is a double end); a `work.result` of a work the trace
///   never started is the result of an attempt started before the log, and is quiet;
///   registrations are not in the log (BackgroundTasks writes them at DEBUG), so
///   `sched-unregistered` is reported only for an identifier whose registration the
///   trace says failed (`sched.register ok=false`, what BackgroundTasks' `No launch
///   handler registered` becomes).
/// - At the end: a task or run still open when the trace ends, and not expired, is
///   open, not leaked or never completed. An expired one is still reported: its
///   expiration handler ran inside the log.
struct LogCapture: Sendable {
  /// Whether the trace was imported from a device log.
  let isActive: Bool
  /// Ids of the implicit process ended with no begin, and when.
  var endsBeforeBegin: [Int: TraceTime] = [:]
  /// Works the trace started (the recent ones, when ``CheckerConfiguration`` bounds what
  /// finished work is remembered).
  var startedWorks: RecentSet<String>
  /// Identifiers whose registration failed in the current process.
  var failedRegistrations: Set<String> = []

  init(meta: TraceMetadata, workMemory: Int? = nil) {
    isActive = meta["source"].map { TraceMetadata.logSources.contains($0) } ?? false
    startedWorks = RecentSet(generation: workMemory)
  }

  init(isActive: Bool) {
    self.isActive = isActive
    startedWorks = RecentSet()
  }
}

extension CheckerRules {
  /// Whether a `task.end` matching no task is quiet: the first end, in the implicit
  /// process of a log capture, of an id never begun. A second end of such an id is
  /// reported as a double end.
  mutating func endsTaskBegunBeforeLog(_ id: Int, in process: ProcessLife) -> Bool {
    guard logCapture.isActive, process.implicit else { return false }
    if let first = logCapture.endsBeforeBegin[id] {
      report(.taskDoubleEnd, "task \(id) ended twice (first end at \(first.seconds))")
      return true
    }
    logCapture.endsBeforeBegin[id] = now
    return true
  }

  /// Whether a `work.result` matching no running attempt is quiet: in a log capture,
  /// for a work the trace never started.
  func resultOfAttemptBeforeLog(_ work: String) -> Bool {
    logCapture.isActive && !logCapture.startedWorks.contains(work)
  }

  /// Whether an unregistered submit or launch is quiet: in a log capture, unless the
  /// trace says the identifier's registration failed.
  func registrationNotInLog(_ ident: String) -> Bool {
    logCapture.isActive && !logCapture.failedRegistrations.contains(ident)
  }

  /// Whether closing an open task or run is quiet: in a log capture, at the trace's
  /// end, when it never expired.
  func openAtLogEnd(_ end: ProcessEnd, expired: Bool) -> Bool {
    logCapture.isActive && end == .traceEnded && !expired
  }
}
