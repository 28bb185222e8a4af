/// Small text functions for the message readers: messages are matched on their words,
/// with blank runs (a wrapped line's joints) read as one blank.
enum MessageText {
  /// `text` with every run of blanks and line breaks made one space, trimmed.
  static func normalized(_ text: String) -> String {
    var text = text
    let rebuilt = text.withUTF8 { bytes in
      isNormalized(bytes) ? nil : String(decoding: normalizedBytes(bytes), as: UTF8.self)
    }
    return rebuilt ?? text
  }

  /// Calls `body` with `bytes` normalized as ``normalized(_:)`` does: `bytes` themselves
  /// when they are already (nearly every message), a normalized copy otherwise.
  static func withNormalized<Result>(
    _ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    if isNormalized(bytes) { return body(bytes) }
    return normalizedBytes(bytes).withUnsafeBufferPointer(body)
  }

  /// Whether `bytes` hold single spaces only, and none at either end.
  private static func isNormalized(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let last = bytes.last else { return true }
    if bytes[0] == 32 || last == 32 { return false }
    for index in bytes.indices where bytes[index] <= 32 {
      // Tab, LF and CR (and a space after a space) are the blanks to fold; a space
      // is never last, so the byte after it is there.
      let byte = bytes[index]
      if byte == 9 || byte == 10 || byte == 13 || (byte == 32 && bytes[index + 1] == 32) { return false }
    }
    return true
  }

  private static func normalizedBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var pendingBlank = false
    for byte in bytes {
      if byte == 32 || byte == 9 || byte == 10 || byte == 13 {
        pendingBlank = !result.isEmpty
      } else {
        if pendingBlank { result.append(32) }
        pendingBlank = false
        result.append(byte)
      }
    }
    return result
  }

  /// The integer that starts `text`, if any: its leading decimal digits (at most 18).
  static func leadingInteger(_ text: Substring) -> Int? {
    let digits = prefix(text, asciiWhile: { $0 >= 48 && $0 <= 57 }, characterWhile: { $0.isASCII && $0.isNumber })
    guard !digits.isEmpty, digits.utf8.count <= 18 else { return nil }
    var value = 0
    for byte in digits.utf8 { value = value * 10 + Int(byte - 48) }
    return value
  }

  /// The hexadecimal number (`0-9a-fA-F`, no `0x`) that starts `text`, if any.
  static func leadingHexInteger(_ text: Substring) -> Int? {
    let digits = text.utf8.prefix { ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 102) }
    guard !digits.isEmpty, digits.count <= 15 else { return nil }
    return Int(String(decoding: digits, as: UTF8.self), radix: 16)
  }

  /// The letters (Character.isLetter) that start `bytes`, read on the bytes while they
  /// are ASCII letters; when a non-ASCII byte stops them (a letter of another script,
  /// or a mark that joins the last letter), the characters decide.
  static func leadingLetters(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    var end = 0
    while end < bytes.count, (bytes[end] | 0x20) >= 97, (bytes[end] | 0x20) <= 122 { end += 1 }
    if end == bytes.count || bytes[end] < 0x80 {
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
    }
    return String(String(decoding: bytes, as: UTF8.self).prefix { $0.isLetter })
  }

  /// The longest prefix of `text` whose characters satisfy `characterWhile`, the same
  /// as `text.prefix(while: characterWhile)`, found on bytes while they are ASCII:
  /// `asciiWhile` must say of each ASCII byte what `characterWhile` says of its
  /// character. A run of ASCII characters ends exactly where its bytes do when the
  /// byte that stops it is ASCII too (no ASCII character joins the one before it in a
  /// grapheme, CR LF aside, which normalized messages do not hold); when a non-ASCII
  /// byte stops it, the characters decide.
  @inline(__always)
  static func prefix(
    _ text: Substring, asciiWhile: (UInt8) -> Bool, characterWhile: (Character) -> Bool
  ) -> Substring {
    let utf8 = text.utf8
    let end: Int?? = utf8.withContiguousStorageIfAvailable { bytes in
      var index = 0
      while index < bytes.count, bytes[index] < 0x80, asciiWhile(bytes[index]) { index += 1 }
      return index == bytes.count || bytes[index] < 0x80 ? index : nil
    }
    guard let found = end, let count = found else { return text.prefix(while: characterWhile) }
    return Substring(utf8[..<utf8.index(utf8.startIndex, offsetBy: count)])
  }

  /// The text after the first `marker`, if `marker` occurs (compared byte for byte).
  static func after(_ marker: StaticString, in text: Substring) -> Substring? {
    guard let range = firstRange(of: marker, in: text) else { return nil }
    return text[range.upperBound...]
  }

  /// Whether `text` contains `marker` (compared byte for byte).
  static func contains(_ marker: StaticString, in text: Substring) -> Bool {
    firstRange(of: marker, in: text) != nil
  }

  /// Whether `text` starts with `marker` (compared byte for byte).
  static func hasPrefix(_ marker: StaticString, _ text: Substring) -> Bool {
    withBytes(text) { $0.starts(0..<$0.bytes.count, with: marker) }
  }

  /// `text` after `marker` when it starts with it.
  static func dropPrefix(_ marker: StaticString, _ text: Substring) -> Substring? {
    guard hasPrefix(marker, text) else { return nil }
    let utf8 = text.utf8
    return Substring(utf8[utf8.index(utf8.startIndex, offsetBy: marker.utf8CodeUnitCount)...])
  }

  /// Where `marker` first occurs in `text`, found byte by byte.
  static func firstRange(of marker: StaticString, in text: Substring) -> Range<Substring.Index>? {
    guard let offset = withBytes(text, { $0.find(marker, from: 0)?.lowerBound }) else { return nil }
    let utf8 = text.utf8
    let lower = utf8.index(utf8.startIndex, offsetBy: offset)
    return lower..<utf8.index(lower, offsetBy: marker.utf8CodeUnitCount)
  }

  /// `body` on `text`'s UTF-8 bytes (copied only when a substring's storage is not
  /// contiguous).
  private static func withBytes<Result>(_ text: Substring, _ body: (LogBytes) -> Result) -> Result {
    if let result = text.utf8.withContiguousStorageIfAvailable({ body(LogBytes($0)) }) { return result }
    return Array(text.utf8).withUnsafeBufferPointer { body(LogBytes($0)) }
  }
}
