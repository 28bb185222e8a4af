public import BackgroundTrace

/// Checks a trace against the rules in one streaming pass.
///
/// Feed it located events in order with ``check(_:into:)`` and call ``finish(into:)``
/// at the end; findings come out in trace order. What is alive is decided by the
/// lifecycle walker the checker reads (docs/rules.md#how-the-checker-reads-a-trace);
/// the checker adds only the deadlines and what it has already reported. Memory grows
/// with what is alive plus compact records of what finished, never with the number of
/// events.
///
/// ```swift
/// var checker = TraceChecker(meta: reader.meta)
/// var findings: [Finding] = []
/// while let located = try reader.next() { checker.check(located, into: &findings) }
/// checker.finish(into: &findings)
/// ```
public struct TraceChecker: Sendable {
  /// What the checker assumes.
  public let configuration: CheckerConfiguration
  let budget: TraceInterval
  let grace: TraceInterval

  /// What is alive: the one lifecycle model.
  package private(set) var walker = LifecycleWalker()
  /// What the latest event (or ``finish(into:)``) changed, for readers that draw or
  /// count what the checker judged.
  package private(set) var transitions: [LifecycleTransition] = []

  // Where we are.
  var now = TraceTime.zero
  var location = 0

  // What was already reported, so one root cause gives one finding.
  var reportedAfterTerminate = false
  /// Tasks of the current process reported as expired and not ended: their closing is quiet.
  var reportedTasks: Set<Int> = []
  /// Tasks of the current process reported as over budget.
  var overBudgetTasks: Set<Int> = []
  /// Runs reported as not completed: their closing and a later complete are quiet.
  var reportedRuns: Set<Int> = []
  /// Works reported past their attempt limit, until an enqueue starts them afresh.
  var retryLimitReported: Set<String> = []

  private var deadlines = DeadlineQueue<Deadline>()
  /// The earliest pending deadline: most events come before it, and comparing with it
  /// spares them a call into the (unspecialized, cross-module) queue, a fifth of the
  /// checker's time per event when measured with `perf` on the benchmark's workload.
  private var nextDeadline = TraceTime.max

  /// Adds a deadline due at `time`.
  mutating func insertDeadline(_ deadline: Deadline, at time: TraceTime) {
    deadlines.insert(deadline, at: time)
    nextDeadline = min(nextDeadline, time)
  }

  /// Creates a checker for a trace with `meta` (its `budget=` applies unless overridden).
  public init(configuration: CheckerConfiguration = CheckerConfiguration(), meta: TraceMetadata = TraceMetadata()) {
    self.configuration = configuration
    self.budget = configuration.budget(for: meta)
    self.grace = configuration.grace
  }

  /// Checks the next event, appending any findings it shows to `findings`.
  ///
  /// - Complexity: amortized O(log *a*) in what is alive.
  public mutating func check(_ located: LocatedEvent, into findings: inout [Finding]) {
    location = located.location
    let time = located.event.time
    if nextDeadline < time {
      while let (due, deadline) = deadlines.popPassed(before: time) {
        // The finding of a deadline that passed between events shows at the next event.
        now = time
        expire(deadline, due: due, into: &findings)
      }
      nextDeadline = deadlines.firstTime ?? .max
    }
    now = time
    var pending: [LifecycleTransition] = []
    swap(&pending, &transitions)  // reuse the buffer's storage without copying it
    // One or two transitions per event: removing them one by one destroys each inline,
    // where `removeAll(keepingCapacity:)` goes through the runtime's generic array
    // destroy, a tenth of the checker's time (perf on bgtrace-bench, "checker cost").
    while !pending.isEmpty { pending.removeLast() }
    walker.apply(located.event, into: &pending)  // borrowed: the event is not copied
    for transition in pending { handle(transition, into: &findings) }
    swap(&pending, &transitions)
  }

  /// Reports what is still open when the trace ends, at the last event.
  public mutating func finish(into findings: inout [Finding]) {
    // Deadlines still ahead have not passed: an expired task or run still open is
    // reported as the process ends; a budget not yet spent is no finding.
    var pending: [LifecycleTransition] = []
    walker.finish(into: &pending)
    for transition in pending { handle(transition, into: &findings) }
    transitions = pending
  }

  /// Checks a whole trace.
  ///
  /// - Complexity: O(*n* log *a*).
  public static func check(_ trace: Trace, configuration: CheckerConfiguration = CheckerConfiguration()) -> [Finding] {
    var checker = TraceChecker(configuration: configuration, meta: trace.meta)
    var findings: [Finding] = []
    for (index, event) in trace.events.enumerated() {
      checker.check(LocatedEvent(event: event, location: index + 1), into: &findings)
    }
    checker.finish(into: &findings)
    return findings
  }

  mutating func report(_ rule: Rule, _ message: String, into findings: inout [Finding]) {
    guard configuration.rules.contains(rule) else { return }
    findings.append(Finding(rule: rule, location: location, time: now, message: message))
  }

  private mutating func handle(_ transition: LifecycleTransition, into findings: inout [Finding]) {
    switch transition {
    case .processStarted:
      reportedAfterTerminate = false
      reportedTasks.removeAll()
      overBudgetTasks.removeAll()
    case .stateChanged(let from, let to):
      if to == .background && from != .background { startBudgets() }
    case .processEnded:
      break
    case .actionWithoutProcess(let kind, let terminatedAt, let reason):
      guard !reportedAfterTerminate else { return }
      reportedAfterTerminate = true  // one root cause: the rest of this process's actions are not checked
      let why = reason.map { " (reason: \($0))" } ?? ""
      report(
        .eventAfterTerminate,
        "\(kind.tag.name) after the app terminated at \(terminatedAt.seconds)\(why) and before a new app.launch",
        into: &findings)
    case .taskBegun(let id, _): taskBegun(id)
    case .taskEnded(let id, _): forgetReports(ofTask: id)
    case .taskEndUnmatched(let id, let mismatch): taskEndUnmatched(id, mismatch, into: &findings)
    case .taskExpired(let id, _):
      insertDeadline(.taskEnd(process: walker.process.number, id: id), at: now + grace)
    case .taskClosed(let id, let task, let end): taskClosed(id, task, end, into: &findings)
    case .taskRefused, .taskExpireUnmatched:
      break
    case .registered(let ident, let ok, let first): registered(ident, ok: ok, first: first, into: &findings)
    case .submitted(let submission, let registered):
      if !registered { unregistered(submission.ident, action: "sched.submit", into: &findings) }
    case .runLaunchedUnregistered(let ident, let run):
      unregistered(ident, action: "sched.launch run=\(run)", into: &findings)
    case .runExpired(let run, _):
      insertDeadline(.runComplete(run: run), at: now + grace)
    case .runCompleted(let run, let life, _): runCompleted(run, life, into: &findings)
    case .runCompleteUnmatched(let run, let mismatch): runCompleteUnmatched(run, mismatch, into: &findings)
    case .runClosed(let run, let life, let end): runClosed(run, life, end, into: &findings)
    case .rejected, .requestsCancelled, .runLaunched, .runExpireUnmatched:
      break
    case .workEnqueued(let enqueue, .fresh): retryLimitReported.remove(enqueue.work)
    case .workEnqueued: break
    case .attemptStarted(let work, let attempt, let life, let backoff):
      attemptStarted(work, attempt: attempt, life, backoff: backoff, into: &findings)
    case .startAfterFinish(let work, _, let finished, let first):
      if first { report(.workAfterFinish, "work \(work) started again after \(finished.phrase)", into: &findings) }
    case .attemptResulted(let work, let attempt, let outcome, let life):
      attemptResulted(work, attempt: attempt, outcome, life, into: &findings)
    case .resultUnmatched(let work, let attempt, let outcome, let mismatch):
      resultUnmatched(work, attempt: attempt, outcome, mismatch, into: &findings)
    case .workFinished(let work, _), .periodEnded(let work): retryLimitReported.remove(work)
    case .queuedWorkReleased(let enqueue): retryLimitReported.remove(enqueue.work)
    case .attemptStopped, .stopUnmatched, .attemptClosed, .workCancelled:
      break
    }
  }

  // MARK: Deadlines

  /// Something that must happen by a time.
  enum Deadline: Sendable {
    /// A task expired: it must end within the grace period.
    case taskEnd(process: Int, id: Int)
    /// A task open in the background: it must end or expire within the budget.
    case taskBudget(process: Int, epoch: Int, id: Int)
    /// A run expired: it must complete within the grace period.
    case runComplete(run: Int)
  }

  private mutating func expire(_ deadline: Deadline, due: TraceTime, into findings: inout [Finding]) {
    switch deadline {
    case .taskEnd(let process, let id):
      guard walker.isRunning, walker.process.number == process, let task = walker.tasks[id],
        let expiredAt = task.expiredAt, expiredAt + grace == due,
        reportedTasks.insert(id).inserted
      else { return }
      report(
        .taskExpiredNotEnded,
        "\(task.describe(id: id)) was not ended within \(grace.seconds) of its expiration at \(expiredAt.seconds)",
        into: &findings)
    case .taskBudget(let process, let epoch, let id):
      guard walker.isRunning, walker.process.number == process, walker.process.backgroundEpoch == epoch,
        let task = walker.tasks[id], task.expiredAt == nil, let since = walker.process.backgroundSince,
        overBudgetTasks.insert(id).inserted
      else { return }
      report(
        .taskOverBudget,
        "\(task.describe(id: id)) stayed open more than the \(budget.seconds) background budget (in the background since \(max(since, task.begin).seconds)) with no expiration",
        into: &findings)
    case .runComplete(let run):
      guard let life = walker.runs[run], let expiredAt = life.expiredAt,
        expiredAt + grace == due, reportedRuns.insert(run).inserted
      else { return }
      report(
        .schedNotCompleted,
        "run \(run) (\(life.ident), launched at \(life.launchedAt.seconds)) was not completed within \(grace.seconds) of its expiration at \(expiredAt.seconds)",
        into: &findings)
    }
  }
}
