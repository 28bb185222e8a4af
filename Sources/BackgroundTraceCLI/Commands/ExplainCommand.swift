import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceExport

/// `bgtrace explain PATH`: walks a trace through the platform model and prints each
/// event, what is alive after it, the checker's findings where they occur, and
/// decisions the model says could not have happened.
enum ExplainCommand {
  static func run(path: String, until: TraceTime?, console: some Console) throws -> ExitStatus {
    var reader = try TraceReader(path: path)
    var explainer = TraceExplainer(meta: reader.meta)
    var failing = false
    var output = StreamedText<Never> { console.write($0) }
    var last: LocatedEvent?
    func lines(for findings: [Finding]) -> String {
      findings.map { "      >> \($0.severity.rawValue): \($0.message) [\($0.rule.id)]\n" }.joined()
    }
    while let located = try reader.next() {
      last = located
      let step = explainer.explain(located)
      if !step.inconsistencies.isEmpty || step.findings.contains(where: { $0.severity == .error }) { failing = true }
      if let until, located.event.time > until { continue }
      output.append("\(located.location): \(TextTraceWriter.line(for: located.event))\n")
      for line in explainer.alive { output.append("      · \(line)\n") }
      output.append(lines(for: step.findings))
      for inconsistency in step.inconsistencies {
        output.append("      !! inconsistent with the model: \(inconsistency.message)\n")
      }
    }
    let findings = explainer.finish()
    if !findings.isEmpty, let last {
      if findings.contains(where: { $0.severity == .error }) { failing = true }
      output.append("at the end (\(last.location)):\n" + lines(for: findings))
    }
    output.finish()
    if BGTrace.reportDamage(reader.damage, console: console) != .success { return .badInput }
    return failing ? .findings : .success
  }
}
