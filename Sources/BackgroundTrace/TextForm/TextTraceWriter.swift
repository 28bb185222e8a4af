/// Writes the canonical text form of traces (`bgtrace 1`, then one event per line).
///
/// Canonical means: times without exponent or trailing zeros, fields in the order of
/// ``EventTag/fieldNames``, absent optional fields left out, values quoted only when
/// they are not bare words, one space between tokens, LF line endings.
public enum TextTraceWriter: Sendable {
  /// The header line's text, without the line ending.
  public static let header = "bgtrace 1"

  /// The canonical text of a whole trace.
  ///
  /// - Complexity: O(*n*) in the number of events.
  public static func text(of trace: RecordedTrace) -> String {
    var output = headerAndMeta(trace.meta)
    for event in trace.events {
      appendLine(for: event, to: &output)
    }
    return output
  }

  /// The header line and the `meta` line (if any), each ending in LF.
  public static func headerAndMeta(_ meta: TraceMetadata) -> String {
    var output = header + "\n"
    if !meta.isEmpty {
      output += "meta"
      for entry in meta.entries {
        output += " \(entry.key)=\(quotedIfNeeded(entry.value))"
      }
      output += "\n"
    }
    return output
  }

  /// The canonical line of one event, without the line ending.
  public static func line(for event: TraceEvent) -> String {
    var line = ""
    appendLine(for: event, to: &line)
    line.removeLast()
    return line
  }

  /// Appends the canonical line of `event`, with its LF, to `output`.
  public static func appendLine(for event: TraceEvent, to output: inout String) {
    appendLine(for: event, source: nil, to: &output)
  }

  /// Appends the canonical line of `event`, noting the log line it was imported from
  /// after its fields (`# from FILE:LINE`, ``EventSource``) when `source` is given
  /// (and its file's name has no line break, which a line cannot hold), with its LF,
  /// to `output`.
  public static func appendLine(for event: TraceEvent, source: EventSource?, to output: inout String) {
    output += event.time.description
    output += " "
    output += event.kind.tag.name
    appendFields(of: event.kind, to: &output)
    if let source, !source.file.contains(where: \.isNewline) {
      output += " # "
      output += source.comment
    }
    output += "\n"
  }

  private static func appendFields(of kind: TraceEvent.Kind, to output: inout String) {
    kind.forEachField { name, value in
      output += " "
      output += name
      output += "="
      switch value {
      case .integer(let integer): output += String(integer)
      case .boolean(let boolean): output += boolean ? "true" : "false"
      case .seconds(let time): output += time.description
      case .interval(let interval): output += interval.description
      case .choice(let word): output += word
      case .string(let string): output += quotedIfNeeded(string)
      }
    }
  }

  /// Whether `text` can be written without quotes: `[A-Za-z0-9._:/+-]+`.
  package static func isBareWord(_ text: some StringProtocol) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy(isWordByte)
  }

  static func isWordByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
      UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "+"), UInt8(ascii: "-"):
      true
    default:
      false
    }
  }

  /// `text` as a bare word when it is one, otherwise double-quoted with escapes.
  package static func quotedIfNeeded(_ text: String) -> String {
    isBareWord(text) ? text : quoted(text)
  }

  /// `text` double-quoted, with `\"` `\\` `\n` `\t` and `\u{HEX}` escapes for control characters.
  package static func quoted(_ text: String) -> String {
    var quoted = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": quoted += "\\\""
      case "\\": quoted += "\\\\"
      case "\n": quoted += "\\n"
      case "\t": quoted += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          quoted += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          quoted.unicodeScalars.append(scalar)
        }
      }
    }
    quoted += "\""
    return quoted
  }
}
