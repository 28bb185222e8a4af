/// `adb logcat -v long`: a header `[ MM-DD HH:MM:SS.mmm  PID:  TID L/TAG ]`, the
/// message on the lines after it, and a blank line.
struct LogcatLongReader: LogStyleReader {
  private var clock = YearlessClock()
  /// The entry whose message lines are being read: its header's fields.
  private var pending: (time: LogTimestamp?, pid: Int, tag: String?, line: Int, message: String)?

  mutating func read(_ line: LogLineSplitter.Line) -> LineReading {
    var scanner = LogBytes(line.bytes)
    if scanner.expect("--------- ") { return flush() ?? .continuation }
    if scanner.expect("[ ") {
      let finished = flush()
      guard let time = LogcatFields.monthDayTime(&scanner, clock: &clock), scanner.skipBlanks() > 0,
        let pid = scanner.number(), scanner.expect(58), scanner.skipBlanks() >= 0,
        scanner.number() != nil || scanner.expect("0x"),
        let _ = scanner.upTo(32), scanner.skipBlanks() > 0, let level = scanner.peek, LogcatFields.isLevel(level)
      else { return finished ?? .notInStyle }
      scanner.index += 1
      guard scanner.expect(47) else { return finished ?? .notInStyle }
      var end = scanner.bytes.count
      while end > scanner.index, scanner.bytes[end - 1] == 32 || scanner.bytes[end - 1] == 93 { end -= 1 }
      let tag = scanner.index..<end
      pending = (time, pid, LogRelevance.logcatTag(scanner, tag) ? scanner.string(tag) : nil, line.number, "")
      return finished ?? .continuation
    }
    guard pending != nil else { return line.bytes.isEmpty ? .continuation : .notInStyle }
    if line.bytes.isEmpty { return flush() ?? .continuation }
    if pending?.tag != nil, pending!.message.utf8.count + line.bytes.count < LogLineSplitter.maximumLineLength {
      let text = String(decoding: line.bytes, as: UTF8.self)
      pending!.message += pending!.message.isEmpty ? text : "\n" + text
    }
    return .continuation
  }

  mutating func finish() -> LineReading? { flush() }

  private mutating func flush() -> LineReading? {
    guard let entry = pending else { return nil }
    pending = nil
    guard let tag = entry.tag else { return .skipped(entry.time, line: entry.line) }
    return .entry(
      LogRecord(time: entry.time, pid: entry.pid, process: nil, source: tag, message: entry.message, line: entry.line))
  }
}
