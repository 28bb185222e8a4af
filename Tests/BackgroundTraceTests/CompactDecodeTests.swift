import BackgroundTrace
import Foundation
import TestSupport
import Testing
import TraceWorkloads

/// `BinaryTraceReader.nextCompact()` and `nextCompactBatch(into:)` read exactly what
/// `next()` reads: each compact event turned back into a `TraceEvent` is the event
/// `next()` returns, at the same event number, and the damage reports are the same, for the committed vectors of
/// every version, generated workloads and damaged inputs.
@Suite struct CompactDecodeTests {
  /// What one pass of a reader gives: the events with their numbers, how many damage
  /// reports there were when each event was returned, and the damage.
  struct Reading: Equatable {
    var events: [LocatedEvent] = []
    var damageSeen: [Int] = []
    var damage: [TraceDamage] = []
  }

  static func streaming(_ bytes: [UInt8]) throws -> Reading {
    var reader = try BinaryTraceReader(source: MemoryByteSource(bytes), file: "trace")
    var reading = Reading()
    while let located = try reader.next() {
      reading.events.append(located)
      reading.damageSeen.append(reader.damage.count)
    }
    reading.damage = reader.damage
    return reading
  }

  static func compact(_ bytes: [UInt8]) throws -> Reading {
    var reader = try BinaryTraceReader(source: MemoryByteSource(bytes), file: "trace")
    var compact: [(CompactEvent, Int)] = []
    var reading = Reading()
    while let event = try reader.nextCompact() {
      compact.append((event, reader.eventNumber))
      reading.damageSeen.append(reader.damage.count)
    }
    reading.events = compact.map { LocatedEvent(event: TraceEvent($0.0, strings: reader.strings), location: $0.1) }
    reading.damage = reader.damage
    return reading
  }

  /// The reading of `nextCompactBatch(into:)` with a buffer of `size` events.
  static func batches(_ bytes: [UInt8], size: Int) throws -> Reading {
    var reader = try BinaryTraceReader(source: MemoryByteSource(bytes), file: "trace")
    let buffer = UnsafeMutableBufferPointer<CompactEvent>.allocate(capacity: size)
    defer { buffer.deallocate() }
    var compact: [(CompactEvent, Int)] = []
    var reading = Reading()
    while case let read = try reader.nextCompactBatch(into: buffer), read > 0 {
      // One chunk's consecutive events, the last numbered `eventNumber`.
      for index in 0..<read {
        compact.append((buffer[index], reader.eventNumber - (read - 1 - index)))
        reading.damageSeen.append(reader.damage.count)
      }
    }
    reading.events = compact.map { LocatedEvent(event: TraceEvent($0.0, strings: reader.strings), location: $0.1) }
    reading.damage = reader.damage
    return reading
  }

  /// Both readings of `bytes`, which must agree; `nil` when the input is not a binary
  /// trace at all (both readers throw).
  @discardableResult
  static func expectSameReading(_ bytes: [UInt8], _ comment: Comment? = nil) throws -> Reading? {
    let streaming: Reading
    do { streaming = try Self.streaming(bytes) } catch {
      #expect(throws: (any Error).self, comment) { try Self.compact(bytes) }
      return nil
    }
    let compact = try Self.compact(bytes)
    #expect(compact.events == streaming.events, comment)
    #expect(compact.damageSeen == streaming.damageSeen, comment)
    #expect(compact.damage == streaming.damage, comment)
    for size in [1, 7, 256] {
      #expect(try Self.batches(bytes, size: size) == streaming, comment)
    }
    return compact
  }

  static let vectorFiles: [URL] = ["format", "format-v2", "format-v3", "format-v4"].flatMap {
    Repository.files(under: Repository.traces.appendingPathComponent($0), suffix: "bgtrace")
  }

  @Test func vectorsOfEveryVersionReadTheSame() throws {
    #expect(Self.vectorFiles.count >= 10)
    for file in Self.vectorFiles {
      let bytes = [UInt8](try Data(contentsOf: file))
      let reading = try Self.expectSameReading(bytes, Comment(rawValue: file.lastPathComponent))
      #expect(reading?.events.isEmpty == false, Comment(rawValue: file.lastPathComponent))
    }
  }

  @Test(arguments: WorkloadGenerator.Timing.allCases, [UInt8(1), 3, 4])
  func generatedWorkloadsReadTheSame(timing: WorkloadGenerator.Timing, version: UInt8) throws {
    let layout: BinaryTraceEncoder.Layout =
      version == 4 ? .version4(.predictedIdentifiers) : .legacy(version: version)
    let trace = WorkloadGenerator.trace(eventCount: 20_000, seed: 11, timing: timing)
    for limit in [1_024, BinaryFormat.defaultChunkPayload] {
      let bytes = try BinaryTraceEncoder.encode(trace, chunkPayloadLimit: limit, layout: layout)
      let reading = try Self.expectSameReading(bytes)
      #expect(reading?.events.map(\.event) == trace.events)
      #expect(reading?.damage.isEmpty == true)
    }
  }

  /// Every string field of a compact event is given its trace-wide id, the third slot
  /// too: in a later chunk, whose own string ids differ from the trace's, a
  /// continued-processing request's subtitle and a stopped work's tags still read as
  /// written.
  @Test func stringsOfALaterChunkReadAsWritten() throws {
    let text = """
      bgtrace 1
      meta app=sample platform=ios
      0 app.launch
      0.1 mark label=first-chunk-one
      0.2 mark label=first-chunk-two
      0.3 mark label=first-chunk-three
      1 sched.submit ident=upload type=continued title=video.mov subtitle="About to start..." strategy=fail
      2 work.stop work=sync attempt=0 reason=cancelled tags=SyncWorker

      """
    var textReader = try TraceReader(source: MemoryByteSource(Array(text.utf8)), file: "hand.txt")
    let trace = try textReader.readAll()
    // Sealed chunks a record or two long, and the crash-durable recorder's log chunks.
    let directory = try TemporaryDirectory()
    let path = directory.path("log.bgtrace")
    let recorder = try TraceRecorder(writingTo: path, clock: ManualClock())
    for event in trace.events { recorder.record(event.kind, at: event.time) }
    try recorder.close()
    for bytes in [
      try BinaryTraceEncoder.encode(trace, chunkPayloadLimit: 64),
      [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))),
    ] {
      let reading = try #require(try Self.expectSameReading(bytes))
      #expect(reading.events.map(\.event) == trace.events)
      guard case .schedSubmit(let submission) = reading.events[4].event.kind,
        case .workStop(_, _, _, let tags) = reading.events[5].event.kind
      else {
        Issue.record("expected the submit and the stop, read \(reading.events.map(\.event))")
        continue
      }
      #expect(submission.subtitle == "About to start...")
      #expect(tags == "SyncWorker")
    }
  }

  /// A batch of compact events is 80 bytes an event: the third string slot takes the
  /// padding after the constraint bits (CompactEvent.swift), and each slot holds one
  /// meaning.
  @Test func aCompactEventIsEightyBytes() {
    #expect(MemoryLayout<CompactEvent>.stride == 80)
  }

  /// Strings are interned once per trace: the same string in many chunks has one id.
  @Test func stringsAreInternedOncePerTrace() throws {
    let trace = WorkloadGenerator.trace(eventCount: 5_000, seed: 3)
    let bytes = try BinaryTraceEncoder.encode(trace, chunkPayloadLimit: 512)
    var reader = try BinaryTraceReader(source: MemoryByteSource(bytes), file: nil)
    var ids: [String: Set<UInt32>] = [:]
    while let event = try reader.nextCompact() {
      guard event.string != CompactEvent.noString && event.tag != .envSet else { continue }
      ids[reader.strings[event.string], default: []].insert(event.string)
    }
    #expect(ids.values.allSatisfy { $0.count == 1 })
    #expect(reader.strings.count == Set(reader.strings.strings).count)
    #expect(ids.keys.allSatisfy { reader.strings.id(of: $0) != nil })
  }

  /// The crash-durable recorder's version 2 log chunks, whose events the compact path
  /// decodes whole and then makes compact: a `work.enqueue` with every optional field,
  /// and one with none, read back the same either way.
  @Test func logChunkEnqueuesReadTheSame() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("log.bgtrace")
    let full = WorkEnqueue(
      work: "sync", name: "DataSyncWorker", backoff: .linear, backoffDelay: TraceInterval(nanoseconds: 10_000_000_000),
      retryLimit: 3, period: TraceInterval(nanoseconds: 900_000_000_000),
      flex: TraceInterval(nanoseconds: 300_000_000_000),
      policy: .appendOrReplace)
    let kinds: [TraceEvent.Kind] = [
      .workEnqueue(full), .workEnqueue(WorkEnqueue(work: "bare")), .workCancel(work: "sync"),
    ]
    let recorder = try TraceRecorder(writingTo: path, clock: ManualClock())
    for (index, kind) in kinds.enumerated() { recorder.record(kind, at: TraceTime(nanoseconds: UInt64(index))) }
    try recorder.close()
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(bytes[8] == 4 && bytes[9] == 1)  // version 4 with log chunks
    let reading = try Self.expectSameReading(bytes)
    #expect(reading?.events.map(\.event.kind) == kinds)
  }

  /// The streaming example of docs/guides/capturing.md ("What a trace is"), read as
  /// compact events instead: a file read event by event, the strings of its
  /// work starts looked up as they come.
  @Test func theReadmeExampleReadsAFile() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("big.bgtrace")
    let text = """
      bgtrace 1
      0 app.launch
      1 work.enqueue work=sync limit=2
      2 work.start work=sync attempt=0
      3 work.result work=sync attempt=0 outcome=retry
      40 work.start work=sync attempt=1
      41 work.cancel work=upload

      """
    try Data(try RecordedTrace(text: text).binary()).write(to: URL(fileURLWithPath: path))
    var starts: [String] = []
    var reader = try BinaryTraceReader(source: FileByteSource(path: path), file: path)
    var event = CompactEvent(time: 0, tag: .appLaunch)
    while try reader.nextCompact(into: &event) {
      if event.tag == .workStart { starts.append("\(reader.eventNumber) \(reader.strings[event.string])") }
    }
    #expect(starts == ["3 sync", "5 sync"])
    #expect(reader.strings.count == 2)  // sync, upload
  }

  /// With a ``BinaryTraceReader/stringLimit``, a trace whose every event has a new
  /// string keeps only about that many: the table starts afresh between chunks, and
  /// each event's strings, looked up as it is read, are still its own.
  @Test func aStringLimitKeepsTheTableSmall() throws {
    let events = (0..<3_000).map { TraceEvent(time: TraceTime(nanoseconds: UInt64($0)), .workCancel(work: "w-\($0)")) }
    let bytes = try BinaryTraceEncoder.encode(RecordedTrace(events: events), chunkPayloadLimit: 256)
    var limited = try BinaryTraceReader(source: MemoryByteSource(bytes), file: nil)
    limited.stringLimit = 50
    var largest = 0
    var read: [TraceEvent] = []
    while let event = try limited.nextCompact() {
      read.append(TraceEvent(event, strings: limited.strings))
      largest = max(largest, limited.strings.count)
    }
    #expect(read == events)
    #expect(limited.damage.isEmpty)
    #expect(limited.strings.generation > 10)
    #expect(largest <= 50 + 256 / 4)  // the limit, plus one chunk's strings (each at least 4 bytes)

    var unlimited = try BinaryTraceReader(source: MemoryByteSource(bytes), file: nil)
    while try unlimited.nextCompact() != nil {}
    #expect(unlimited.strings.count == 3_000 && unlimited.strings.generation == 0)
  }

  /// Strings are told apart by their bytes: two spellings `String` calls equal keep
  /// their own ids and bytes.
  @Test func canonicallyEquivalentSpellingsKeepTheirBytes() throws {
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    let trace = RecordedTrace(events: [
      TraceEvent(time: .zero, .mark(label: composed)), TraceEvent(time: .zero, .mark(label: decomposed)),
      TraceEvent(time: .zero, .mark(label: composed)),
    ])
    var reader = try BinaryTraceReader(source: MemoryByteSource(try BinaryTraceEncoder.encode(trace)), file: nil)
    var ids: [UInt32] = []
    while let event = try reader.nextCompact() { ids.append(event.string) }
    #expect(ids.count == 3 && ids[0] != ids[1] && ids[0] == ids[2])
    #expect(Array(reader.strings[ids[0]].utf8) == Array(composed.utf8))
    #expect(Array(reader.strings[ids[1]].utf8) == Array(decomposed.utf8))
    #expect(reader.strings.id(of: decomposed) == ids[1])
  }

  /// Damaged inputs: truncations and flipped bytes anywhere (reported chunk losses and
  /// skipped bytes), and payload bytes changed under a recomputed CRC, so that a record
  /// in the middle of an intact-looking chunk does not parse.
  @Test func damagedInputsReadTheSame() throws {
    let trace = WorkloadGenerator.trace(eventCount: 600, seed: 9)
    let bytes = try BinaryTraceEncoder.encode(trace, chunkPayloadLimit: 256)
    for length in stride(from: 0, to: bytes.count, by: 37) {
      try Self.expectSameReading(Array(bytes.prefix(length)), "cut at \(length)")
    }
    for offset in stride(from: 0, to: bytes.count, by: 13) {
      var damaged = bytes
      damaged[offset] ^= 0x5A
      try Self.expectSameReading(damaged, "byte \(offset) flipped")
    }
  }

  @Test func malformedRecordsUnderAValidCRCReadTheSame() throws {
    for name in ["all-kinds.bgtrace", "scheduler-and-work.bgtrace"] {
      let bytes = [UInt8](try Data(contentsOf: Repository.traces.appendingPathComponent("format/\(name)")))
      let layout = BinaryLayout(bytes)
      var failures = 0
      var recordFailures = 0
      for chunk in layout.chunks {
        for offset in chunk.payloadStart..<chunk.end {
          for value: UInt8 in [0x00, 0x1F, 0x7F, 0x80, 0xFF, bytes[offset] &+ 1] {
            var damaged = bytes
            damaged[offset] = value
            Self.resealChunk(&damaged, chunk)
            let reading = try Self.expectSameReading(damaged, "\(name): payload byte \(offset) = \(value)")
            if reading?.damage.isEmpty == false { failures += 1 }
            // A record that does not parse after others did (not a bad string table).
            if reading?.damage.contains(where: { $0.message.contains("before it") }) == true {
              recordFailures += 1
            }
          }
        }
      }
      #expect(failures > 0, "no malformed record was tried")
      #expect(recordFailures > 0, "no record failed after others were read")
    }
  }

  /// Version 2's log chunks, whose events are decoded whole: their unsealed body has no
  /// CRC, so any changed byte is read as it is.
  @Test func damagedLogChunksReadTheSame() throws {
    for name in ["sealed.bgtrace", "unsealed.bgtrace"] {
      let bytes = [UInt8](try Data(contentsOf: Repository.traces.appendingPathComponent("format-v2/\(name)")))
      for offset in 0..<bytes.count {
        var damaged = bytes
        damaged[offset] ^= 0x21
        try Self.expectSameReading(damaged, "\(name): byte \(offset) flipped")
      }
      for length in 0..<bytes.count {
        try Self.expectSameReading(Array(bytes.prefix(length)), "\(name): cut at \(length)")
      }
    }
  }

  /// Calls to `next()` and `nextCompact()` may alternate on one reader.
  @Test func alternatingCallsReadEveryEventOnce() throws {
    let trace = WorkloadGenerator.trace(eventCount: 3_000, seed: 4)
    let bytes = try BinaryTraceEncoder.encode(trace, chunkPayloadLimit: 1_024)
    var reader = try BinaryTraceReader(source: MemoryByteSource(bytes), file: nil)
    var events: [TraceEvent] = []
    while true {
      if events.count % 3 == 0 {
        guard let located = try reader.next() else { break }
        events.append(located.event)
      } else {
        guard let compact = try reader.nextCompact() else { break }
        events.append(TraceEvent(compact, strings: reader.strings))
      }
      #expect(reader.eventNumber == events.count)
    }
    #expect(events == trace.events)
  }

  /// A reader is a value: a copy taken in the middle of a batch decoded ahead reads the
  /// same events as the original, which decodes its next batches into its own buffer.
  @Test func copiesReadTheSameCompactEvents() throws {
    let trace = WorkloadGenerator.trace(eventCount: 3_000, seed: 6)
    let bytes = try BinaryTraceEncoder.encode(trace, chunkPayloadLimit: 1_024)
    var original = try BinaryTraceReader(source: MemoryByteSource(bytes), file: nil)
    for _ in 0..<10 { _ = try original.nextCompact() }
    var copy = original
    var fromOriginal: [TraceEvent] = []
    while let event = try original.nextCompact() { fromOriginal.append(TraceEvent(event, strings: original.strings)) }
    var fromCopy: [TraceEvent] = []
    while let event = try copy.nextCompact() { fromCopy.append(TraceEvent(event, strings: copy.strings)) }
    #expect(fromOriginal == Array(trace.events.dropFirst(10)))
    #expect(fromCopy == fromOriginal)
  }

  /// Writes a sealed chunk's payload CRC and header CRC for its (changed) payload.
  static func resealChunk(_ bytes: inout [UInt8], _ chunk: ChunkLocation) {
    let payloadCRC = crcBytes(Array(bytes[chunk.payloadStart..<chunk.end]))
    bytes.replaceSubrange(chunk.offset + 32..<chunk.offset + 36, with: payloadCRC)
    let headerCRC = crcBytes(Array(bytes[chunk.offset..<chunk.offset + 36]))
    bytes.replaceSubrange(chunk.offset + 36..<chunk.offset + 40, with: headerCRC)
  }
}
