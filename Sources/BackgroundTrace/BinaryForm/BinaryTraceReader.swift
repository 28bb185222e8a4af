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
/// (``BinaryFormat/maximumChunkPayload``) plus a read block; the package's `nextCompact()`
/// and `nextCompactBatch(into:)` also keep each distinct string of the chunks they read
/// (`strings`), unless `stringLimit` bounds them.
public struct BinaryTraceReader {
  /// The input's name, for errors and damage reports.
  public let file: String?
  /// The trace's metadata (empty when the file header was damaged).
  public internal(set) var meta = TraceMetadata()
  /// What was lost, in file order. Grows as reading proceeds.
  public internal(set) var damage: [TraceDamage] = []
  /// The bytes of unwritten space the file ends in: space a recorder reserved ahead of
  /// its chunks and never wrote, as a killed recorder leaves it (docs/FORMAT.md,
  /// "Unwritten space"). Not trace data; known once reading reached the end.
  public internal(set) var unwrittenBytes = 0
  /// The strings of the events ``nextCompact()`` and ``nextCompactBatch(into:)``
  /// return, by id. Grows as reading proceeds, by the new strings of each chunk they read.
  package internal(set) var strings = InternedStrings()
  /// When set, the most strings ``strings`` keeps across chunks: once it holds more, it
  /// starts afresh (``InternedStrings/generation`` goes up) before the next chunk's
  /// strings are interned. Then a compact event's ids are valid only until the next
  /// chunk is read: look its strings up before reading on, as a checker does.
  ///
  /// `nil` (the default) keeps every distinct string, so that ids stay valid for the
  /// whole trace; the table then grows with the trace's distinct strings (a trace
  /// whose every work has a new id grows it by each id).
  package var stringLimit: Int?
  /// The 1-based event number of the event ``next()`` or `nextCompact()` returned
  /// last, or of the last event `nextCompactBatch(into:)` returned (0 before the first).
  public var eventNumber: Int { recordLocation - (compactCount - compactIndex) }
  /// The compact events ``nextCompact()`` decoded ahead, a batch at a time; the ones
  /// from `compactIndex` to `compactCount` were not returned yet.
  @usableFromInline var compactEvents: CompactEventBuffer?
  @usableFromInline var compactIndex = 0
  @usableFromInline var compactCount = 0

  var source: any ByteSource  // read once per block, so the existential costs nothing
  var buffer: [UInt8] = []
  var bufferStart = 0
  var position = 0
  var exhausted = false
  /// The current log chunk's events; the ones before `events.consumed` were handed out.
  var events = LogChunkEvents()
  var firstEventNumber: UInt64 = 0
  /// The records of the current sealed chunk not yet read. When the chunk was loaded
  /// its CRC and string table were checked; each ``next()`` decodes and checks one
  /// record from `payload`, and a record that does not parse ends the chunk
  /// (``recordFailed(_:previousTime:)``).
  @usableFromInline var pendingRecords = 0
  /// The current sealed chunk, until its last record was read or one failed.
  var sealedChunk: SealedChunk?
  /// The event number of the latest event read.
  var recordLocation = 0
  /// The current sealed chunk's payload, and where its next record starts.
  var payload = ChunkPayload()
  var recordOffset = 0
  var decoder = ChunkDecoder(strings: [], time: 0)
  var expectedEvent: UInt64 = 0
  var lastTime: UInt64 = 0
  var gapStart: Int?
  /// What is wrong where the gap starts, for its report.
  var gapCause: String?
  /// Whether the gap starts right after a damaged file header, whose report covers it
  /// when it loses no event.
  var gapFollowsHeader = false
  var finished = false
  /// The features the file uses (docs/FORMAT.md, "Version 4 and its features"):
  /// named by its version 4 header, or implied by an earlier version's number.
  var features: BinaryFormat.Features = []
  /// Whether ``features`` were read from an intact header. When the header is damaged
  /// they are not known, and the reader accepts each feature where it finds one
  /// (``BinaryFormat/Features/known``); chunk alignment is then only the padding of
  /// zeros it finds.
  var featuresKnown = true
  /// Whether a log chunk was read: what makes the rules of files with log chunks
  /// (padding to alignment, unwritten space at the end) hold when ``features`` are not
  /// known.
  var sawLogChunk = false

  /// Whether chunks are aligned and the file may end in unwritten space: the file says
  /// it has log chunks, or, when its header was lost, a log chunk was found.
  var hasLogChunkLayout: Bool { featuresKnown ? features.contains(.logChunks) : sawLogChunk }

  static var blockSize: Int { 64 * 1024 }

  /// Starts reading: checks the magic bytes and version and reads the metadata.
  ///
  /// - Throws: ``TraceReadError/malformed(_:)`` when the input is not a binary trace or
  ///   has an unsupported version; ``TraceReadError/unreadable(_:)`` when reading fails.
  ///   A damaged or truncated header is not thrown: it is reported in ``damage``.
  public init(source: some ByteSource, file: String?) throws(TraceReadError) {
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
  mutating func takeDecodedAhead() -> LocatedEvent {
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
  mutating func fillCompactBatch(
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
  mutating func loadChunkWithEvents() throws(ByteSourceError) -> Bool {
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

  // MARK: Buffer

  var offset: Int { bufferStart + position }
  var available: Int { buffer.count - position }

  /// Makes at least `count` bytes available from the position if the input has them.
  mutating func ensure(_ count: Int) throws(ByteSourceError) -> Bool {
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

}

/// Not Sendable: it reads from a byte source, which it does not share.
@available(*, unavailable)
extension BinaryTraceReader: Sendable {}
