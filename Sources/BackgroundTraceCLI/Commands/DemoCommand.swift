import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Foundation

/// `bgtrace demo`: runs the sample app in the simulation (with its deliberate bug),
/// writes the trace in both forms, says where, checks it, and prints the findings in a
/// timeline. `Traces/examples/demo.txt` is a copy of what it writes (a test keeps it so).
enum DemoCommand {
  static func run(outputDirectory: String?, console: some Console) throws -> ExitStatus {
    let directory =
      outputDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("bgtrace-demo").path
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw OutputError(file: directory, message: "cannot create the output directory")
    }
    let binaryPath = (directory as NSString).appendingPathComponent("demo.bgtrace")
    let textPath = (directory as NSString).appendingPathComponent("demo.txt")

    let trace = DemoScenario.run().trace
    let binary = try OutputFile(path: binaryPath)
    try binary.write(try trace.binary())
    try binary.close()
    let text = try OutputFile(path: textPath)
    try text.write(trace.text)
    try text.close()

    let findings = CheckCommand.check(textPath, configuration: CheckerConfiguration()).findings
    let size = (try? FileManager.default.attributesOfItem(atPath: binaryPath)[.size] as? Int) ?? 0
    console.write(
      """
      Wrote the sample app's trace\(outputDirectory == nil ? " (--out DIR writes it elsewhere)" : ""):
        \(binaryPath)  (binary, \(size) bytes, \(trace.events.count) events)
        \(textPath)  (text)

      The sample app (the seed articles' DocumentManager, refresh AppDelegate and
      DataSyncWorker) ran for \(trace.events.last?.time.description ?? "0")s of virtual time in the simulation.

      Timeline (findings marked with >>):

      """)
    let byLine = Dictionary(grouping: findings, by: \.location)
    let headerLines = trace.meta.isEmpty ? 1 : 2
    for (index, event) in trace.events.enumerated() {
      console.write("  " + TextTraceWriter.line(for: event) + "\n")
      for finding in byLine[index + 1 + headerLines] ?? [] {
        console.write("  >> \(finding.severity.rawValue): \(finding.message) [\(finding.rule.id)]\n")
      }
    }
    console.write("\nChecker findings (bgtrace check \(textPath)):\n")
    for finding in findings {
      console.write("  " + finding.line(path: textPath) + "\n")
    }
    console.write(
      """

      The deliberate bug: the document save outlasts the 30s background budget, so the
      expiration handler ends the task and resets the stored id to .invalid; when the
      save finishes it ends .invalid (task.end id=0), which iOS only logs as "Can't end
      BackgroundTask". Next, from this checkout (or without 'swift run' once
      Tools/install-bgtrace.sh has put bgtrace on PATH):
        swift run bgtrace check \(textPath)
        swift run bgtrace stats \(binaryPath)
        swift run bgtrace dump \(binaryPath)

      """)
    return .success
  }
}
