public import BackgroundTrace

/// Checks a trace against the rules in one streaming pass.
///
/// Feed it located events in order with ``check(_:into:)`` and call ``finish(into:)``
/// at the end; findings come out in trace order. Memory grows with what is alive
/// (open tasks, launched runs, unfinished work, pending deadlines) plus compact records
/// of what finished (interval sets of task ids and run numbers, 64-bit hashes of
/// finished work ids), never with the number of events.
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

  // Where we are.
  var now = TraceTime.zero
  var location = 0
  var sawEvent = false

  // The current process.
  var process = ProcessState(launchedAt: .zero, generation: 0)
  var terminated: (time: TraceTime, reason: String?)?
  var reportedAfterTerminate = false

  // Scheduler runs and submissions outlive processes.
  var openRuns: [Int: OpenRun] = [:]
  var finishedRuns = IntervalSet()
  var quietRuns: Set<Int> = []
  var recentCompletes = RecentTimes()
  var submittedTypes: [String: SchedulerRequestType] = [:]

  // Work persists across processes.
  var works: [String: WorkState] = [:]
  var finishedWorks: [UInt64: FinishedWork] = [:]

  var deadlines = DeadlineQueue<Deadline>()

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
    let event = located.event
    while let (_, deadline) = deadlines.popPassed(before: event.time) {
      // The finding of a deadline that passed between events shows at the next event.
      location = located.location
      now = event.time
      expire(deadline, into: &findings)
    }
    now = event.time
    location = located.location
    let hadEvents = sawEvent
    sawEvent = true
    if event.kind.side == .app, let terminated {
      if !reportedAfterTerminate {
        reportedAfterTerminate = true
        let reason = terminated.reason.map { " (reason: \($0))" } ?? ""
        report(
          .eventAfterTerminate,
          "\(event.kind.tag.name) after the app terminated at \(terminated.time.seconds)\(reason) and before a new app.launch",
          into: &findings)
      }
      return  // one root cause: the rest of this process's actions are not checked
    }
    switch event.kind {
    case .appLaunch:
      if terminated == nil && hadEvents { endProcess(.relaunched, into: &findings) }
      startProcess()
    case .appState(let state):
      changeState(to: state, into: &findings)
    case .appTerminate(let reason):
      endProcess(.terminated, into: &findings)
      terminated = (now, reason)
      reportedAfterTerminate = false
    case .taskBegin(let id, let name): beginTask(id, name: name)
    case .taskEnd(let id): endTask(id, into: &findings)
    case .taskExpire(let id): expireTask(id)
    case .schedRegister(let ident, let ok): register(ident, ok: ok ?? true, into: &findings)
    case .schedSubmit(let submission): submit(submission, into: &findings)
    case .schedLaunch(let ident, let run): launch(ident, run: run, into: &findings)
    case .schedExpire(let run): expireRun(run)
    case .schedComplete(let run, _): complete(run, into: &findings)
    case .workEnqueue(let enqueue): self.enqueue(enqueue)
    case .workStart(let work, let attempt): start(work, attempt: attempt, into: &findings)
    case .workResult(let work, let attempt, let outcome):
      result(work, attempt: attempt, outcome: outcome, into: &findings)
    case .workStop(let work, let attempt, _): stop(work, attempt: attempt)
    case .workCancel(let work): cancel(work)
    case .schedReject, .schedCancel, .envSet, .input, .mark:
      break
    }
  }

  /// Reports what is still open when the trace ends, at the last event.
  public mutating func finish(into findings: inout [Finding]) {
    // Deadlines still ahead have not passed: an expired task or run still open is
    // reported below as the process ends; a budget not yet spent is no finding.
    guard sawEvent else { return }
    if terminated == nil { endProcess(.traceEnded, into: &findings) }
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

  // MARK: Processes

  /// Why a process's open tasks and runs stop being able to finish.
  enum ProcessEnd {
    case suspended, terminated, relaunched, traceEnded

    var phrase: String {
      switch self {
      case .suspended: "before the app was suspended"
      case .terminated: "before the app terminated"
      case .relaunched: "before the app was launched again"
      case .traceEnded: "before the trace ended"
      }
    }
  }

  private mutating func startProcess() {
    process = ProcessState(launchedAt: now, generation: process.generation + 1)
    terminated = nil
    reportedAfterTerminate = false
  }

  private mutating func changeState(to state: AppState, into findings: inout [Finding]) {
    if process.leftLaunchAt == nil { process.leftLaunchAt = now }
    let wasBackground = process.state == .background
    process.state = state
    switch state {
    case .background where !wasBackground:
      enterBackground()
    case .background:
      break
    case .active, .inactive:
      process.backgroundEpoch += 1
    case .suspended:
      process.backgroundEpoch += 1
      endProcess(.suspended, into: &findings)
    }
  }

  /// Reports the tasks and runs a process end leaves unfinished, then forgets them
  /// (their later ends are quiet). Termination and relaunch also end the process.
  mutating func endProcess(_ end: ProcessEnd, into findings: inout [Finding]) {
    for id in process.openTasks.keys.sorted() {
      let task = process.openTasks[id]!
      if let expiredAt = task.expiredAt {
        report(
          .taskExpiredNotEnded,
          "\(describe(task: id, task)) expired at \(expiredAt.seconds) and was not ended \(end.phrase)",
          into: &findings)
      } else {
        report(
          .taskLeaked, "\(describe(task: id, task)) begun at \(task.begin.seconds) was not ended \(end.phrase)",
          into: &findings)
      }
      process.quietTasks.insert(id)
    }
    process.openTasks.removeAll()
    for run in openRuns.keys.sorted() {
      let open = openRuns[run]!
      let expiry = open.expiredAt.map { ", expired at \($0.seconds)," } ?? ""
      report(
        .schedNotCompleted,
        "run \(run) (\(open.ident), launched at \(open.launchedAt.seconds)\(expiry)) was not completed \(end.phrase)",
        into: &findings)
      quietRuns.insert(run)
    }
    openRuns.removeAll()
  }

  // MARK: Deadlines

  /// Something that must happen by a time.
  enum Deadline: Sendable {
    /// A task expired: it must end within the grace period.
    case taskEnd(generation: Int, id: Int)
    /// A task open in the background: it must end or expire within the budget.
    case taskBudget(generation: Int, epoch: Int, id: Int)
    /// A run expired: it must complete within the grace period.
    case runComplete(run: Int)
  }

  private mutating func expire(_ deadline: Deadline, into findings: inout [Finding]) {
    switch deadline {
    case .taskEnd(let generation, let id):
      guard generation == process.generation, let task = process.openTasks[id], let expiredAt = task.expiredAt
      else { return }
      report(
        .taskExpiredNotEnded,
        "\(describe(task: id, task)) was not ended within \(grace.seconds) of its expiration at \(expiredAt.seconds)",
        into: &findings)
      process.openTasks[id] = nil
      process.quietTasks.insert(id)
    case .taskBudget(let generation, let epoch, let id):
      guard generation == process.generation, epoch == process.backgroundEpoch,
        var task = process.openTasks[id], task.expiredAt == nil, !task.overBudgetReported,
        let since = task.backgroundSince
      else { return }
      task.overBudgetReported = true
      process.openTasks[id] = task
      report(
        .taskOverBudget,
        "\(describe(task: id, task)) stayed open more than the \(budget.seconds) background budget (in the background since \(since.seconds)) with no expiration",
        into: &findings)
    case .runComplete(let run):
      guard let open = openRuns[run], let expiredAt = open.expiredAt else { return }
      report(
        .schedNotCompleted,
        "run \(run) (\(open.ident), launched at \(open.launchedAt.seconds)) was not completed within \(grace.seconds) of its expiration at \(expiredAt.seconds)",
        into: &findings)
      openRuns[run] = nil
      quietRuns.insert(run)
    }
  }
}
