/// The device-log line an event was imported from, as a text trace notes it after
/// the event's fields: `0.5 task.end id=3 # from device.log:8` (docs/events.md,
/// "Where an event came from").
///
/// `bgtrace import` writes the note; a reader hands it back with the event
/// (``LocatedEvent/source``), and `bgtrace check` cites the line beside the trace's.
public struct EventSource: Sendable, Hashable, CustomStringConvertible {
  /// The log as it was named to the import (a path, or `<stdin>`).
  public var file: String
  /// The line, counting from 1.
  public var line: Int

  /// Line `line` of the log named `file`.
  public init(file: String, line: Int) {
    self.file = file
    self.line = line
  }

  /// `FILE:LINE`, the form diagnostics cite.
  public var description: String { "\(file):\(line)" }

  /// The comment's text after `#`, without the blank before it: `from FILE:LINE`.
  public var comment: String { Self.prefix + description }

  private static let prefix = "from "

  /// The source a comment's text (what follows `#`, blanks trimmed) names, when it
  /// is exactly `from FILE:LINE` with a positive decimal LINE; `nil` for any other
  /// comment, which stays a comment.
  public init?(comment: some StringProtocol) {
    guard comment.hasPrefix(Self.prefix) else { return nil }
    let rest = comment.dropFirst(Self.prefix.count)
    guard let colon = rest.lastIndex(of: ":") else { return nil }
    let file = rest[..<colon]
    let digits = rest[rest.index(after: colon)...]
    guard !file.isEmpty, !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
      let line = Int(digits), line > 0
    else { return nil }
    self.init(file: String(file), line: line)
  }
}
