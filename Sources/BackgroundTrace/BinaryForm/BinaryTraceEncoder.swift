/// Encodes a trace into the binary form, chunk by chunk, in constant memory.
///
/// The encoder produces bytes into an output buffer that the caller drains (to a
/// file, a socket, an array). Call ``header()`` once, ``append(_:into:)`` for each
/// event, and ``flush(into:)`` at the end (or whenever the data must be durable).
///
/// ```swift
/// var encoder = BinaryTraceEncoder(meta: trace.meta)
/// var bytes = encoder.header()
/// for event in trace.events { try encoder.append(event, into: &bytes) }
/// encoder.flush(into: &bytes)
/// ```
public struct BinaryTraceEncoder: Sendable {
  /// The metadata written in the file header.
  public let meta: TraceMetadata
  /// The payload size at which a chunk is sealed.
  public let chunkPayloadLimit: Int
  /// The format version written: ``BinaryFormat/version`` (3) unless asked for 1.
  public let version: UInt8
  private var chunk: ChunkEncoder
  private var sequence: UInt32 = 0
  private var eventsWritten: UInt64 = 0

  /// Creates an encoder.
  ///
  /// - Parameters:
  ///   - meta: the trace's metadata.
  ///   - chunkPayloadLimit: seal a chunk when its payload reaches this many bytes
  ///     (clamped to 256 bytes … ``BinaryFormat/maximumChunkPayload`` / 2).
  ///   - version: 3 (the default, ``BinaryFormat/version``) or 1, for readers that
  ///     predate version 3; any other value writes version 3.
  public init(
    meta: TraceMetadata = TraceMetadata(), chunkPayloadLimit: Int = BinaryFormat.defaultChunkPayload,
    version: UInt8 = BinaryFormat.version
  ) {
    self.meta = meta
    self.chunkPayloadLimit = min(max(chunkPayloadLimit, 256), BinaryFormat.maximumChunkPayload / 2)
    self.version = BinaryFormat.writableVersions.contains(version) ? version : BinaryFormat.version
    self.chunk = ChunkEncoder(baseTime: 0, predictedIDs: self.version >= 3)
  }

  /// The file header: magic, version, flags and the metadata.
  public func header() -> [UInt8] {
    var body: [UInt8] = []
    Varint.append(UInt64(meta.entries.count), to: &body)
    for entry in meta.entries {
      Varint.append(UInt64(entry.key.utf8.count), to: &body)
      body.append(contentsOf: entry.key.utf8)
      Varint.append(UInt64(entry.value.utf8.count), to: &body)
      body.append(contentsOf: entry.value.utf8)
    }
    var bytes = BinaryFormat.magic
    bytes.append(version)
    bytes.append(0)  // flags: none defined
    bytes.appendLittleEndian(UInt32(body.count))
    bytes.appendLittleEndian(CRC32C.checksum(body))
    bytes.append(contentsOf: body)
    return bytes
  }

  /// The number of events appended but not yet written out in a chunk.
  public var pendingEventCount: Int { Int(chunk.eventCount) }

  /// The time of the last event appended.
  public var lastTime: TraceTime { TraceTime(nanoseconds: chunk.time) }

  /// Appends an event; when its chunk fills, appends the sealed chunk to `output`.
  ///
  /// - Throws: ``TraceEncodingError`` when the event is earlier than the previous one, or
  ///   has a negative identifier, a seconds field beyond ``TraceTime/max`` or an
  ///   `env.set` without pairs; nothing is appended then.
  public mutating func append(_ event: TraceEvent, into output: inout [UInt8]) throws(TraceEncodingError) {
    guard event.time.nanoseconds >= chunk.time else {
      throw TraceEncodingError(
        eventNumber: eventsWritten + UInt64(chunk.eventCount) + 1,
        message: "time \(event.time) is earlier than the previous event's time \(lastTime)")
    }
    guard event.time <= .max else {
      throw TraceEncodingError(
        eventNumber: eventsWritten + UInt64(chunk.eventCount) + 1,
        message: "time \(event.time) is beyond the largest trace time")
    }
    if let problem = event.kind.encodingProblem {
      throw TraceEncodingError(eventNumber: eventsWritten + UInt64(chunk.eventCount) + 1, message: problem)
    }
    chunk.append(event)
    if chunk.payloadSize >= chunkPayloadLimit || chunk.eventCount == UInt32.max {
      flush(into: &output)
    }
  }

  /// Seals the current chunk, if it has events, and appends it to `output`.
  public mutating func flush(into output: inout [UInt8]) {
    guard !chunk.isEmpty else { return }
    let payload = chunk.payload()
    let header = ChunkHeader(
      payloadLength: UInt32(payload.count), sequence: sequence, firstEvent: eventsWritten,
      eventCount: chunk.eventCount, baseTime: chunk.baseTime, payloadCRC: CRC32C.checksum(payload))
    output.append(contentsOf: header.encoded())
    output.append(contentsOf: payload)
    sequence &+= 1
    eventsWritten += UInt64(chunk.eventCount)
    chunk = ChunkEncoder(baseTime: chunk.time, predictedIDs: version >= 3)
  }

  /// The binary form of a whole trace.
  ///
  /// - Throws: ``TraceEncodingError`` when the events are not in time order.
  /// - Parameter version: 3 (the default) or 1, as for ``init(meta:chunkPayloadLimit:version:)``.
  public static func encode(
    _ trace: Trace, chunkPayloadLimit: Int = BinaryFormat.defaultChunkPayload, version: UInt8 = BinaryFormat.version
  ) throws(TraceEncodingError) -> [UInt8] {
    var encoder = BinaryTraceEncoder(meta: trace.meta, chunkPayloadLimit: chunkPayloadLimit, version: version)
    var bytes = encoder.header()
    for event in trace.events { try encoder.append(event, into: &bytes) }
    encoder.flush(into: &bytes)
    return bytes
  }
}

/// An event that cannot be encoded: out of time order, with a negative integer, a
/// seconds field beyond ``TraceTime/max`` or an `env.set` without pairs.
///
/// Its description names the event and what is wrong, as in `event 3: …`.
public struct TraceEncodingError: BackgroundTraceError, Hashable {
  /// The 1-based number of the offending event.
  public var eventNumber: UInt64
  /// What is wrong with it.
  public var message: String

  /// Creates an error.
  public init(eventNumber: UInt64, message: String) {
    self.eventNumber = eventNumber
    self.message = message
  }

  /// Always ``TraceErrorKind/unencodableEvent``.
  public var kind: TraceErrorKind { .unencodableEvent }
  /// `nil`: events are encoded from memory, not read from a file.
  public var file: String? { nil }
  /// The offending event's number.
  public var position: TracePosition? { .event(number: eventNumber) }
}

/// The earlier name of ``TraceEncodingError``, from when it only named events out of order.
@available(*, deprecated, renamed: "TraceEncodingError")
public typealias TraceOrderError = TraceEncodingError

extension TraceEvent.Kind {
  /// Why the event has no binary form (the text form rejects it too), if it has none.
  var encodingProblem: String? {
    if let field = firstNegativeInteger {
      return "field '\(field)' is negative; trace integers are non-negative"
    }
    switch self {
    case .envSet(let settings) where settings.isEmpty:
      return "env.set has no key=value pairs; it needs at least one"
    case .schedSubmit(let submission) where (submission.earliest ?? .zero) > .max:
      return "field 'earliest' is beyond the largest trace time"
    case .workEnqueue(let enqueue) where (enqueue.delay ?? .zero) > .max:
      return "field 'delay' is beyond the largest trace time"
    case .workEnqueue(let enqueue) where (enqueue.period ?? .zero) > .max:
      return "field 'period' is beyond the largest trace time"
    case .workEnqueue(let enqueue) where (enqueue.flex ?? .zero) > .max:
      return "field 'flex' is beyond the largest trace time"
    default:
      return nil
    }
  }

  /// The name of the first integer field that is negative, if any.
  private var firstNegativeInteger: String? {
    switch self {
    case .taskBegin(let id, _), .taskEnd(let id), .taskExpire(let id):
      id < 0 ? "id" : nil
    case .schedLaunch(_, let run), .schedExpire(let run), .schedComplete(let run, _):
      run < 0 ? "run" : nil
    case .workStart(_, let attempt), .workResult(_, let attempt, _), .workStop(_, let attempt, _):
      attempt < 0 ? "attempt" : nil
    case .workEnqueue(let enqueue):
      (enqueue.limit ?? 0) < 0 ? "limit" : nil
    default:
      nil
    }
  }
}
