package import BackgroundTrace
import BackgroundTraceCheck

/// Counts over one trace, gathered in one streaming pass. How long tasks stay open
/// comes from the lifecycle walker, so a task counts as ended where the checker says
/// it ended (memory grows only with what is alive).
package struct TraceStatistics {
  var events = 0
  var byKind = [Int](repeating: 0, count: Int(EventTag.largestCode) + 1)
  var firstTime: TraceTime?
  var lastTime = TraceTime.zero
  var tasksBegun = 0
  var tasksRefused = 0
  var tasksExpired = 0
  var tasksEnded = 0
  var longestTask: (id: Int, name: String?, seconds: Double)?
  var runs = 0
  var runsExpired = 0
  var runsCompleted = 0
  var submissions = 0
  var rejections = 0
  var workEnqueued = 0
  var workAttempts = 0
  var workRetries = 0
  var workSucceeded = 0
  var workFailed = 0
  var workStopped = 0
  var sessionsCreated = 0
  var transfersSubmitted = 0
  var transferOutcomes: [TransferOutcome: Int] = [:]
  var wakes = 0
  var handlersCalled = 0
  var servicesStarted = 0
  var servicesForeground = 0
  var serviceRefusals: [ForegroundServiceRefusal: Int] = [:]
  var serviceTimeouts = 0
  var servicesStopped = 0
  var workersPromoted = 0
  private var walker = LifecycleWalker()
  private var transitions: [LifecycleTransition] = []
  /// How long each ended task was open, in nanoseconds, for the percentiles.
  private var taskDurations: [UInt64] = []

  /// Starts with no events counted.
  package init() {}

  package mutating func add(_ event: TraceEvent) {
    events += 1
    byKind[Int(event.kind.tag.rawValue)] += 1
    if firstTime == nil { firstTime = event.time }
    lastTime = event.time
    transitions.removeAll(keepingCapacity: true)
    walker.apply(event, into: &transitions)
    for case .taskEnded(let id, let task) in transitions {
      let nanoseconds = event.time.nanoseconds - task.begin.nanoseconds
      taskDurations.append(nanoseconds)
      let seconds = Double(nanoseconds) / 1e9
      if seconds > longestTask?.seconds ?? -1 { longestTask = (id, task.name, seconds) }
    }
    switch event.kind {
    case .taskBegin(let id, _):
      if id == 0 { tasksRefused += 1 } else { tasksBegun += 1 }
    case .taskEnd: tasksEnded += 1
    case .taskExpire: tasksExpired += 1
    case .schedSubmit: submissions += 1
    case .schedReject: rejections += 1
    case .schedLaunch: runs += 1
    case .schedExpire: runsExpired += 1
    case .schedComplete: runsCompleted += 1
    case .workEnqueue: workEnqueued += 1
    case .workStart: workAttempts += 1
    case .workResult(_, _, .retry, _): workRetries += 1
    case .workResult(_, _, .success, _): workSucceeded += 1
    case .workResult(_, _, .failure, _): workFailed += 1
    case .workStop: workStopped += 1
    case .netCreate: sessionsCreated += 1
    case .netSubmit: transfersSubmitted += 1
    case .netFinish(_, _, let outcome): transferOutcomes[outcome, default: 0] += 1
    case .netWake: wakes += 1
    case .netHandler: handlersCalled += 1
    case .fgsStart: servicesStarted += 1
    case .fgsForeground: servicesForeground += 1
    case .fgsRefuse(_, let reason): serviceRefusals[reason, default: 0] += 1
    case .fgsTimeout: serviceTimeouts += 1
    case .fgsStop: servicesStopped += 1
    case .workForeground: workersPromoted += 1
    case .appLaunch, .appState, .appTerminate, .schedRegister, .schedCancel, .workCancel, .envSet, .input, .mark,
      .netEventsDone, .schedProgress, .workRefuse, .workQuota, .appAllowlist, .fileLock, .fileUnlock, .workWait,
      .schedWait, .workAfter, .alarmSet, .alarmFire, .alarmCancel:
      break
    }
  }

  /// The report printed by `bgtrace stats`: `bytes` is the trace's size (bytes per
  /// event divide it), `unwritten` the bytes of unwritten space after it (docs/FORMAT.md,
  /// "Unwritten space"), named beside it but not counted.
  package func report(name: String, format: TraceReader.Format, bytes: Int?, unwritten: Int = 0) -> String {
    report(name: name, formatName: format.rawValue, bytes: bytes, unwritten: unwritten)
  }

  /// The report of a trace read in the form `formatName` (`text`, `binary`, `device log`).
  package func report(name: String, formatName: String, bytes: Int?, unwritten: Int = 0) -> String {
    var lines: [String] = []
    let size =
      bytes.map { ", \($0) bytes" + (unwritten > 0 ? " and \(unwritten) bytes of unwritten space" : "") } ?? ""
    lines.append("\(name) (\(formatName)\(size))")
    let perEvent =
      bytes.flatMap { events > 0 ? "  (\(Self.fixed(Double($0) / Double(events), 2)) bytes/event)" : nil } ?? ""
    lines.append(Self.row("events", "\(events)\(perEvent)"))
    let duration = firstTime.map { Double(lastTime.nanoseconds - $0.nanoseconds) / 1e9 } ?? 0
    lines.append(Self.row("duration", "\(Self.fixed(duration, 3))s"))
    lines.append(Self.row("processes", "\(byKind[Int(EventTag.appLaunch.rawValue)])"))
    var tasks = "begun \(tasksBegun), refused \(tasksRefused), ended \(tasksEnded), expired \(tasksExpired)"
    if let longest = longestTask {
      let label = longest.name.map { " \"\($0)\"" } ?? ""
      tasks += "; longest: task \(longest.id)\(label), \(Self.fixed(longest.seconds, 3))s"
    }
    if !taskDurations.isEmpty {
      let sorted = taskDurations.sorted()
      tasks += "; open p50 \(percentile(sorted, 50))s, p95 \(percentile(sorted, 95))s"
    }
    lines.append(Self.row("tasks", tasks))
    lines.append(
      Self.row(
        "scheduler",
        "submitted \(submissions), rejected \(rejections), launched \(runs), expired \(runsExpired), completed \(runsCompleted)"
      ))
    lines.append(
      Self.row(
        "work",
        "enqueued \(workEnqueued), attempts \(workAttempts), retries \(workRetries), succeeded \(workSucceeded), failed \(workFailed), stopped \(workStopped)"
      ))
    // Only for a trace with background transfers: the others' reports stay as they were.
    if sessionsCreated + transfersSubmitted + wakes + handlersCalled + transferOutcomes.values.reduce(0, +) > 0 {
      let outcomes = TransferOutcome.allCases.map { "\($0.rawValue) \(transferOutcomes[$0, default: 0])" }
      lines.append(
        Self.row(
          "transfers",
          "sessions created \(sessionsCreated), submitted \(transfersSubmitted), "
            + outcomes.joined(separator: ", ") + ", wakes \(wakes), handlers called \(handlersCalled)"))
    }
    // Only for a trace with foreground services or promoted workers.
    let refusals = serviceRefusals.values.reduce(0, +)
    if servicesStarted + servicesForeground + refusals + serviceTimeouts + servicesStopped + workersPromoted > 0 {
      let reasons = ForegroundServiceRefusal.allCases.filter(\.appliesToServices).map {
        "\($0.rawValue) \(serviceRefusals[$0, default: 0])"
      }
      lines.append(
        Self.row(
          "services",
          "started \(servicesStarted), foreground \(servicesForeground), refused \(refusals) ("
            + reasons.joined(separator: ", ") + "), timed out \(serviceTimeouts), stopped \(servicesStopped), "
            + "workers promoted \(workersPromoted)"))
    }
    lines.append("  events by kind")
    for kind in EventTag.allCases where byKind[Int(kind.rawValue)] > 0 {
      lines.append("    " + kind.name.padding(to: 16) + String(byKind[Int(kind.rawValue)]))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The nearest-rank percentile of sorted durations, in seconds.
  private func percentile(_ sorted: [UInt64], _ rank: Int) -> String {
    let index = max(0, (sorted.count * rank + 99) / 100 - 1)
    return Self.fixed(Double(sorted[index]) / 1e9, 3)
  }

  private static func row(_ label: String, _ value: String) -> String {
    "  " + label.padding(to: 12) + value
  }

  /// `value` with exactly `digits` fractional digits, without Foundation's locale.
  static func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    let whole = scaled / Int(scale)
    let fraction = String(scaled % Int(scale))
    guard digits > 0 else { return String(whole) }
    return "\(whole)." + String(repeating: "0", count: digits - fraction.count) + fraction
  }
}

extension String {
  func padding(to width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}
