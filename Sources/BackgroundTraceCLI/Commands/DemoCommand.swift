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
    let htmlPath = (directory as NSString).appendingPathComponent("demo.html")

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

      The sample app is a document editor: it saves the open document in a UIKit
      background task when the user leaves (DocumentManager), refreshes with
      BGTaskScheduler (its AppDelegate) and syncs with a retrying worker
      (DataSyncWorker). It ran for \(Self.duration(trace)) of virtual time in the
      simulated iPhone, the user leaving it after 12 s.

      Timeline (seconds since launch; findings marked with >>):

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

      The deliberate bug: the save outlasts the 30 s background budget. At 41 s the
      expiration handler ends the task and resets the stored id to .invalid, and iOS
      suspends the app with the save unfinished: a suspended app runs no code. The
      save goes on only when iOS next runs the app, here the refresh launch hours
      later, and then ends .invalid (task.end id=0), which iOS only logs as "Can't end
      BackgroundTask": the save's end is lost. Next, from this checkout (or without
      'swift run' once Tools/install-bgtrace.sh has put bgtrace on PATH):
        swift run bgtrace check \(textPath)
        swift run bgtrace explain \(textPath)
        swift run bgtrace export \(textPath) --format html --out \(htmlPath)

      """)
    return .success
  }

  /// How long the trace runs, in seconds and, past an hour, hours: `28442.133 s (7.9 h)`.
  static func duration(_ trace: RecordedTrace) -> String {
    let end = trace.events.last?.time ?? .zero
    let seconds = "\(end.description) s"
    let hours = Double(end.nanoseconds) / 3.6e12
    return hours < 1 ? seconds : seconds + " (\((hours * 10).rounded() / 10) h)"
  }
}
