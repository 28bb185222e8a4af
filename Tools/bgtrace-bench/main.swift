// bgtrace-bench: measures the binary form and the recorder against baselines taken in
// the same run. Run it in release mode:
//
//     swift run -c release bgtrace-bench [--events N] [--json-events N]
//
// Every figure is printed with the ratio to its baseline, so results from different
// machines compare.
import BackgroundTrace
import Dispatch
import Foundation
import TraceWorkloads

struct Options {
  var events = 1_000_000
  var jsonEvents = 200_000
  /// Only decode the binary trace this many times (for profilers).
  var profileDecode: Int?

  init(_ arguments: [String]) {
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      switch argument {
      case "--events": events = Int(iterator.next() ?? "") ?? events
      case "--json-events": jsonEvents = Int(iterator.next() ?? "") ?? jsonEvents
      case "--profile-decode": profileDecode = Int(iterator.next() ?? "") ?? 10
      default:
        FileHandle.standardError.write(Data("usage: bgtrace-bench [--events N] [--json-events N]\n".utf8))
        exit(2)
      }
    }
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

func format(_ value: Double, _ digits: Int = 1) -> String {
  String(format: "%.\(digits)f", value)
}

func row(_ label: String, _ value: String, _ note: String = "") {
  let padded = label.padding(toLength: 46, withPad: " ", startingAt: 0)
  print("  \(padded) \(value)\(note.isEmpty ? "" : "   \(note)")")
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
if let repeats = options.profileDecode {
  let binary = try BinaryTraceEncoder.encode(WorkloadGenerator.trace(eventCount: options.events, seed: 42))
  let nanos = try measure(repeats: repeats) {
    var reader = try BinaryTraceReader(source: MemoryByteSource(binary), file: nil)
    while try reader.next() != nil {}
  }
  print("decode: \(format(nanos / Double(options.events))) ns/event")
  exit(0)
}
print("bgtrace-bench: \(options.events) events per trace, JSON baseline on \(options.jsonEvents)")

var decodeRatios: [String: Double] = [:]
for timing in WorkloadGenerator.Timing.allCases {
  let trace = WorkloadGenerator.trace(eventCount: options.events, seed: 42, timing: timing)
  let count = Double(trace.events.count)
  print("\n[\(timing.rawValue)] \(trace.events.count) events")

  var binary: [UInt8] = []
  let encodeNanos = try measure { binary = try BinaryTraceEncoder.encode(trace) }
  var decoded = 0
  let decodeNanos = try measure {
    var reader = try BinaryTraceReader(source: MemoryByteSource(binary), file: nil)
    decoded = 0
    while let located = try reader.next() { decoded &+= located.location }
  }
  let roundTrip = try Trace.decode(binary: binary)
  precondition(roundTrip.damage.isEmpty && roundTrip.trace == trace, "binary round trip failed")

  let jsonSample = trace.events.prefix(options.jsonEvents).map(JSONLinesEvent.init)
  let encoder = JSONEncoder()
  var lines: [Data] = []
  let jsonEncodeNanos = try measure(repeats: 1) { lines = try jsonSample.map { try encoder.encode($0) } }
  let jsonBytes = Double(lines.reduce(0) { $0 + $1.count + 1 }) / Double(jsonSample.count)
  let decoder = JSONDecoder()
  let jsonDecodeNanos = try measure(repeats: 1) {
    for line in lines { _ = try decoder.decode(JSONLinesEvent.self, from: line) }
  }

  let bytesPerEvent = Double(binary.count) / count
  let encodePer = encodeNanos / count
  let decodePer = decodeNanos / count
  let jsonEncodePer = jsonEncodeNanos / Double(jsonSample.count)
  let jsonDecodePer = jsonDecodeNanos / Double(jsonSample.count)
  decodeRatios[timing.rawValue] = jsonDecodePer / decodePer
  row(
    "binary size", "\(format(bytesPerEvent, 2)) B/event",
    "JSON Lines \(format(jsonBytes, 1)) B/event (\(format(jsonBytes / bytesPerEvent))x larger)")
  row(
    "binary encode", "\(format(encodePer)) ns/event",
    "JSONEncoder \(format(jsonEncodePer)) ns/event (\(format(jsonEncodePer / encodePer))x slower)")
  row(
    "binary decode (streaming reader)", "\(format(decodePer)) ns/event",
    "JSONDecoder \(format(jsonDecodePer)) ns/event (\(format(jsonDecodePer / decodePer))x slower)")
  let textNanos = measure(repeats: 1) { _ = trace.text }
  row("canonical text write", "\(format(textNanos / count)) ns/event")
}

// Recorder cost per event vs the floor: a bare ContiguousArray.append plus one clock read.
print("\n[recorder] events cycled from a virtual-clock workload")
let sample = WorkloadGenerator.trace(eventCount: 100_000, seed: 7).events.map(\.kind)
let recordCount = options.events
let clock = ContinuousClock()
var sink: ContiguousArray<(ContinuousClock.Instant, TraceEvent.Kind)> = []
let baselineNanos = measure {
  sink = []
  for index in 0..<recordCount { sink.append((clock.now, sample[index % sample.count])) }
}
let memoryNanos = measure {
  let recorder = TraceRecorder()
  for index in 0..<recordCount { recorder.record(sample[index % sample.count]) }
  precondition(recorder.eventCount == recordCount)
}
let path = FileManager.default.temporaryDirectory.appendingPathComponent("bgtrace-bench-\(getpid()).bgtrace").path
let streamingNanos = try measure {
  let recorder = try TraceRecorder(writingTo: path)
  for index in 0..<recordCount { recorder.record(sample[index % sample.count]) }
  try recorder.close()
}
let streamedSize = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
try? FileManager.default.removeItem(atPath: path)
let baselinePer = baselineNanos / Double(recordCount)
row("baseline: ContiguousArray.append + clock read", "\(format(baselinePer)) ns/event")
row(
  "TraceRecorder, in memory", "\(format(memoryNanos / Double(recordCount))) ns/event",
  "\(format(memoryNanos / baselineNanos, 2))x baseline")
row(
  "TraceRecorder, streaming to a file", "\(format(streamingNanos / Double(recordCount))) ns/event",
  "\(format(streamingNanos / baselineNanos, 2))x baseline, \(format(Double(streamedSize) / Double(recordCount), 2)) B/event on disk"
)

// Throughput from 2 threads vs 1 into one recorder.
func recordConcurrently(threads: Int) -> Double {
  let recorder = TraceRecorder()
  let perThread = recordCount / threads
  let nanos = measure(repeats: 1) {
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      for index in 0..<perThread { recorder.record(sample[index % sample.count]) }
    }
  }
  return Double(perThread * threads) / (nanos / 1e9)
}
let oneThread = recordConcurrently(threads: 1)
let twoThreads = recordConcurrently(threads: 2)
row("recording, 1 thread", "\(format(oneThread / 1e6, 2)) M events/s")
row(
  "recording, 2 threads", "\(format(twoThreads / 1e6, 2)) M events/s",
  "\(format(twoThreads / oneThread, 2))x one thread")

print("\nsummary:")
for (timing, ratio) in decodeRatios.sorted(by: { $0.key < $1.key }) {
  print("  decode vs JSONDecoder [\(timing)]: \(format(ratio))x faster")
}
print("  recorder vs append + clock read: \(format(memoryNanos / baselineNanos, 2))x")
