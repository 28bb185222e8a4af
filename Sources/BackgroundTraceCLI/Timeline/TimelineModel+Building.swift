import BackgroundTrace
import BackgroundTraceCheck

extension TimelineModel {
  /// Reads the rest of a trace into a timeline, running the checker beside it.
  ///
  /// - Throws: what the reader throws for malformed input.
  /// - Complexity: O(*n* log *a*) in the number of events and of things alive at once.
  static func read(_ reader: inout TraceReader) throws -> TimelineModel {
    var builder = TimelineBuilder(name: reader.name, meta: reader.meta)
    while let located = try reader.next() { builder.add(located) }
    return builder.finish()
  }
}

/// Builds a ``TimelineModel`` one event at a time, following processes the way the
/// checker does: `app.launch` starts one; `app.terminate` or another launch ends it;
/// suspension gives up its open tasks and runs but keeps the process.
struct TimelineBuilder {
  private var model: TimelineModel
  private var checker: TraceChecker
  private var now = TraceTime.zero
  /// The current process, and whether it has terminated.
  private var process: Int?
  private var terminated = false
  /// The current state span's state and start, while the process runs.
  private var state: (name: String, start: TraceTime)?
  private var openTasks: [Int: Int] = [:]
  private var openRuns: [Int: Int] = [:]
  private var runIdents: [Int: String] = [:]
  private var pendingSubmissions: [String: Int] = [:]
  private var submittedTypes: [String: SchedulerRequestType] = [:]
  private var workIndex: [String: Int] = [:]
  /// The running attempt of each work item: its index in the lane's attempts.
  private var runningAttempts: [String: Int] = [:]

  /// Why a process's open tasks and runs stop.
  private enum ProcessEnd {
    case terminated(String?), relaunched, traceEnded
  }

  /// Starts a timeline for the input `name` with `meta`.
  init(name: String, meta: TraceMetadata) {
    model = TimelineModel(name: name, meta: meta)
    checker = TraceChecker(meta: meta)
  }

  /// Adds the next event.
  mutating func add(_ located: LocatedEvent) {
    let event = located.event
    now = event.time
    if process == nil, event.kind != .appLaunch { startProcess(implicit: true) }
    var findings: [Finding] = []
    checker.check(located, into: &findings)
    // A launch's findings (what the previous process left open) belong to that process.
    for finding in findings { model.findings.append(.init(process: process ?? 0, finding: finding)) }
    model.eventCount += 1
    model.end = event.time
    switch event.kind {
    case .appLaunch:
      if process != nil, !terminated { endProcess(.relaunched) }
      startProcess(implicit: false)
    case .appState(let to):
      closeState()
      if !terminated { state = (to.rawValue, now) }
      if to == .suspended { giveUpTasksAndRuns() }
    case .appTerminate(let reason):
      if !terminated { endProcess(.terminated(reason)) }
      instant(.events, .event, reason.map { "terminate (\($0))" } ?? "terminate", event)
    case .taskBegin(let id, let name): beginTask(id, name: name, event)
    case .taskEnd(let id): endTask(id)
    case .taskExpire(let id):
      let label = openTasks[id].map { model.tasks[$0].label } ?? "task \(id)"
      if let index = openTasks[id], model.tasks[index].expiredAt == nil { model.tasks[index].expiredAt = now }
      instant(.tasks, .expiration, "expire \(label)", event)
    case .schedSubmit(let submission):
      submittedTypes[submission.ident] = submission.type
      pendingSubmissions[submission.ident] = model.submissions.count
      model.submissions.append(
        .init(
          process: process ?? 0, time: now, ident: submission.ident, type: submission.type,
          detail: TextTraceWriter.line(for: event)))
    case .schedReject(let ident, let error):
      pendingSubmissions[ident] = nil
      instant(.requests(ident), .rejection, "reject \(error.rawValue)", event)
    case .schedCancel(let target):
      switch target {
      case .identifier(let ident):
        pendingSubmissions[ident] = nil
        instant(.requests(ident), .event, "cancel", event)
      case .all:
        pendingSubmissions.removeAll()
        instant(.events, .event, "cancel all", event)
      }
    case .schedRegister(let ident, let ok):
      instant(.requests(ident), .event, ok == false ? "register (not permitted)" : "register", event)
    case .schedLaunch(let ident, let run): launch(ident, run: run)
    case .schedExpire(let run):
      if let index = openRuns[run], model.runs[index].expiredAt == nil { model.runs[index].expiredAt = now }
      instant(.scheduler(runIdents[run] ?? "run \(run)"), .expiration, "expire run \(run)", event)
    case .schedComplete(let run, let success): complete(run, success: success)
    case .workEnqueue(let enqueue):
      let lane = workLane(enqueue.work)
      model.works[lane].enqueues.append(now)
      if let name = enqueue.name { model.works[lane].name = name }
      instant(.work(enqueue.work), .event, "enqueue", event)
    case .workStart(let work, let attempt): start(work, attempt: attempt)
    case .workResult(let work, let attempt, let outcome):
      finish(work, attempt: attempt, outcome: TimelineModel.AttemptOutcome(rawValue: outcome.rawValue)!)
    case .workStop(let work, let attempt, let reason):
      finish(work, attempt: attempt, outcome: .stopped, reason: reason)
    case .workCancel(let work):
      model.works[workLane(work)].cancels.append(now)
      instant(.work(work), .event, "cancel", event)
    case .envSet(let settings):
      instant(.events, .event, settings.map { "\($0.key)=\($0.value)" }.joined(separator: " "), event)
    case .input(let key, _): instant(.events, .event, "input \(key)", event)
    case .mark(let label): instant(.events, .event, label, event)
    }
  }

  /// Closes what is still open at the last event and returns the timeline.
  mutating func finish() -> TimelineModel {
    var findings: [Finding] = []
    checker.finish(into: &findings)
    for finding in findings { model.findings.append(.init(process: process ?? 0, finding: finding)) }
    if process != nil {
      if terminated {
        closeAttempts(.unfinished)
        giveUpTasksAndRuns()
      } else {
        endProcess(.traceEnded)
      }
    }
    return model
  }

  // MARK: Processes

  private mutating func startProcess(implicit: Bool) {
    process = model.processes.count
    model.processes.append(.init(start: now, end: now, implicit: implicit))
    terminated = false
    state = ("launching", now)
  }

  private mutating func endProcess(_ end: ProcessEnd) {
    guard let process else { return }
    closeState()
    giveUpTasksAndRuns()
    switch end {
    case .terminated(let reason):
      model.processes[process].ending = reason.map { "terminated (\($0))" } ?? "terminated"
      terminated = true
      closeAttempts(.interrupted)
    case .relaunched:
      model.processes[process].ending = "relaunched"
      closeAttempts(.interrupted)
    case .traceEnded:
      closeAttempts(.unfinished)
    }
    model.processes[process].end = now
  }

  private mutating func closeState() {
    guard let state, let process else { return }
    if now > state.start {
      model.states.append(.init(process: process, state: state.name, start: state.start, end: now))
    }
    self.state = nil
  }

  /// Closes the open tasks and runs where the process stops being able to end them.
  private mutating func giveUpTasksAndRuns() {
    for index in openTasks.values.sorted() {
      model.tasks[index].end = now
      model.tasks[index].outcome = model.tasks[index].expiredAt == nil ? .leaked : .killed
    }
    openTasks.removeAll()
    for index in openRuns.values.sorted() {
      model.runs[index].end = now
      model.runs[index].outcome = .notCompleted
    }
    openRuns.removeAll()
  }

  private mutating func instant(
    _ track: TimelineModel.Track, _ category: TimelineModel.InstantCategory, _ name: String, _ event: TraceEvent
  ) {
    model.instants.append(
      .init(
        process: process ?? 0, time: now, track: track, category: category, name: name,
        detail: TextTraceWriter.line(for: event)))
  }

  // MARK: Tasks and runs

  private mutating func beginTask(_ id: Int, name: String?, _ event: TraceEvent) {
    guard id != 0 else {
      instant(.tasks, .event, "refused \(name ?? "task")", event)
      return
    }
    if let earlier = openTasks[id] {  // begun twice: the first one is lost
      model.tasks[earlier].end = now
      model.tasks[earlier].outcome = model.tasks[earlier].expiredAt == nil ? .leaked : .killed
    }
    openTasks[id] = model.tasks.count
    model.tasks.append(
      .init(process: process ?? 0, id: id, name: name, start: now, end: now, expiredAt: nil, outcome: .leaked))
  }

  private mutating func endTask(_ id: Int) {
    guard let index = openTasks.removeValue(forKey: id) else { return }  // the checker reports it
    model.tasks[index].end = now
    model.tasks[index].outcome = model.tasks[index].expiredAt == nil ? .ended : .expired
  }

  private mutating func launch(_ ident: String, run: Int) {
    if let earlier = openRuns[run] {  // launched twice: the first one is lost
      model.runs[earlier].end = now
      model.runs[earlier].outcome = .notCompleted
    }
    runIdents[run] = ident
    openRuns[run] = model.runs.count
    model.runs.append(
      .init(
        process: process ?? 0, run: run, ident: ident, type: submittedTypes[ident], start: now, end: now,
        expiredAt: nil, outcome: .notCompleted, submission: pendingSubmissions.removeValue(forKey: ident)))
  }

  private mutating func complete(_ run: Int, success: Bool) {
    guard let index = openRuns.removeValue(forKey: run) else { return }
    model.runs[index].end = now
    model.runs[index].outcome = model.runs[index].expiredAt != nil ? .expired : success ? .completed : .failed
  }

  // MARK: Work

  private mutating func workLane(_ work: String) -> Int {
    if let lane = workIndex[work] { return lane }
    workIndex[work] = model.works.count
    model.works.append(.init(work: work))
    return model.works.count - 1
  }

  private mutating func start(_ work: String, attempt: Int) {
    let lane = workLane(work)
    if let running = runningAttempts[work] {  // started again while running: the first is lost
      model.works[lane].attempts[running].end = now
      model.works[lane].attempts[running].outcome = .interrupted
    }
    let previous = model.works[lane].attempts.last
    let followsRetry = previous?.outcome == .retry && previous?.number == attempt - 1
    runningAttempts[work] = model.works[lane].attempts.count
    model.works[lane].attempts.append(
      .init(
        process: process ?? 0, number: attempt, start: now, end: now, outcome: .unfinished,
        followsRetry: followsRetry))
  }

  private mutating func finish(
    _ work: String, attempt: Int, outcome: TimelineModel.AttemptOutcome, reason: String? = nil
  ) {
    guard let lane = workIndex[work], let running = runningAttempts[work],
      model.works[lane].attempts[running].number == attempt
    else { return }  // no such attempt running: the checker reports it
    runningAttempts[work] = nil
    model.works[lane].attempts[running].end = now
    model.works[lane].attempts[running].outcome = outcome
    model.works[lane].attempts[running].stopReason = reason
  }

  private mutating func closeAttempts(_ outcome: TimelineModel.AttemptOutcome) {
    for (work, running) in runningAttempts {
      let lane = workIndex[work]!
      model.works[lane].attempts[running].end = now
      model.works[lane].attempts[running].outcome = outcome
    }
    runningAttempts.removeAll()
  }
}
