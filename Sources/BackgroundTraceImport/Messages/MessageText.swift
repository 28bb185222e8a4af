/// Small text helpers for the message readers: messages are matched on their words,
/// with blank runs (a wrapped line's joints) read as one blank.
enum MessageText {
  /// `text` with every run of blanks and line breaks made one space, trimmed.
  static func normalized(_ text: String) -> String {
    // Nearly every message has single spaces only: then it is returned as it is.
    var previousBlank = true
    var clean = true
    for byte in text.utf8 {
      let blank = byte == 32
      if byte == 9 || byte == 10 || byte == 13 || (blank && previousBlank) {
        clean = false
        break
      }
      previousBlank = blank
    }
    if clean && !previousBlank { return text }
    var result: [UInt8] = []
    result.reserveCapacity(text.utf8.count)
    var pendingBlank = false
    for byte in text.utf8 {
      if byte == 32 || byte == 9 || byte == 10 || byte == 13 {
        pendingBlank = !result.isEmpty
      } else {
        if pendingBlank { result.append(32) }
        pendingBlank = false
        result.append(byte)
      }
    }
    return String(decoding: result, as: UTF8.self)
  }

  /// The integer that starts `text`, if any.
  static func leadingInteger(_ text: Substring) -> Int? {
    let digits = text.prefix { $0.isASCII && $0.isNumber }
    return digits.isEmpty || digits.count > 18 ? nil : Int(digits)
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
    let pattern = UnsafeBufferPointer(start: marker.utf8Start, count: marker.utf8CodeUnitCount)
    return text.utf8.starts(with: pattern)
  }

  /// `text` after `marker` when it starts with it.
  static func dropPrefix(_ marker: StaticString, _ text: Substring) -> Substring? {
    guard hasPrefix(marker, text) else { return nil }
    let utf8 = text.utf8
    return Substring(utf8[utf8.index(utf8.startIndex, offsetBy: marker.utf8CodeUnitCount)...])
  }

  /// Where `marker` first occurs in `text`, found byte by byte.
  static func firstRange(of marker: StaticString, in text: Substring) -> Range<Substring.Index>? {
    let count = marker.utf8CodeUnitCount
    let utf8 = text.utf8
    let found: Int?? = utf8.withContiguousStorageIfAvailable { bytes in
      search(UnsafeBufferPointer(start: marker.utf8Start, count: count), in: bytes)
    }
    let offset: Int?
    if let found {
      offset = found
    } else {
      offset = Array(utf8).withUnsafeBufferPointer {
        search(UnsafeBufferPointer(start: marker.utf8Start, count: count), in: $0)
      }
    }
    guard let offset else { return nil }
    let lower = utf8.index(utf8.startIndex, offsetBy: offset)
    return lower..<utf8.index(lower, offsetBy: count)
  }

  /// The offset of `pattern`'s first occurrence in `bytes`.
  private static func search(_ pattern: UnsafeBufferPointer<UInt8>, in array: UnsafeBufferPointer<UInt8>) -> Int? {
    let count = pattern.count
    guard count > 0 else { return 0 }
    guard array.count >= count else { return nil }
    let first = pattern[0]
    var index = 0
    let last = array.count - count
    while index <= last {
      if array[index] == first {
        var matched = 1
        while matched < count && array[index + matched] == pattern[matched] { matched += 1 }
        if matched == count { return index }
      }
      index += 1
    }
    return nil
  }

  /// A WorkManager work id: a bare UUID, or the `workSpecId=` of a
  /// `WorkGenerationalId(workSpecId=…, generation=N)` (WorkManager 2.8 and later).
  static func workID(_ text: Substring) -> String? {
    var rest = text
    if let inner = after("workSpecId=", in: rest) { rest = inner }
    let utf8 = rest.utf8
    var end = utf8.startIndex
    while end < utf8.endIndex {
      let byte = utf8[end]
      guard (48...57).contains(byte) || (97...102).contains(byte) || (65...70).contains(byte) || byte == 45 else {
        break
      }
      end = utf8.index(after: end)
    }
    guard utf8.distance(from: utf8.startIndex, to: end) >= 8 else { return nil }
    return String(Substring(utf8[utf8.startIndex..<end]))
  }
}
