public import BackgroundTrace

/// Drives a trace through the platform model alone, event by event: what is alive
/// after each event (open tasks with their age and remaining budget, pending requests,
/// launched runs, running and backed-off work) and the system decisions the model says
/// could not have happened (a retry before its backoff, an expiration long after the
/// budget, a launch before its earliest date).
///
/// `bgtrace replay` prints it as a timeline.
public struct ModelTimeline: Sendable {
  /// A system decision the model says could not have happened as recorded.
  public struct Inconsistency: Sendable, Hashable {
    /// The 1-based event number (or line) of the decision.
    public var location: Int
    /// What the model expected instead.
    public var message: String
  }

  private struct Task: Sendable {
    var name: String?
    var begin: TraceTime
    var expired: Bool
  }

  private struct Work: Sendable {
    var backoff: BackoffPolicy?
    var delay: TraceInterval?
    var running: (attempt: Int, since: TraceTime)?
    var retryAfter: (attempt: Int, time: TraceTime)?
  }

  /// How long the budget lasts; an expiration later than budget + `slack` is flagged.
  public let budget: TraceInterval
  /// How far past the budget an expiration may come before it is flagged.
  public let slack = TraceInterval(nanoseconds: 2_000_000_000)

  private var now = TraceTime.zero
  private var state: AppState?
  private var backgroundSince: TraceTime?
  private var tasks: [Int: Task] = [:]
  private var pending: [String: (type: SchedulerRequestType, earliest: TraceTime?)] = [:]
  private var runs: [Int: (ident: String, since: TraceTime)] = [:]
  private var works: [String: Work] = [:]

  /// Starts a timeline for a trace with `meta` (its `budget=` applies).
  public init(meta: TraceMetadata) {
    budget = meta.budget
  }

  /// Applies the next event; returns what the model says could not have happened.
  public mutating func apply(_ located: LocatedEvent) -> [Inconsistency] {
    let event = located.event
    now = event.time
    var problems: [String] = []
    switch event.kind {
    case .appLaunch:
      tasks.removeAll()
      runs.removeAll()
      state = nil
      backgroundSince = nil
    case .appState(let to):
      if to == .background && state != .background { backgroundSince = now }
      if to == .active || to == .inactive { backgroundSince = nil }
      state = to
    case .appTerminate(let reason):
      if reason == "watchdog" && !tasks.values.contains(where: \.expired) {
        problems.append("a watchdog termination with no expired task open")
      }
      tasks.removeAll()
      runs.removeAll()
      state = nil
    case .taskBegin(let id, let name):
      if id != 0 { tasks[id] = Task(name: name, begin: now, expired: false) }
    case .taskEnd(let id):
      tasks[id] = nil
    case .taskExpire(let id):
      if let since = backgroundSince {
        let latest = since.adding(nanoseconds: budget.nanoseconds + slack.nanoseconds)
        if now > latest {
          problems.append(
            "task \(id) expired at \(now)s, more than \(slack)s after the \(budget)s budget that began at \(since)s")
        }
      } else {
        problems.append("task \(id) expired while the app was not in the background")
      }
      tasks[id]?.expired = true
    case .schedSubmit(let submission):
      pending[submission.ident] = (submission.type, submission.earliest)
    case .schedCancel(.identifier(let ident)):
      pending[ident] = nil
    case .schedCancel(.all):
      pending.removeAll()
    case .schedReject(let ident, _):
      pending[ident] = nil
    case .schedLaunch(let ident, let run):
      if let request = pending.removeValue(forKey: ident) {
        if let earliest = request.earliest, now < earliest {
          problems.append("\(ident) launched at \(now)s, before its earliest begin date \(earliest)s")
        }
      } else {
        problems.append("\(ident) launched with no pending request")
      }
      runs[run] = (ident, now)
    case .schedComplete(let run, _):
      runs[run] = nil
    case .workEnqueue(let enqueue):
      works[enqueue.work] = Work(backoff: enqueue.backoff, delay: enqueue.delay)
    case .workStart(let work, let attempt):
      var item = works[work] ?? Work()
      if let retry = item.retryAfter, retry.attempt == attempt, now < retry.time {
        problems.append(
          "\(work) attempt \(attempt) started at \(now)s, before its backoff allowed it at \(retry.time)s")
      }
      item.running = (attempt, now)
      item.retryAfter = nil
      works[work] = item
    case .workResult(let work, let attempt, let outcome):
      guard var item = works[work] else { break }
      item.running = nil
      if outcome == .retry {
        let wait = WorkBackoff.backoff(beforeAttempt: attempt + 1, policy: item.backoff, delay: item.delay)
        item.retryAfter = (attempt + 1, now.adding(nanoseconds: wait.nanoseconds))
        works[work] = item
      } else {
        works[work] = nil
      }
    case .workStop(let work, _, _):
      works[work]?.running = nil
    case .workCancel(let work):
      works[work] = nil
    default:
      break
    }
    return problems.map { Inconsistency(location: located.location, message: $0) }
  }

  /// What is alive now, one line each.
  public var aliveDescription: [String] {
    var lines: [String] = []
    for id in tasks.keys.sorted() {
      let task = tasks[id]!
      let name = task.name.map { " \(TextTraceWriter.quotedIfNeeded($0))" } ?? ""
      var line = "task \(id)\(name): open \(seconds(from: task.begin))"
      if task.expired {
        line += ", expired"
      } else if let since = backgroundSince {
        let end = since.adding(nanoseconds: budget.nanoseconds)
        line += now < end ? ", \(seconds(now, end)) of budget left" : ", budget spent"
      }
      lines.append(line)
    }
    for ident in pending.keys.sorted() {
      let request = pending[ident]!
      lines.append("pending \(request.type.rawValue) \(ident)" + (request.earliest.map { ", not before \($0)s" } ?? ""))
    }
    for run in runs.keys.sorted() {
      lines.append("run \(run) (\(runs[run]!.ident)): running \(seconds(from: runs[run]!.since))")
    }
    for work in works.keys.sorted() {
      let item = works[work]!
      if let running = item.running {
        lines.append("work \(work): attempt \(running.attempt) running \(seconds(from: running.since))")
      } else if let retry = item.retryAfter {
        lines.append("work \(work): backing off, attempt \(retry.attempt) may start at \(retry.time)s")
      } else {
        lines.append("work \(work): enqueued")
      }
    }
    return lines
  }

  private func seconds(from start: TraceTime) -> String { seconds(start, now) }

  private func seconds(_ start: TraceTime, _ end: TraceTime) -> String {
    "\(TraceTime(nanoseconds: end.nanoseconds - min(start.nanoseconds, end.nanoseconds)))s"
  }
}
