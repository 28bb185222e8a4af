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
  /// What the file uses of the format: predicted identifiers
  /// (docs/FORMAT.md, "Version 4 and its features").
  public var features: BinaryFormat.Features { layout.features }
  private let layout: Layout
  private var chunk: ChunkEncoder
  private var sequence: UInt32 = 0
  private var eventsWritten: UInt64 = 0

  /// The header a file gets: version 4 with its features, or (for the tests of
  /// docs/FORMAT.md's earlier vectors) an earlier version's.
  package enum Layout: Sendable {
    case version4(BinaryFormat.Features)
    /// Version 1 or 3 as the library wrote it before version 4.
    case legacy(version: UInt8)

    var features: BinaryFormat.Features {
      switch self {
      case .version4(let features): features
      case .legacy(let version): BinaryFormat.Features(ofVersion: version) ?? []
      }
    }
  }

  /// Creates an encoder that writes version 4 with predicted identifiers.
  ///
  /// - Parameters:
  ///   - meta: the trace's metadata.
  ///   - chunkPayloadLimit: seal a chunk when its payload reaches this many bytes
  ///     (clamped to 256 bytes … ``BinaryFormat/maximumChunkPayload`` / 2).
  public init(meta: TraceMetadata = TraceMetadata(), chunkPayloadLimit: Int = BinaryFormat.defaultChunkPayload) {
    self.init(meta: meta, chunkPayloadLimit: chunkPayloadLimit, layout: .version4(BinaryFormat.encoderFeatures))
  }

  /// Creates an encoder that writes `layout` (sealed chunks only: a file with log
  /// chunks is ``TraceRecorder``'s).
  package init(meta: TraceMetadata, chunkPayloadLimit: Int, layout: Layout) {
    precondition(!layout.features.contains(.logChunks), "the encoder writes sealed chunks")
    self.meta = meta
    self.chunkPayloadLimit = min(max(chunkPayloadLimit, 256), BinaryFormat.maximumChunkPayload / 2)
    self.layout = layout
    self.chunk = ChunkEncoder(baseTime: 0, predictedIDs: layout.features.contains(.predictedIdentifiers))
  }

  /// The file header: magic, version, flags and the metadata.
  public func header() -> [UInt8] {
    switch layout {
    case .version4(let features): FileHeader(features: features, meta: meta).encoded()
    case .legacy(let version): FileHeader(version: version, features: features, meta: meta).encoded()
    }
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
    chunk = ChunkEncoder(baseTime: chunk.time, predictedIDs: features.contains(.predictedIdentifiers))
  }

  /// The binary form of a whole trace, in version 4 with predicted identifiers.
  ///
  /// - Throws: ``TraceEncodingError`` when the events are not in time order.
  public static func encode(
    _ trace: RecordedTrace, chunkPayloadLimit: Int = BinaryFormat.defaultChunkPayload
  ) throws(TraceEncodingError) -> [UInt8] {
    try encode(trace, chunkPayloadLimit: chunkPayloadLimit, layout: .version4(BinaryFormat.encoderFeatures))
  }

  /// The binary form of a whole trace in `layout`.
  package static func encode(
    _ trace: RecordedTrace, chunkPayloadLimit: Int = BinaryFormat.defaultChunkPayload, layout: Layout
  ) throws(TraceEncodingError) -> [UInt8] {
    var encoder = BinaryTraceEncoder(meta: trace.meta, chunkPayloadLimit: chunkPayloadLimit, layout: layout)
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

extension TraceEvent.Kind {
  /// Why the event has no binary form (the text form rejects it too), if it has none:
  /// a negative integer field, a seconds field beyond ``TraceTime/max``, or an
  /// `env.set` without pairs.
  var encodingProblem: String? {
    if case .envSet(let settings) = self, settings.isEmpty {
      return "env.set has no key=value pairs; it needs at least one"
    }
    // A negative integer is named before a time out of range, whichever field comes first.
    var negative: Int?
    var outOfRange: Int?
    var index = 0
    forEachFieldValue { value in
      defer { index += 1 }
      switch value {
      case .integer(let integer)? where integer < 0:
        if negative == nil { negative = index }
      case .seconds(let time)? where time > .max:
        if outOfRange == nil { outOfRange = index }
      case .interval(let interval)? where interval > .max:
        if outOfRange == nil { outOfRange = index }
      default:
        break
      }
    }
    let fields = tag.spec.fields
    if let negative { return "field '\(fields[negative].name)' is negative; trace integers are non-negative" }
    if let outOfRange { return "field '\(fields[outOfRange].name)' is beyond the largest trace time" }
    return nil
  }
}
