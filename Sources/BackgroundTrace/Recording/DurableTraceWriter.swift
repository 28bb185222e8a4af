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
  /// How many bytes of the encoder's records are committed; the rest is the entry
  /// being appended.
  private var committedBytes = 0
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
  /// - Throws: ``TraceEncodingError`` when the event has no binary form (nothing is
  ///   written then); ``TraceRecordingError`` when the file cannot be grown or mapped.
  mutating func append(_ kind: TraceEvent.Kind, at time: UInt64) throws(DurableWriteError) {
    guard time >= committedTime, time <= TraceTime.max.nanoseconds else {
      throw .encoding(
        TraceEncodingError(
          eventNumber: eventCount + 1, message: "time \(TraceTime(nanoseconds: time)) is out of order or range"))
    }
    // The encoder notes a value with no binary form as it goes, so a valid event is
    // looked at once; an invalid one is never committed, and the recorder stops here.
    guard encoder.append(kind, at: time) else {
      throw .encoding(
        TraceEncodingError(
          eventNumber: eventCount + 1, message: kind.encodingProblem ?? "the event has no binary form"))
    }
    if file.isOpen && encoder.records.count - committedBytes > file.remaining {
      // It does not fit: seal the chunk and encode the event again as the next one's first.
      seal()
      encoder.append(kind, at: time)
    }
    let size = encoder.records.count - committedBytes
    guard size + BinaryFormat.logChunkHeaderSize <= BinaryFormat.maximumChunkPayload else {
      seal()  // the encoder's string table and predictors moved past what was committed
      throw .encoding(
        TraceEncodingError(eventNumber: eventCount + 1, message: "the event takes \(size) bytes; too large"))
    }
    if !file.isOpen {
      do {
        try file.begin(
          sequence: sequence, firstEvent: eventsSealed, baseTime: committedTime,
          capacity: max(chunkPayloadLimit + Self.headroom, size))
      } catch {
        throw .file(error)
      }
    }
    file.commit(size, of: encoder.records, from: committedBytes, records: 1)
    committedBytes = encoder.records.count
    committedTime = time
    if file.committedLength >= chunkPayloadLimit { seal() }
  }

  /// Seals the open chunk, if any; the next event starts a new one.
  mutating func seal() {
    defer {
      encoder.startNextChunk(baseTime: committedTime)
      committedBytes = 0
    }
    guard file.isOpen else { return }
    eventsSealed += UInt64(file.committedCount)
    file.seal()
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
