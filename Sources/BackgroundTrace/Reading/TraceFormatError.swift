/// Where in an input a problem is: a text position or a byte offset.
public enum TracePosition: Sendable, Hashable {
  /// Line and column in a text trace, both 1-based; the column counts UTF-8 bytes.
  case text(line: Int, column: Int)
  /// A byte offset (0-based) in a binary trace.
  case byte(offset: Int)
}

/// A malformed trace: what was expected, in which input, and where.
///
/// The description reads like a compiler diagnostic:
/// `golden.txt:4:17: expected an integer for 'id', found "x"`.
public struct TraceFormatError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The input's name (a path, or `<stdin>`), if known.
  public var file: String?
  /// Where the problem is.
  public var position: TracePosition
  /// One sentence saying what was expected and what was found.
  public var message: String

  /// Creates an error.
  public init(file: String?, position: TracePosition, message: String) {
    self.file = file
    self.position = position
    self.message = message
  }

  /// The diagnostic: `FILE:LINE:COLUMN: message` for text, `FILE: at byte N: message` for
  /// binary.
  public var description: String {
    let name = file ?? "<input>"
    switch position {
    case .text(let line, let column): return "\(name):\(line):\(column): \(message)"
    case .byte(let offset): return "\(name): at byte \(offset): \(message)"
    }
  }
}
