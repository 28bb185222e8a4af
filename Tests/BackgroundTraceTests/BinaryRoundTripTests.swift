import BackgroundTrace
import Testing
import TraceWorkloads

@Suite struct BinaryRoundTripTests {
  static let generated: [(timing: WorkloadGenerator.Timing, limit: Int)] = [
    (.virtualMilliseconds, BinaryFormat.defaultChunkPayload),
    (.virtualMilliseconds, 300),
    (.wallClockNanoseconds, BinaryFormat.defaultChunkPayload),
    (.wallClockNanoseconds, 300),
  ]

  @Test(arguments: generated)
  func generatedTraceRoundTripsTextBinaryText(timing: WorkloadGenerator.Timing, limit: Int) throws {
    let trace = WorkloadGenerator.trace(eventCount: 50_000, seed: 7, timing: timing)
    #expect(trace.events.count >= 50_000)
    let text = trace.text

    // text → binary → text
    let parsed = try RecordedTrace(text: text)
    #expect(parsed == trace)
    let binary = try BinaryTraceEncoder.encode(parsed, chunkPayloadLimit: limit)
    let decoded = try RecordedTrace.decode(binary: binary)
    #expect(decoded.damage.isEmpty)
    #expect(decoded.trace.text == text)

    // binary → text → binary
    let reencoded = try BinaryTraceEncoder.encode(try RecordedTrace(text: decoded.trace.text), chunkPayloadLimit: limit)
    #expect(reencoded == binary)

    let layout = BinaryLayout(binary)
    #expect(layout.chunks.last?.end == binary.count)
    #expect(layout.chunks.reduce(0) { $0 + $1.eventCount } == trace.events.count)
    if limit == 300 {
      #expect(layout.chunks.count > 1_000)
    }
  }

  /// docs/FORMAT.md: at most 6 bytes per event on average on realistic traces.
  @Test func realisticVirtualClockTraceTakesAtMostSixBytesPerEvent() throws {
    let trace = WorkloadGenerator.trace(eventCount: 50_000, seed: 1, timing: .virtualMilliseconds)
    let binary = try trace.binary()
    let bytesPerEvent = Double(binary.count) / Double(trace.events.count)
    #expect(bytesPerEvent <= 6, "\(bytesPerEvent) bytes per event")
  }

  @Test func extremeValuesRoundTrip() throws {
    let huge = TraceTime(nanoseconds: (1 << 62) + 1)  // needs the 65-bit scaled varint
    let trace = RecordedTrace(
      meta: TraceMetadata(["": "empty key", "k": ""]),
      events: [
        TraceEvent(time: .zero, .taskBegin(id: Int.max, name: "")),
        TraceEvent(time: .zero, .taskEnd(id: 0)),
        TraceEvent(time: .zero, .taskExpire(id: Int.max)),
        TraceEvent(time: TraceTime(nanoseconds: 1), .schedLaunch(identifier: "a", run: Int.max)),
        TraceEvent(time: TraceTime(nanoseconds: 1), .schedExpire(run: 0)),
        TraceEvent(
          time: huge,
          .schedSubmit(
            SchedulerSubmission(identifier: "a", type: .processing, earliest: .max, network: false, power: true))),
        TraceEvent(
          time: huge,
          .workEnqueue(
            WorkEnqueue(
              work: "w", name: "n", backoff: .linear, backoffDelay: huge.sinceStart, retryLimit: Int.max,
              period: TraceInterval(nanoseconds: 1 << 62),
              policy: .appendOrReplace))),
        TraceEvent(time: huge, .workStop(work: "w", attempt: Int.max, reason: "x")),
        TraceEvent(time: .max, .mark(label: "the end of time")),
        TraceEvent(time: .max, .appTerminate(reason: nil)),
      ])
    let binary = try BinaryTraceEncoder.encode(trace)
    let decoded = try RecordedTrace.decode(binary: binary)
    #expect(decoded.damage.isEmpty)
    #expect(decoded.trace.events == trace.events)
    #expect(decoded.trace.meta == trace.meta)
  }

  /// Every unit of the scaled encoding (ns, µs, ms, s) and the 65-bit values from 2^62 ns up.
  static let scaledValues: [UInt64] = [
    0, 1, 999, 1_000, 1_001, 999_999, 1_000_000, 1_000_001, 999_999_999, 1_000_000_000, 1_000_000_001,
    86_400_000_000_000, (1 << 62) - 1, 1 << 62, (1 << 62) + 1, 1_000_000_000_000_000_000, 9_223_372_036_000_000_000,
    UInt64(Int64.max),
  ]

  @Test func timesAtEveryScaleRoundTrip() throws {
    var events: [TraceEvent] = []
    var time: UInt64 = 0
    for (index, value) in Self.scaledValues.enumerated() {
      // Times climb by small deltas, then jump by 2^62 ns and more near the end.
      time = max(time + UInt64(index), index >= 12 ? value : 0)
      events.append(TraceEvent(time: TraceTime(nanoseconds: time), .mark(label: "\(value)")))
      events.append(
        TraceEvent(
          time: TraceTime(nanoseconds: time),
          .workEnqueue(
            WorkEnqueue(
              work: "w", backoffDelay: TraceInterval(nanoseconds: value), period: TraceInterval(nanoseconds: time))))
      )
      events.append(
        TraceEvent(
          time: TraceTime(nanoseconds: time),
          .schedSubmit(SchedulerSubmission(identifier: "s", type: .refresh, earliest: TraceTime(nanoseconds: value)))))
    }
    let trace = RecordedTrace(events: events)
    let decoded = try RecordedTrace.decode(binary: try trace.binary())
    #expect(decoded.damage.isEmpty)
    #expect(decoded.trace == trace)
  }

  @Test func emptyTraceIsJustTheFileHeader() throws {
    let binary = try RecordedTrace().binary()
    // Version 4, predicted identifiers; the CRC covers the version, the flags and the body.
    #expect(binary == BinaryFormat.magic + [4, 2, 1, 0, 0, 0] + crcBytes([4, 2, 0]) + [0])
    let decoded = try RecordedTrace.decode(binary: binary)
    #expect(decoded.trace == RecordedTrace())
    #expect(decoded.damage.isEmpty)
  }

  /// The streaming encoder seals a chunk once its payload, counted with room to spare
  /// (each string 2 bytes over its length, 10 bytes for the table's count), reaches the
  /// limit. 100 marks `label=m`, one a second: a chunk's payload is its string table
  /// (3 bytes) and 3-byte records (tag 20, delta 1 s = 1 << 2 | 3 = 7 or 0 for the
  /// first, string 0), counted as 3n + 3 + 10, so the first chunk is sealed at n = 81
  /// (256 ≥ 256) with a 246-byte payload. The exact bytes of a flushed stream are pinned
  /// by FormatVectorTests (two-chunks.bgtrace).
  @Test func theStreamingEncoderSealsAChunkWhenItsPayloadReachesTheLimit() throws {
    let events = (0..<100).map { TraceEvent(time: TraceTime(seconds: Double($0)), .mark(label: "m")) }
    var encoder = BinaryTraceEncoder(chunkPayloadLimit: 256)
    var bytes = encoder.header()
    let headerSize = bytes.count
    for event in events.prefix(80) { try encoder.append(event, into: &bytes) }
    #expect(bytes.count == headerSize)
    #expect(encoder.pendingEventCount == 80)
    try encoder.append(events[80], into: &bytes)
    #expect(encoder.pendingEventCount == 0)
    #expect(bytes.count == headerSize + 40 + 246)
    for event in events.dropFirst(81) { try encoder.append(event, into: &bytes) }
    #expect(encoder.pendingEventCount == 19)
    #expect(encoder.lastTime == TraceTime(seconds: 99))
    encoder.flush(into: &bytes)
    // The second chunk: base time 80 s, first event 81, 19 events, 3 + 19 × 3 bytes.
    let layout = BinaryLayout(bytes)
    #expect(layout.chunks.map(\.firstEvent) == [0, 81])
    #expect(layout.chunks.map(\.eventCount) == [81, 19])
    #expect(layout.chunks.map(\.size) == [40 + 246, 40 + 60])
    let decoded = try RecordedTrace.decode(binary: bytes)
    #expect(decoded.damage.isEmpty)
    #expect(decoded.trace.events == events)
  }

  @Test func chunkLimitIsClamped() {
    #expect(BinaryTraceEncoder(chunkPayloadLimit: 0).chunkPayloadLimit == 256)
    #expect(BinaryTraceEncoder(chunkPayloadLimit: .max).chunkPayloadLimit == BinaryFormat.maximumChunkPayload / 2)
    #expect(BinaryTraceEncoder().chunkPayloadLimit == 64 * 1024)
  }
}

/// The little-endian bytes of the CRC-32C of `bytes`.
func crcBytes(_ bytes: [UInt8]) -> [UInt8] {
  let crc = CRC32C.checksum(bytes)
  return (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) }
}
