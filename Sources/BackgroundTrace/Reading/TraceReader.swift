/// Reads a trace file of either form, detected from its first byte, as a stream
/// of located events.
///
/// ```swift
/// var reader = try TraceReader(path: "Traces/examples/save-document.txt")
/// while let located = try reader.next() { print(located.location, located.event) }
/// for damage in reader.damage { print(damage) }
/// ```
public struct TraceReader {
  /// The two trace forms.
  public enum Format: String, Sendable, Hashable {
    /// The text form (`bgtrace 1` …).
    case text
    /// The binary form (`.bgtrace`).
    case binary
  }

  private enum Backing {
    /// Held only while a reader is moved out to be advanced, so its buffer is not copied.
    case advancing
    case text(TextTraceReader)
    case binary(BinaryTraceReader)
  }

  /// The input's name, for errors and damage reports: its path, or `<stdin>`.
  public let file: String
  /// The form detected from the content.
  public let format: Format
  private var backing: Backing

  /// Opens a file, or standard input for `-`.
  ///
  /// - Throws: ``TraceReadError/unreadable(_:)`` when the file cannot be read;
  ///   ``TraceReadError/malformed(_:)`` when its header is malformed.
  public init(path: String) throws(TraceReadError) {
    if path == "-" {
      try self.init(source: FileByteSource(standardInput: ()), file: "<stdin>")
    } else {
      let source = try TraceReadError.reading { () throws(ByteSourceError) in try FileByteSource(path: path) }
      try self.init(source: source, file: path)
    }
  }

  /// Reads from any byte source.
  ///
  /// - Parameters:
  ///   - source: the bytes.
  ///   - file: the input's name for errors.
  /// - Throws: ``TraceReadError/unreadable(_:)`` when reading fails,
  ///   ``TraceReadError/malformed(_:)`` for a bad header.
  public init(source: some ByteSource, file: String) throws(TraceReadError) {
    var peeked = PeekedSource(base: source)
    let first = try TraceReadError.reading { () throws(ByteSourceError) in try peeked.peekFirstByte() }
    self.file = file
    if first == BinaryFormat.magic[0] {
      format = .binary
      backing = .binary(try BinaryTraceReader(source: peeked, file: file))
    } else {
      format = .text
      backing = .text(try TextTraceReader(source: peeked, file: file))
    }
  }

  /// The trace's metadata.
  public var meta: TraceMetadata {
    switch backing {
    case .text(let reader): reader.meta
    case .binary(let reader): reader.meta
    case .advancing: TraceMetadata()
    }
  }

  /// The bytes of unwritten space a binary trace ends in (a killed recorder's reserved
  /// zeros), which are not trace data; 0 for text. Known once reading reached the end.
  public var unwrittenBytes: Int {
    switch backing {
    case .text, .advancing: 0
    case .binary(let reader): reader.unwrittenBytes
    }
  }

  /// Damage found so far in a binary trace (always empty for text, where any
  /// problem is an error).
  public var damage: [TraceDamage] {
    switch backing {
    case .text, .advancing: []
    case .binary(let reader): reader.damage
    }
  }

  /// The next event and its location (line for text, event number for binary).
  ///
  /// - Throws: ``TraceReadError/malformed(_:)`` for a malformed text line,
  ///   ``TraceReadError/unreadable(_:)`` for an I/O error.
  public mutating func next() throws(TraceReadError) -> LocatedEvent? {
    switch backing {
    case .text(var reader):
      backing = .advancing
      defer { backing = .text(reader) }
      return try reader.next()
    case .binary(var reader):
      backing = .advancing
      defer { backing = .binary(reader) }
      return try TraceReadError.reading { () throws(ByteSourceError) in try reader.next() }
    case .advancing:
      return nil
    }
  }

  /// Hands a binary trace's reader to `body`, for a reader of its compact events
  /// (``BinaryTraceReader/nextCompact(into:)``); `nil`, without calling `body`, for a
  /// text trace.
  package mutating func withBinaryReader<Result>(
    _ body: (inout BinaryTraceReader) throws -> Result
  ) rethrows -> Result? {
    guard case .binary(var reader) = backing else { return nil }
    backing = .advancing
    defer { backing = .binary(reader) }
    return try body(&reader)
  }

  /// Reads every remaining event into a ``RecordedTrace``.
  ///
  /// - Complexity: O(*n*) time and memory in the number of events.
  ///
  /// - Throws: what ``next()`` throws.
  public mutating func readAll() throws(TraceReadError) -> RecordedTrace {
    var events: [TraceEvent] = []
    while let located = try next() { events.append(located.event) }
    return RecordedTrace(meta: meta, events: events)
  }
}

/// A source whose first byte can be looked at before the real reader starts.
struct PeekedSource: ByteSource {
  private var base: any ByteSource
  private var prefix: [UInt8] = []

  init(base: some ByteSource) {
    self.base = base
  }

  /// The first byte of the input, or `nil` when it is empty.
  mutating func peekFirstByte() throws(ByteSourceError) -> UInt8? {
    if prefix.isEmpty { _ = try base.read(into: &prefix, count: 1) }
    return prefix.first
  }

  mutating func read(into buffer: inout [UInt8], count: Int) throws(ByteSourceError) -> Int {
    if !prefix.isEmpty {
      let taken = min(count, prefix.count)
      buffer.append(contentsOf: prefix[..<taken])
      prefix.removeFirst(taken)
      return taken
    }
    return try base.read(into: &buffer, count: count)
  }
}

/// Not Sendable: it reads from a byte source, which it does not share.
@available(*, unavailable)
extension TraceReader: Sendable {}
