/// Streams the events of a binary trace, one chunk in memory at a time, recovering
/// from damage: a torn tail, a chunk whose CRC fails, or garbage between chunks is
/// reported in ``damage`` with the number of events lost, and reading goes on with
/// the next intact chunk.
///
/// It reads versions 1 to 4 (docs/FORMAT.md): sealed chunks, and with the features a
/// file names, predicted identifiers and log chunks. A recorder's last log chunk may be
/// unsealed (the recording process was killed before closing it): its committed
/// records are read, and a ``TraceDamage/Kind/unsealedTail`` note, which loses
/// nothing, says so.
///
/// No input makes it trap, hang or allocate more than one chunk
/// (``BinaryFormat/maximumChunkPayload``) plus a read block; ``nextCompact()`` and
/// ``nextCompactBatch(into:)`` also keep each distinct string of the chunks they read
/// (``strings``), unless ``stringLimit`` bounds them.
public struct BinaryTraceReader {
  /// The input's name, for errors and damage reports.
  public let file: String?
  /// The trace's metadata (empty when the file header was damaged).
  public private(set) var meta = TraceMetadata()
  /// What was lost, in file order. Grows as reading proceeds.
  public private(set) var damage: [TraceDamage] = []
  /// The strings of the events ``nextCompact()`` and ``nextCompactBatch(into:)``
  /// return, by id. Grows as reading proceeds, by the new strings of each chunk they read.
  package private(set) var strings = InternedStrings()
  /// When set, the most strings ``strings`` keeps across chunks: once it holds more, it
  /// starts afresh (``InternedStrings/generation`` goes up) before the next chunk's
  /// strings are interned. Then a compact event's ids are valid only until the next
  /// chunk is read: look its strings up before reading on, as a checker does.
  ///
  /// `nil` (the default) keeps every distinct string, so that ids stay valid for the
  /// whole trace; the table then grows with the trace's distinct strings (a trace
  /// whose every work has a new id grows it by each id).
  package var stringLimit: Int?
  /// The 1-based event number of the event ``next()`` or ``nextCompact()`` returned
  /// last, or of the last event ``nextCompactBatch(into:)`` returned (0 before the first).
  public var eventNumber: Int { recordLocation - (compactCount - compactIndex) }
  /// The compact events ``nextCompact()`` decoded ahead, a batch at a time; the ones
  /// from `compactIndex` to `compactCount` were not returned yet.
  @usableFromInline var compactEvents: CompactEventBuffer?
  @usableFromInline var compactIndex = 0
  @usableFromInline var compactCount = 0

  private var source: any ByteSource  // read once per block, so the existential costs nothing
  private var buffer: [UInt8] = []
  private var bufferStart = 0
  private var position = 0
  private var exhausted = false
  /// The current log chunk's events; the ones before `events.consumed` were handed out.
  private var events = LogChunkEvents()
  private var firstEventNumber: UInt64 = 0
  /// The records of the current sealed chunk not yet read. When the chunk was loaded
  /// its CRC and string table were checked; each ``next()`` decodes and checks one
  /// record from `payload`, and a record that does not parse ends the chunk
  /// (``recordFailed(_:previousTime:)``).
  @usableFromInline var pendingRecords = 0
  /// The current sealed chunk, until its last record was read or one failed.
  private var sealedChunk: SealedChunk?
  /// The event number of the latest event read.
  private var recordLocation = 0
  /// The current sealed chunk's payload, and where its next record starts.
  private var payload = ChunkPayload()
  private var recordOffset = 0
  private var decoder = ChunkDecoder(strings: [], time: 0)
  private var expectedEvent: UInt64 = 0
  private var lastTime: UInt64 = 0
  private var gapStart: Int?
  private var finished = false
  /// The features the file uses (docs/FORMAT.md, "Version 4 and its features"):
  /// named by its version 4 header, or implied by an earlier version's number.
  private var features: BinaryFormat.Features = []
  /// Whether ``features`` were read from an intact header. When the header is damaged
  /// they are not known, and the reader accepts each feature where it finds one
  /// (``BinaryFormat/Features/known``); chunk alignment is then only the padding of
  /// zeros it finds.
  private var featuresKnown = true

  private static var blockSize: Int { 64 * 1024 }

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
  @inlinable  // inlined, the caller destroys each event directly, not through
  // `Optional<LocatedEvent>`'s value witnesses, a call per event
  public mutating func next() throws(ByteSourceError) -> LocatedEvent? {
    // `nextRecord()` builds the located event where the caller destroys it: building
    // it here from a returned event would copy it, stalling on the stores just made.
    if pendingRecords > 0 {
      // The record's failure is a separate return path, so that a decoded record is
      // returned as a value the caller knows is present.
      do throws(RecordFailure) { return try nextRecord() } catch { return try nextFromChunkEvents() }
    }
    return try nextFromChunkEvents()
  }

  /// Thrown by ``nextRecord()`` after it reported the rest of the chunk lost.
  @usableFromInline
  struct RecordFailure: Error {
    @usableFromInline init() {}
  }

  /// Decodes the next record of the current sealed chunk (`pendingRecords` > 0); when
  /// it does not parse, reports the rest of the chunk lost and throws.
  @usableFromInline
  mutating func nextRecord() throws(RecordFailure) -> LocatedEvent {
    if compactIndex < compactCount { return takeDecodedAhead() }
    pendingRecords -= 1
    recordLocation += 1
    let bytes = payload.bytes
    var cursor = ByteCursor(bytes, offset: recordOffset)
    let previousTime = decoder.time
    do throws(ChunkDecoder.Failure) {
      let event = try decoder.record(&cursor, interned: strings)
      recordOffset = cursor.offset
      return LocatedEvent(event: event, location: recordLocation)
    } catch {
      recordFailed(error, previousTime: previousTime)
      throw RecordFailure()
    }
  }

  /// The next event as a ``CompactEvent``, whose strings are ids into ``strings``, or
  /// `nil` at the end; ``eventNumber`` is its event number. It reads the same events
  /// and reports the same ``damage`` as ``next()``, with which calls may alternate.
  ///
  /// A sealed chunk's records are decoded straight into compact events, its strings
  /// interned once when its first record is read. A log chunk's events are
  /// decoded whole, as for ``next()``, and their strings interned event by event.
  ///
  /// - Throws: ``ByteSourceError`` only; damage is reported in ``damage``.
  @inlinable
  package mutating func nextCompact() throws(ByteSourceError) -> CompactEvent? {
    if compactIndex < compactCount {
      defer { compactIndex += 1 }
      return compactEvents.unsafelyUnwrapped.base[compactIndex]
    }
    var event = CompactEvent(time: 0, tag: .appLaunch)
    return try refillCompactEvents(into: &event) ? event : nil
  }

  /// Reads the next event into `event`, as ``nextCompact()`` does; `false` at the end,
  /// `event` then holding no event.
  ///
  /// Both decode a batch of events ahead (``nextCompactBatch(into:)``) and hand them out
  /// one by one: the decoder's state stays in registers for a batch, where decoding one
  /// record per call loads and stores it per event. Damage is reported when the events
  /// before it were returned, as by ``next()``.
  ///
  /// - Throws: ``ByteSourceError`` only; damage is reported in ``damage``.
  @inlinable
  package mutating func nextCompact(into event: inout CompactEvent) throws(ByteSourceError) -> Bool {
    if compactIndex < compactCount {
      event = compactEvents.unsafelyUnwrapped.base[compactIndex]
      compactIndex += 1
      return true
    }
    return try refillCompactEvents(into: &event)
  }

  /// Decodes the next batch of compact events ahead and returns the first in `event`;
  /// `false` at the end.
  @usableFromInline
  mutating func refillCompactEvents(into event: inout CompactEvent) throws(ByteSourceError) -> Bool {
    compactIndex = 0
    compactCount = 0
    // A copy of this reader may still be reading the shared batch.
    if compactEvents == nil || !isKnownUniquelyReferenced(&compactEvents!) { compactEvents = CompactEventBuffer() }
    let buffer = compactEvents.unsafelyUnwrapped
    let read = try fillCompactBatch(
      into: UnsafeMutableBufferPointer(start: buffer.base, count: CompactEventBuffer.capacity))
    guard read > 0 else { return false }
    event = buffer.base[0]
    compactCount = read
    compactIndex = 1
    return true
  }

  /// The next compact event decoded ahead, as a located event for ``next()``.
  @inline(never)
  private mutating func takeDecodedAhead() -> LocatedEvent {
    let event = compactEvents.unsafelyUnwrapped.base[compactIndex]
    compactIndex += 1
    return LocatedEvent(event: TraceEvent(event, strings: strings), location: eventNumber)
  }

  /// Reads the next events into `buffer`, as many calls of ``nextCompact()`` would,
  /// and returns how many; 0 at the end.
  ///
  /// The events of one call come from one chunk and have consecutive event numbers, the
  /// last ``eventNumber``. A sealed chunk's records are decoded in one loop that keeps
  /// the decoder's state in registers, where ``nextCompact()`` loads and stores it per
  /// event.
  ///
  /// - Throws: ``ByteSourceError`` only; damage is reported in ``damage``.
  package mutating func nextCompactBatch(
    into buffer: UnsafeMutableBufferPointer<CompactEvent>
  ) throws(ByteSourceError) -> Int {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    if compactIndex < compactCount {
      // The events ``nextCompact()`` decoded ahead come first.
      let read = min(buffer.count, compactCount - compactIndex)
      base.update(from: compactEvents.unsafelyUnwrapped.base + compactIndex, count: read)
      compactIndex += read
      return read
    }
    return try fillCompactBatch(into: buffer)
  }

  /// Decodes the next events into `buffer` for ``nextCompactBatch(into:)`` and
  /// ``nextCompact()``, with none decoded ahead.
  private mutating func fillCompactBatch(
    into buffer: UnsafeMutableBufferPointer<CompactEvent>
  ) throws(ByteSourceError) -> Int {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    while true {
      if pendingRecords > 0 {
        let read = decodeRecords(into: base, count: buffer.count)
        if read > 0 { return read }
        continue  // the chunk's next record did not parse: on to the next chunk
      }
      guard try loadChunkWithEvents() else { return 0 }
      if pendingRecords > 0 { continue }
      var read = 0
      while read < buffer.count && events.consumed < events.count {
        base[read] = takeCompactChunkEvent()
        read += 1
      }
      return read
    }
  }

  /// Decodes up to `count` of the current sealed chunk's records into `base` and
  /// returns how many; a record that does not parse ends the chunk, as in
  /// ``nextRecord()``.
  private mutating func decodeRecords(into base: UnsafeMutablePointer<CompactEvent>, count: Int) -> Int {
    if !decoder.stringsInterned { internChunkStrings() }
    let wanted = min(count, pendingRecords)
    // The decoder is moved out for the loop, so that its arrays stay uniquely referenced.
    var decoder = ChunkDecoder(strings: [], time: 0)
    swap(&decoder, &self.decoder)
    var cursor = ByteCursor(payload.bytes, offset: recordOffset)
    var read = 0
    var failure: ChunkDecoder.Failure?
    var recordStart = cursor.offset
    var previous = (time: decoder.time, taskID: decoder.lastTaskID, run: decoder.lastRun)
    while read < wanted {
      recordStart = cursor.offset
      previous = (decoder.time, decoder.lastTaskID, decoder.lastRun)
      do throws(ChunkDecoder.Failure) {
        try decoder.compactRecord(&cursor, into: &base[read])
      } catch {
        failure = error
        break
      }
      if base[read].tag == .envSet { base[read].string = strings.internSettings(decoder.settingIDs) }
      read += 1
    }
    if failure != nil && read > 0 {
      // The records before it are handed out first; the record is decoded again, and
      // reported, when it is the next to read, as one by one.
      failure = nil
      cursor.offset = recordStart
      (decoder.time, decoder.lastTaskID, decoder.lastRun) = previous
    }
    swap(&decoder, &self.decoder)
    pendingRecords -= read
    recordLocation += read
    if let failure {
      pendingRecords -= 1
      recordFailed(failure, previousTime: previous.time)
    } else {
      recordOffset = cursor.offset
    }
    return read
  }

  /// Gives the current sealed chunk's strings their trace-wide ids, once per chunk.
  @inline(never)
  private mutating func internChunkStrings() {
    decoder.internStrings(&strings)
  }

  /// Reports the rest of the current sealed chunk lost, from the record that did not
  /// parse; the events before it were handed out. Reading goes on with the next chunk.
  @inline(never)
  private mutating func recordFailed(_ failure: ChunkDecoder.Failure, previousTime: UInt64) {
    let chunk = sealedChunk!
    sealedChunk = nil
    let lost = pendingRecords + 1
    let read = chunk.count - lost
    pendingRecords = 0
    lastTime = previousTime
    report(
      at: chunk.offset, length: chunk.length, lost: lost,
      "\(chunk.label) is malformed at payload byte \(failure.offset) (\(failure.message)); "
        + (read == 0
          ? "" : read == 1 ? "the event before it is recovered, " : "the \(read) events before it are recovered, ")
        + "\(lost) events lost")
  }

  /// Ends the current sealed chunk after its last record was read: the next chunk
  /// starts no earlier than its last event, and no bytes may follow that record.
  private mutating func finishSealedChunk() {
    guard let chunk = sealedChunk else { return }
    sealedChunk = nil
    lastTime = decoder.time
    let extra = payload.bytes.count - recordOffset
    if extra > 0 {
      report(
        at: chunk.offset, length: chunk.length, lost: 0,
        "\(chunk.label) is malformed at payload byte \(recordOffset) (\(extra) bytes after the last event); "
          + (chunk.count == 0
            ? "it holds no events"
            : chunk.count == 1 ? "its event is recovered" : "its \(chunk.count) events are recovered")
          + " and the extra bytes ignored")
    }
  }

  /// The next event of a log chunk, or of the next chunk.
  @usableFromInline
  mutating func nextFromChunkEvents() throws(ByteSourceError) -> LocatedEvent? {
    if compactIndex < compactCount { return takeDecodedAhead() }
    while try loadChunkWithEvents() {
      if pendingRecords > 0 {
        if let located = try? nextRecord() { return located }
        continue
      }
      return takeChunkEvent()
    }
    return nil
  }

  /// Loads chunks until one has events not yet read (a log chunk's in `events`, or a
  /// sealed chunk's pending records); `false` at the end. Shared by ``next()`` and
  /// ``nextCompact()``.
  private mutating func loadChunkWithEvents() throws(ByteSourceError) -> Bool {
    while events.consumed >= events.count && pendingRecords == 0 {
      guard !finished, try nextChunk() else {
        finished = true
        return false
      }
      // A new chunk, whose strings are not interned yet: the table may start afresh.
      // (The events decoded ahead, whose ids it holds, were all handed out.)
      if let stringLimit, strings.count > stringLimit { strings.removeAll() }
    }
    return true
  }

  /// The next event of the current log chunk, built whole.
  private mutating func takeChunkEvent() -> LocatedEvent {
    // A copy of this reader shares the chunk's events until one of them reads.
    if !isKnownUniquelyReferenced(&events) { events = events.copy() }
    recordLocation = Int(firstEventNumber) + events.consumed + 1
    return LocatedEvent(event: events.take(), location: recordLocation)
  }

  /// The next event of the current log chunk, its strings interned in ``strings``.
  private mutating func takeCompactChunkEvent() -> CompactEvent {
    if !isKnownUniquelyReferenced(&events) { events = events.copy() }
    recordLocation = Int(firstEventNumber) + events.consumed + 1
    return events.takeCompact(interning: &strings)
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
    guard BinaryFormat.readableVersions.contains(version) else {
      throw TraceFormatError(
        file: file, position: .byte(offset: 8),
        message: "unsupported binary format version \(version); this reader reads versions 1 to 4")
    }
    let (bodyLength, bodyCRC) = buffer.withUnsafeBytes { raw in
      let cursor = ByteCursor(UnsafeRawBufferPointer(rebasing: raw[position...]))
      return (Int(cursor.littleEndian(UInt32.self, at: 10)), cursor.littleEndian(UInt32.self, at: 14))
    }
    let flags = buffer[position + 9]
    position += headerSize
    // Before version 4 the version's number says what the file uses, and no flag is defined.
    let impliedFeatures = BinaryFormat.Features(ofVersion: version)
    guard impliedFeatures == nil || flags == 0, bodyLength <= BinaryFormat.maximumHeaderBody, try ensure(bodyLength)
    else {
      headerDamaged(impliedFeatures, at: 9, "the file header is damaged")
      return
    }
    let parsed: TraceMetadata? = buffer.withUnsafeBytes { raw in
      let body = UnsafeRawBufferPointer(rebasing: raw[position..<position + bodyLength])
      guard FileHeader.checksum(version: version, flags: flags, body: body) == bodyCRC else { return nil }
      return Self.metadata(body)
    }
    guard let parsed else {
      headerDamaged(impliedFeatures, at: headerSize, "the file header fails its CRC check", length: bodyLength)
      return
    }
    features = impliedFeatures ?? BinaryFormat.Features(rawValue: flags)
    guard BinaryFormat.Features.known.isSuperset(of: features) else {
      let unknown = features.subtracting(.known).rawValue
      throw TraceFormatError(
        file: file, position: .byte(offset: 9),
        message:
          "the file uses format features this reader does not know (flags bits 0x\(String(unknown, radix: 16, uppercase: true))); a newer bgtrace reads it"
      )
    }
    meta = parsed
    position += bodyLength
    try skipPadding()
  }

  /// Reports the file header damaged and goes on looking for chunks. The version byte
  /// is not trusted either, nor a version 4 header's features (`implied` is `nil`):
  /// every known feature is accepted where found, which misreads nothing, as each only
  /// gives meaning to bytes that are otherwise malformed (docs/FORMAT.md, "Reading").
  private mutating func headerDamaged(
    _ implied: BinaryFormat.Features?, at offset: Int, _ message: String, length: Int? = nil
  ) {
    features = .known
    featuresKnown = false
    let lost = implied != nil ? "the metadata is lost" : "the metadata and the file's format features are lost"
    report(at: offset, length: length, lost: nil, "\(message); \(lost)")
    gapStart = self.offset
  }

  /// In a file with log chunks, moves to the next multiple of
  /// ``BinaryFormat/chunkAlignment``, where the next chunk starts; the bytes skipped are
  /// padding. When the features are not known, only zeros are taken for padding.
  private mutating func skipPadding() throws(ByteSourceError) {
    guard features.contains(.logChunks) else { return }
    let padding = (BinaryFormat.chunkAlignment - offset % BinaryFormat.chunkAlignment) % BinaryFormat.chunkAlignment
    guard padding > 0 else { return }
    _ = try ensure(padding)
    let skipped = min(padding, available)
    if !featuresKnown && buffer[position..<position + skipped].contains(where: { $0 != 0 }) { return }
    position += skipped
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
    finishSealedChunk()
    while true {
      if gapStart == nil { try skipPadding() }
      guard try ensure(1) else {
        closeGap(before: nil)
        return false
      }
      if features.contains(.logChunks) && gapStart == nil, try unwrittenSpaceFollows() {
        position = buffer.count
        return false
      }
      if features.contains(.logChunks), try ensure(4),
        buffer[position..<position + 4].elementsEqual(BinaryFormat.logChunkSync),
        let loaded = try nextLogChunk()
      {
        if loaded { return true }
        continue
      }
      guard try ensure(headerSize) else {
        reportTornHeader("chunk header")
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
      closeGap(before: header.firstEvent, sequence: header.sequence)
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
      let outcome = buffer.withUnsafeBytes { raw in
        Self.checkChunk(
          UnsafeRawBufferPointer(rebasing: raw[position + headerSize..<position + total]), header,
          after: lastTime, predictedIDs: features.contains(.predictedIdentifiers))
      }
      switch outcome {
      case .checksumMismatch:
        report(at: chunkOffset, length: total, lost: Int(count), "\(label) fails its CRC check; \(count) events lost")
      case .malformed(let failure):
        report(
          at: chunkOffset, length: total, lost: Int(count),
          "\(label) is malformed at payload byte \(failure.offset) (\(failure.message)); \(count) events lost")
      case .checked(let decoder, let recordsStart):
        // Copy the payload out of the read buffer, which moves on as the next chunk is read.
        if !isKnownUniquelyReferenced(&payload) { payload = ChunkPayload() }
        buffer.withUnsafeBytes { raw in
          payload.replace(with: UnsafeRawBufferPointer(rebasing: raw[position + headerSize..<position + total]))
        }
        self.decoder = decoder
        recordOffset = recordsStart
        pendingRecords = Int(count)
        recordLocation = Int(first)
        sealedChunk = SealedChunk(offset: chunkOffset, length: total, label: label, count: Int(count))
        // A chunk of no events ends here; one with events when its last is read.
        if count == 0 {
          finishSealedChunk()
          continue
        }
        return true
      }
    }
  }

  // MARK: Log chunks

  /// Whether the rest of the input, from a chunk position, is space a recorder reserved
  /// but never published a chunk in: four zero bytes where the sync would be, and no
  /// nonzero byte after the first log chunk header's worth (docs/FORMAT.md, "Unwritten
  /// space"). Looks at most one chunk's worth of bytes ahead.
  private mutating func unwrittenSpaceFollows() throws(ByteSourceError) -> Bool {
    guard try ensure(4), buffer[position..<position + 4].allSatisfy({ $0 == 0 }) else { return false }
    let limit = BinaryFormat.maximumChunkPayload + 2 * BinaryFormat.logChunkHeaderSize
    var checked = BinaryFormat.logChunkHeaderSize
    while true {
      if checked < available {
        guard buffer[(position + checked)...].allSatisfy({ $0 == 0 }) else { return false }
        checked = available
      }
      if exhausted { return true }
      guard available < limit else { return false }
      _ = try ensure(available + 1)
    }
  }

  /// Reports the file ending inside a `header` (with any damaged bytes before it) and
  /// moves past the end.
  private mutating func reportTornHeader(_ header: String) {
    let start = gapStart ?? offset
    gapStart = nil
    report(
      at: start, length: offset + available - start, lost: nil,
      "the file ends \(available) bytes into a \(header) (a torn tail); the events of that chunk are lost")
    position = buffer.count
  }

  /// Reads the log chunk at the position: `true` when its events are loaded, `false`
  /// when it was skipped or reported lost, `nil` when its header is not intact (the
  /// caller treats it as damaged bytes).
  private mutating func nextLogChunk() throws(ByteSourceError) -> Bool? {
    let headerSize = BinaryFormat.logChunkHeaderSize
    guard try ensure(headerSize) else {
      reportTornHeader("log chunk header")
      finished = true
      return false
    }
    let header = buffer.withUnsafeBytes { raw in
      LogChunkHeader(UnsafeRawBufferPointer(rebasing: raw[position..<position + headerSize]))
    }
    guard let header else { return nil }
    closeGap(before: header.firstEvent, sequence: header.sequence)
    let chunkOffset = offset
    let first = header.firstEvent
    let count = UInt64(header.committedCount)
    let label =
      count == 0
      ? "log chunk \(header.sequence) at byte \(chunkOffset) (no events)"
      : "log chunk \(header.sequence) at byte \(chunkOffset) (events \(first + 1)–\(first + count))"
    let length = Int(header.committedLength)
    let total = headerSize + length
    guard try ensure(total) else {
      // No CRC protects an unsealed body anyway: its whole records before the cut are
      // as trustworthy as a complete one's.
      var kept: UInt64 = 0
      if !header.isSealed && header.baseTime >= lastTime {
        let recovered = ownEvents()
        recovered.removeAll()
        buffer.withUnsafeBytes { raw in
          ChunkDecoder.decodeLogPrefix(
            UnsafeRawBufferPointer(rebasing: raw[position + headerSize..<buffer.count]), count: Int(count),
            baseTime: header.baseTime,
            predictedIDs: features.contains(.predictedIdentifiers), into: recovered)
        }
        kept = UInt64(events.count)
      }
      report(
        at: chunkOffset, length: available, lost: Int(count - kept),
        "the file ends inside \(label) after \(available - headerSize) of \(length) committed bytes (a torn tail); "
          + (kept > 0 ? "the \(kept) whole records before the cut are recovered, " : "")
          + "\(count - kept) events lost")
      position = buffer.count
      expectedEvent = first + count
      finished = true
      guard kept > 0 else { return false }
      firstEventNumber = first
      lastTime = events.lastTime!
      return true
    }
    if first < expectedEvent {
      report(at: chunkOffset, length: total, lost: 0, "\(label) repeats event numbers already read; skipped")
      position += total
      return false
    }
    let decoded = ownEvents()
    let outcome = buffer.withUnsafeBytes { raw -> ChunkOutcome in
      let body = UnsafeRawBufferPointer(rebasing: raw[position + headerSize..<position + total])
      if header.isSealed && CRC32C.checksum(body) != header.bodyCRC { return .checksumMismatch }
      guard header.baseTime >= lastTime else {
        return .malformed(ChunkDecoder.Failure(offset: 0, message: "it starts before the previous chunk ends"))
      }
      decoded.removeAll()
      do throws(ChunkDecoder.Failure) {
        try ChunkDecoder.decodeLog(
          body, count: Int(count), baseTime: header.baseTime, predictedIDs: features.contains(.predictedIdentifiers),
          into: decoded)
        return .decoded
      } catch {
        return .malformed(error)
      }
    }
    expectedEvent = max(expectedEvent, first + count)
    if header.isSealed {
      position += total
    } else {
      // An unsealed chunk is the last one its writer started; the rest of its reserved
      // capacity holds at most an uncommitted record and is not read.
      let reserved = headerSize + Int(header.capacity)
      _ = try ensure(reserved)
      let uncommitted = buffer[(position + total)..<(position + min(reserved, available))].contains { $0 != 0 }
      position += min(reserved, available)
      if case .decoded = outcome {
        let recovered =
          count == 0
          ? "it holds no committed events"
          : "its \(count) committed events are recovered"
        report(
          at: chunkOffset, length: min(reserved, total), lost: 0,
          "\(label) is unsealed (the writer did not close the file); \(recovered)"
            + (uncommitted ? " and the bytes after them, an uncommitted record, are ignored" : "")
            + "; nothing is lost",
          kind: .unsealedTail)
      }
    }
    switch outcome {
    case .decoded:
      firstEventNumber = first
      lastTime = events.lastTime ?? header.baseTime
      return !events.isEmpty
    case .checksumMismatch:
      report(at: chunkOffset, length: total, lost: Int(count), "\(label) fails its CRC check; \(count) events lost")
    case .malformed(let failure):
      report(
        at: chunkOffset, length: total, lost: Int(count),
        "\(label) is malformed at body byte \(failure.offset) (\(failure.message)); \(count) events lost")
    }
    return false
  }

  /// The chunk event storage, unshared, to decode the next chunk into (a copy of this
  /// reader keeps the one it shared).
  private mutating func ownEvents() -> LogChunkEvents {
    if !isKnownUniquelyReferenced(&events) { events = LogChunkEvents() }
    return events
  }

  private enum ChunkOutcome {
    case decoded, checksumMismatch, malformed(ChunkDecoder.Failure)
  }

  private enum CheckOutcome {
    case checked(ChunkDecoder, recordsStart: Int)
    case checksumMismatch, malformed(ChunkDecoder.Failure)
  }

  /// The sealed chunk whose records ``next()`` is reading, for a damage report.
  private struct SealedChunk {
    var offset: Int
    var length: Int
    var label: String
    var count: Int
  }

  /// Checks a sealed chunk's payload CRC, base time and string table before any of its
  /// events is read; its records are checked as they are read.
  private static func checkChunk(
    _ payload: UnsafeRawBufferPointer, _ header: ChunkHeader, after lastTime: UInt64, predictedIDs: Bool
  ) -> CheckOutcome {
    guard CRC32C.checksum(payload) == header.payloadCRC else { return .checksumMismatch }
    guard header.baseTime >= lastTime else {
      return .malformed(ChunkDecoder.Failure(offset: 0, message: "it starts before the previous chunk ends"))
    }
    do throws(ChunkDecoder.Failure) {
      let (decoder, start) = try ChunkDecoder.start(payload, baseTime: header.baseTime, predictedIDs: predictedIDs)
      return .checked(decoder, recordsStart: start)
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
  private mutating func closeGap(before firstEvent: UInt64?, sequence: UInt32 = 0) {
    if let start = gapStart {
      gapStart = nil
      let length = offset - start
      if let firstEvent {
        let lost = firstEvent >= expectedEvent ? Int(firstEvent - expectedEvent) : 0
        report(at: start, length: length, lost: lost, "\(length) damaged bytes skipped; \(lost) events lost")
      } else {
        report(
          at: start, length: length, lost: nil,
          "\(length) damaged bytes at the end skipped; the events in them are lost")
      }
    } else if let firstEvent, firstEvent > expectedEvent {
      let lost = Int(firstEvent - expectedEvent)
      report(
        at: offset, length: 0, lost: lost,
        "events \(expectedEvent + 1)–\(firstEvent) are missing before chunk \(sequence); \(lost) events lost"
      )
    }
  }

  private mutating func report(
    at offset: Int, length: Int?, lost: Int?, _ message: String, kind: TraceDamage.Kind = .loss
  ) {
    damage.append(
      TraceDamage(file: file, offset: offset, length: length, lostEvents: lost, message: message, kind: kind))
  }
}

/// A part of a binary trace that could not be read, and what was lost with it; or a
/// note that loses nothing (``Kind/unsealedTail``).
public struct TraceDamage: Sendable, Hashable, CustomStringConvertible {
  /// Whether a report is a loss or a note.
  public enum Kind: Sendable, Hashable {
    /// Bytes that could not be read; events may be lost (``lostEvents``).
    case loss
    /// The last log chunk was never sealed, because the process recording it was
    /// killed or did not close the recorder: its committed events were all read, so
    /// nothing is lost. `bgtrace` prints it as a note and exits as for an intact trace.
    case unsealedTail
  }

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
  /// A loss, or a note that loses nothing.
  public var kind: Kind

  /// Whether data may have been lost (every kind but ``Kind/unsealedTail``).
  public var isLoss: Bool { kind == .loss }

  /// Creates a damage report.
  public init(file: String?, offset: Int, length: Int?, lostEvents: Int?, message: String, kind: Kind = .loss) {
    self.file = file
    self.offset = offset
    self.length = length
    self.lostEvents = lostEvents
    self.message = message
    self.kind = kind
  }

  /// In compiler style: `FILE: at byte N: warning: message` for a loss,
  /// `FILE: at byte N: note: message` for an unsealed tail.
  public var description: String {
    "\(file ?? "<input>"): at byte \(offset): \(isLoss ? "warning" : "note"): \(message)"
  }
}

/// Not Sendable: it reads from a byte source, which it does not share.
@available(*, unavailable)
extension BinaryTraceReader: Sendable {}
