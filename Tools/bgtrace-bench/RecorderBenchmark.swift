import BackgroundTrace
import Dispatch
import Foundation
import TraceWorkloads

/// The recorder's figures for the summary.
struct RecorderFigures {
  /// The in-memory recorder's cost per event as a multiple of the baseline.
  var memory: Double
  /// The durable streaming recorder's cost per event (close included) as a multiple of the baseline.
  var durable: Double
  /// Events per second from two threads over events per second from one.
  var twoThreads: Double
}

/// The recorder's cost per event against a bare append plus a clock read, in memory and
/// streaming durably to a file, and its throughput from two threads against one.
func runRecorderBenchmark(_ options: Options) throws -> RecorderFigures {
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
    "TraceRecorder, durable streaming to a file", "\(format(streamingNanos / Double(recordCount))) ns/event",
    "\(format(streamingNanos / baselineNanos, 2))x baseline, \(format(Double(streamedSize) / Double(recordCount), 2)) B/event on disk"
  )

  // Throughput from 2 threads vs 1 into one in-memory recorder.
  // Each thread records its own copy of the sample (decoded afresh, so no string is
  // shared): threads that share heap strings contend on their reference counts in
  // every copy, which is not the recorder's cost. (String literals, what apps mostly
  // record, have no reference count at all.)
  let workload = try Trace(events: sample.map { TraceEvent(time: .zero, $0) }).binary()
  let samples = try (0..<2).map { _ in try Trace.decode(binary: workload).trace.events.map(\.kind) }
  func recordConcurrently(threads: Int) -> Double {
    let perThread = recordCount / threads
    // Best of five: on a shared machine, the second core is not always free.
    let nanos = measure(repeats: 5) {
      let recorder = TraceRecorder()
      DispatchQueue.concurrentPerform(iterations: threads) { thread in
        let sample = samples[thread]
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
  return RecorderFigures(
    memory: memoryNanos / baselineNanos, durable: streamingNanos / baselineNanos, twoThreads: twoThreads / oneThread)
}
