/// Encodes events into the log chunks of a ``DurableTraceFile``: each event is one
/// committed entry, so it is in the file when ``append(_:)`` returns; a chunk is
/// sealed when its body reaches the chunk payload limit (docs/FORMAT.md, "Log chunks").
///
/// Not thread-safe by itself: ``TraceRecorder`` uses it only under its lock.
struct DurableTraceWriter {
  let file: DurableTraceFile
  let chunkPayloadLimit: Int
  private var encoder: ChunkEncoder
  private var sequence: UInt32 = 0
  /// Events in sealed chunks: the first event index of the open (or next) chunk.
  private var eventsSealed: UInt64 = 0
  /// The time of the last committed event: the next chunk's base time.
  private var committedTime: UInt64 = 0
  /// Room for the largest usual entry beyond the limit, so a chunk is rarely sealed early.
  private static let headroom = 4_096

  /// Creates the file and writes its header (version 4, ``BinaryFormat/recorderFeatures``).
  init(path: String, meta: TraceMetadata, chunkPayloadLimit: Int, replacing: Bool) throws(TraceRecordingError) {
    let header = FileHeader(features: BinaryFormat.recorderFeatures, meta: meta).encoded()
    file = try DurableTraceFile(path: path, header: header, replacing: replacing)
    self.chunkPayloadLimit = min(max(chunkPayloadLimit, 256), BinaryFormat.maximumChunkPayload / 2)
    encoder = Self.encoder(baseTime: 0, limit: self.chunkPayloadLimit)
  }

  /// A log chunk's encoder, its records' room reserved for the whole chunk.
  private static func encoder(baseTime: UInt64, limit: Int) -> ChunkEncoder {
    ChunkEncoder(
      baseTime: baseTime, inlineStrings: true,
      predictedIDs: BinaryFormat.recorderFeatures.contains(.predictedIdentifiers), capacity: limit + headroom)
  }

  /// Events committed so far.
  var eventCount: UInt64 { eventsSealed + UInt64(file.committedCount) }

  /// Encodes an event of kind `kind` at `time` (ns) and commits it to the file.
  ///
  /// The encoder writes the record straight into the open chunk in the file's mapping,
  /// past the committed bytes, and the commit publishes it; only an event that does not
  /// fit in the chunk's room is encoded in the encoder's own buffer and copied
  /// (``appendOutsideTheChunk(_:at:)``).
  ///
  /// - Throws: ``TraceEncodingError`` when the event has no binary form (nothing is
  ///   committed then); ``TraceRecordingError`` when the file cannot be grown or mapped.
  @inline(__always)
  mutating func append(_ kind: TraceEvent.Kind, at time: UInt64) throws(DurableWriteError) {
    guard time >= committedTime, time <= TraceTime.max.nanoseconds else {
      throw .encoding(
        TraceEncodingError(
          eventNumber: eventCount + 1, message: "time \(TraceTime(nanoseconds: time)) is out of order or range"))
    }
    if !file.isOpen { try begin(capacity: chunkPayloadLimit + Self.headroom) }
    // The encoder notes a value with no binary form as it goes, so a valid event is
    // looked at once; an invalid one is never committed, and the recorder stops here.
    guard encoder.append(kind, at: time) else {
      throw .encoding(
        TraceEncodingError(
          eventNumber: eventCount + 1, message: kind.encodingProblem ?? "the event has no binary form"))
    }
    if encoder.recordsAreBound {
      file.commit(length: encoder.records.count, records: 1)
    } else {
      try appendOutsideTheChunk(kind, at: time)
    }
    committedTime = time
    if file.committedLength >= chunkPayloadLimit { seal() }
  }

  /// Commits an event that did not fit in the open chunk's room (the encoder moved the
  /// chunk's records into its own buffer): seals the chunk (withdrawn, if the event was
  /// to be its first), encodes the event again as the next chunk's first, and opens that
  /// chunk with room for it.
  private mutating func appendOutsideTheChunk(_ kind: TraceEvent.Kind, at time: UInt64) throws(DurableWriteError) {
    seal()
    encoder.append(kind, at: time)
    let size = encoder.records.count
    guard size + BinaryFormat.logChunkHeaderSize <= BinaryFormat.maximumChunkPayload else {
      seal()  // the encoder's string table and predictors moved past what was committed
      throw .encoding(
        TraceEncodingError(eventNumber: eventCount + 1, message: "the event takes \(size) bytes; too large"))
    }
    try begin(capacity: max(chunkPayloadLimit + Self.headroom, size))
    file.commit(length: size, records: 1)
  }

  /// Opens the next chunk with room for `capacity` bytes of entries, and has the encoder
  /// write into it after whatever records it holds (those of the event that opens it).
  private mutating func begin(capacity: Int) throws(DurableWriteError) {
    do {
      try file.begin(sequence: sequence, firstEvent: eventsSealed, baseTime: committedTime, capacity: capacity)
    } catch {
      throw .file(error)
    }
    let held = encoder.records.count
    encoder.records.copyBytes(from: 0, count: held, to: file.body)
    encoder.bindRecords(to: file.body, capacity: file.chunkCapacity, count: held)
  }

  /// Seals the open chunk, if any; the next event starts a new one.
  mutating func seal() {
    // And the encoder's records unbound from the chunk.
    defer { encoder.startNextChunk(baseTime: committedTime) }
    guard file.isOpen else { return }
    let events = file.committedCount
    file.seal()
    guard events > 0 else { return }  // withdrawn: the next chunk takes its sequence number
    eventsSealed += UInt64(events)
    sequence &+= 1
  }

  /// Events recorded after the writer stopped, and not written.
  private(set) var unwrittenCount: UInt64 = 0

  /// Stops writing for `reason`: seals the open chunk and writes a stop record in the
  /// space reserved for it (docs/FORMAT.md, "Stop record"). `unwrittenTime` is the time
  /// of the event that could not be written, if the stop is one.
  mutating func stop(reason: String, unwrittenTime: UInt64?) {
    guard !file.isStopped else { return }
    if file.isOpen { seal() }
    unwrittenCount = unwrittenTime == nil ? 0 : 1
    file.stop(
      StopRecord(
        sequence: sequence, eventsWritten: eventCount, lastWrittenTime: committedTime,
        firstUnwrittenTime: unwrittenTime, reason: reason))
  }

  /// Counts an event recorded after the stop in the file's stop record.
  mutating func noteUnwritten(at time: UInt64) {
    unwrittenCount += 1
    file.noteUnwritten(count: unwrittenCount, lastTime: time)
  }

  /// Whether a chunk is open (holds events not yet sealed).
  var hasOpenChunk: Bool { file.isOpen }
}

/// Why ``DurableTraceWriter/append(_:)`` failed.
enum DurableWriteError: Error {
  case encoding(TraceEncodingError)
  case file(TraceRecordingError)
}
