/// Xcode's debug console, copied: each line as `NSLog` and `os_log` print to a
/// debugger, `TIMESTAMP±ZONE Process[PID:TID] [category] message` (the bracketed
/// category optional, and no host, unlike syslog), or the message alone (Xcode 15's
/// console without metadata, `print` output, a crash report's reason).
///
/// A line with no header after a line with one continues its message (Xcode wraps
/// long messages when they are copied from some views); a blank line ends it. Bare
/// lines before any header are messages of their own, with no time or process. A
/// header may come without its timestamp (`Process[PID:TID] message`, as pasted with
/// the date cut off): the process and pid are kept, the time is unknown.
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
    scanner.index = 0
    if let process = Self.datelessHeader(&scanner) {
      let finished = flush()
      pending = (nil, process.pid, process.name, scanner.rest(), line.number)
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

  /// `Process[PID:TID] ` at the start of a line: a name with no blank, both numbers and
  /// a blank after them, so that a message with a bracket in it is not taken for one.
  private static func datelessHeader(_ scanner: inout LogBytes) -> (name: String, pid: Int)? {
    let start = scanner.index
    guard let open = scanner.upTo(91), !open.isEmpty,
      !scanner.bytes[open].contains(where: { $0 == 32 || $0 == 9 })
    else { return nil }
    scanner.index += 1
    guard let pid = scanner.number(), scanner.expect(58), scanner.number() != nil, scanner.expect(93),
      scanner.skipBlanks() > 0
    else {
      scanner.index = start
      return nil
    }
    return (scanner.string(start..<open.upperBound), pid)
  }

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
