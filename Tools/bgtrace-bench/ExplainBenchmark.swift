import BackgroundTrace
import BackgroundTraceCLI
import Foundation
import Synchronization
import TraceWorkloads

/// What `bgtrace explain` costs, for the summary: time per event over the plain decode
/// of the same file, and output bytes per event, on two traces.
struct ExplainFigures {
  /// One trace's figures.
  struct Row {
    var events: Int
    /// Explain's time over reading the same file's events with `TraceReader.next()`.
    var timeRatio: Double
    /// Explain's output bytes per event.
    var bytesPerEvent: Double
  }
  /// 3,000 UIKit tasks begun in the background and never ended (text form).
  var leakedTasks: Row
  /// The same trace with `--alive`, which lists everything alive after each event.
  var leakedTasksAlive: Row
  /// The 1M-event workload (binary form).
  var workload: Row
}

/// A console that counts the bytes written to standard output and keeps none.
private final class CountingConsole: Console {
  let bytes = Atomic<Int>(0)
  func write(_ text: String) { bytes.add(text.utf8.count, ordering: .relaxed) }
  func writeError(_ text: String) {}
}

/// `bgtrace explain` run in process, as the tool runs it (file read, output written to
/// a console that only counts bytes), against `TraceReader.next()` over the same file.
func runExplainBenchmark(_ options: Options) throws -> ExplainFigures {
  print("\n[explain] bgtrace explain in process, output counted not kept, vs reading the same file's events")
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgtrace-explain-\(getpid())")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }

  var leaked = "bgtrace 1\n0 app.launch\n0 app.state to=background\n"
  for id in 1...3_000 {
    leaked += "\(TraceTime(nanoseconds: UInt64(id) * 1_000_000)) task.begin id=\(id) name=Upload\n"
  }
  let leakedPath = directory.appendingPathComponent("leaked-tasks.txt").path
  try leaked.write(toFile: leakedPath, atomically: true, encoding: .utf8)

  let workloadPath = directory.appendingPathComponent("workload.bgtrace").path
  let workload = WorkloadGenerator.trace(eventCount: options.events, seed: 42)
  try Data(try workload.binary()).write(to: URL(fileURLWithPath: workloadPath))

  func measureRow(_ label: String, _ path: String, arguments: [String] = [], repeats: Int) throws -> ExplainFigures.Row
  {
    var events = 0
    let decode = try measureCPU(repeats: repeats) {
      var reader = try TraceReader(path: path)
      events = 0
      while try reader.next() != nil { events += 1 }
    }
    var bytes = 0
    let explain = measureCPU(repeats: repeats) {
      let console = CountingConsole()
      _ = BGTrace.run(["explain"] + arguments + [path], console: console)
      bytes = console.bytes.load(ordering: .relaxed)
    }
    let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    row(
      "\(label): read (\(events) events, \(size / 1024) KB)", "\(format(decode / Double(events))) ns/event")
    row(
      "\(label): explain\(arguments.isEmpty ? "" : " " + arguments.joined(separator: " "))",
      "\(format(explain / Double(events))) ns/event",
      "\(format(explain / decode))x the read, \(format(Double(bytes) / 1e6, 2)) MB, \(format(Double(bytes) / Double(events))) B/event"
    )
    return ExplainFigures.Row(
      events: events, timeRatio: explain / decode, bytesPerEvent: Double(bytes) / Double(events))
  }
  let leakedRow = try measureRow("3,000 leaked tasks", leakedPath, repeats: 3)
  let aliveRow = try measureRow("3,000 leaked tasks", leakedPath, arguments: ["--alive"], repeats: 1)
  let workloadRow = try measureRow("\(options.events) events", workloadPath, repeats: 3)
  return ExplainFigures(leakedTasks: leakedRow, leakedTasksAlive: aliveRow, workload: workloadRow)
}

/// The explain lines of the summary.
func printExplainSummary(_ figures: ExplainFigures) {
  func line(_ name: String, _ row: ExplainFigures.Row) {
    print(
      "  explain \(name): \(format(row.timeRatio))x the read per event, \(format(row.bytesPerEvent)) B/event")
  }
  line("3,000 leaked tasks", figures.leakedTasks)
  line("--alive 3,000 leaked tasks", figures.leakedTasksAlive)
  line("\(figures.workload.events) events", figures.workload)
}
