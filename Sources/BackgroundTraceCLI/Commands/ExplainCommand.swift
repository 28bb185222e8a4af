import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceExport
import BackgroundTraceImport

/// `bgtrace explain PATH`: walks a trace through the platform model and prints each
/// event, what it changed, the checker's findings where they occur, and decisions the
/// model says could not have happened; everything alive after each event with
/// `--alive`, and once at `--until`. With `--why NAME`, one request's history instead
/// (``RequestHistory``).
enum ExplainCommand {
  static func run(
    path: String, until: TraceTime?, alive: Bool, platform: LogPlatform? = nil, console: some Console
  ) throws -> ExitStatus {
    // A device log is imported in memory; its events are at the log's lines.
    let imported = try InMemoryImport.log(at: path, platform: platform)
    var reader: TraceReader? = imported == nil ? try TraceReader(path: path) : nil
    var importedEvents = (imported?.located ?? []).makeIterator()
    if let imported { console.writeError("bgtrace: \(imported.note); locations are the log's lines\n") }
    var explainer = TraceExplainer(meta: imported?.trace.meta ?? reader!.meta)
    var failing = false
    var output = StreamedText<Never> { console.write($0) }
    var last: LocatedEvent?
    var lastShown: LocatedEvent?
    var showedAliveAtUntil = until == nil || alive
    func lines(for findings: [Finding]) -> String {
      findings.map { "      >> \($0.severity.rawValue): \($0.message) [\($0.rule.id)]\n" }.joined()
    }
    /// Everything alive after the last event printed, once, where the timeline stops.
    func showAliveAtUntil() {
      guard !showedAliveAtUntil, let last = lastShown else { return }
      showedAliveAtUntil = true
      let lines = explainer.alive
      output.append("alive after \(last.location) (\(last.event.time)s):\(lines.isEmpty ? " nothing" : "")\n")
      for line in lines { output.append("      · \(line)\n") }
    }
    while let located = try reader?.next() ?? importedEvents.next() {
      if let until, located.event.time > until { showAliveAtUntil() }
      last = located
      let step = explainer.explain(located)
      if !step.inconsistencies.isEmpty || step.findings.contains(where: { $0.severity == .error }) { failing = true }
      if let until, located.event.time > until { continue }
      lastShown = located
      output.append("\(located.location): \(TextTraceWriter.line(for: located.event))\n")
      if alive {
        for line in explainer.alive { output.append("      · \(line)\n") }
      } else {
        for line in step.changes { output.append("      \(line)\n") }
      }
      output.append(lines(for: step.findings))
      for inconsistency in step.inconsistencies {
        output.append("      !! inconsistent with the model: \(inconsistency.message)\n")
      }
    }
    showAliveAtUntil()
    let findings = explainer.finish(after: reader?.damage ?? [])
    if !findings.isEmpty, let last {
      if findings.contains(where: { $0.severity == .error }) { failing = true }
      output.append("at the end (\(last.location)):\n" + lines(for: findings))
    }
    output.finish()
    if BGTrace.reportDamage(reader?.damage ?? [], console: console) != .success { return .badInput }
    return failing ? .findings : .success
  }

  /// `bgtrace explain PATH --why NAME`: the history of the work, scheduler request or
  /// alarm `name`, up to `until`; a device log is imported in memory first.
  static func runWhy(
    request name: String, path: String, until: TraceTime?, platform: LogPlatform? = nil, console: some Console
  ) throws -> ExitStatus {
    let (trace, damage) = try InMemoryImport.trace(at: path, platform: platform, console: console)
    guard
      let lines = RequestHistory(of: name, in: trace, until: until)?.lines
        ?? AlarmHistory(of: name, in: trace, until: until)?.lines
    else {
      let names = RequestHistory.names(in: trace) + AlarmHistory.names(in: trace)
      let known =
        names.isEmpty
        ? "it names no work, scheduler request or alarm"
        : "it names \(names.prefix(10).joined(separator: ", "))\(names.count > 10 ? ", …" : "")"
      console.writeError("bgtrace: \(path) has no work, scheduler request or alarm named '\(name)'; \(known)\n")
      return .badInput
    }
    for line in lines { console.write(line + "\n") }
    if BGTrace.reportDamage(damage, console: console) != .success { return .badInput }
    return .success
  }
}
