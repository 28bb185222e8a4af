/// Streams the events of a text trace from a ``ByteSource``, one line at a time,
/// in constant memory (one line plus a read block).
public struct TextTraceReader {
  private var source: any ByteSource  // read once per block, so the existential costs nothing
  private var parser: TextTraceParser
  private var buffer: [UInt8] = []
  private var lineStart = 0
  private var lineNumber = 0
  private var exhausted = false
  private var finished = false

  /// The block size read from the source at a time.
  static var blockSize: Int { 64 * 1024 }

  /// Starts reading; the header and `meta` lines are parsed at once.
  ///
  /// - Parameters:
  ///   - source: where the text comes from.
  ///   - file: the input's name, for errors.
  /// - Throws: ``TraceReadError/malformed(_:)`` for a bad header or meta line,
  ///   ``TraceReadError/unreadable(_:)`` when reading fails.
  public init(source: some ByteSource, file: String?) throws(TraceReadError) {
    self.source = source
    self.parser = TextTraceParser(file: file)
    try readUntilFirstEvent()
  }

  /// The trace's `meta` pairs (complete once the reader is created).
  public var meta: TraceMetadata { parser.meta }

  private var pendingEvent: LocatedEvent?

  private mutating func readUntilFirstEvent() throws(TraceReadError) {
    while let (line, number) = try nextLine() {
      if case .event(let event) = try parse(line, number) {
        pendingEvent = LocatedEvent(event: event, location: number, source: parser.eventSource)
        return
      }
    }
    try finish()
  }

  /// The next event with its line number, or `nil` at the end of the input.
  ///
  /// - Throws: ``TraceReadError/malformed(_:)`` for a malformed line,
  ///   ``TraceReadError/unreadable(_:)`` for an I/O error.
  public mutating func next() throws(TraceReadError) -> LocatedEvent? {
    if let pending = pendingEvent {
      pendingEvent = nil
      return pending
    }
    while let (line, number) = try nextLine() {
      if case .event(let event) = try parse(line, number) {
        return LocatedEvent(event: event, location: number, source: parser.eventSource)
      }
    }
    try finish()
    return nil
  }

  private mutating func parse(_ line: ArraySlice<UInt8>, _ number: Int) throws(TraceReadError) -> TextTraceParser.Line {
    do { return try parser.parse(line: line, number: number) } catch { throw .malformed(error) }
  }

  private mutating func finish() throws(TraceReadError) {
    guard !finished else { return }
    finished = true
    let lineCount = lineNumber
    try TraceReadError.parsing { () throws(TraceFormatError) in try parser.finish(lineCount: lineCount) }
  }

  private mutating func nextLine() throws(TraceReadError) -> (ArraySlice<UInt8>, Int)? {
    while true {
      if let newline = buffer[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
        defer { lineStart = newline + 1 }
        lineNumber += 1
        return (buffer[lineStart..<newline], lineNumber)
      }
      if exhausted {
        guard lineStart < buffer.count else { return nil }
        defer { lineStart = buffer.count }
        lineNumber += 1
        return (buffer[lineStart...], lineNumber)
      }
      buffer.removeSubrange(0..<lineStart)
      lineStart = 0
      let read = try TraceReadError.reading { () throws(ByteSourceError) in
        try source.read(into: &buffer, count: Self.blockSize)
      }
      if read == 0 { exhausted = true }
    }
  }
}

/// An event and where it stands in its input: the line number in a text trace,
/// the 1-based event number in a binary one.
public struct LocatedEvent: Sendable, Hashable {
  /// The event.
  public var event: TraceEvent
  /// Its line (text) or event number (binary), 1-based.
  public var location: Int
  /// The device-log line it was imported from, when its text line notes one
  /// (``EventSource``); `nil` otherwise, and always in a binary trace.
  public var source: EventSource?

  /// Creates a located event that notes no source.
  public init(event: TraceEvent, location: Int) {
    self.init(event: event, location: location, source: nil)
  }

  /// Creates a located event imported from the log line `source`.
  public init(event: TraceEvent, location: Int, source: EventSource?) {
    self.event = event
    self.location = location
    self.source = source
  }
}

extension RecordedTrace {
  /// Parses a whole text trace.
  ///
  /// - Parameters:
  ///   - text: the trace's text form.
  ///   - file: the input's name, for errors.
  /// - Throws: ``TraceFormatError`` naming the line, column and what was expected.
  public init(text: String, file: String? = nil) throws(TraceFormatError) {
    do throws(TraceReadError) {
      var reader = try TextTraceReader(source: MemoryByteSource(Array(text.utf8)), file: file)
      var events: [TraceEvent] = []
      while let located = try reader.next() { events.append(located.event) }
      self.init(meta: reader.meta, events: events)
    } catch {
      switch error {
      case .malformed(let error): throw error
      case .unreadable(let error):
        // A memory source has no I/O to fail; should that change, the error still
        // reaches the caller in the shape this initializer promises.
        throw TraceFormatError(file: file, position: .text(line: 1, column: 1), message: error.message)
      }
    }
  }

  /// The canonical text form (see ``TextTraceWriter``).
  public var text: String { TextTraceWriter.text(of: self) }
}

/// Not Sendable: it reads from a byte source, which it does not share.
@available(*, unavailable)
extension TextTraceReader: Sendable {}
