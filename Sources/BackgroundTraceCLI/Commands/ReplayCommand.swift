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
    var output = StreamedText<Never> { console.write($0) }
    var last: LocatedEvent?
    func lines(for findings: [Finding]) -> String {
      findings.map { "      >> \($0.severity.rawValue): \($0.message) [\($0.rule.id)]\n" }.joined()
    }
    while let located = try reader.next() {
      last = located
      var findings: [Finding] = []
      checker.check(located, into: &findings)
      let inconsistencies = timeline.apply(located)
      if !inconsistencies.isEmpty || findings.contains(where: { $0.severity == .error }) { failing = true }
      if let until, located.event.time > until { continue }
      output.append("\(located.location): \(TextTraceWriter.line(for: located.event))\n")
      for line in timeline.aliveDescription { output.append("      · \(line)\n") }
      output.append(lines(for: findings))
      for inconsistency in inconsistencies {
        output.append("      !! inconsistent with the model: \(inconsistency.message)\n")
      }
    }
    var findings: [Finding] = []
    checker.finish(into: &findings)
    if !findings.isEmpty, let last {
      if findings.contains(where: { $0.severity == .error }) { failing = true }
      output.append("at the end (\(last.location)):\n" + lines(for: findings))
    }
    output.finish()
    if BGTrace.reportDamage(reader.damage, console: console) != .success { return .badInput }
    return failing ? .findings : .success
  }
}
