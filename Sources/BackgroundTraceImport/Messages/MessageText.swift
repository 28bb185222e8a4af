/// Small text helpers for the message readers: messages are matched on their words,
/// with blank runs (a wrapped line's joints) read as one blank.
enum MessageText {
  /// `text` with every run of blanks and line breaks made one space, trimmed.
  static func normalized(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    var pendingBlank = false
    for character in text {
      if character == " " || character == "\t" || character == "\n" || character == "\r" {
        pendingBlank = !result.isEmpty
      } else {
        if pendingBlank { result.append(" ") }
        pendingBlank = false
        result.append(character)
      }
    }
    return result
  }

  /// The integer that starts `text`, if any.
  static func leadingInteger(_ text: Substring) -> Int? {
    let digits = text.prefix { $0.isASCII && $0.isNumber }
    return digits.isEmpty || digits.count > 18 ? nil : Int(digits)
  }

  /// The text after the first `marker`, if `marker` occurs.
  static func after(_ marker: String, in text: some StringProtocol) -> Substring? {
    guard let range = text.firstRange(of: marker) else { return nil }
    return Substring(text[range.upperBound...])
  }

  /// A WorkManager work id: a bare UUID, or the `workSpecId=` of a
  /// `WorkGenerationalId(workSpecId=…, generation=N)` (WorkManager 2.8 and later).
  static func workID(_ text: some StringProtocol) -> String? {
    var rest = Substring(text)
    if let inner = after("workSpecId=", in: rest) { rest = inner }
    let id = rest.prefix { $0.isHexDigit || $0 == "-" }
    return id.count >= 8 ? String(id) : nil
  }
}
