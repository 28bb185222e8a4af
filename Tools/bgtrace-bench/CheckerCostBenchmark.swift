import BackgroundTrace
import BackgroundTraceCheck
import Foundation
import TraceWorkloads

/// The checker's figures for the summary, as multiples of the decoder's cost per event.
struct CheckerCost {
  /// Checking as `bgtrace check` does it — decoding plus `TraceChecker` — over decoding
  /// alone: the summary's "checker vs decoder per event".
  var withDecoding: Double
  /// `TraceChecker` alone over decoding alone.
  var alone: Double
}

/// The checker's cost per event against the streaming decoder's, on the codec
/// benchmark's virtual-clock workload in its canonical binary form, in one process with
/// no file I/O.
///
/// The summary's pair is what `bgtrace check` does with a binary trace: the decoder is
/// `BinaryTraceReader.nextCompact(into:)` over the bytes in memory, the checker is
/// `TraceChecker.check` over the same compact events already decoded. A check decodes
/// too, so the summary's ratio is (decode + check) / decode, as the 1M-event
/// `--check-file` run counts it; the checker alone over the decoder is printed beside
/// it. The same pair over `next()`'s events is printed as rows, for comparison.
func runCheckerCostBenchmark(_ options: Options) throws -> CheckerCost {
  print("\n[checker cost] \(options.events) virtual-clock events, canonical binary, decoded and checked in memory")
  let trace = WorkloadGenerator.trace(eventCount: options.events, seed: 42, timing: .virtualMilliseconds)
  let bytes = try BinaryTraceEncoder.encode(trace)

  var reader = try BinaryTraceReader(source: MemoryByteSource(bytes), file: nil)
  var events: [LocatedEvent] = []
  while let located = try reader.next() { events.append(located) }
  var compactReader = try BinaryTraceReader(source: MemoryByteSource(bytes), file: nil)
  var compactEvents: [CompactEvent] = []
  var compact = CompactEvent(time: 0, tag: .appLaunch)
  while try compactReader.nextCompact(into: &compact) { compactEvents.append(compact) }
  let strings = compactReader.strings
  let meta = reader.meta
  var findings: [Finding] = []
  var compactFindings: [Finding] = []
  // Decode and check in alternation, best of five each, timed by this thread's CPU
  // clock: on a shared machine the load changes from second to second, and wall time
  // counts the time other processes hold the core.
  var decodeNanos = Double.infinity
  var checkNanos = Double.infinity
  var compactDecodeNanos = Double.infinity
  var compactCheckNanos = Double.infinity
  for _ in 0..<5 {
    decodeNanos = min(
      decodeNanos,
      try measureThreadCPU {
        var reader = try BinaryTraceReader(source: MemoryByteSource(bytes), file: nil)
        var count = 0
        while let located = try reader.next() { count &+= located.location > 0 ? 1 : 0 }
        precondition(count == events.count && reader.damage.isEmpty, "the workload does not decode")
      })
    checkNanos = min(
      checkNanos,
      measureThreadCPU {
        var checker = TraceChecker(meta: meta)
        findings.removeAll()
        checkInPlace(&events, with: &checker, into: &findings)
        checker.finish(into: &findings)
      })
    compactDecodeNanos = min(
      compactDecodeNanos,
      try measureThreadCPU {
        var reader = try BinaryTraceReader(source: MemoryByteSource(bytes), file: nil)
        var event = CompactEvent(time: 0, tag: .appLaunch)
        var count = 0
        while try reader.nextCompact(into: &event) { count &+= reader.eventNumber > 0 ? 1 : 0 }
        precondition(count == events.count && reader.damage.isEmpty, "the workload does not decode")
      })
    compactCheckNanos = min(
      compactCheckNanos,
      measureThreadCPU {
        var checker = TraceChecker(meta: meta)
        compactFindings.removeAll()
        for (index, event) in compactEvents.enumerated() {
          checker.check(event, location: index + 1, strings: strings, into: &compactFindings)
        }
        checker.finish(into: &compactFindings)
      })
  }
  precondition(compactFindings == findings, "the compact events' findings differ")
  let count = Double(events.count)
  row("decode with next(), in memory", "\(format(decodeNanos / count)) ns/event", "thread CPU time")
  row(
    "TraceChecker on next()'s events", "\(format(checkNanos / count)) ns/event",
    "\(format(checkNanos / decodeNanos))x decode, \(findings.count) findings")
  row(
    "decode + TraceChecker, next()", "\(format((decodeNanos + checkNanos) / count)) ns/event",
    "\(format((decodeNanos + checkNanos) / decodeNanos))x decode")
  row(
    "decode with nextCompact(into:), in memory", "\(format(compactDecodeNanos / count)) ns/event",
    "\(format(decodeNanos / compactDecodeNanos, 2))x faster than next()")
  row(
    "TraceChecker on compact events", "\(format(compactCheckNanos / count)) ns/event",
    "\(format(compactCheckNanos / compactDecodeNanos))x decode, \(compactFindings.count) findings")
  row(
    "decode + check, compact (bgtrace check)",
    "\(format((compactDecodeNanos + compactCheckNanos) / count)) ns/event",
    "\(format((compactDecodeNanos + compactCheckNanos) / compactDecodeNanos))x decode")
  return CheckerCost(
    withDecoding: (compactDecodeNanos + compactCheckNanos) / compactDecodeNanos,
    alone: compactCheckNanos / compactDecodeNanos)
}

/// Checks `events` in order, lending each to the checker as `bgtrace check` lends the
/// event the reader returned: not copied, and not destroyed (the decoder's figure counts
/// that).
///
/// Each event is moved out of the array and back: passing `events[index]` (or an unsafe
/// buffer's element) copies it, since the compiler cannot prove that nothing writes the
/// element while the checker borrows it, and the copy and its destruction added about
/// 6% to the checker's figure (perf on this benchmark).
func checkInPlace(_ events: inout [LocatedEvent], with checker: inout TraceChecker, into findings: inout [Finding]) {
  events.withUnsafeMutableBufferPointer { buffer in
    guard let first = buffer.baseAddress else { return }
    for index in buffer.indices {
      let located = (first + index).move()
      checker.check(located, into: &findings)
      (first + index).initialize(to: consume located)
    }
  }
}

/// Runs `body` once and returns the CPU time this thread spent in it, in nanoseconds.
func measureThreadCPU(_ body: () throws -> Void) rethrows -> Double {
  func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
  }
  let start = now()
  try body()
  return now() - start
}

/// Checks the checker-cost workload's compact events `repeats` times and prints the
/// checker's time per event (for profilers: no decoding in the loop).
func profileChecker(_ options: Options, repeats: Int) throws {
  let trace = WorkloadGenerator.trace(eventCount: options.events, seed: 42, timing: .virtualMilliseconds)
  var reader = try BinaryTraceReader(source: MemoryByteSource(try BinaryTraceEncoder.encode(trace)), file: nil)
  var events: [CompactEvent] = []
  var event = CompactEvent(time: 0, tag: .appLaunch)
  while try reader.nextCompact(into: &event) { events.append(event) }
  let strings = reader.strings
  var findings: [Finding] = []
  let nanos = measureCPU(repeats: repeats) {
    var checker = TraceChecker(meta: reader.meta)
    findings.removeAll()
    for (index, event) in events.enumerated() {
      checker.check(event, location: index + 1, strings: strings, into: &findings)
    }
    checker.finish(into: &findings)
  }
  print("check: \(format(nanos / Double(events.count))) ns/event, \(findings.count) findings")
}
