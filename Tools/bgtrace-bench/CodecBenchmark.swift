import BackgroundTrace
import BackgroundTraceCheck
import Foundation
import TraceWorkloads

/// Binary size, encode and decode time against JSON Lines with Foundation's coders, all
/// timed by this thread's CPU clock, each the best of several runs (the baseline's too).
///
/// The codec's figures for the summary, by timing (`WorkloadGenerator.Timing` raw value).
struct CodecFigures {
  /// Decode speed-up over `JSONDecoder` of the streaming reader as `bgtrace check` reads
  /// (``decodeAsTheCheckerReads(_:)``): compact events in batches of 64, strings
  /// interned and identifiers as small integers. The summary's "decode vs JSONDecoder".
  var decodeRatios: [String: Double] = [:]
  /// Decode speed-up of the reader's compact events one at a time (`nextCompact()`).
  var compactDecodeRatios: [String: Double] = [:]
  /// Decode speed-up of the reader's `TraceEvent`s (`next()`), whose strings are
  /// `String`s.
  var eventDecodeRatios: [String: Double] = [:]
  /// Binary bytes per event.
  var bytesPerEvent: [String: Double] = [:]
}

/// - Returns: decode speed-ups over `JSONDecoder` and binary sizes, by timing.
func runCodecBenchmark(_ options: Options) throws -> CodecFigures {
  var figures = CodecFigures()
  for timing in WorkloadGenerator.Timing.allCases {
    let trace = WorkloadGenerator.trace(eventCount: options.events, seed: 42, timing: timing)
    let count = Double(trace.events.count)
    print("\n[\(timing.rawValue)] \(trace.events.count) events")

    var binary: [UInt8] = []
    let encodeNanos = try measureCPU { binary = try BinaryTraceEncoder.encode(trace) }
    var decoded = 0
    func decode() throws {
      var reader = try BinaryTraceReader(source: MemoryByteSource(binary), file: nil)
      decoded = 0
      while let located = try reader.next() { decoded &+= located.location }
    }
    var compactDecoded = 0
    func decodeCompact() throws {
      var reader = try BinaryTraceReader(source: MemoryByteSource(binary), file: nil)
      compactDecoded = 0
      while let event = try reader.nextCompact() { compactDecoded &+= Int(truncatingIfNeeded: event.time) }
    }
    func decodeBatches() throws {
      compactDecoded = Int(truncatingIfNeeded: try decodeAsTheCheckerReads(binary).times)
    }
    let roundTrip = try RecordedTrace.decode(binary: binary)
    precondition(roundTrip.damage.isEmpty && roundTrip.trace == trace, "binary round trip failed")
    var compactReader = try BinaryTraceReader(source: MemoryByteSource(binary), file: nil)
    var compactEvents: [CompactEvent] = []
    while let event = try compactReader.nextCompact() { compactEvents.append(event) }
    let batch = UnsafeMutableBufferPointer<CompactEvent>.allocate(capacity: 256)
    defer { batch.deallocate() }
    var batchReader = try BinaryTraceReader(source: MemoryByteSource(binary), file: nil)
    var batchEvents: [CompactEvent] = []
    while case let read = try batchReader.nextCompactBatch(into: batch), read > 0 {
      batchEvents.append(contentsOf: batch[0..<read])
    }
    precondition(batchEvents == compactEvents, "compact batches differ from compact records")
    precondition(
      compactReader.damage.isEmpty
        && compactEvents.map { TraceEvent($0, strings: compactReader.strings) } == trace.events,
      "compact records differ from the trace")

    let jsonSample = trace.events.prefix(options.jsonEvents).map(JSONLinesEvent.init)
    let encoder = JSONEncoder()
    var lines: [Data] = []
    let jsonEncodeNanos = try measureCPU(repeats: 1) { lines = try jsonSample.map { try encoder.encode($0) } }
    let jsonBytes = Double(lines.reduce(0) { $0 + $1.count + 1 }) / Double(jsonSample.count)
    let decoder = JSONDecoder()
    // Decoding is timed in three rounds, each the binary decoders twice and JSONDecoder
    // once, and each figure is its best: the load of a shared machine changes from
    // second to second, and a baseline timed apart from what it is divided into (once,
    // after the binary decoders) moved the ratio by a third between runs.
    var decodeNanos = Double.infinity
    var compactNanos = Double.infinity
    var batchNanos = Double.infinity
    var jsonDecodeNanos = Double.infinity
    for _ in 0..<3 {
      decodeNanos = min(decodeNanos, try measureCPU(repeats: 2) { try decode() })
      compactNanos = min(compactNanos, try measureCPU(repeats: 2) { try decodeCompact() })
      batchNanos = min(batchNanos, try measureCPU(repeats: 2) { try decodeBatches() })
      jsonDecodeNanos = min(
        jsonDecodeNanos,
        try measureCPU(repeats: 1) { for line in lines { _ = try decoder.decode(JSONLinesEvent.self, from: line) } })
    }

    let bytesPerEvent = Double(binary.count) / count
    let encodePer = encodeNanos / count
    let decodePer = decodeNanos / count
    let jsonEncodePer = jsonEncodeNanos / Double(jsonSample.count)
    let jsonDecodePer = jsonDecodeNanos / Double(jsonSample.count)
    let compactPer = compactNanos / count
    let batchPer = batchNanos / count
    figures.decodeRatios[timing.rawValue] = jsonDecodePer / batchPer
    figures.compactDecodeRatios[timing.rawValue] = jsonDecodePer / compactPer
    figures.eventDecodeRatios[timing.rawValue] = jsonDecodePer / decodePer
    figures.bytesPerEvent[timing.rawValue] = bytesPerEvent
    row(
      "binary size", "\(format(bytesPerEvent, 2)) B/event",
      "JSON Lines \(format(jsonBytes, 1)) B/event (\(format(jsonBytes / bytesPerEvent))x larger)")
    row(
      "binary encode", "\(format(encodePer)) ns/event",
      "JSONEncoder \(format(jsonEncodePer)) ns/event (\(format(jsonEncodePer / encodePer))x slower)")
    row(
      "binary decode (streaming reader)", "\(format(decodePer)) ns/event",
      "JSONDecoder \(format(jsonDecodePer)) ns/event (\(format(jsonDecodePer / decodePer))x slower)")
    row(
      "binary decode (compact records)", "\(format(compactPer)) ns/event",
      "JSONDecoder \(format(jsonDecodePer)) ns/event (\(format(jsonDecodePer / compactPer))x slower)")
    row(
      "binary decode (compact records, batches)", "\(format(batchPer)) ns/event",
      "JSONDecoder \(format(jsonDecodePer)) ns/event (\(format(jsonDecodePer / batchPer))x slower)")
    let textNanos = measure(repeats: 1) { _ = trace.text }
    row("canonical text write", "\(format(textNanos / count)) ns/event")
  }
  return figures
}

/// Decodes the binary trace `bytes` as `bgtrace check` reads one
/// (`TraceChecker.checkRemainingEvents(of:into:)`): compact events in batches of 64 in
/// a buffer allocated for the run, the reader's strings limited as the checker limits
/// them. Returns how many events it read and the sum of their times (read, so that
/// decoding is not optimized away). The codec's `decode vs JSONDecoder` and the
/// checker cost's decoding loop both time it.
func decodeAsTheCheckerReads(_ bytes: [UInt8]) throws -> (count: Int, times: UInt64) {
  var reader = try BinaryTraceReader(source: MemoryByteSource(bytes), file: nil)
  reader.stringLimit = TraceChecker.readerStringLimit
  var count = 0
  var times: UInt64 = 0
  let batch = UnsafeMutableBufferPointer<CompactEvent>.allocate(capacity: 64)
  defer { batch.deallocate() }
  while case let read = try reader.nextCompactBatch(into: batch), read > 0 {
    for index in 0..<read { times &+= batch[index].time }
    count &+= read
  }
  precondition(reader.damage.isEmpty, "the workload does not decode")
  return (count, times)
}
