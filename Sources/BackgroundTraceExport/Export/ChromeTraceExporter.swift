import BackgroundTrace
import BackgroundTraceCheck

/// Writes a ``TimelineModel`` as Chrome trace-event JSON, the format Perfetto UI and
/// chrome://tracing open: `{"traceEvents":[…],"displayTimeUnit":"ms"}`, times in
/// microseconds.
///
/// Each app process is a `pid`, named by `M` events, with these tracks (`tid`s):
/// - *App state*: a complete slice (`X`) per state;
/// - *Findings*: an instant (`i`) per checker finding, named by its rule id;
/// - *UIKit tasks*: an async slice (`b`/`e`, `cat` `task`, a unique `id`) per task, and
///   instants for expirations and refused begins;
/// - *BGTask IDENT requests*: an identifier's submissions as zero-length slices (where
///   flows start), its registrations, rejections and cancellations as instants;
/// - *BGTask IDENT runs*: its runs as complete slices, their expirations as instants;
/// - *Work ID*: a work item's attempts as complete slices;
/// - *Events*: everything else as instants (marks, environment, inputs, terminations).
///
/// Flows (`s`/`f`) join a submission to the launch it led to, and an attempt that
/// returned `retry` to the next attempt. Complete slices on one track never overlap: an
/// overlapping run or attempt goes to a second track of the same name, numbered.
package struct ChromeTraceExporter {
  private let model: TimelineModel
  private let window: TimeWindow
  private var events: [(time: TraceTime, sequence: Int, json: String)] = []
  private var threads: [ThreadKey: Int] = [:]
  private var threadNames: [(process: Int, tid: Int, name: String, rank: Int)] = []
  private var laneEnds: [LaneKey: [TraceTime]] = [:]
  private var nextFlow = 1
  private let workLabels: [String: String]

  private struct ThreadKey: Hashable {
    var process: Int
    var track: TimelineModel.Track
    var lane: Int
  }

  private struct LaneKey: Hashable {
    var process: Int
    var track: TimelineModel.Track
  }

  /// Writes `model`, the part of it inside `window`, to `sink`, in pieces.
  ///
  /// - Complexity: O(*n* log *n*) in the number of slices and instants.
  package static func export(_ model: TimelineModel, window: TimeWindow, to sink: @escaping (String) -> Void) {
    var exporter = ChromeTraceExporter(model: model, window: window)
    exporter.collect()
    exporter.write(to: sink)
  }

  private init(model: TimelineModel, window: TimeWindow) {
    self.model = model
    self.window = window
    workLabels = Dictionary(model.works.map { ($0.work, $0.label) }, uniquingKeysWith: { $1 })
  }

  // MARK: Collecting

  private mutating func collect() {
    for state in model.states {
      guard let span = window.clip(state.start, state.end) else { continue }
      let tid = thread(state.process, .appState)
      complete(state.state, "app", span, pid: state.process, tid: tid, args: [("state", JSONText.string(state.state))])
    }
    for (serial, task) in model.tasks.enumerated() {
      guard let span = window.clip(task.start, task.end) else { continue }
      let tid = thread(task.process, .tasks)
      var args: [(String, String)] = [("id", String(task.id)), ("outcome", JSONText.string(task.outcome.rawValue))]
      if let expiredAt = task.expiredAt { args.append(("expired_at", expiredAt.description)) }
      let common = "\"name\":\(JSONText.string(task.label)),\"cat\":\"task\""
      let ids = "\"pid\":\(task.process + 1),\"tid\":\(tid),\"id\":\(serial + 1)"
      add(
        span.start,
        "{\(common),\"ph\":\"b\",\"ts\":\(Self.micros(span.start)),\(ids),\"args\":\(JSONText.object(args))}")
      add(span.end, "{\(common),\"ph\":\"e\",\"ts\":\(Self.micros(span.end)),\(ids)}")
    }
    collectRuns()
    collectWork()
    collectSessions()
    collectServices()
    for instant in model.instants where window.contains(instant.time) {
      let tid = thread(instant.process, instant.track)
      self.instant(
        instant.name, instant.category.rawValue, at: instant.time, pid: instant.process, tid: tid,
        args: [("event", JSONText.string(instant.detail))])
    }
    for located in model.findings where window.contains(located.time) {
      let finding = located.finding
      let tid = thread(located.process, .findings)
      instant(
        finding.rule.id, "finding", at: located.time, pid: located.process, tid: tid,
        args: [
          ("severity", JSONText.string(finding.severity.rawValue)), ("message", JSONText.string(finding.message)),
          ("location", String(finding.location)),
        ])
    }
  }

  private mutating func collectRuns() {
    // A flow leaves a submission only for a launch inside the window.
    var flowOfSubmission: [Int: Int] = [:]
    for run in model.runs where window.contains(run.start) {
      if let submission = run.submission, window.contains(model.submissions[submission].time) {
        flowOfSubmission[submission] = nextFlow
        nextFlow += 1
      }
    }
    for (index, submission) in model.submissions.enumerated() where window.contains(submission.time) {
      let tid = thread(submission.process, .requests(submission.identifier))
      let span = (submission.time, submission.time)
      let args = [("event", JSONText.string(submission.detail))]
      complete("submit \(submission.type.rawValue)", "sched", span, pid: submission.process, tid: tid, args: args)
      if let flow = flowOfSubmission[index] {
        self.flow("s", id: flow, name: "submit to launch", at: submission.time, pid: submission.process, tid: tid)
      }
    }
    for run in model.runs {
      guard let span = window.clip(run.start, run.end) else { continue }
      let tid = laneThread(run.process, .scheduler(run.identifier), span)
      var args: [(String, String)] = [("run", String(run.run)), ("outcome", JSONText.string(run.outcome.rawValue))]
      if let type = run.type { args.append(("type", JSONText.string(type.rawValue))) }
      if let expiredAt = run.expiredAt { args.append(("expired_at", expiredAt.description)) }
      complete(run.identifier, "sched", span, pid: run.process, tid: tid, args: args)
      if let submission = run.submission, let flow = flowOfSubmission[submission] {
        self.flow("f", id: flow, name: "submit to launch", at: span.start, pid: run.process, tid: tid)
      }
    }
  }

  /// Each background session's transfers and wakes on its own track: a transfer from
  /// `net.submit` to `net.finish`, a wake from `net.wake` to the completion handler's call
  /// (or to the suspension or process end that left it unanswered).
  private mutating func collectSessions() {
    for lane in model.sessions {
      for transfer in lane.transfers {
        guard let span = window.clip(transfer.start, transfer.end) else { continue }
        let tid = laneThread(transfer.process, .session(lane.session), span)
        var args: [(String, String)] = [
          ("task", String(transfer.task)), ("outcome", JSONText.string(transfer.outcome?.rawValue ?? "not finished")),
        ]
        if let kind = transfer.kind { args.append(("kind", JSONText.string(kind.rawValue))) }
        complete("transfer \(transfer.task)", "net", span, pid: transfer.process, tid: tid, args: args)
      }
      for wake in lane.wakes {
        guard let span = window.clip(wake.start, wake.end) else { continue }
        let tid = laneThread(wake.process, .session(lane.session), span)
        let args = [("handler", JSONText.string(wake.answered ? "called" : "not called"))]
        complete(
          wake.answered ? "wake" : "wake (handler not called)", "net", span, pid: wake.process, tid: tid, args: args)
      }
    }
  }

  /// Each foreground service's runs on its own track, from `fgs.start` to its stop,
  /// refusal or process end.
  private mutating func collectServices() {
    for lane in model.services {
      for run in lane.runs {
        guard let span = window.clip(run.start, run.end) else { continue }
        let tid = laneThread(run.process, .service(lane.service), span)
        let ending: String =
          switch run.ending {
          case .stopped?: "stopped"
          case .refused(let reason)?: "refused (\(reason.rawValue))"
          case .closed?: "ended with its process"
          case nil: "running"
          }
        var args: [(String, String)] = [("ending", JSONText.string(ending))]
        if let type = run.type { args.append(("type", JSONText.string(type.rawValue))) }
        if let at = run.foregroundAt { args.append(("foreground_at", at.description)) }
        if let at = run.timedOutAt { args.append(("timed_out_at", at.description)) }
        complete("service \(lane.service)", "fgs", span, pid: run.process, tid: tid, args: args)
      }
    }
  }

  private mutating func collectWork() {
    for lane in model.works {
      var incomingFlow: Int?
      for (index, attempt) in lane.attempts.enumerated() {
        guard let span = window.clip(attempt.start, attempt.end) else { continue }
        let tid = laneThread(attempt.process, .work(lane.work), span)
        var args: [(String, String)] = [
          ("work", JSONText.string(lane.work)), ("attempt", String(attempt.number)),
          ("outcome", JSONText.string(attempt.outcome.rawValue)),
        ]
        if let reason = attempt.stopReason { args.append(("reason", JSONText.string(reason))) }
        complete(
          "\(lane.name ?? lane.work) #\(attempt.number)", "work", span, pid: attempt.process, tid: tid, args: args)
        if let flow = incomingFlow {
          self.flow("f", id: flow, name: "retry", at: span.start, pid: attempt.process, tid: tid)
          incomingFlow = nil
        }
        if index + 1 < lane.attempts.count, lane.attempts[index + 1].followsRetry,
          window.contains(lane.attempts[index + 1].start)
        {
          incomingFlow = nextFlow
          nextFlow += 1
          self.flow("s", id: incomingFlow!, name: "retry", at: span.start, pid: attempt.process, tid: tid)
        }
      }
    }
  }

  // MARK: Tracks

  /// The `tid` of a track's first lane, created on first use.
  private mutating func thread(_ process: Int, _ track: TimelineModel.Track, lane: Int = 0) -> Int {
    let key = ThreadKey(process: process, track: track, lane: lane)
    if let tid = threads[key] { return tid }
    let tid = threads.count + 1
    threads[key] = tid
    let (name, rank): (String, Int) =
      switch track {
      case .appState: ("App state", 0)
      case .findings: ("Findings", 1)
      case .tasks: ("UIKit tasks", 2)
      case .scheduler(let ident): ("BGTask \(ident) runs", 3)
      case .requests(let ident): ("BGTask \(ident) requests", 3)
      case .work(let work): ("Work \(workLabels[work] ?? work)", 4)
      case .session(let session): ("URLSession \(session)", 5)
      case .service(let service): ("Service \(service)", 5)
      case .events: ("Events", 6)
      }
    threadNames.append((process, tid, lane == 0 ? name : "\(name) (\(lane + 1))", rank))
    return tid
  }

  /// The `tid` of the first lane of a track where `span` overlaps no earlier slice.
  private mutating func laneThread(
    _ process: Int, _ track: TimelineModel.Track, _ span: (start: TraceTime, end: TraceTime)
  ) -> Int {
    let key = LaneKey(process: process, track: track)
    var ends = laneEnds[key, default: []]
    let lane = ends.firstIndex { $0 <= span.start } ?? ends.count
    if lane == ends.count { ends.append(span.end) } else { ends[lane] = span.end }
    laneEnds[key] = ends
    return thread(process, track, lane: lane)
  }

  // MARK: Events

  private mutating func add(_ time: TraceTime, _ json: String) {
    events.append((time, events.count, json))
  }

  private mutating func complete(
    _ name: String, _ category: String, _ span: (start: TraceTime, end: TraceTime), pid: Int, tid: Int,
    args: [(String, String)]
  ) {
    let duration = span.end.interval(since: span.start)
    add(
      span.start,
      "{\"name\":\(JSONText.string(name)),\"cat\":\"\(category)\",\"ph\":\"X\",\"ts\":\(Self.micros(span.start)),"
        + "\"dur\":\(Self.micros(duration)),\"pid\":\(pid + 1),\"tid\":\(tid),\"args\":\(JSONText.object(args))}")
  }

  private mutating func instant(
    _ name: String, _ category: String, at time: TraceTime, pid: Int, tid: Int, args: [(String, String)]
  ) {
    add(
      time,
      "{\"name\":\(JSONText.string(name)),\"cat\":\"\(category)\",\"ph\":\"i\",\"s\":\"t\",\"ts\":\(Self.micros(time)),"
        + "\"pid\":\(pid + 1),\"tid\":\(tid),\"args\":\(JSONText.object(args))}")
  }

  /// A flow event, placed right after the slice it binds to (the enclosing slice at its
  /// time: the viewers sort by time and keep the file's order for equal times).
  private mutating func flow(_ phase: String, id: Int, name: String, at time: TraceTime, pid: Int, tid: Int) {
    let binding = phase == "f" ? ",\"bp\":\"e\"" : ""
    add(
      time,
      "{\"name\":\"\(name)\",\"cat\":\"flow\",\"ph\":\"\(phase)\",\"ts\":\(Self.micros(time)),"
        + "\"pid\":\(pid + 1),\"tid\":\(tid),\"id\":\(id)\(binding)}")
  }

  // MARK: Writing

  private func write(to sink: @escaping (String) -> Void) {
    var output = StreamedText<Never>(sink)
    output.append("{\"traceEvents\":[")
    var first = true
    func append(_ json: String) {
      output.append((first ? "\n" : ",\n") + json)
      first = false
    }
    let shown = Set(threadNames.map(\.process))
    for (index, process) in model.processes.enumerated() where shown.contains(index) {
      let implicit = process.implicit ? ", no app.launch" : ""
      let name = "app process \(index + 1) (\(process.start)s to \(process.end)s, \(process.ending)\(implicit))"
      append(metadata("process_name", pid: index, tid: nil, ("name", JSONText.string(name))))
      append(metadata("process_sort_index", pid: index, tid: nil, ("sort_index", String(index + 1))))
    }
    for thread in threadNames {
      append(metadata("thread_name", pid: thread.process, tid: thread.tid, ("name", JSONText.string(thread.name))))
      let sortIndex = String(thread.rank * 1_000_000 + thread.tid)
      append(metadata("thread_sort_index", pid: thread.process, tid: thread.tid, ("sort_index", sortIndex)))
    }
    for event in events.sorted(by: { ($0.time, $0.sequence) < ($1.time, $1.sequence) }) { append(event.json) }
    output.append("\n],\"displayTimeUnit\":\"ms\"}\n")
    output.finish()
  }

  private func metadata(_ name: String, pid: Int, tid: Int?, _ argument: (String, String)) -> String {
    let thread = tid.map { ",\"tid\":\($0)" } ?? ",\"tid\":0"
    return "{\"name\":\"\(name)\",\"ph\":\"M\",\"pid\":\(pid + 1)\(thread),\"args\":\(JSONText.object([argument]))}"
  }

  /// A span as decimal microseconds, exactly (`12500000`, `0.001`).
  static func micros(_ interval: TraceInterval) -> String {
    micros(TraceTime.zero + interval)
  }

  /// A time as decimal microseconds since the trace started, exactly (`12500000`, `0.001`).
  static func micros(_ time: TraceTime) -> String {
    let whole = time.nanoseconds / 1000
    var fraction = time.nanoseconds % 1000
    guard fraction != 0 else { return String(whole) }
    var digits = 3
    while fraction % 10 == 0 {
      fraction /= 10
      digits -= 1
    }
    let text = String(fraction)
    return "\(whole)." + String(repeating: "0", count: digits - text.count) + text
  }
}
