public import BackgroundTrace
import _BackgroundTraceStorage

/// Walks a trace event by event and says, after each one, what it changed (tasks,
/// runs, attempts and work begun, ended, expired or closed), what the checker found,
/// and which system decisions the platform model says could not have happened (a retry
/// before its backoff, an expiration long after the budget, a suspension while a task
/// still had budget); and, when asked, everything alive (open tasks with their age and
/// remaining budget, pending requests, launched runs, running, backed-off and queued
/// work).
///
/// What is alive and what the checker reports come from the same lifecycle walker, so
/// a task the checker closed is never shown alive. `bgtrace explain` prints it.
public struct TraceExplainer: Sendable {
  /// A system decision the model says could not have happened as recorded.
  public struct Inconsistency: Sendable, Hashable {
    /// The 1-based event number (or line) of the decision.
    public var location: Int
    /// What the model expected instead.
    public var message: String
  }

  /// What one event showed.
  public struct Step: Sendable {
    /// What the event opened or closed, one line each, in the order it happened: a task
    /// begun (`+`), ended or closed by its process (`-`) or expired (`~`), and the same
    /// for scheduler runs, work attempts and work. What is still alive and did not
    /// change is not repeated here (``TraceExplainer/alive`` lists it), so the lines of
    /// a whole trace grow with its length, not with its length times what is open.
    public var changes: [String] = []
    /// The checker's findings located at the event.
    public var findings: [Finding] = []
    /// The decisions the model says could not have happened.
    public var inconsistencies: [Inconsistency] = []
  }

  /// How long the background budget lasts.
  public let budget: TraceInterval
  /// How far past the budget an expiration may come before it is flagged.
  public let slack = TraceInterval(nanoseconds: 2_000_000_000)

  /// The trace's platform (`meta platform=`): `ios` and `android` add that platform's
  /// process facts to the model (docs/platform-model.md, "Processes"); any other value
  /// leaves them out.
  public let platform: String?
  /// Whose process facts apply, read from ``platform`` once rather than compared as a
  /// string at every event.
  private let processModel: ProcessModel?
  private enum ProcessModel { case ios, android }

  private var checker: TraceChecker
  var walker: LifecycleWalker { checker.walker }
  /// The transitions of the event being explained, kept to reuse their storage.
  private var transitions: [LifecycleTransition] = []
  /// An identifier just launched with no launch handler registered: iOS raises an
  /// exception there, so the next event must be the app's end.
  private var crashOwed: String?

  /// Starts at the beginning of a trace with `meta` (its `budget=` applies unless
  /// `configuration` overrides it).
  public init(configuration: CheckerConfiguration = CheckerConfiguration(), meta: TraceMetadata) {
    checker = TraceChecker(configuration: configuration, meta: meta)
    budget = configuration.budget(for: meta)
    platform = meta["platform"]
    processModel = platform == "ios" ? .ios : platform == "android" ? .android : nil
  }

  /// Applies the next event.
  ///
  /// - Returns: what the event changed, and the findings and inconsistencies it shows.
  /// - Complexity: amortized O(log *a*) in what is alive.
  public mutating func explain(_ located: LocatedEvent) -> Step {
    var step = Step()
    for message in inconsistencies(of: located.event) {
      step.inconsistencies.append(Inconsistency(location: located.location, message: message))
    }
    if case .schedLaunch(let ident, _) = located.event.kind, walker.registrations[ident] == nil {
      crashOwed = ident
    } else {
      crashOwed = nil
    }
    transitions.removeAll(keepingCapacity: true)
    checker.check(located, into: &step.findings, transitions: &transitions)
    // A loop, not `compactMap(change)`: the method passed as a closure captured the
    // explainer, and each step copied it whole (some 3 kB) and retained what it holds.
    for transition in transitions {
      if let change = change(transition) { step.changes.append(change) }
    }
    return step
  }

  /// What is still open when the trace ends, as findings located at the last event;
  /// none when the reader's `damage` says the trace's last events are lost (as
  /// `bgtrace check` judges it).
  public mutating func finish(after damage: [TraceDamage] = []) -> [Finding] {
    var findings: [Finding] = []
    checker.finish(into: &findings, after: damage)
    return findings
  }

  // MARK: Inconsistencies

  /// What the model says about a system decision, before it is applied.
  private mutating func inconsistencies(of event: TraceEvent) -> [String] {
    let now = event.time
    if let ident = crashOwed {
      if case .appTerminate = event.kind {
      } else {
        return [
          "the app kept running after \(ident) launched with no launch handler registered; iOS raises an exception there and the app dies"
        ]
      }
    }
    if let message = platformInconsistency(of: event) { return [message] }
    switch event.kind {
    case .appTerminate("watchdog"?):
      let expiredTask = walker.tasks.values.contains { $0.expiredAt != nil }
      let expiredRun = walker.runs.values.contains { $0.expiredAt != nil }
      if !expiredTask && !expiredRun { return ["a watchdog termination with no expired task or run open"] }
    case .appState(.suspended):
      return walker.tasks.keys.sorted().compactMap { id in
        let task = walker.tasks[id]!
        guard task.expiredAt == nil else { return nil }
        guard let end = budgetEnd(of: task) else {
          return "the app was suspended at \(now)s in the foreground with task \(id) open"
        }
        guard now < end else { return nil }
        return
          "the app was suspended at \(now)s with task \(id) open and \(seconds(now, end)) of its budget left; iOS suspends an app only when no task is open or the budget is spent"
      }
    case .taskExpire(let id):
      guard let since = walker.process.backgroundSince else {
        return ["task \(id) expired while the app was not in the background"]
      }
      let latest = since.adding(nanoseconds: budget.nanoseconds + slack.nanoseconds)
      if now > latest {
        return [
          "task \(id) expired at \(now)s, more than \(slack)s after the \(budget)s budget that began at \(since)s"
        ]
      }
    case .schedLaunch(let ident, _):
      guard let request = walker.requests[ident] else { return ["\(ident) launched with no pending request"] }
      if let earliest = request.earliest, now < earliest {
        return ["\(ident) launched at \(now)s, before its earliest begin date \(earliest)s"]
      }
    case .workStart(let work, let attempt):
      if let prerequisite = walker.works[work]?.blockedOn.first {
        return ["\(work) attempt \(attempt) started at \(now)s, before its prerequisite \(prerequisite) succeeded"]
      }
      if let retry = walker.works[work]?.retryAllowed, retry.attempt == attempt, now < retry.at {
        return ["\(work) attempt \(attempt) started at \(now)s, before its backoff allowed it at \(retry.at)s"]
      }
      if let due = walker.works[work]?.firstRunAllowed, now < due {
        return ["\(work) attempt \(attempt) started at \(now)s, before its enqueue allowed it at \(due)s"]
      }
    case .workWait(let work, _):
      if let attempt = walker.works[work]?.running?.attempt {
        return ["\(work) waits at \(now)s while its attempt \(attempt) runs"]
      }
    case .schedWait(let ident, _):
      if walker.requests[ident] == nil { return ["\(ident) waits at \(now)s with no pending request"] }
    case .appLaunch, .appState, .appTerminate, .taskBegin, .taskEnd, .schedRegister, .schedSubmit, .schedReject,
      .schedCancel, .schedExpire, .schedComplete, .workEnqueue, .workResult, .workStop, .workCancel, .envSet, .input,
      .mark, .netCreate, .netSubmit, .netFinish, .netWake, .netEventsDone, .netHandler, .schedProgress, .fgsStart,
      .fgsForeground, .fgsStop, .fgsRefuse, .fgsTimeout, .workForeground, .workRefuse, .workQuota, .appAllowlist,
      .fileLock, .fileUnlock, .workAfter, .alarmSet, .alarmFire, .alarmCancel:
      break
    }
    return []
  }

  /// What the trace's platform says cannot happen: on iOS, in-process work starting
  /// while the app cannot run; on Android, UIKit tasks, BGTaskScheduler launches, or a
  /// process frozen while a worker runs.
  private func platformInconsistency(of event: TraceEvent) -> String? {
    let now = event.time
    switch event.kind {
    case .workStart(let work, let attempt):
      guard processModel == .ios else { return nil }
      let terminated = !walker.isRunning && walker.termination != nil
      guard terminated || walker.process.state == .suspended else { return nil }
      return
        "\(work) attempt \(attempt) started at \(now)s while the app was \(terminated ? "not running" : "suspended"); on iOS an in-process work queue runs only while the app runs"
    case .taskBegin(let id, _):
      guard processModel == .android, id != 0 else { return nil }
      return "task \(id) began on Android, which has no UIKit background tasks"
    case .schedLaunch(let ident, _):
      guard processModel == .android else { return nil }
      return "\(ident) launched on Android, which has no BGTaskScheduler"
    case .alarmSet(let alarm, _, _, _, _):
      guard processModel == .ios else { return nil }
      return "alarm \(alarm) set on iOS, which has no AlarmManager"
    case .appState(let state):
      guard processModel == .android, state == .suspended else { return nil }
      let running = walker.works.keys.sorted().filter { walker.works[$0]?.running != nil }
      guard let work = running.first else { return nil }
      return
        "the app was suspended at \(now)s while \(work) was running; on Android a running worker keeps the process alive"
    case .appLaunch, .appTerminate, .taskEnd, .taskExpire, .schedRegister, .schedSubmit, .schedReject, .schedCancel,
      .schedExpire, .schedComplete, .workEnqueue, .workResult, .workStop, .workCancel, .envSet, .input, .mark,
      .netCreate, .netSubmit, .netFinish, .netWake, .netEventsDone, .netHandler, .schedProgress, .fgsStart,
      .fgsForeground, .fgsStop, .fgsRefuse, .fgsTimeout, .workForeground, .workRefuse, .workQuota, .appAllowlist,
      .fileLock, .fileUnlock, .workWait, .schedWait, .workAfter, .alarmFire, .alarmCancel:
      return nil
    }
  }

  // MARK: What is alive

  /// What is alive now, one line each: tasks, pending requests, runs, work.
  ///
  /// - Complexity: O(*a* log *a*) in what is alive.
  public var alive: [String] {
    let now = walker.now
    var lines: [String] = []
    for id in walker.tasks.keys.sorted() {
      let task = walker.tasks[id]!
      let name = task.name.map { " \(TextTraceWriter.quotedIfNeeded($0))" } ?? ""
      var line = "task \(id)\(name): open \(seconds(task.begin, now))"
      if task.expiredAt != nil {
        line += ", expired"
      } else if let end = budgetEnd(of: task) {
        line += now < end ? ", \(seconds(now, end)) of budget left" : ", budget spent"
      }
      lines.append(line)
    }
    for ident in walker.requests.keys.sorted() {
      let request = walker.requests[ident]!
      lines.append("pending \(request.type.rawValue) \(ident)" + (request.earliest.map { ", not before \($0)s" } ?? ""))
    }
    for run in walker.runs.keys.sorted() {
      let life = walker.runs[run]!
      lines.append(
        "run \(run) (\(life.identifier)): running \(seconds(life.launchedAt, now))"
          + (life.expiredAt != nil ? ", expired" : ""))
    }
    for work in walker.works.keys.sorted() {
      let life = walker.works[work]!
      let queued = life.queued.isEmpty ? "" : ", \(life.queued.count) queued behind it"
      if let running = life.running {
        lines.append("work \(work): attempt \(running.attempt) running \(seconds(running.since, now))\(queued)")
      } else if let retry = life.retryAllowed {
        lines.append("work \(work): backing off, attempt \(retry.attempt) may start at \(retry.at)s\(queued)")
      } else {
        lines.append("work \(work): enqueued\(queued)")
      }
    }
    return lines
  }

  /// When a task's background budget runs out, while the app is in the background.
  func budgetEnd(of task: TaskLife) -> TraceTime? {
    guard let since = walker.process.backgroundSince else { return nil }
    return max(since, task.begin) + budget
  }

  /// `2.5s`: the time from `start` to `end`.
  func seconds(_ start: TraceTime, _ end: TraceTime) -> String {
    "\(end.interval(since: start))s"
  }
}
