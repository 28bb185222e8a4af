import BackgroundTrace
import Testing
import TraceWorkloads

/// docs/FORMAT.md: no input, however hostile, crashes or hangs the reader. A crash fails the
/// whole run; a hang trips the time limit.
@Suite(.timeLimit(.minutes(2))) struct BinaryHostileInputTests {
  static let trace = sampleTrace(eventCount: 300)
  static let bytes = try! BinaryTraceEncoder.encode(trace, chunkPayloadLimit: 256)
  static let layout = BinaryLayout(bytes)

  /// A chunk with valid sync bytes and both CRCs around `payload`, so the reader gets as
  /// far as decoding the records.
  static func chunk(
    _ payload: [UInt8], sequence: UInt32, firstEvent: UInt64, eventCount: UInt32, baseTime: UInt64
  ) -> [UInt8] {
    func little<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
      (0..<T.bitWidth / 8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
    var header: [UInt8] = [0xB7, 0x43, 0x48, 0x4B]
    header += little(UInt32(payload.count)) + little(sequence) + little(firstEvent) + little(eventCount)
    header += little(baseTime) + crcBytes(payload)
    return header + crcBytes(header) + payload
  }

  /// The header of a file with no metadata.
  static let emptyHeader = BinaryFormat.magic + [1, 0, 1, 0, 0, 0] + crcBytes([0]) + [0]

  /// Whether the reader must accept `input` (docs/FORMAT.md, "Reading"): only a wrong
  /// magic, or a whole 18-byte header with a version other than 1 or 2, is an error;
  /// everything else — a torn header, damaged flags, metadata or chunks — is damage
  /// reported beside the events that survive.
  static func mustAccept(_ input: [UInt8]) -> Bool {
    let magic = BinaryFormat.magic
    guard input.prefix(magic.count).elementsEqual(magic.prefix(min(input.count, magic.count))) else { return false }
    return input.count < 18 || input[8] == 1 || input[8] == 2
  }

  /// Decodes and checks what can be checked of any outcome: an input the reader must
  /// accept does not throw, and the events it yields are in time order. Returns the
  /// decoded trace, or nil when the input was rightly rejected.
  @discardableResult
  static func decodeWithoutCrashing(_ input: [UInt8]) -> (trace: RecordedTrace, damage: [TraceDamage])? {
    do {
      let decoded = try RecordedTrace.decode(binary: input)
      for (earlier, later) in zip(decoded.trace.events, decoded.trace.events.dropFirst()) {
        #expect(earlier.time <= later.time)
      }
      return decoded
    } catch {
      #expect(!mustAccept(input), "rejected an input it must accept: \(error)")
      return nil
    }
  }

  @Test func randomBytesAfterTheMagicNeverCrash() {
    var random = SplitMix64(seed: 2_024)
    var accepted = 0
    for round in 0..<2_000 {
      var input = BinaryFormat.magic
      if round % 2 == 0 { input += [1, 0] }  // a valid version and flags, so the reader goes further
      let count = Int.random(in: 0...600, using: &random)
      input += (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
      if Self.decodeWithoutCrashing(input) != nil { accepted += 1 }
    }
    // Every even round has version 1: at least those are read (as damage), never rejected.
    #expect(accepted >= 1_000)
  }

  @Test func randomPayloadsInValidChunksNeverCrash() {
    var random = SplitMix64(seed: 99)
    for _ in 0..<2_000 {
      var input = Self.emptyHeader
      for sequence in 0..<UInt32.random(in: 1...3, using: &random) {
        let count = Int.random(in: 1...200, using: &random)
        var payload = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
        if Bool.random(using: &random) {
          payload[0] = UInt8.random(in: 0...3, using: &random)  // a small string table, so records are reached
          payload[1...].withContiguousMutableStorageIfAvailable { rest in
            for index in rest.indices where Int.random(in: 0..<3, using: &random) == 0 {
              rest[index] &= 0x3F  // small varints and low tags: plausible records
            }
          }
        }
        let events = UInt32.random(in: 0...UInt32(count), using: &random)
        input += Self.chunk(
          payload, sequence: sequence, firstEvent: UInt64.random(in: 0...3, using: &random) * 100,
          eventCount: events, baseTime: UInt64.random(in: 0...1_000, using: &random))
      }
      // The header is intact, so the file is always read; its damage is reported.
      #expect(Self.decodeWithoutCrashing(input) != nil)
    }
  }

  /// Hand-picked one-record payloads that stress the decoder's bounds checks, each with
  /// whether it is valid.
  static let records: [(payload: [UInt8], valid: Bool)] = [
    ([0x00, 0x01, 0x00], true),  // app.state to=active
    ([0x01, 0x01, 0x77, 0x14, 0x00, 0x00], true),  // mark label=w
    ([0x00, 0x1B, 0x00], false),  // unknown kind tag 27
    ([0x00, 0xE0, 0x00], false),  // app.launch with flags
    ([0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], false),  // time beyond 65 bits
    ([0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x03], false),  // (2^63 − 1) s overflows
    ([0x00, 0x00, 0x80], false),  // truncated time
    ([0x00, 0x03, 0x00, 0x80], false),  // truncated task id
    ([0x00, 0x04, 0x00, 0x01], false),  // task id −1
    ([0x00, 0x12, 0x00, 0x00], false),  // env.set with no pairs
    ([0x00, 0x12, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F], false),  // env.set with billions of pairs
    ([0x00, 0x13, 0x00, 0x05, 0x05], false),  // input with string references out of range
    ([0x01, 0x7F, 0x00], false),  // a string longer than the payload
    ([0x02, 0x01, 0xFF, 0x00, 0x14, 0x00, 0x00], false),  // a string that is not UTF-8
    ([0xFF, 0xFF, 0xFF, 0xFF, 0x0F], false),  // a huge string count
    ([0x01, 0x01, 0x77, 0x0D, 0x00, 0xFF], false),  // work.enqueue with unknown presence bits
    ([0x01, 0x01, 0x77, 0x0D, 0x00, 0x02, 0x00, 0x09], false),  // work.enqueue with an unknown backoff
    ([0x01, 0x01, 0x77, 0x07, 0x00, 0x03, 0x00], false),  // sched.submit with tri-state 3
    // work.start with attempt 2^63
    ([0x01, 0x01, 0x77, 0x0E, 0x00, 0x00, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01], false),
    ([0x00, 0x00, 0x00, 0x00], false),  // a byte after the last record
  ]

  @Test(arguments: records)
  func malformedRecordLosesOnlyItsChunk(payload: [UInt8], valid: Bool) throws {
    let good = Self.chunk([0x00, 0x00, 0x00], sequence: 1, firstEvent: 1, eventCount: 1, baseTime: 0)
    let input = Self.emptyHeader + Self.chunk(payload, sequence: 0, firstEvent: 0, eventCount: 1, baseTime: 0) + good
    let decoded = try RecordedTrace.decode(binary: input)
    // The good chunk after the hostile one is always read.
    #expect(decoded.trace.events.last == TraceEvent(time: .zero, .appLaunch))
    if valid {
      #expect(decoded.trace.events.count == 2)
      #expect(decoded.damage.isEmpty)
    } else if payload == [0x00, 0x00, 0x00, 0x00] {
      // The record, `00 00` (app.launch at 0), is whole and read; the byte after it is
      // reported, and no event is lost.
      #expect(decoded.trace.events.count == 2)
      #expect(decoded.damage.map(\.lostEvents) == [0])
      #expect(
        decoded.damage.first?.message.contains("is malformed at payload byte 3 (1 bytes after the last event)") == true)
    } else {
      #expect(decoded.trace.events.count == 1)
      #expect(decoded.damage.map(\.lostEvents) == [1])
      #expect(decoded.damage.first?.message.contains("is malformed at payload byte") == true)
    }
  }

  /// A chunk whose CRC holds but whose third record does not parse (only a faulty
  /// writer makes one): its first two events are read, its last two are lost, and the
  /// next chunk must not start before the last event read.
  /// A file of three chunks: one whose third record does not parse, one starting at
  /// 3 ns (before the 5 ns event of the first), and a good one.
  static var malformedThenEarly: [UInt8] {
    // No strings; `00 00` app.launch at +0, `00 14` app.launch at +5 ns, `1E 7F 00` kind
    // 127 (after tag code 30), a code no kind has.
    let bad = chunk(
      [0x00, 0x00, 0x00, 0x00, 0x14, 0x1E, 0x7F, 0x00], sequence: 0, firstEvent: 0, eventCount: 4, baseTime: 0)
    let early = chunk([0x00, 0x00, 0x00], sequence: 1, firstEvent: 4, eventCount: 1, baseTime: 3)
    let good = chunk([0x00, 0x00, 0x00], sequence: 2, firstEvent: 5, eventCount: 1, baseTime: 5)
    return emptyHeader + bad + early + good
  }

  @Test func malformedRecordKeepsTheRecordsBeforeIt() throws {
    var reader = try BinaryTraceReader(source: MemoryByteSource(Self.malformedThenEarly), file: "t")
    var read: [LocatedEvent] = []
    while let located = try reader.next() { read.append(located) }
    let launch = { (nanoseconds: UInt64) in TraceEvent(time: TraceTime(nanoseconds: nanoseconds), .appLaunch) }
    #expect(
      read
        == [launch(0), launch(5), launch(5)].enumerated().map {
          LocatedEvent(event: $0.element, location: [1, 2, 6][$0.offset])
        })
    #expect(
      reader.damage.map(\.description) == [
        "t: at byte 19: error: chunk 0 at byte 19 (events 1–4) is malformed at payload byte 5 (unknown event kind tag 127); the 2 events before it are recovered, 2 events lost",
        "t: at byte 67: error: chunk 1 at byte 67 (events 5–5) is malformed at payload byte 0 (it starts before the previous chunk ends); 1 events lost",
      ])
    #expect(reader.damage.map(\.lostEvents) == [2, 1])
  }

  /// The same chunks read in batches, as `bgtrace check` reads: the batch that meets
  /// the bad record hands out the two before it, and the next chunk is still held to
  /// start no earlier than the last of them (5 ns).
  @Test func malformedRecordKeepsTheRecordsBeforeItInABatch() throws {
    var reader = try BinaryTraceReader(source: MemoryByteSource(Self.malformedThenEarly), file: "t")
    let batch = UnsafeMutableBufferPointer<CompactEvent>.allocate(capacity: 64)
    defer { batch.deallocate() }
    var times: [UInt64] = []
    while case let read = try reader.nextCompactBatch(into: batch), read > 0 {
      times += batch[0..<read].map(\.time)
    }
    #expect(times == [0, 5, 5])
    #expect(reader.damage.map(\.lostEvents) == [2, 1])
    #expect(
      reader.damage.last?.description
        == "t: at byte 67: error: chunk 1 at byte 67 (events 5–5) is malformed at payload byte 0 (it starts before the previous chunk ends); 1 events lost"
    )
  }

  @Test func mutatedValidFilesNeverCrashAndOnlyYieldWholeOriginalChunks() {
    var random = SplitMix64(seed: 7)
    for _ in 0..<2_000 {
      var input = Self.bytes
      for _ in 0..<Int.random(in: 1...6, using: &random) {
        let index = Int.random(in: 0..<max(input.count, 1), using: &random)
        switch Int.random(in: 0..<5, using: &random) {
        case 0 where index < input.count: input[index] = UInt8.random(in: 0...255, using: &random)
        case 1 where index < input.count: input.remove(at: index)
        case 2: input.insert(UInt8.random(in: 0...255, using: &random), at: min(index, input.count))
        case 3: input.removeLast(Int.random(in: 0...min(input.count, 50), using: &random))
        default:
          let chunk = Self.layout.chunks.randomElement(using: &random)!
          input.insert(contentsOf: Self.bytes[chunk.offset..<chunk.end], at: min(index, input.count))
        }
      }
      guard let decoded = Self.decodeWithoutCrashing(input) else { continue }
      // Whatever was decoded is a run of whole original chunks, in order.
      var rest = decoded.trace.events[...]
      for chunk in Self.layout.chunks where rest.starts(with: Self.trace.events[chunk.events]) {
        rest = rest.dropFirst(chunk.eventCount)
      }
      #expect(rest.isEmpty, "decoded events that are not whole original chunks")
    }
  }

  @Test func hugeDeclaredLengthsDoNotHang() throws {
    // A chunk header that claims the largest payload, with nothing behind it.
    var header: [UInt8] = [0xB7, 0x43, 0x48, 0x4B, 0x00, 0x00, 0x00, 0x01] + [UInt8](repeating: 0, count: 28)
    header += crcBytes(header)
    let decoded = try RecordedTrace.decode(binary: Self.emptyHeader + header)
    #expect(decoded.trace.events.isEmpty)
    // Its zero events are lost, and whatever may have followed it: how many is unknown.
    #expect(decoded.damage.map(\.lostEvents) == [nil])
    #expect(decoded.damage.map(\.minimumLostEvents) == [0])
  }
}
