/// Parses the text form line by line, strictly: every malformed line is a
/// ``TraceFormatError`` naming the file, line, column and what was expected.
///
/// Feed it lines in order with ``parse(line:number:)``; ``TextTraceReader`` does that
/// for a file or a string.
public struct TextTraceParser: Sendable {
  /// What one line held.
  public enum Line: Sendable, Hashable {
    /// The header, a blank line or a comment: nothing to report.
    case nothing
    /// A `meta` line; its pairs are already merged into ``TextTraceParser/meta``.
    case meta
    /// An event.
    case event(TraceEvent)
  }

  /// The input's name for errors.
  public let file: String?
  /// The `meta` pairs seen so far.
  public private(set) var meta = TraceMetadata()
  /// The log line the last event parsed notes it came from (`# from FILE:LINE` after
  /// its fields); `nil` when it notes none.
  public private(set) var eventSource: EventSource?
  private var sawHeader = false
  private var sawEvent = false
  private var lastTime = TraceTime.zero

  /// Creates a parser for an input named `file` (used in errors).
  public init(file: String?) {
    self.file = file
  }

  /// Parses one line (without its line ending; a trailing CR is allowed).
  ///
  /// - Parameters:
  ///   - line: the line's UTF-8 bytes.
  ///   - number: its 1-based line number, for errors.
  /// - Throws: ``TraceFormatError`` when the line is malformed or out of order.
  public mutating func parse(line: ArraySlice<UInt8>, number: Int) throws(TraceFormatError) -> Line {
    var bytes = line
    if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    var scanner = LineScanner(bytes: bytes, line: number, file: file)
    if !sawHeader {
      try parseHeader(&scanner)
      sawHeader = true
      return .nothing
    }
    scanner.skipBlanks()
    if scanner.atEnd || scanner.peek == UInt8(ascii: "#") { return .nothing }
    let first = scanner.token()
    if first.bytes.elementsEqual("meta".utf8) {
      guard !sawEvent else {
        throw scanner.error(at: first.column, "meta lines must come before the first event")
      }
      try parseMeta(&scanner)
      return .meta
    }
    return .event(try parseEvent(&scanner, timeToken: first))
  }

  /// Checks that the input had a header; call after the last line.
  ///
  /// - Parameter lineCount: how many lines the input had, for the error's position.
  public func finish(lineCount: Int) throws(TraceFormatError) {
    guard sawHeader else {
      throw TraceFormatError(
        file: file, position: .text(line: max(lineCount, 1), column: 1),
        message: "expected the header 'bgtrace 1', found an empty input")
    }
  }

  private func parseHeader(_ scanner: inout LineScanner) throws(TraceFormatError) {
    let magic = scanner.token()
    guard magic.column == 1, magic.bytes.elementsEqual("bgtrace".utf8) else {
      throw scanner.error(
        at: 1, "expected the header 'bgtrace 1' on the first line, found \(scanner.quotedLine)")
    }
    scanner.skipBlanks()
    let version = scanner.token()
    guard !version.bytes.isEmpty else {
      throw scanner.error(at: version.column, "expected a format version after 'bgtrace'")
    }
    guard version.bytes.elementsEqual("1".utf8) else {
      throw scanner.error(
        at: version.column,
        "unsupported format version \"\(version.shown)\"; this reader reads version 1")
    }
    scanner.skipBlanks()
    guard scanner.atEnd else {
      throw scanner.error(at: scanner.column, "expected the end of the header line")
    }
  }

  private mutating func parseMeta(_ scanner: inout LineScanner) throws(TraceFormatError) {
    let fields = try scanner.fields()
    guard !fields.isEmpty else {
      throw scanner.error(at: scanner.column, "expected key=value pairs after 'meta'")
    }
    for field in fields {
      guard meta[field.key] == nil else {
        throw scanner.error(at: field.keyColumn, "meta key '\(field.key)' appears twice")
      }
      let value = field.value.text
      if let problem = TraceMetadata.problem(key: field.key, value: value) {
        throw scanner.error(at: field.valueColumn, problem)
      }
      meta[field.key] = value
    }
  }

  private mutating func parseEvent(
    _ scanner: inout LineScanner, timeToken: LineScanner.Token
  ) throws(TraceFormatError) -> TraceEvent {
    let time = try parseTime(timeToken, scanner: scanner)
    scanner.skipBlanks()
    let kindToken = scanner.token()
    guard !kindToken.bytes.isEmpty else {
      throw scanner.error(at: kindToken.column, "expected an event kind after the time")
    }
    guard let kind = EventTag(name: kindToken.text) else {
      let meant = Spelling.nearest(to: kindToken.text, among: EventTag.allCases.map(\.name))
      throw scanner.error(
        at: kindToken.column,
        "unknown event kind '\(kindToken.shown)'" + (meant.map { "; did you mean '\($0)'?" } ?? ""))
    }
    let fields = FieldReader(
      kind: kind, fields: try scanner.fields(), kindColumn: kindToken.column, scanner: scanner)
    let event = TraceEvent(time: time, try fields.build())
    eventSource = scanner.comment().flatMap { EventSource(comment: $0) }
    lastTime = time
    sawEvent = true
    return event
  }

  private func parseTime(
    _ token: LineScanner.Token, scanner: LineScanner
  ) throws(TraceFormatError) -> TraceTime {
    if token.bytes.first == UInt8(ascii: "-") {
      throw scanner.error(at: token.column, "negative time '\(token.shown)'; times count up from 0")
    }
    guard let time = TraceTime.parse(utf8: token.bytes) else {
      throw scanner.error(
        at: token.column,
        "expected a time in seconds (a decimal like 12.5 with at most 9 fractional digits), found '\(token.shown)'"
      )
    }
    guard time >= lastTime else {
      throw scanner.error(
        at: token.column, "time \(time) is earlier than the previous event's time \(lastTime)")
    }
    return time
  }
}

/// Splits one line into tokens and `key=value` fields, tracking columns.
struct LineScanner {
  struct Token {
    var bytes: ArraySlice<UInt8>
    var column: Int
    var text: String { String(decoding: bytes, as: UTF8.self) }
    /// The token as a message quotes it (``EscapedText``).
    var shown: String { EscapedText.of(bytes) }
  }

  /// A field value as written: bare or quoted (already unescaped).
  enum Value {
    case bare(ArraySlice<UInt8>)
    case quoted(String)

    var text: String {
      switch self {
      case .bare(let bytes): String(decoding: bytes, as: UTF8.self)
      case .quoted(let string): string
      }
    }
  }

  struct Field {
    var key: String
    var keyColumn: Int
    var value: Value
    var valueColumn: Int
  }

  let bytes: ArraySlice<UInt8>
  let line: Int
  let file: String?
  private(set) var index: Int

  init(bytes: ArraySlice<UInt8>, line: Int, file: String?) {
    self.bytes = bytes
    self.line = line
    self.file = file
    self.index = bytes.startIndex
  }

  var atEnd: Bool { index >= bytes.endIndex }
  var peek: UInt8 { bytes[index] }
  var column: Int { index - bytes.startIndex + 1 }
  /// The start of the line, double-quoted, as a message quotes it (``EscapedText``).
  var quotedLine: String { "\"" + EscapedText.of(bytes.prefix(60)) + "\"" }

  func error(at column: Int, _ message: String) -> TraceFormatError {
    TraceFormatError(file: file, position: .text(line: line, column: column), message: message)
  }

  static func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
  }

  mutating func skipBlanks() {
    while index < bytes.endIndex, Self.isBlank(bytes[index]) { index += 1 }
  }

  /// The text of the comment that ends the line, after its `#` with blanks trimmed,
  /// when the scanner stands at one; `nil` otherwise.
  func comment() -> String? {
    guard !atEnd, peek == UInt8(ascii: "#") else { return nil }
    var text = bytes[(index + 1)...]
    while let first = text.first, Self.isBlank(first) { text.removeFirst() }
    while let last = text.last, Self.isBlank(last) { text.removeLast() }
    return String(decoding: text, as: UTF8.self)
  }

  /// The run of non-blank bytes at the current position.
  mutating func token() -> Token {
    let start = index
    while index < bytes.endIndex, !Self.isBlank(bytes[index]) { index += 1 }
    return Token(bytes: bytes[start..<index], column: start - bytes.startIndex + 1)
  }

  /// The `key=value` fields up to the end of the line or a comment (`#` after a
  /// blank); keys must be unique.
  mutating func fields() throws(TraceFormatError) -> [Field] {
    var fields: [Field] = []
    while true {
      skipBlanks()
      if atEnd || peek == UInt8(ascii: "#") { return fields }
      let field = try self.field()
      if fields.contains(where: { $0.key == field.key }) {
        throw error(at: field.keyColumn, "field '\(field.key)' appears twice")
      }
      fields.append(field)
    }
  }

  private mutating func field() throws(TraceFormatError) -> Field {
    let keyColumn = column
    let keyStart = index
    while index < bytes.endIndex, TextTraceWriter.isWordByte(bytes[index]) { index += 1 }
    guard index > keyStart, index < bytes.endIndex, bytes[index] == UInt8(ascii: "=") else {
      var probe = self
      probe.index = keyStart
      let found = probe.token().shown
      throw error(at: keyColumn, "expected key=value, found '\(found)'")
    }
    let key = String(decoding: bytes[keyStart..<index], as: UTF8.self)
    index += 1  // "="
    let valueColumn = column
    if index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") {
      let string = try quotedString()
      if index < bytes.endIndex, !Self.isBlank(bytes[index]) {
        throw error(at: column, "expected a space after the closing quote of '\(key)'")
      }
      return Field(key: key, keyColumn: keyColumn, value: .quoted(string), valueColumn: valueColumn)
    }
    let valueStart = index
    while index < bytes.endIndex, !Self.isBlank(bytes[index]) {
      guard TextTraceWriter.isWordByte(bytes[index]) else {
        throw error(
          at: column,
          "expected a value for '\(key)' (a bare word [A-Za-z0-9._:/+-] or a quoted string), found '\(EscapedText.of(bytes[index...].prefix(1)))'"
        )
      }
      index += 1
    }
    guard index > valueStart else {
      throw error(at: valueColumn, "expected a value after '\(key)='")
    }
    return Field(
      key: key, keyColumn: keyColumn, value: .bare(bytes[valueStart..<index]), valueColumn: valueColumn)
  }

  /// A double-quoted string starting at the current position, unescaped.
  private mutating func quotedString() throws(TraceFormatError) -> String {
    let openColumn = column
    index += 1
    var scalars = String.UnicodeScalarView()
    var runStart = index
    func flush(_ end: Int) {
      scalars.append(contentsOf: String(decoding: bytes[runStart..<end], as: UTF8.self).unicodeScalars)
    }
    while index < bytes.endIndex {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        flush(index)
        index += 1
        return String(scalars)
      case UInt8(ascii: "\\"):
        flush(index)
        let escapeColumn = column
        index += 1
        guard index < bytes.endIndex else { break }
        switch bytes[index] {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          scalars.append(try unicodeEscape(column: escapeColumn))
          runStart = index
          continue
        default:
          throw error(
            at: escapeColumn,
            "unknown escape '\\\(String(decoding: [bytes[index]], as: UTF8.self))' in string; expected \\\" \\\\ \\n \\t or \\u{HEX}"
          )
        }
        index += 1
        runStart = index
      case 0..<0x20 where byte != UInt8(ascii: "\t"), 0x7F:
        throw error(
          at: column, "control character in string; write it as \\u{\(String(byte, radix: 16, uppercase: true))}")
      default:
        index += 1
      }
    }
    throw error(at: openColumn, "unterminated string: expected a closing '\"' before the end of the line")
  }

  /// `u{HEX}` after a backslash (the index is on the `u`); leaves the index after `}`.
  private mutating func unicodeEscape(column escapeColumn: Int) throws(TraceFormatError) -> Unicode.Scalar {
    index += 1
    guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "{") else {
      throw error(at: escapeColumn, "expected '{' after \\u in string")
    }
    index += 1
    var value: UInt32 = 0
    var digits = 0
    while index < bytes.endIndex, bytes[index] != UInt8(ascii: "}") {
      guard let digit = hexValue(bytes[index]), digits < 8 else {
        throw error(at: escapeColumn, "expected 1 to 8 hex digits and '}' in \\u{…}")
      }
      value = value << 4 | UInt32(digit)
      digits += 1
      index += 1
    }
    guard index < bytes.endIndex, digits > 0 else {
      throw error(at: escapeColumn, "expected 1 to 8 hex digits and '}' in \\u{…}")
    }
    index += 1
    guard let scalar = Unicode.Scalar(value) else {
      throw error(at: escapeColumn, "\\u{\(String(value, radix: 16, uppercase: true))} is not a Unicode scalar value")
    }
    return scalar
  }

  private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
