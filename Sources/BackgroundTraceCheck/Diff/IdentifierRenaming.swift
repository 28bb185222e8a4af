import BackgroundTrace

/// Renames a trace's identifiers by order of first appearance, so two traces that
/// differ only in the numbers the system handed out compare equal.
///
/// Task ids restart at each `app.launch` (they belong to a process); run numbers, work
/// ids and request ids (`request=`) are renamed across the whole trace. Task id 0 (`.invalid`) keeps its meaning.
struct IdentifierRenaming {
  private var tasks: [Int: Int] = [:]
  private var runs: [Int: Int] = [:]
  private var works: [String: String] = [:]
  private var requests: [WorkRequestID: WorkRequestID] = [:]

  /// The event's kind with its identifiers renamed.
  mutating func rename(_ kind: TraceEvent.Kind) -> TraceEvent.Kind {
    switch kind {
    case .appLaunch:
      tasks.removeAll()
      return kind
    case .taskBegin(let id, let name): return .taskBegin(id: task(id), name: name)
    case .taskEnd(let id): return .taskEnd(id: task(id))
    case .taskExpire(let id): return .taskExpire(id: task(id))
    case .schedLaunch(let ident, let run): return .schedLaunch(identifier: ident, run: self.run(run))
    case .schedExpire(let run, let reason): return .schedExpire(run: self.run(run), reason: reason)
    case .schedComplete(let run, let success): return .schedComplete(run: self.run(run), success: success)
    case .workEnqueue(var enqueue):
      enqueue.work = work(enqueue.work)
      enqueue.request = enqueue.request.map { request($0) }
      enqueue.uniqueName = enqueue.uniqueName.map { work($0) }  // a unique name is a work's id too
      return .workEnqueue(enqueue)
    case .workStart(let id, let attempt): return .workStart(work: work(id), attempt: attempt)
    case .workResult(let id, let attempt, let outcome, let tags):
      return .workResult(work: work(id), attempt: attempt, outcome: outcome, tags: tags)
    case .workStop(let id, let attempt, let reason, let tags):
      return .workStop(work: work(id), attempt: attempt, reason: reason, tags: tags)
    case .workCancel(let id): return .workCancel(work: work(id))
    case .workWait(let id, let reasons): return .workWait(work: work(id), reasons: reasons)
    case .workAfter(let id, let prerequisite): return .workAfter(work: work(id), prerequisite: work(prerequisite))
    case .appState, .appTerminate, .schedRegister, .schedSubmit, .schedReject, .schedCancel, .envSet, .input, .mark,
      .netCreate, .netSubmit, .netFinish, .netWake, .netEventsDone, .netHandler, .schedProgress, .fgsStart,
      .fgsForeground, .fgsStop, .fgsRefuse, .fgsTimeout, .workForeground, .workRefuse, .workQuota, .appAllowlist,
      .fileLock, .fileUnlock, .schedWait, .alarmSet, .alarmFire, .alarmCancel:
      return kind
    }
  }

  private mutating func task(_ id: Int) -> Int {
    guard id != 0 else { return 0 }
    if let renamed = tasks[id] { return renamed }
    let renamed = tasks.count + 1
    tasks[id] = renamed
    return renamed
  }

  private mutating func run(_ run: Int) -> Int {
    if let renamed = runs[run] { return renamed }
    let renamed = runs.count + 1
    runs[run] = renamed
    return renamed
  }

  /// The N-th request id seen becomes `00000000-0000-0000-0000-00000000000N` (hex).
  private mutating func request(_ id: WorkRequestID) -> WorkRequestID {
    if let renamed = requests[id] { return renamed }
    let renamed = WorkRequestID(high: 0, low: UInt64(requests.count + 1))
    requests[id] = renamed
    return renamed
  }

  private mutating func work(_ id: String) -> String {
    if let renamed = works[id] { return renamed }
    let renamed = "#\(works.count + 1)"
    works[id] = renamed
    return renamed
  }
}
