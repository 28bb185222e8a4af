import BackgroundTrace
import BackgroundTraceCheck
import Foundation

/// `bgtrace demo`: records a built-in workflow with the recorder, writes it in both
/// forms and prints its text and statistics.
enum DemoCommand {
  /// The scripted workflow: the seed article's `DocumentManager`, whose expiration
  /// handler ends the task and resets its id to `.invalid`, while the save finishes
  /// later and ends `.invalid` again; plus a refresh submission and a retrying worker.
  static let script: [(seconds: Double, kind: TraceEvent.Kind)] = [
    (0, .appLaunch),
    (0, .schedRegister(ident: "com.example.refresh", ok: nil)),
    (0.3, .appState(to: .active)),
    (
      1,
      .schedSubmit(SchedulerSubmission(ident: "com.example.refresh", type: .refresh, earliest: TraceTime(seconds: 900)))
    ),
    (2, .workEnqueue(WorkEnqueue(work: "sync-1", name: "DataSyncWorker", limit: 3))),
    (2.5, .workStart(work: "sync-1", attempt: 0)),
    (4, .workResult(work: "sync-1", attempt: 0, outcome: .retry)),
    (12, .appState(to: .inactive)),
    (12.5, .appState(to: .background)),
    (12.5, .taskBegin(id: 1, name: "SaveDocument")),
    (34, .workStart(work: "sync-1", attempt: 1)),
    (35.2, .workResult(work: "sync-1", attempt: 1, outcome: .success)),
    (42, .taskExpire(id: 1)),
    (42, .taskEnd(id: 1)),
    (44.2, .taskEnd(id: 0)),
    (44.2, .mark(label: "save finished")),
    (47, .appState(to: .suspended)),
  ]

  static func run(outputDirectory: String?, console: some Console) throws -> ExitStatus {
    let directory =
      outputDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("bgtrace-demo").path
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw ByteSourceError(file: directory, message: "cannot create the output directory")
    }
    let binaryPath = (directory as NSString).appendingPathComponent("demo.bgtrace")
    let textPath = (directory as NSString).appendingPathComponent("demo.txt")

    let recorder = try TraceRecorder(
      writingTo: binaryPath, meta: ["platform": "ios", "budget": "30", "source": "bgtrace demo"],
      keepsEvents: true)
    for step in script {
      recorder.record(step.kind, at: TraceTime(seconds: step.seconds))
    }
    try recorder.close()
    let trace = recorder.trace
    let text = trace.text
    let file = try OutputFile(path: textPath)
    try file.write(text)
    try file.close()

    let size = (try? FileManager.default.attributesOfItem(atPath: binaryPath)[.size] as? Int) ?? 0
    console.write("Recorded \(trace.events.count) events of a sample app's background work:\n")
    console.write("  \(binaryPath)  (binary, \(size) bytes)\n  \(textPath)  (text)\n\n")
    console.write(text)
    console.write("\n")
    var statistics = TraceStatistics()
    for event in trace.events { statistics.add(event) }
    console.write(statistics.report(name: binaryPath, format: .binary, bytes: size))
    console.write("\nChecker findings (bgtrace check \(textPath)):\n")
    for finding in CheckCommand.check(textPath, configuration: CheckerConfiguration()).findings {
      console.write("  " + finding.line(path: textPath) + "\n")
    }
    console.write(
      """

      The deliberate bug: at 42s the expiration handler ends task 1 and resets the
      stored id to .invalid; the save finishes at 44.2s and ends .invalid (task.end id=0),
      which iOS only logs as "Can't end BackgroundTask". Try:
        bgtrace check \(textPath)
        bgtrace dump \(binaryPath)
        bgtrace convert \(textPath) copy.bgtrace

      """)
    return .success
  }
}
