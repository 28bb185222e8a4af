import BackgroundTrace
import Testing
import TraceWorkloads

/// A `BinaryTraceReader` is a value: a copy taken mid-chunk reads the same events as the
/// original, though the chunk's decoded events are shared until one of them reads.
@Suite struct BinaryReaderCopyTests {
  @Test func copiesReadTheSameEventsIndependently() throws {
    let trace = WorkloadGenerator.trace(eventCount: 3_000, seed: 5)
    let bytes = try BinaryTraceEncoder.encode(trace, chunkPayloadLimit: 1_024)
    var original = try BinaryTraceReader(source: MemoryByteSource(bytes), file: nil)
    for _ in 0..<10 { _ = try original.next() }
    var copy = original
    var fromOriginal: [LocatedEvent] = []
    while let located = try original.next() { fromOriginal.append(located) }
    var fromCopy: [LocatedEvent] = []
    while let located = try copy.next() { fromCopy.append(located) }
    #expect(fromOriginal.count == trace.events.count - 10)
    #expect(fromCopy == fromOriginal)
    #expect(fromCopy.map(\.event) == Array(trace.events.dropFirst(10)))
  }
}
