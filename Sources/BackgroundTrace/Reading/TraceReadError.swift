/// Why a trace could not be read: its bytes are not a trace, or the bytes could not be
/// read at all.
///
/// The trace readers (``TraceReader``, ``TextTraceReader``, ``BinaryTraceReader``'s
/// initializer) throw this one type, so a caller's `catch` knows what it holds:
///
/// ```swift
/// do throws(TraceReadError) {
///   var reader = try TraceReader(path: path)
///   while let located = try reader.next() { print(located.event) }
/// } catch {
///   switch error {
///   case .malformed(let error): print("not a trace:", error)
///   case .unreadable(let error): print("cannot read:", error)
///   }
/// }
/// ```
///
/// Reading can fail in just these two ways; what went wrong inside either grows as
/// ``TraceErrorKind`` does. Its description is the underlying error's.
public enum TraceReadError: BackgroundTraceError, Hashable {
  /// The bytes are not a valid trace: bad text syntax, a wrong binary header, an event
  /// out of time order.
  case malformed(TraceFormatError)
  /// Reading the bytes failed below the trace format: a missing file, no permission,
  /// an I/O error.
  case unreadable(ByteSourceError)

  /// The underlying error.
  public var underlying: any BackgroundTraceError {
    switch self {
    case .malformed(let error): error
    case .unreadable(let error): error
    }
  }

  /// ``TraceErrorKind/malformedTrace`` or ``TraceErrorKind/io``.
  public var kind: TraceErrorKind { underlying.kind }
  /// The input's name (a path, or `<stdin>`), if known.
  public var file: String? { underlying.file }
  /// Where in the input, for a malformed trace; `nil` for an I/O failure.
  public var position: TracePosition? { underlying.position }
  /// One sentence saying what was expected and what was found, or what failed.
  public var message: String { underlying.message }
}

extension TraceReadError {
  /// Runs `body`, a read from a byte source, giving its failure as ``unreadable(_:)``.
  @inline(__always)
  package static func reading<Result>(
    _ body: () throws(ByteSourceError) -> Result
  ) throws(TraceReadError) -> Result {
    do { return try body() } catch { throw .unreadable(error) }
  }

  /// Runs `body`, a parse, giving its failure as ``malformed(_:)``.
  @inline(__always)
  package static func parsing<Result>(
    _ body: () throws(TraceFormatError) -> Result
  ) throws(TraceReadError) -> Result {
    do { return try body() } catch { throw .malformed(error) }
  }
}
