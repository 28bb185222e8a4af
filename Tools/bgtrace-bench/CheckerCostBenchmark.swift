import BackgroundTrace
import BackgroundTraceCheck
import Foundation
import TraceWorkloads

/// The checker's own cost per event against the streaming decoder's, on the codec
/// benchmark's virtual-clock workload in its canonical binary form, in one process: the
/// decoder is `BinaryTraceReader` over the bytes in memory; the checker is
/// `TraceChecker.check` over the same events already decoded, so neither figure holds
/// the other's work or any file I/O. (`bgtrace check` pays both: their sum is printed.)
///
/// - Returns: the checker's time per event over the decoder's.
func runCheckerCostBenchmark(_ options: Options) throws -> Double {
  print("\n[checker cost] \(options.events) virtual-clock events, canonical binary, decoded and checked in memory")
  let trace = WorkloadGenerator.trace(eventCount: options.events, seed: 42, timing: .virtualMilliseconds)
  let bytes = try BinaryTraceEncoder.encode(trace)

  var events: [LocatedEvent] = []
  let decodeNanos = try measure {
    var reader = try BinaryTraceReader(source: MemoryByteSource(bytes), file: nil)
    var count = 0
    while try reader.next() != nil { count += 1 }
    precondition(count > 0 && reader.damage.isEmpty, "the checker's workload does not decode")
  }
  var reader = try BinaryTraceReader(source: MemoryByteSource(bytes), file: nil)
  while let located = try reader.next() { events.append(located) }
  var findings: [Finding] = []
  let checkNanos = measure {
    var checker = TraceChecker(meta: reader.meta)
    findings.removeAll()
    // Borrow each event, as `bgtrace check` passes the one the reader returned: no copy.
    events.withUnsafeBufferPointer { buffer in
      for index in buffer.indices { checker.check(buffer[index], into: &findings) }
    }
    checker.finish(into: &findings)
  }
  let count = Double(events.count)
  row("decode (BinaryTraceReader, in memory)", "\(format(decodeNanos / count)) ns/event")
  row(
    "TraceChecker on the decoded events", "\(format(checkNanos / count)) ns/event",
    "\(format(checkNanos / decodeNanos))x decode, \(findings.count) findings")
  row("  decode + check", "\(format((decodeNanos + checkNanos) / count)) ns/event")
  return checkNanos / decodeNanos
}
