/// How a line that goes on a message joins it, in every reader that joins lines: with
/// one blank, or none where the message ends in a blank or a tab (a wrap at a blank
/// keeps it there), up to the longest line a log may have.
enum MessageContinuation {
  /// Whether `byte` is a blank or a tab.
  static func isBlank(_ byte: UInt8?) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
  }

  /// Appends `line` to `message`. A message is kept up to
  /// ``LogLineSplitter/maximumLineLength``: memory stays flat however many lines follow
  /// one, and the lines past that are dropped.
  static func append(_ line: UnsafeBufferPointer<UInt8>, to message: inout String) {
    guard message.utf8.count + line.count < LogLineSplitter.maximumLineLength else { return }
    let text = String(decoding: line, as: UTF8.self)
    message += isBlank(message.utf8.last) ? text : " " + text
  }

  /// Appends `line` to the bytes of `message` with the same blank as
  /// ``append(_:to:)``, uncapped: the import joins one skipped line with the next this way.
  static func append(_ line: UnsafeBufferPointer<UInt8>, to message: inout [UInt8]) {
    if !isBlank(message.last) { message.append(UInt8(ascii: " ")) }
    message.append(contentsOf: line)
  }
}
