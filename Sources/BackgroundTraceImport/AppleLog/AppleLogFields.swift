/// The parts Apple's `log` styles share (log(1): `log show --style default|compact|syslog`).
enum AppleLogFields {
  /// `YYYY-MM-DD HH:MM:SS.ffffff±ZZZZ`: a zone is required when `needsZone`, else
  /// optional (compact leaves it out: the time is then read as UTC, which keeps the
  /// distances between entries).
  static func timestamp(_ scanner: inout LogBytes, needsZone: Bool) -> LogTimestamp? {
    LogCalendar.dateTime(&scanner) { scanner in
      let zone = LogCalendar.zone(&scanner)
      return needsZone && zone == nil ? .none : .some(zone)
    }
  }

  /// `(Sender) [subsystem:category] message`, the sender and the bracket each optional,
  /// from the scanner's index: the record, or only its time when it cannot matter.
  static func entry(
    _ scanner: inout LogBytes, time: LogTimestamp?, pid: Int?, process: String?, line: Int
  ) -> LineReading {
    var source = 0..<0
    let save = scanner.index
    if scanner.expect(40) {
      if scanner.upTo(41) != nil {
        scanner.index += 1
        scanner.skipBlanks()
      } else {
        scanner.index = save
      }
    }
    let beforeBracket = scanner.index
    if scanner.expect(91), let inside = scanner.upTo(93), inside.count < 200 {
      source = inside
      scanner.index += 1
      scanner.skipBlanks()
    } else {
      scanner.index = beforeBracket
    }
    let message = scanner.index..<scanner.bytes.count
    guard LogRelevance.apple(scanner, message) || LogRelevance.apple(scanner, source) else {
      return .skipped(time, line: line)
    }
    return .entry(
      LogRecord(
        time: time, pid: pid, process: process, source: scanner.string(source), message: scanner.string(message),
        line: line))
  }

  /// `Name[PID]` or `Name[PID:TID]`: the name (which may hold blanks) and the pid.
  static func processAndPid(_ scanner: inout LogBytes) -> (name: String, pid: Int)? {
    let start = scanner.index
    guard let open = scanner.upTo(91), !open.isEmpty else { return nil }
    scanner.index += 1
    guard let pid = scanner.number() else { return nil }
    if scanner.expect(58) { _ = scanner.upTo(93) }
    guard scanner.expect(93) else { return nil }
    return (scanner.string(start..<open.upperBound), pid)
  }
}
