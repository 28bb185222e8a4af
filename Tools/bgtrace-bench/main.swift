// bgtrace-bench: measures the binary form and the recorder against baselines taken in
// the same run. Run it in release mode:
//
//     swift run -c release bgtrace-bench [--events N] [--json-events N] [--only recorder|codec|checker-cost|checker|simulation|explain|import|watch] [--watch-megabytes N]
//
// Every figure is printed with the ratio to its baseline, so results from different
// machines compare.
import BackgroundTrace
import BackgroundTraceImport
import Dispatch
import Foundation
import TraceWorkloads

struct Options {
  var events = 1_000_000
  var jsonEvents = 200_000
  /// Only decode the binary trace this many times (for profilers).
  var profileDecode: Int?
  /// Only decode the binary trace into compact records this many times (for profilers).
  var profileCompact: Int?
  /// Only decode the binary trace into compact records in batches this many times.
  var profileBatch: Int?
  /// Only check the decoded checker-cost workload this many times (for profilers).
  var profileCheck: Int?
  /// Time the check loop with each group of event kinds left unchecked in turn.
  var checkByKind = false
  var profileDurable: Int?
  /// Only record into the in-memory recorder this many times (for profilers).
  var profileMemory: Int?
  /// Child mode: check this file and print the finding count (the parent measures us).
  var checkFile: String?
  /// Child mode: watch this many MB of the generated stream of a platform.
  var watchStream: (platform: LogPlatform, megabytes: Int)?
  /// The long stream of the watch section, in MB.
  var watchMegabytes = 4_000
  /// Skip the checker's 1M/4M comparison.
  var skipChecker = false
  /// Only write the checker's workload (`--events` events) to this file (for profilers).
  var writeWorkload: String?
  /// Only run this part (`recorder`, `codec`, `checker-cost`, `checker` or `explain`) and print its
  /// summary lines.
  var only: String?

  init(_ arguments: [String]) {
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      switch argument {
      case "--events": events = Int(iterator.next() ?? "") ?? events
      case "--json-events": jsonEvents = Int(iterator.next() ?? "") ?? jsonEvents
      case "--profile-decode": profileDecode = Int(iterator.next() ?? "") ?? 10
      case "--profile-compact": profileCompact = Int(iterator.next() ?? "") ?? 10
      case "--profile-batch": profileBatch = Int(iterator.next() ?? "") ?? 10
      case "--profile-check": profileCheck = Int(iterator.next() ?? "") ?? 10
      case "--check-by-kind": checkByKind = true
      case "--profile-durable": profileDurable = Int(iterator.next() ?? "") ?? 10
      case "--profile-memory": profileMemory = Int(iterator.next() ?? "") ?? 10
      case "--check-file": checkFile = iterator.next()
      case "--skip-checker": skipChecker = true
      case "--watch-stream":
        guard let platform = LogPlatform(rawValue: iterator.next() ?? ""), let megabytes = Int(iterator.next() ?? "")
        else { usage() }
        watchStream = (platform, megabytes)
      case "--watch-megabytes": watchMegabytes = Int(iterator.next() ?? "") ?? watchMegabytes
      case "--write-workload": writeWorkload = iterator.next()
      case "--only":
        only = iterator.next()
        if !Self.sections.contains(only ?? "") { usage() }
      default:
        usage()
      }
    }
  }

  /// The sections `--only` runs alone.
  static let sections = ["recorder", "codec", "checker-cost", "checker", "simulation", "explain", "import", "watch"]

  private func usage() -> Never {
    FileHandle.standardError.write(
      Data(
        ("usage: bgtrace-bench [--events N] [--json-events N] [--skip-checker] [--only \(Self.sections.joined(separator: "|"))] "
          + "[--profile-decode N] [--profile-compact N] [--profile-batch N] [--profile-check N] [--check-by-kind] "
          + "[--profile-durable N] [--profile-memory N] [--write-workload PATH] [--watch-megabytes N]\n").utf8))
    exit(2)
  }
}

/// Runs `body` and returns the elapsed nanoseconds (best of `repeats`).
func measure(repeats: Int = 3, _ body: () throws -> Void) rethrows -> Double {
  var best = Double.infinity
  for _ in 0..<repeats {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start))
  }
  return best
}

/// Runs `body` and returns the CPU time this thread spent in it, in nanoseconds (best of
/// `repeats`): on a machine shared with other work, wall time also counts the time
/// other processes hold the core, which swings ratios between runs by half.
func measureCPU(repeats: Int = 3, _ body: () throws -> Void) rethrows -> Double {
  var best = Double.infinity
  for _ in 0..<repeats { best = min(best, try measureThreadCPU(body)) }
  return best
}

func format(_ value: Double, _ digits: Int = 1) -> String {
  String(format: "%.\(digits)f", value)
}

func row(_ label: String, _ value: String, _ note: String = "") {
  let padded = label.padding(toLength: 46, withPad: " ", startingAt: 0)
  print("  \(padded) \(value)\(note.isEmpty ? "" : "   \(note)")")
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
if let path = options.checkFile {
  try runCheckFile(path)
  exit(0)
}
if let (platform, megabytes) = options.watchStream {
  try runWatchStream(platform, megabytes: megabytes)
  exit(0)
}
if let path = options.writeWorkload {
  try writeWorkload(events: options.events, to: path)
  exit(0)
}
if let repeats = options.profileDecode {
  let binary = try BinaryTraceEncoder.encode(WorkloadGenerator.trace(eventCount: options.events, seed: 42))
  let nanos = try measure(repeats: repeats) {
    var reader = try BinaryTraceReader(source: MemoryByteSource(binary), file: nil)
    var count = 0
    while let located = try reader.next() { count &+= located.location }  // as the codec benchmark reads
    precondition(count > 0)
  }
  print("decode: \(format(nanos / Double(options.events))) ns/event")
  exit(0)
}
if let repeats = options.profileCompact {
  let binary = try BinaryTraceEncoder.encode(WorkloadGenerator.trace(eventCount: options.events, seed: 42))
  let nanos = try measure(repeats: repeats) {
    var reader = try BinaryTraceReader(source: MemoryByteSource(binary), file: nil)
    var sum = 0
    // As the codec benchmark reads.
    while let event = try reader.nextCompact() { sum &+= Int(truncatingIfNeeded: event.time) }
    precondition(sum != 0)
  }
  print("compact decode: \(format(nanos / Double(options.events))) ns/event")
  exit(0)
}
if let repeats = options.profileBatch {
  let binary = try BinaryTraceEncoder.encode(WorkloadGenerator.trace(eventCount: options.events, seed: 42))
  let batch = UnsafeMutableBufferPointer<CompactEvent>.allocate(capacity: 256)
  let nanos = try measure(repeats: repeats) {
    var reader = try BinaryTraceReader(source: MemoryByteSource(binary), file: nil)
    var sum = 0
    while case let read = try reader.nextCompactBatch(into: batch), read > 0 {
      for index in 0..<read { sum &+= Int(truncatingIfNeeded: batch[index].time) }
    }
    precondition(sum != 0)
  }
  print("compact batch decode: \(format(nanos / Double(options.events))) ns/event")
  exit(0)
}
if let repeats = options.profileMemory {
  // The in-memory recorder alone, for perf: what the recorder benchmark's in-memory row
  // times, on the same heap.
  keepFreedMemory()
  let sample = WorkloadGenerator.trace(eventCount: 100_000, seed: 7).events.map(\.kind)
  let nanos = measure(repeats: repeats) {
    let recorder = TraceRecorder()
    for index in 0..<options.events { recorder.record(sample[index % sample.count]) }
    precondition(recorder.eventCount == options.events)
  }
  print("in-memory recording: \(format(nanos / Double(options.events))) ns/event")
  exit(0)
}
if let repeats = options.profileDurable {
  // The durable recorder alone, for perf: what the recorder benchmark's durable row times,
  // on the same heap.
  keepFreedMemory()
  let sample = WorkloadGenerator.trace(eventCount: 100_000, seed: 7).events.map(\.kind)
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("bgtrace-profile-\(getpid()).bgtrace").path
  defer { try? FileManager.default.removeItem(atPath: path) }
  let nanos = try measure(repeats: repeats) {
    let recorder = try TraceRecorder(writingTo: path, replacing: true)
    for index in 0..<options.events { recorder.record(sample[index % sample.count]) }
    try recorder.close()
  }
  print("durable recording: \(format(nanos / Double(options.events))) ns/event")
  exit(0)
}
if options.checkByKind {
  try profileCheckerByKind(options)
  exit(0)
}
if let repeats = options.profileCheck {
  try profileChecker(options, repeats: repeats)
  exit(0)
}
print("bgtrace-bench: \(options.events) events per trace, JSON baseline on \(options.jsonEvents)")

func printRecorderSummary(_ figures: RecorderFigures) {
  print("  recorder vs append + clock read: \(format(figures.memory, 2))x")
  print("  durable recorder vs append + clock read: \(format(figures.durable, 2))x")
  print("  recording 2 threads vs 1: \(format(figures.twoThreads, 2))x")
}

func printCodecSummary(_ figures: CodecFigures) {
  let timings = WorkloadGenerator.Timing.allCases.map(\.rawValue)
  for timing in timings {
    if let size = figures.bytesPerEvent[timing] { print("  size [\(timing)]: \(format(size, 2)) B/event") }
  }
  // "decode": compact events in batches, as bgtrace check reads (CodecFigures).
  for timing in timings {
    if let ratio = figures.decodeRatios[timing] {
      print("  decode vs JSONDecoder [\(timing)]: \(format(ratio))x faster")
    }
  }
  for timing in timings {
    if let ratio = figures.compactDecodeRatios[timing] {
      print("  decode one compact event a call vs JSONDecoder [\(timing)]: \(format(ratio))x faster")
    }
  }
  for timing in timings {
    if let ratio = figures.eventDecodeRatios[timing] {
      print("  decode TraceEvent values (next()) vs JSONDecoder [\(timing)]: \(format(ratio))x faster")
    }
  }
}

func printCheckerSummary(_ figures: (memory: Double, time: Double)) {
  print("  checker 4x events: peak memory \(format(figures.memory, 2))x, time \(format(figures.time, 2))x")
}

func printCheckerCostSummary(_ cost: CheckerCost) {
  // Two digits: a figure just over the target must not round onto it.
  print("  checker vs decoder per event: \(format(cost.withDecoding, 2))x (target ≤ 2.8x)")
  print("  checker alone vs decoder per event: \(format(cost.alone, 2))x")
}

/// Runs one section (`--only`), prints its summary and exits.
func runOnly<Figures>(_ run: (Options) throws -> Figures, summary: (Figures) -> Void) throws -> Never {
  let figures = try run(options)
  print("\nsummary:")
  summary(figures)
  exit(0)
}

switch options.only {
case "recorder": try runOnly(runRecorderBenchmark, summary: printRecorderSummary)
case "codec": try runOnly(runCodecBenchmark, summary: printCodecSummary)
case "checker-cost": try runOnly(runCheckerCostBenchmark, summary: printCheckerCostSummary)
case "checker": try runOnly(runCheckerBenchmark, summary: printCheckerSummary)
case "simulation":
  try runOnly({ _ in runSimulationBenchmark() }) { print("  one simulated day: \(format($0, 3)) s wall (limit 2 s)") }
case "explain": try runOnly(runExplainBenchmark, summary: printExplainSummary)
case "import": try runOnly(runImportBenchmark, summary: printImportSummary)
case "watch": try runOnly(runWatchBenchmark, summary: printWatchSummary)
default: break
}

let codecFigures = try runCodecBenchmark(options)
let checkerCost = try runCheckerCostBenchmark(options)
let recorderFigures = try runRecorderBenchmark(options)
let checkerFigures = try options.skipChecker ? nil : runCheckerBenchmark(options)
let dayWallSeconds = runSimulationBenchmark()
let directorySpeedup = try runDirectoryCheckBenchmark()
let explainFigures = try runExplainBenchmark(options)
let importFigures = try runImportBenchmark(options)
let watchFigures = try runWatchBenchmark(options)

print("\nsummary:")
printCodecSummary(codecFigures)
printCheckerCostSummary(checkerCost)
printRecorderSummary(recorderFigures)
print("  bgtrace check DIR (1,000 traces): \(format(directorySpeedup, 2))x faster on all cores than on one")
print("  one simulated day: \(format(dayWallSeconds, 3)) s wall (limit 2 s)")
if let checkerFigures { printCheckerSummary(checkerFigures) }
printExplainSummary(explainFigures)
printImportSummary(importFigures)
printWatchSummary(watchFigures)
