package import BackgroundTrace
import BackgroundTraceCheck

extension TimelineModel {
  /// Reads the rest of a trace into a timeline, running the checker beside it.
  ///
  /// - Throws: what the reader throws for malformed input.
  /// - Complexity: O(*n* log *a*) in the number of events and of things alive at once.
  package static func read(_ reader: inout TraceReader) throws(TraceReadError) -> TimelineModel {
    var builder = TimelineBuilder(name: reader.file, meta: reader.meta)
    while let located = try reader.next() { builder.add(located) }
    return builder.finish(after: reader.damage)
  }

  /// The timeline of a trace held in memory, its events located by their lines in the
  /// trace's canonical text form (`RecordedTrace.text`, the form of a golden's `.actual` file),
  /// as `bgtrace export` locates the events of a canonical text file (docs/FORMAT.md).
  ///
  /// - Parameter name: the input's name, shown in the timeline's title.
  /// - Complexity: that of ``read(_:)``.
  package static func build(_ trace: RecordedTrace, name: String) -> TimelineModel {
    var builder = TimelineBuilder(name: name, meta: trace.meta)
    let headerLines = TextTraceWriter.headerAndMeta(trace.meta).utf8.count { $0 == UInt8(ascii: "\n") }
    for (index, event) in trace.events.enumerated() {
      builder.add(LocatedEvent(event: event, location: headerLines + index + 1))
    }
    return builder.finish(after: [])
  }
}

/// Builds a ``TimelineModel`` one event at a time from the checker's lifecycle
/// transitions: a slice starts and ends where the lifecycle walker says its task, run or
/// attempt did, so what the timeline draws open is what the checker judged open.
struct TimelineBuilder {
  private var model: TimelineModel
  private var checker: TraceChecker
  /// What the latest event (or the end) changed, as the checker's walker decided it.
  private var transitions: [LifecycleTransition] = []
  private var now = TraceTime.zero
  /// The latest process (index into the model's processes).
  private var process: Int?
  /// The current state span's state and start, while a process runs.
  private var state: (name: String, start: TraceTime)?
  // Where each open thing is drawn: indexes into the model's arrays.
  private var taskSlices: [Int: Int] = [:]
  private var runSlices: [Int: Int] = [:]
  private var runIdentifiers: [Int: String] = [:]
  /// Each identifier's latest submission (index into the model's submissions); a launch
  /// answers it when the lifecycle walker says a request was pending.
  private var latestSubmissions: [String: Int] = [:]
  private var workIndex: [String: Int] = [:]
  /// Each work's open wait: its index in the lane's waits.
  private var openWaits: [String: Int] = [:]
  /// Each identifier's open wait: its latest submission, and the wait's index in it.
  private var openRequestWaits: [String: (submission: Int, wait: Int)] = [:]
  private var attemptSlices: [String: Int] = [:]
  /// The running attempt of each work a REPLACE enqueue took the place of: its lane (the
  /// replaced request's), its index there, and its number. Its stop or late result
  /// closes it there.
  private var replacedAttempts: [String: (lane: Int, index: Int, number: Int)] = [:]
  private var sessionLanes: [String: Int] = [:]
  private var serviceLanes: [String: Int] = [:]
  /// Each service's running run (index into its lane's runs).
  private var serviceRuns: [String: Int] = [:]
  /// What the latest event's transitions touched: the candidates for its findings' subject.
  private var touched: [TimelineModel.Subject] = []
  /// Each task identifier's and run number's latest slice (indexes into the model's arrays).
  private var latestTasks: [Int: Int] = [:]
  private var latestRuns: [Int: Int] = [:]

  /// Starts a timeline for the input `name` with `meta`.
  init(name: String, meta: TraceMetadata) {
    model = TimelineModel(name: name, meta: meta)
    checker = TraceChecker(meta: meta)
  }

  /// Adds the next event.
  mutating func add(_ located: LocatedEvent) {
    let event = located.event
    now = event.time
    var findings: [Finding] = []
    transitions.removeAll(keepingCapacity: true)
    checker.check(located, into: &findings, transitions: &transitions)
    model.eventCount += 1
    model.end = event.time
    // A launch's findings (what the previous process left open) belong to that process.
    let findingProcess = process ?? 0
    touched.removeAll(keepingCapacity: true)
    for transition in transitions { apply(transition, event) }
    for finding in findings { addFinding(finding, process: findingProcess) }
    switch event.kind {
    case .appTerminate(let reason):
      instant(.events, .event, reason.map { "terminate (\($0))" } ?? "terminate", event)
    case .envSet(let settings):
      instant(.events, .event, settings.map { "\($0.key)=\($0.value)" }.joined(separator: " "), event)
    case .input(let key, _): instant(.events, .event, "input \(key)", event)
    case .mark(let label): instant(.events, .event, label, event)
    case .alarmSet(let alarm, let due, let type, _, let interval):
      let every = interval.map { ", every \($0)s" } ?? ""
      instant(.events, .event, "alarm \(alarm) set (\(type.rawValue), due \(due)s\(every))", event)
    case .alarmFire(let alarm): instant(.events, .event, "alarm \(alarm) went off", event)
    case .alarmCancel(let alarm): instant(.events, .event, "alarm \(alarm) cancelled", event)
    case .appLaunch, .appState, .taskBegin, .taskEnd, .taskExpire, .schedRegister, .schedSubmit, .schedReject,
      .schedCancel, .schedLaunch, .schedExpire, .schedComplete, .workEnqueue, .workStart, .workResult, .workStop,
      .workCancel, .netCreate, .netSubmit, .netFinish, .netWake, .netEventsDone, .netHandler, .schedProgress, .fgsStart,
      .fgsForeground, .fgsStop, .fgsRefuse, .fgsTimeout, .workForeground, .workRefuse, .workQuota, .appAllowlist,
      .fileLock, .fileUnlock, .workWait, .schedWait, .workAfter:
      break
    }
  }

  /// Closes what is still open at the last event and returns the timeline, unless the
  /// reader's `damage` says the trace's last events are lost (``TraceDamage/endsTrace``):
  /// then the last event read is a cut, not the trace's end, and what is open there is
  /// drawn open at the cut, not judged, as `bgtrace check` does not judge it.
  mutating func finish(after damage: [TraceDamage]) -> TimelineModel {
    guard damage.contains(where: \.endsTrace) else { return finish() }
    closeState(atTraceEnd: true)
    if let process {
      model.processes[process].end = now
      model.processes[process].ending = "running at the cut (the trace's last events are lost)"
    }
    for index in taskSlices.values { closeTask(index, expired: .cut, otherwise: .cut) }
    for index in runSlices.values { closeRun(index, .cut) }
    for (work, index) in attemptSlices { closeAttempt(work, index, .unfinished) }
    closeReplacedAttempts()
    finishWaits()
    taskSlices.removeAll()
    runSlices.removeAll()
    attemptSlices.removeAll()
    finishTransfers()
    model.isCut = true
    return model
  }

  /// Closes what is still open at the last event and returns the timeline.
  mutating func finish() -> TimelineModel {
    var findings: [Finding] = []
    transitions.removeAll(keepingCapacity: true)
    checker.finish(into: &findings, transitions: &transitions)
    let findingProcess = process ?? 0
    touched.removeAll(keepingCapacity: true)
    for transition in transitions { apply(transition, nil) }
    for finding in findings { addFinding(finding, process: findingProcess) }
    finishTransfers()
    closeReplacedAttempts()
    finishWaits()
    for (service, index) in serviceRuns {
      model.services[serviceLanes[service]!].runs[index].end = model.end
    }
    return model
  }

  /// Transfers the system had not finished run to the trace's end.
  private mutating func finishTransfers() {
    for lane in model.sessions.indices {
      for index in model.sessions[lane].transfers.indices where model.sessions[lane].transfers[index].outcome == nil {
        model.sessions[lane].transfers[index].end = model.end
      }
    }
  }

  /// Adds `finding` with the first subject its event touched that its message names
  /// (tasks by `task N` or `id N`, the rest by identifier; tasks or runs in general
  /// always), else the latest the message names by number, else a touched task it names
  /// by name (several tasks may share one), or none: a finding its event does not
  /// concern (a deadline noticed at a later event) is not drawn on that event's lane.
  private mutating func addFinding(_ finding: Finding, process: Int) {
    let subject =
      touched.first { names($0, in: finding.message, byName: false) } ?? named(in: finding.message)
      ?? touched.first { names($0, in: finding.message, byName: true) }
    var time = finding.time
    if finding.rule == .taskExpiredNotEnded, case .task(let index)? = subject,
      let expiredAt = model.tasks[index].expiredAt
    {
      time = min(time, expiredAt + CheckerConfiguration().grace)
    }
    model.findings.append(.init(process: process, finding: finding, subject: subject, time: time))
  }

  /// The latest task, run or work item `message` names as `task N`, `run N` or
  /// `work ID`: a finding noticed at an event that does not touch it (a deadline).
  private func named(in message: String) -> TimelineModel.Subject? {
    let words = message.split(separator: " ")
    func word(after keyword: String) -> Substring? {
      guard let position = words.firstIndex(where: { $0 == keyword }), position + 1 < words.count else { return nil }
      let word: Substring = words[position + 1]
      let trimmed = word.prefix { $0 != "," && $0 != ":" && $0 != ")" && $0 != "(" }
      return trimmed.isEmpty ? nil : trimmed
    }
    if let id = word(after: "task").flatMap({ Int($0) }), let index = latestTasks[id] { return .task(index) }
    if let run = word(after: "run").flatMap({ Int($0) }), let index = latestRuns[run] { return .run(index) }
    if let work = word(after: "work"), let lane = workIndex[String(work)] { return .work(lane) }
    return nil
  }

  /// Whether `message` names `subject`; a task by its name too when `byName`.
  private func names(_ subject: TimelineModel.Subject, in message: String, byName: Bool) -> Bool {
    switch subject {
    case .task(let index):
      let task = model.tasks[index]
      if byName { return task.name.map { message.contains($0) } == true }
      return Self.mentions("task \(task.id)", in: message) || Self.mentions("id \(task.id)", in: message)
    case .run(let index): return message.contains(model.runs[index].identifier)
    case .work(let index): return message.contains(model.works[index].work)
    case .session(let index): return message.contains(model.sessions[index].session)
    case .service(let index): return message.contains(model.services[index].service)
    case .request(let index): return message.contains(model.submissions[index].identifier)
    case .anyTask, .anyRun: return true
    }
  }

  /// Whether `message` holds `words` not followed by a digit (`task 17` is not in
  /// `task 171`).
  private static func mentions(_ words: String, in message: String) -> Bool {
    let text = Array(message.utf8)
    let pattern = Array(words.utf8)
    var start = 0
    while start + pattern.count <= text.count {
      if text[start..<start + pattern.count].elementsEqual(pattern) {
        let next = start + pattern.count
        if next == text.count || !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[next]) { return true }
      }
      start += 1
    }
    return false
  }

  private mutating func touch(_ subject: TimelineModel.Subject) {
    if !touched.contains(subject) { touched.append(subject) }
  }

  /// Settles `identifier`'s latest submission, when it is still pending.
  private mutating func settle(_ identifier: String, _ fate: TimelineModel.SubmissionFate, run: Int? = nil) {
    closeRequestWait(of: identifier)
    guard let index = latestSubmissions[identifier], model.submissions[index].fate == .pending else { return }
    model.submissions[index].fate = fate
    model.submissions[index].settled = now
    model.submissions[index].run = run
  }

  // MARK: Transitions

  /// Takes the worker's class from the tags of an attempt's end (``TimelineModel/WorkLane/worker``).
  private mutating func noteWorkerClass(of work: String, _ event: TraceEvent?) {
    var tags: String?
    if case .workResult(_, _, _, let resultTags)? = event?.kind { tags = resultTags }
    if case .workStop(_, _, _, let stopTags)? = event?.kind { tags = stopTags }
    guard let tags, let worker = TimelineModel.WorkLane.workerClass(inTags: tags) else { return }
    model.works[workLane(work)].worker = worker
  }

  private mutating func apply(_ transition: LifecycleTransition, _ event: TraceEvent?) {
    switch transition {
    case .processStarted(let life):
      process = model.processes.count
      model.processes.append(.init(start: now, end: now, implicit: life.implicit))
      // A process the trace did not see start (an imported log's) is in a state the trace
      // does not say until its first `app.state`.
      state = (life.implicit ? "unknown" : "launching", now)
    case .stateChanged(_, let to):
      closeState()
      state = (to.rawValue, now)
    case .processEnded(let end):
      closeState(atTraceEnd: end == .traceEnded)
      guard let process else { return }
      switch end {
      case .terminated(let reason):
        model.processes[process].ending = reason.map { "terminated (\($0))" } ?? "terminated"
      case .relaunched: model.processes[process].ending = "relaunched"
      case .traceEnded, .suspended: break
      }
      model.processes[process].end = now
    case .actionWithoutProcess(let kind, _, _):
      if let event { instant(.events, .event, "\(kind.tag.name) after terminate", event) }
    case .taskBegun(let id, let task):
      if let earlier = taskSlices[id] { closeTask(earlier, expired: .killed, otherwise: .leaked) }  // begun twice
      taskSlices[id] = model.tasks.count
      latestTasks[id] = model.tasks.count
      touch(.task(model.tasks.count))
      model.tasks.append(
        .init(process: process ?? 0, id: id, name: task.name, start: now, end: now, expiredAt: nil, outcome: .leaked))
    case .taskRefused(let name):
      if let event { instant(.tasks, .event, "refused \(name ?? "task")", event) }
    case .taskEnded(let id, _):
      if let index = taskSlices.removeValue(forKey: id) {
        touch(.task(index))
        closeTask(index, expired: .expired, otherwise: .ended)
      }
    case .taskExpired(let id, let task):
      if let index = taskSlices[id] {
        touch(.task(index))
        model.tasks[index].expiredAt = now
      }
      if let event { instant(.tasks, .expiration, "expire \(task.name ?? "task \(id)")", event) }
    case .taskExpireUnmatched(let id):
      touch(.anyTask)
      if let event { instant(.tasks, .expiration, "expire task \(id)", event) }
    case .taskClosed(let id, _, _):
      if let index = taskSlices.removeValue(forKey: id) {
        touch(.task(index))
        closeTask(index, expired: .killed, otherwise: .leaked)
      }
    case .taskEndUnmatched:
      touch(.anyTask)  // the checker reports it
    case .registered(let ident, let ok, _):
      if let event { instant(.requests(ident), .event, ok ? "register" : "register (not permitted)", event) }
    case .submitted(let submission, _):
      settle(submission.identifier, .replaced)
      touch(.request(model.submissions.count))
      latestSubmissions[submission.identifier] = model.submissions.count
      model.submissions.append(
        .init(
          process: process ?? 0, time: now, identifier: submission.identifier, type: submission.type,
          detail: event.map(TextTraceWriter.line(for:)) ?? ""))
    case .rejected(let ident, let error):
      if let event { instant(.requests(ident), .rejection, "reject \(error.rawValue)", event) }
    case .requestsCancelled(.identifier(let ident)):
      settle(ident, .cancelled)
      if let event { instant(.requests(ident), .event, "cancel", event) }
    case .requestsCancelled(.all):
      for ident in latestSubmissions.keys { settle(ident, .cancelled) }
      if let event { instant(.events, .event, "cancel all", event) }
    case .runLaunched(let run, let life, let request):
      if let earlier = runSlices[run] { closeRun(earlier, .notCompleted) }  // launched twice
      runIdentifiers[run] = life.identifier
      runSlices[run] = model.runs.count
      latestRuns[run] = model.runs.count
      touch(.run(model.runs.count))
      let answered = request == nil ? nil : latestSubmissions[life.identifier]
      if request != nil { settle(life.identifier, .launched, run: model.runs.count) }
      model.runs.append(
        .init(
          process: process ?? 0, run: run, identifier: life.identifier, type: life.type, start: now, end: now,
          expiredAt: nil, outcome: .notCompleted, submission: answered)
      )
    case .runLaunchedUnregistered(let ident, let run):
      if let event { instant(.scheduler(ident), .event, "launch run \(run) (no handler registered)", event) }
    case .runExpired(let run, _):
      if let index = runSlices[run] {
        touch(.run(index))
        model.runs[index].expiredAt = now
      }
      if let event { instant(.scheduler(runIdentifiers[run] ?? "run \(run)"), .expiration, "expire run \(run)", event) }
    case .runProgressed(let run, _):
      if let index = runSlices[run] { touch(.run(index)) }  // the events lane shows the sched.progress
    case .runExpireUnmatched(let run):
      touch(.anyRun)
      if let event { instant(.scheduler(runIdentifiers[run] ?? "run \(run)"), .expiration, "expire run \(run)", event) }
    case .runCompleted(let run, let life, let success):
      if let index = runSlices.removeValue(forKey: run) {
        touch(.run(index))
        closeRun(index, life.expiredAt != nil ? .expired : success ? .completed : .failed)
      }
    case .runClosed(let run, _, _):
      if let index = runSlices.removeValue(forKey: run) {
        touch(.run(index))
        closeRun(index, .notCompleted)
      }
    case .runCompleteUnmatched:
      touch(.anyRun)  // the checker reports it
    case .workEnqueued(let enqueue, let effect):
      let lane = workLane(enqueue.work)
      model.works[lane].enqueues.append(now)
      // Only a request that runs on the lane names it: not one kept out, queued
      // behind the running one (until it is released), or finished at once.
      if let name = enqueue.name, effect.startsRequest { model.works[lane].name = name }
      let label =
        switch effect {
        case .fresh: "enqueue"
        case .kept: "enqueue (kept the existing work)"
        case .queued(let position): "enqueue (queued \(position) behind)"
        case .finishedAtOnce: "enqueue (finished at once: appended to finished work)"
        case .updated: "enqueue (updated the existing work)"
        }
      if let event { instant(.work(enqueue.work), .event, label, event) }
    case .attemptStarted(let work, let attempt, _, let backoff):
      closeWait(of: work)
      let lane = workLane(work)
      if let running = attemptSlices[work] { closeAttempt(work, running, .interrupted) }  // started again while running
      attemptSlices[work] = model.works[lane].attempts.count
      model.works[lane].attempts.append(
        .init(
          process: process ?? 0, number: attempt, start: now, end: now, outcome: .unfinished,
          followsRetry: backoff != nil))
    case .startAfterFinish(let work, let attempt, _, _):
      _ = workLane(work)
      if let event { instant(.work(work), .event, "start attempt \(attempt) after finish", event) }
    case .attemptResulted(let work, _, let outcome, _):
      noteWorkerClass(of: work, event)
      if let index = attemptSlices.removeValue(forKey: work) {
        closeAttempt(work, index, TimelineModel.AttemptOutcome(rawValue: outcome.rawValue)!)
      }
    case .attemptStopped(let work, _, let reason):
      noteWorkerClass(of: work, event)
      if let index = attemptSlices.removeValue(forKey: work) { closeAttempt(work, index, .stopped, reason: reason) }
    case .attemptClosed(let work, _, let end):
      if let index = attemptSlices.removeValue(forKey: work) {
        closeAttempt(work, index, end == .traceEnded ? .unfinished : .interrupted)
      }
    case .workCancelled(let work):
      closeWait(of: work)
      model.works[workLane(work)].cancels.append(now)
      if let event { instant(.work(work), .event, "cancel", event) }
    case .workFinished(let work, _):
      closeWait(of: work)
      if let index = attemptSlices.removeValue(forKey: work) { closeAttempt(work, index, .interrupted) }
    case .attemptReplaced(let work, _):
      replaceLane(of: work)
    case .stopUnmatched(let work, let attempt):
      guard let replaced = replacedAttempts[work], replaced.number == attempt else { break }
      replacedAttempts[work] = nil
      var reason: String?
      if case .workStop(_, _, let stopReason, _)? = event?.kind { reason = stopReason }
      closeAttempt(inLane: replaced.lane, replaced.index, .stopped, reason: reason)
    case .resultUnmatched(let work, _, let outcome, .replaced):
      guard let replaced = replacedAttempts.removeValue(forKey: work) else { break }
      closeAttempt(inLane: replaced.lane, replaced.index, TimelineModel.AttemptOutcome(rawValue: outcome.rawValue)!)
    case .resultUnmatched:
      break
    case .queuedWorkReleased(let enqueue):
      if let name = enqueue.name { model.works[workLane(enqueue.work)].name = name }
    case .periodEnded:
      break
    case .sessionCreated(let session, _):
      _ = sessionLane(session)
      if let event { instant(.session(session), .event, "create", event) }
    case .sessionEventsDone(let session, _):
      _ = sessionLane(session)
      if let event { instant(.session(session), .event, "events done", event) }
    case .transferSubmitted(let session, let task, let kind, _):
      let lane = sessionLane(session)
      model.sessions[lane].transfers.append(
        .init(process: process ?? 0, task: task, kind: kind, start: now, end: now, outcome: nil))
    case .transferFinished(let session, let task, let outcome):
      let lane = sessionLane(session)
      if let index = model.sessions[lane].transfers.lastIndex(where: { $0.task == task && $0.outcome == nil }) {
        model.sessions[lane].transfers[index].end = now
        model.sessions[lane].transfers[index].outcome = outcome
      } else {  // submitted before the trace starts
        model.sessions[lane].transfers.append(
          .init(process: process ?? 0, task: task, kind: nil, start: now, end: now, outcome: outcome))
      }
    case .sessionWoken(let session):
      let lane = sessionLane(session)
      model.sessions[lane].wakes.append(.init(process: process ?? 0, start: now, end: now, answered: false))
    case .handlerCalled(let session, _, _):
      closeWake(of: session, answered: true)
    case .handlerNotCalled(let session, _, _, _):
      closeWake(of: session, answered: false)
    case .sessionNotRecreated(let session, _, _):
      closeWake(of: session, answered: false)
    case .serviceStarted(let service, _):
      _ = serviceRun(service)
    case .servicePromoted(let service, let type):
      let (lane, index) = serviceRun(service)
      if model.services[lane].runs[index].foregroundAt == nil { model.services[lane].runs[index].foregroundAt = now }
      model.services[lane].runs[index].type = type
    case .serviceStopped(let service, _?):
      endServiceRun(service, .stopped)
    case .serviceRefused(let service, let reason):
      _ = serviceRun(service)
      endServiceRun(service, .refused(reason))
    case .serviceTimedOut(let service, let type):
      let (lane, index) = serviceRun(service)
      model.services[lane].runs[index].timedOutAt = now
      if let event { instant(.service(service), .expiration, "onTimeout (\(type.rawValue))", event) }
    case .serviceClosed(let service, _, let end):
      if end != .traceEnded { endServiceRun(service, .closed) }
    case .workPromoted(let work, _, _):
      _ = workLane(work)
      if let event { instant(.work(work), .event, "setForeground", event) }
    case .workRefused(let work, _, let reason):
      _ = workLane(work)
      if let event { instant(.work(work), .event, "setForeground refused (\(reason.rawValue))", event) }
    case .expeditedOutOfQuota(let work, let policy):
      _ = workLane(work)
      if let event { instant(.work(work), .event, "expedited quota spent (\(policy.rawValue))", event) }
    case .fileLocked(let path, _):
      if let event { instant(.events, .event, "file lock \(path)", event) }
    case .fileUnlocked(let path):
      if let event { instant(.events, .event, "file unlock \(path)", event) }
    case .requestWaits(.work(let work), let reasons):
      closeWait(of: work)
      let lane = workLane(work)
      openWaits[work] = model.works[lane].waits.count
      model.works[lane].waits.append(.init(start: now, end: now, reasons: reasons))
      if let event { instant(.work(work), .waiting, "waits (\(WaitReason.field(reasons)))", event) }
    case .requestWaits(.taskRequest(let identifier), let reasons):
      closeRequestWait(of: identifier)
      if let index = latestSubmissions[identifier], model.submissions[index].fate == .pending {
        openRequestWaits[identifier] = (index, model.submissions[index].waits.count)
        model.submissions[index].waits.append(.init(start: now, end: now, reasons: reasons))
      }
      if let event { instant(.requests(identifier), .waiting, "waits (\(WaitReason.field(reasons)))", event) }
    case .serviceStopped(_, nil), .suspendedHoldingFileLock, .expeditedDemoted, .alarmWentOff, .alarmRepeatClamped:
      break
    }
  }

  // MARK: Drawing

  /// Closes the current state span; one left at the instant it was entered is kept as
  /// momentary, unless the trace's end (not the app) closes it.
  private mutating func closeState(atTraceEnd: Bool = false) {
    guard let state, let process else { return }
    let span = TimelineModel.StateSpan(process: process, state: state.name, start: state.start, end: now)
    if now > state.start {
      model.states.append(span)
    } else if state.name != "launching", state.name != "unknown", !atTraceEnd {
      // Every launch's first state follows one at once.
      model.momentaryStates.append(span)
    }
    self.state = nil
  }

  private mutating func closeTask(
    _ index: Int, expired: TimelineModel.TaskOutcome, otherwise: TimelineModel.TaskOutcome
  ) {
    model.tasks[index].end = now
    model.tasks[index].outcome = model.tasks[index].expiredAt == nil ? otherwise : expired
    // A task expired and never ended is over once its grace has passed (the checker's
    // task-expired-not-ended): drawn to there, not to whatever event comes next.
    if model.tasks[index].outcome == .killed, let expiredAt = model.tasks[index].expiredAt {
      model.tasks[index].end = min(now, expiredAt + CheckerConfiguration().grace)
    }
  }

  private mutating func closeRun(_ index: Int, _ outcome: TimelineModel.RunOutcome) {
    model.runs[index].end = now
    model.runs[index].outcome = outcome
  }

  /// The index of `work`'s lane (added when it is new), touched by the latest event.
  private mutating func workLane(_ work: String) -> Int {
    if let lane = workIndex[work] {
      touch(.work(lane))
      return lane
    }
    touch(.work(model.works.count))
    workIndex[work] = model.works.count
    model.works.append(.init(work: work))
    return model.works.count - 1
  }

  private mutating func closeAttempt(
    _ work: String, _ index: Int, _ outcome: TimelineModel.AttemptOutcome, reason: String? = nil
  ) {
    closeAttempt(inLane: workLane(work), index, outcome, reason: reason)
  }

  private mutating func closeAttempt(
    inLane lane: Int, _ index: Int, _ outcome: TimelineModel.AttemptOutcome, reason: String? = nil
  ) {
    touch(.work(lane))
    model.works[lane].attempts[index].end = now
    model.works[lane].attempts[index].outcome = outcome
    model.works[lane].attempts[index].stopReason = reason
  }

  /// A REPLACE enqueue of work whose attempt still runs (the walker's
  /// `attemptReplaced`): the new request is drawn on a lane of its own, and the replaced
  /// one keeps its lane, where its running attempt ends when its stop (or a late result)
  /// comes. Requests of one work that do not overlap share its lane.
  private mutating func replaceLane(of work: String) {
    guard let old = workIndex[work], let index = attemptSlices.removeValue(forKey: work) else { return }
    closeWait(of: work)
    replacedAttempts[work] = (old, index, model.works[old].attempts[index].number)
    model.works[old].replacedAt = now
    workIndex[work] = model.works.count
    model.works.append(.init(work: work))
    touch(.work(model.works.count - 1))
  }

  /// Runs the attempts of replaced requests that never stopped to the trace's end.
  private mutating func closeReplacedAttempts() {
    for replaced in replacedAttempts.values {
      model.works[replaced.lane].attempts[replaced.index].end = model.end
    }
    replacedAttempts.removeAll()
  }

  /// The index of `session`'s lane, added when it is new.
  /// Ends the open wait of `work`, if any, now.
  private mutating func closeWait(of work: String) {
    guard let index = openWaits.removeValue(forKey: work), let lane = workIndex[work] else { return }
    model.works[lane].waits[index].end = now
  }

  /// Ends the open wait of the request for `identifier`, if any, now.
  private mutating func closeRequestWait(of identifier: String) {
    guard let open = openRequestWaits.removeValue(forKey: identifier) else { return }
    model.submissions[open.submission].waits[open.wait].end = now
  }

  /// Runs the waits still open to the last event.
  private mutating func finishWaits() {
    for work in openWaits.keys.sorted() { closeWait(of: work) }
    for identifier in openRequestWaits.keys.sorted() { closeRequestWait(of: identifier) }
  }

  private mutating func sessionLane(_ session: String) -> Int {
    if let index = sessionLanes[session] {
      touch(.session(index))
      return index
    }
    touch(.session(model.sessions.count))
    sessionLanes[session] = model.sessions.count
    model.sessions.append(.init(session: session))
    return model.sessions.count - 1
  }

  /// `service`'s running run, begun now if none runs: its lane and index.
  private mutating func serviceRun(_ service: String) -> (lane: Int, index: Int) {
    let lane: Int
    if let index = serviceLanes[service] {
      lane = index
      touch(.service(lane))
    } else {
      touch(.service(model.services.count))
      lane = model.services.count
      serviceLanes[service] = lane
      model.services.append(.init(service: service))
    }
    if let index = serviceRuns[service] { return (lane, index) }
    model.services[lane].runs.append(.init(process: process ?? 0, start: now, end: now))
    serviceRuns[service] = model.services[lane].runs.count - 1
    return (lane, model.services[lane].runs.count - 1)
  }

  /// Ends `service`'s running run, if any, now.
  private mutating func endServiceRun(_ service: String, _ ending: TimelineModel.ServiceLane.Ending) {
    guard let index = serviceRuns.removeValue(forKey: service), let lane = serviceLanes[service] else { return }
    touch(.service(lane))
    model.services[lane].runs[index].end = now
    model.services[lane].runs[index].ending = ending
  }

  /// Ends `session`'s open wake, if any, now.
  private mutating func closeWake(of session: String, answered: Bool) {
    let lane = sessionLane(session)
    guard let index = model.sessions[lane].wakes.lastIndex(where: \.open) else { return }
    model.sessions[lane].wakes[index].end = now
    model.sessions[lane].wakes[index].answered = answered
    model.sessions[lane].wakes[index].open = false
  }

  private mutating func instant(
    _ track: TimelineModel.Track, _ category: TimelineModel.InstantCategory, _ name: String, _ event: TraceEvent
  ) {
    model.instants.append(
      .init(
        process: process ?? 0, time: now, track: track, category: category, name: name,
        detail: TextTraceWriter.line(for: event)))
  }
}
