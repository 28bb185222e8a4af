import BackgroundTrace
import _BackgroundTraceStorage

/// What must happen by a time: a task ends within the grace period after its
/// expiration, a task open in the background ends or expires within the budget, an
/// expired run completes within the grace period, a background session's completion
/// handler is called within the budget after its events are done.
extension CheckerRules {
  /// Something that must happen by a time.
  enum Deadline: Sendable {
    /// A task expired: it must end within the grace period.
    case taskEnd(process: Int, id: Int)
    /// A task open in the background: it must end or expire within the budget.
    case taskBudget(process: Int, epoch: Int, id: Int)
    /// A run expired: it must complete within the grace period.
    case runComplete(run: Int)
    /// A continued-processing run's progress moved (or it launched) at `since`: it must
    /// move again within the stall window.
    case runProgress(run: Int, since: TraceTime)
    /// A background session's events were done: its completion handler must be called
    /// within the budget.
    case sessionHandler(process: Int, session: String, eventsDoneAt: TraceTime)
    /// A service was started to go foreground: it must within the deadline.
    case servicePromotion(process: Int, service: String, startedAt: TraceTime)
    /// A foreground service's `onTimeout` ran: it must stop within 10 s.
    case serviceStop(process: Int, service: String, timedOutAt: TraceTime)
  }

  /// Adds a deadline due at `time`.
  mutating func insertDeadline(_ deadline: Deadline, at time: TraceTime) {
    deadlines.insert(deadline, at: time)
    nextDeadline = min(nextDeadline, time)
  }

  /// Reports the deadlines that passed before `time` and were not met: their findings
  /// show at the event at `time`. (Call it only when ``nextDeadline`` is before `time`.)
  ///
  /// It reads the walker's open tasks and runs and its running process (`nil` when none
  /// runs), not the whole walker: passed as an argument, the walker was copied, a few
  /// kilobytes, at every call.
  mutating func passDeadlines(
    before time: TraceTime, tasks: borrowing OpenTaskTable, runs: borrowing IntKeyedTable<RunLife>,
    sessions: borrowing StringKeyedTable<SessionLife>, services: borrowing StringKeyedTable<ServiceLife>,
    running: ProcessLife?
  ) {
    while let (due, deadline) = deadlines.popPassed(before: time) {
      now = time
      switch deadline {
      case .taskEnd(let process, let id):
        expireTaskEnd(process: process, id: id, due: due, tasks: tasks, running: running)
      case .taskBudget(let process, let epoch, let id):
        expireTaskBudget(process: process, epoch: epoch, id: id, tasks: tasks, running: running)
      case .runComplete(let run):
        expireRun(run, due: due, runs: runs)
      case .runProgress(let run, let since):
        guard let life = runs[run], life.expiredAt == nil, life.progressedAt == since else { continue }
        reportStall(run, life, at: due)
      case .sessionHandler(let process, let session, let eventsDoneAt):
        expireSessionHandler(
          process: process, session: session, eventsDoneAt: eventsDoneAt, sessions: sessions, running: running)
      case .servicePromotion(let process, let service, let startedAt):
        expireServicePromotion(
          process: process, service: service, startedAt: startedAt, services: services, running: running)
      case .serviceStop(let process, let service, let timedOutAt):
        expireServiceStop(
          process: process, service: service, timedOutAt: timedOutAt, services: services, running: running)
      }
    }
    nextDeadline = deadlines.firstTime ?? .max
  }

  private mutating func expireTaskEnd(
    process: Int, id: Int, due: TraceTime, tasks: borrowing OpenTaskTable, running: ProcessLife?
  ) {
    guard let running, running.number == process, let task = tasks[id],
      let expiredAt = task.expiredAt, expiredAt + grace == due,
      reportedTasks.insert(id).inserted
    else { return }
    report(
      .taskExpiredNotEnded,
      "\(task.describe(id: id)) was not ended within \(grace.seconds) of its expiration at \(expiredAt.seconds)")
  }

  private mutating func expireTaskBudget(
    process: Int, epoch: Int, id: Int, tasks: borrowing OpenTaskTable, running: ProcessLife?
  ) {
    guard let running, running.number == process, running.backgroundEpoch == epoch,
      let task = tasks[id], task.expiredAt == nil, let since = running.backgroundSince,
      overBudgetTasks.insert(id).inserted
    else { return }
    report(
      .taskOverBudget,
      "\(task.describe(id: id)) stayed open more than the \(budget.seconds) background budget (in the background since \(max(since, task.begin).seconds)) with no expiration"
    )
  }

  private mutating func expireRun(_ run: Int, due: TraceTime, runs: borrowing IntKeyedTable<RunLife>) {
    guard let life = runs[run], let expiredAt = life.expiredAt,
      expiredAt + grace == due, reportedRuns.insert(run).inserted
    else { return }
    report(
      .schedNotCompleted,
      "run \(run) (\(life.identifier), launched at \(life.launchedAt.seconds)) was not completed within \(grace.seconds) of its expiration at \(expiredAt.seconds)\(Self.expiredReason(life.expiredBy))"
    )
  }
}

extension CheckerRules {
  /// What a finding adds about why a run expired, when the trace says.
  static func expiredReason(_ reason: ExpirationReason?) -> String {
    switch reason {
    case nil: ""
    case .stalled: " (it reported no progress: stalled)"
    case .user: " (the user cancelled it)"
    }
  }
}
