/// Where in an input a problem is: a text position, a byte offset or an event.
public enum TracePosition: Sendable, Hashable {
  /// Line and column in a text trace, both 1-based; the column counts UTF-8 bytes.
  case text(line: Int, column: Int)
  /// A byte offset (0-based) in a binary trace.
  case byte(offset: Int)
  /// The 1-based number of an event in the order it was given.
  case event(number: UInt64)
}

/// A malformed trace: what was expected, in which input, and where.
///
/// The description reads like a compiler diagnostic:
/// `golden.txt:4:17: expected an integer for 'id', found "x"`.
public struct TraceFormatError: BackgroundTraceError, Hashable {
  /// The input's name (a path, or `<stdin>`), if known.
  public var file: String?
  /// Where the problem is; a malformed trace always has one.
  public var position: TracePosition?
  /// One sentence saying what was expected and what was found.
  public var message: String

  /// Creates an error.
  public init(file: String?, position: TracePosition, message: String) {
    self.file = file
    self.position = position
    self.message = message
  }

  /// Always ``TraceErrorKind/malformedTrace``.
  public var kind: TraceErrorKind { .malformedTrace }
}
