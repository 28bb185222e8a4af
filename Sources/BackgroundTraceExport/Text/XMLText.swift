/// Minimal XML text writing for the SVG and HTML timelines.
enum XMLText {
  /// `text` escaped for XML character data and attribute values.
  ///
  /// Characters XML 1.0 does not allow, even as references (control characters other
  /// than tab, line feed and carriage return; U+FFFE, U+FFFF), are shown as `\u{HEX}`,
  /// the way the trace's text form writes them.
  static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
      default:
        if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
          out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }

  /// `text` cut to at most `limit` characters, with `…` when cut.
  static func truncated(_ text: String, to limit: Int) -> String {
    text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
  }
}
