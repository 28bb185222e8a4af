/// Input bytes as messages quote them: text stays as it is, and what a terminal would
/// not show as text is escaped, so that an error about random or hostile input never
/// prints raw control codes or invalid UTF-8.
///
/// A control character (U+0000–U+001F, U+007F) is written `\x1b`, a C1 control
/// (U+0080–U+009F) `\u{85}`, and each byte that is not part of valid UTF-8 `\xff`.
/// A backslash is left as it is.
package enum EscapedText {
  /// `bytes`, decoded as UTF-8, with control characters and invalid bytes escaped.
  package static func of(_ bytes: some Collection<UInt8>) -> String {
    if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return String(decoding: bytes, as: UTF8.self) }
    let bytes = Array(bytes)
    var text = ""
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var position = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        position += encoded.count
        let scalar = Unicode.UTF8.decode(encoded)
        switch scalar.value {
        case 0..<0x20, 0x7F: text += "\\x" + hex(scalar.value, digits: 2)
        case 0x80..<0xA0: text += "\\u{" + hex(scalar.value, digits: 1) + "}"
        default: text.unicodeScalars.append(scalar)
        }
      case .error(let length):
        for byte in bytes[position..<position + length] { text += "\\x" + hex(UInt32(byte), digits: 2) }
        position += length
      case .emptyInput:
        return text
      }
    }
  }

  /// `text` with its control characters escaped as ``of(_:)`` escapes them.
  package static func of(_ text: String) -> String { of(text.utf8) }

  private static func hex(_ value: UInt32, digits: Int) -> String {
    let hex = String(value, radix: 16)
    return String(repeating: "0", count: max(digits - hex.count, 0)) + hex
  }
}
