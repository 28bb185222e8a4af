/// Xcode's debug console, copied: each line as `NSLog` and `os_log` print to a
/// debugger, `TIMESTAMP±ZONE Process[PID:TID] [category] message` (the bracketed
/// category optional, and no host, unlike syslog), or the message alone (Xcode 15's
/// console without metadata, `print` output, a crash report's reason).
///
/// A line with no header after a line with one continues its message (Xcode wraps
/// long messages when they are copied from some views); a blank line ends it. Bare
/// lines before any header are messages of their own, with no time or process.
struct XcodeConsoleReader: LogStyleReader {
  private var pending: (time: LogTimestamp?, pid: Int, process: String, text: String, line: Int)?

  mutating func read(_ line: LogLineSplitter.Line) -> LineReading {
    var scanner = LogBytes(line.bytes)
    if let time = AppleLogFields.timestamp(&scanner, needsZone: true), scanner.skipBlanks() > 0,
      let process = AppleLogFields.processAndPid(&scanner), scanner.skipBlanks() > 0 || scanner.atEnd
    {
      let finished = flush()
      pending = (time, process.pid, process.name, scanner.rest(), line.number)
      return finished ?? .continuation
    }
    if line.bytes.isEmpty { return flush() ?? .continuation }
    if pending != nil {
      // A message is kept up to the longest line: memory stays flat however many
      // lines with no header follow one.
      if pending!.text.utf8.count + line.bytes.count < LogLineSplitter.maximumLineLength {
        pending!.text += " " + String(decoding: line.bytes, as: UTF8.self)
      }
      return .continuation
    }
    scanner.index = 0
    guard case .entry(let record) = AppleLogFields.entry(&scanner, time: nil, pid: nil, process: nil, line: line.number)
    else { return .notInStyle }
    return .entry(record)
  }

  mutating func finish() -> LineReading? { flush() }

  private mutating func flush() -> LineReading? {
    guard let entry = pending else { return nil }
    pending = nil
    var bytes = Array(entry.text.utf8)
    return bytes.withUnsafeMutableBufferPointer { buffer in
      var scanner = LogBytes(UnsafeBufferPointer(buffer))
      return AppleLogFields.entry(&scanner, time: entry.time, pid: entry.pid, process: entry.process, line: entry.line)
    }
  }
}
