/// Streams the events of a binary trace, one chunk in memory at a time, recovering
/// from damage: a torn tail, a chunk whose CRC fails, or garbage between chunks is
/// reported in ``damage`` with the number of events lost, and reading goes on with
/// the next intact chunk.
///
/// No input makes it trap, hang or allocate more than one chunk
/// (``BinaryFormat/maximumChunkPayload``) plus a read block.
public struct BinaryTraceReader {
  /// The input's name, for errors and damage reports.
  public let file: String?
  /// The trace's metadata (empty when the file header was damaged).
  public private(set) var meta = TraceMetadata()
  /// What was lost, in file order. Grows as reading proceeds.
  public private(set) var damage: [TraceDamage] = []

  private var source: any ByteSource  // read once per block, so the existential costs nothing
  private var buffer: [UInt8] = []
  private var bufferStart = 0
  private var position = 0
  private var exhausted = false
  private var events: [TraceEvent] = []
  private var eventIndex = 0
  private var firstEventNumber: UInt64 = 0
  private var expectedEvent: UInt64 = 0
  private var lastTime: UInt64 = 0
  private var gapStart: Int?
  private var finished = false

  private static var blockSize: Int { 64 * 1024 }
  private static let placeholder = TraceEvent(time: .zero, .appLaunch)

  /// Starts reading: checks the magic bytes and version and reads the metadata.
  ///
  /// - Throws: ``TraceFormatError`` when the input is not a binary trace or has an
  ///   unsupported version; ``ByteSourceError`` when reading fails. A damaged or
  ///   truncated header is not thrown: it is reported in ``damage``.
  public init(source: some ByteSource, file: String?) throws {
    self.source = source
    self.file = file
    try readFileHeader()
  }

  /// The next event with its 1-based event number, or `nil` at the end.
  ///
  /// - Throws: ``ByteSourceError`` only; damage is reported in ``damage``.
  public mutating func next() throws(ByteSourceError) -> LocatedEvent? {
    while eventIndex >= events.count {
      guard !finished, try nextChunk() else {
        finished = true
        return nil
      }
    }
    defer { eventIndex += 1 }
    // Move the event out instead of copying it, leaving a placeholder that has nothing
    // to release: this saves a retain and a release per string field (see bgtrace-bench).
    let event = events.withUnsafeMutableBufferPointer { buffer in
      let slot = buffer.baseAddress! + eventIndex
      defer { slot.initialize(to: Self.placeholder) }
      return slot.move()
    }
    return LocatedEvent(event: event, location: Int(firstEventNumber) + eventIndex + 1)
  }

  // MARK: Buffer

  private var offset: Int { bufferStart + position }
  private var available: Int { buffer.count - position }

  /// Makes at least `count` bytes available from the position if the input has them.
  private mutating func ensure(_ count: Int) throws(ByteSourceError) -> Bool {
    while available < count && !exhausted {
      if position > 0 {
        buffer.removeSubrange(0..<position)
        bufferStart += position
        position = 0
      }
      let wanted = max(count - available, Self.blockSize)
      if try source.read(into: &buffer, count: wanted) == 0 { exhausted = true }
    }
    return available >= count
  }

  // MARK: File header

  private mutating func readFileHeader() throws {
    let headerSize = BinaryFormat.fileHeaderSize
    _ = try ensure(headerSize)
    let magic = BinaryFormat.magic
    let present = min(available, magic.count)
    guard buffer[position..<position + present].elementsEqual(magic.prefix(present)) else {
      throw TraceFormatError(
        file: file, position: .byte(offset: 0), message: "not a binary bgtrace file (the magic bytes do not match)")
    }
    guard available >= headerSize else {
      report(
        at: 0, length: available, lost: 0,
        "the file ends inside its \(headerSize)-byte header after \(available) bytes; it holds no events")
      position = buffer.count
      finished = true
      return
    }
    let version = buffer[position + 8]
    guard version == BinaryFormat.version else {
      throw TraceFormatError(
        file: file, position: .byte(offset: 8),
        message: "unsupported binary format version \(version); this reader reads version \(BinaryFormat.version)")
    }
    let (bodyLength, bodyCRC) = buffer.withUnsafeBytes { raw in
      let cursor = ByteCursor(UnsafeRawBufferPointer(rebasing: raw[position...]))
      return (Int(cursor.littleEndian(UInt32.self, at: 10)), cursor.littleEndian(UInt32.self, at: 14))
    }
    let flags = buffer[position + 9]
    position += headerSize
    guard flags == 0, bodyLength <= BinaryFormat.maximumHeaderBody, try ensure(bodyLength) else {
      report(at: 9, length: nil, lost: nil, "the file header is damaged; the metadata is lost")
      gapStart = offset
      return
    }
    let parsed: TraceMetadata? = buffer.withUnsafeBytes { raw in
      let body = UnsafeRawBufferPointer(rebasing: raw[position..<position + bodyLength])
      guard CRC32C.checksum(body) == bodyCRC else { return nil }
      return Self.metadata(body)
    }
    guard let parsed else {
      report(at: headerSize, length: bodyLength, lost: nil, "the file header fails its CRC check; the metadata is lost")
      gapStart = offset
      return
    }
    meta = parsed
    position += bodyLength
  }

  private static func metadata(_ body: UnsafeRawBufferPointer) -> TraceMetadata? {
    var cursor = ByteCursor(body)
    guard let count = cursor.varint(), count <= UInt64(body.count) else { return nil }
    var meta = TraceMetadata()
    for _ in 0..<count {
      guard let keyLength = cursor.varint(), let key = cursor.bytes(Int(clamping: keyLength)),
        let valueLength = cursor.varint(), let value = cursor.bytes(Int(clamping: valueLength)),
        let keyText = String(validating: key, as: UTF8.self),
        let valueText = String(validating: value, as: UTF8.self),
        meta[keyText] == nil
      else { return nil }
      meta[keyText] = valueText
    }
    return cursor.isAtEnd ? meta : nil
  }

  // MARK: Chunks

  /// Loads the next intact chunk into `events`; `false` at the end of the input.
  private mutating func nextChunk() throws(ByteSourceError) -> Bool {
    let headerSize = BinaryFormat.chunkHeaderSize
    while true {
      guard try ensure(1) else {
        closeGap(before: nil)
        return false
      }
      guard try ensure(headerSize) else {
        let start = gapStart ?? offset
        gapStart = nil
        report(
          at: start, length: offset + available - start, lost: nil,
          "the file ends \(available) bytes into a chunk header (a torn tail); the events of that chunk are lost")
        position = buffer.count
        return false
      }
      let header = buffer.withUnsafeBytes { raw in
        ChunkHeader(UnsafeRawBufferPointer(rebasing: raw[position..<position + headerSize]))
      }
      guard let header else {
        if gapStart == nil { gapStart = offset }
        try skipToNextSync()
        continue
      }
      closeGap(before: header)
      let chunkOffset = offset
      let first = header.firstEvent
      let count = UInt64(header.eventCount)
      let label = "chunk \(header.sequence) at byte \(chunkOffset) (events \(first + 1)–\(first + count))"
      let total = headerSize + Int(header.payloadLength)
      guard try ensure(total) else {
        report(
          at: chunkOffset, length: available, lost: Int(count),
          "the file ends inside \(label) after \(available - headerSize) of \(header.payloadLength) payload bytes (a torn tail); \(count) events lost"
        )
        position = buffer.count
        expectedEvent = first + count
        return false
      }
      defer {
        position += total
        expectedEvent = max(expectedEvent, first + count)
      }
      if first < expectedEvent {
        report(at: chunkOffset, length: total, lost: 0, "\(label) repeats event numbers already read; skipped")
        continue
      }
      var decoded: [TraceEvent] = []
      swap(&decoded, &events)  // decode into our own array while the buffer is borrowed
      let outcome = buffer.withUnsafeBytes { raw in
        Self.decodeChunk(
          UnsafeRawBufferPointer(rebasing: raw[position + headerSize..<position + total]), header,
          after: lastTime, into: &decoded)
      }
      swap(&decoded, &events)
      switch outcome {
      case .checksumMismatch:
        report(at: chunkOffset, length: total, lost: Int(count), "\(label) fails its CRC check; \(count) events lost")
      case .malformed(let failure):
        report(
          at: chunkOffset, length: total, lost: Int(count),
          "\(label) is malformed at payload byte \(failure.offset) (\(failure.message)); \(count) events lost")
      case .decoded:
        eventIndex = 0
        firstEventNumber = first
        lastTime = events.last?.time.nanoseconds ?? header.baseTime
        return true
      }
    }
  }

  private enum ChunkOutcome {
    case decoded, checksumMismatch, malformed(ChunkDecoder.Failure)
  }

  /// Checks a chunk's payload and decodes it into `events`.
  private static func decodeChunk(
    _ payload: UnsafeRawBufferPointer, _ header: ChunkHeader, after lastTime: UInt64,
    into events: inout [TraceEvent]
  ) -> ChunkOutcome {
    guard CRC32C.checksum(payload) == header.payloadCRC else { return .checksumMismatch }
    guard header.baseTime >= lastTime else {
      return .malformed(ChunkDecoder.Failure(offset: 0, message: "it starts before the previous chunk ends"))
    }
    events.removeAll(keepingCapacity: true)
    do {
      try ChunkDecoder.decode(payload, count: Int(header.eventCount), baseTime: header.baseTime, into: &events)
      return .decoded
    } catch {
      return .malformed(error)
    }
  }

  /// Moves past the current byte to the next place the chunk sync bytes appear (or the end).
  private mutating func skipToNextSync() throws(ByteSourceError) {
    position += 1
    let sync = BinaryFormat.chunkSync
    while true {
      if let index = buffer[position...].firstIndex(of: sync[0]) {
        position = index
        guard try ensure(sync.count) else { return }
        if buffer[position..<position + sync.count].elementsEqual(sync) { return }
        position += 1
      } else {
        position = buffer.count
        guard try ensure(1) else { return }
      }
    }
  }

  /// Reports the damaged bytes skipped since `gapStart`, with the events lost there.
  private mutating func closeGap(before header: ChunkHeader?) {
    if let start = gapStart {
      gapStart = nil
      let length = offset - start
      if let header {
        let lost = header.firstEvent >= expectedEvent ? Int(header.firstEvent - expectedEvent) : 0
        report(at: start, length: length, lost: lost, "\(length) damaged bytes skipped; \(lost) events lost")
      } else {
        report(
          at: start, length: length, lost: nil,
          "\(length) damaged bytes at the end skipped; the events in them are lost")
      }
    } else if let header, header.firstEvent > expectedEvent {
      let lost = Int(header.firstEvent - expectedEvent)
      report(
        at: offset, length: 0, lost: lost,
        "events \(expectedEvent + 1)–\(header.firstEvent) are missing before chunk \(header.sequence); \(lost) events lost"
      )
    }
  }

  private mutating func report(at offset: Int, length: Int?, lost: Int?, _ message: String) {
    damage.append(TraceDamage(file: file, offset: offset, length: length, lostEvents: lost, message: message))
  }
}

/// A part of a binary trace that could not be read, and what was lost with it.
public struct TraceDamage: Sendable, Hashable, CustomStringConvertible {
  /// The input's name.
  public var file: String?
  /// The byte offset where the damage starts.
  public var offset: Int
  /// How many bytes were skipped, when known.
  public var length: Int?
  /// How many events were lost, when known.
  public var lostEvents: Int?
  /// One sentence saying what was damaged and what was lost.
  public var message: String

  /// Creates a damage report.
  public init(file: String?, offset: Int, length: Int?, lostEvents: Int?, message: String) {
    self.file = file
    self.offset = offset
    self.length = length
    self.lostEvents = lostEvents
    self.message = message
  }

  /// A warning in compiler style: `FILE: at byte N: warning: message`.
  public var description: String { "\(file ?? "<input>"): at byte \(offset): warning: \(message)" }
}
