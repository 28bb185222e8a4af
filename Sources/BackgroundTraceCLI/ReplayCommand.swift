import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck

/// `bgtrace replay PATH`: drives a trace through the platform model on the virtual
/// clock and prints a timeline — each event, what is alive after it, the checker's
/// findings where they occur, and decisions the model says could not have happened.
enum ReplayCommand {
  static func run(path: String, until: TraceTime?, console: some Console) throws -> ExitStatus {
    var reader = try TraceReader(path: path)
    var timeline = ModelTimeline(meta: reader.meta)
    var checker = TraceChecker(meta: reader.meta)
    var failing = false
    var output = ""
    var last: LocatedEvent?
    func flush() {
      console.write(output)
      output = ""
    }
    func note(_ findings: [Finding]) {
      for finding in findings {
        if finding.severity == .error { failing = true }
        output += "      >> \(finding.severity.rawValue): \(finding.message) [\(finding.rule.id)]\n"
      }
    }
    while let located = try reader.next() {
      last = located
      var findings: [Finding] = []
      checker.check(located, into: &findings)
      let inconsistencies = timeline.apply(located)
      if !inconsistencies.isEmpty || findings.contains(where: { $0.severity == .error }) { failing = true }
      if let until, located.event.time > until { continue }
      output += "\(located.location): \(TextTraceWriter.line(for: located.event))\n"
      for line in timeline.aliveDescription { output += "      · \(line)\n" }
      note(findings)
      for inconsistency in inconsistencies {
        output += "      !! inconsistent with the model: \(inconsistency.message)\n"
      }
      if output.utf8.count > 64 * 1024 { flush() }
    }
    var findings: [Finding] = []
    checker.finish(into: &findings)
    if !findings.isEmpty, let last {
      output += "at the end (\(last.location)):\n"
      note(findings)
    }
    flush()
    if BGTrace.reportDamage(reader.damage, console: console) != .success { return .badInput }
    return failing ? .findings : .success
  }
}
