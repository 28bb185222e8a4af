/// Xcode's debug console, copied: each line as `NSLog` and `os_log` print to a
/// debugger, `TIMESTAMP±ZONE Process[PID:TID] [category] message` (the bracketed
/// category optional, and no host, unlike syslog), or the message alone (Xcode 15's
/// console without metadata, `print` output, a crash report's reason).
///
/// A line with no header after a line with one continues its message (Xcode wraps
/// long messages when they are copied from some views); a blank line ends it. Bare
/// lines before any header are messages of their own, with no time or process, but
/// for a bare line that ends in a blank: a log pasted hard-wrapped leaves the blank at
/// the cut, so the next bare line goes on with it, until a part that ends in none. A
/// header may come without its timestamp (`Process[PID:TID] message`, as pasted with
/// the date cut off): the process and pid are kept, the time is unknown.
struct XcodeConsoleReader: LogStyleReader {
  /// The message being read, which the next line may go on: one under a header, or a
  /// bare one (`process` nil) whose last part ended in a blank.
  private var pending: (time: LogTimestamp?, process: (name: String, pid: Int)?, text: String, line: Int)?

  mutating func read(_ line: LogLineSplitter.Line) -> LineReading {
    var scanner = LogBytes(line.bytes)
    if let time = AppleLogFields.timestamp(&scanner, needsZone: true), scanner.skipBlanks() > 0,
      let process = AppleLogFields.processAndPid(&scanner), scanner.skipBlanks() > 0 || scanner.atEnd
    {
      let finished = flush()
      pending = (time, process, scanner.rest(), line.number)
      return finished ?? .continuation
    }
    scanner.index = 0
    if let process = Self.datelessHeader(&scanner) {
      let finished = flush()
      pending = (nil, process, scanner.rest(), line.number)
      return finished ?? .continuation
    }
    if line.bytes.isEmpty { return flush() ?? .continuation }
    let endsInBlank = MessageContinuation.isBlank(line.bytes.last)
    if pending != nil {
      MessageContinuation.append(line.bytes, to: &pending!.text)
      if pending!.process == nil && !endsInBlank { return flush() ?? .continuation }
      return .continuation
    }
    if endsInBlank {
      pending = (nil, nil, String(decoding: line.bytes, as: UTF8.self), line.number)
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
    let reading = bytes.withUnsafeMutableBufferPointer { buffer in
      var scanner = LogBytes(UnsafeBufferPointer(buffer))
      return AppleLogFields.entry(
        &scanner, time: entry.time, pid: entry.process?.pid, process: entry.process?.name, line: entry.line)
    }
    // A bare message is in the style only as an entry the import reads: any line
    // would be one.
    if entry.process == nil, case .skipped = reading { return .notInStyle }
    return reading
  }
}
