/// `log show --style syslog`: `TIMESTAMP±ZONE  HOST Process[PID]: (Sender) [subsystem:category] message`.
struct AppleLogShowSyslogReader: LogStyleReader {
  mutating func read(_ line: LogLineSplitter.Line) -> LineReading {
    var scanner = LogBytes(line.bytes)
    if scanner.expect("Timestamp ") || scanner.expect("Filtering the log data") || scanner.expect("Skipping info") {
      return .continuation
    }
    guard let time = AppleLogFields.timestamp(&scanner, needsZone: true), scanner.skipBlanks() > 0,
      !scanner.word().isEmpty, scanner.skipBlanks() > 0,
      let process = AppleLogFields.processAndPid(&scanner), scanner.expect(58)
    else { return .notInStyle }
    scanner.skipBlanks()
    return AppleLogFields.entry(&scanner, time: time, pid: process.pid, process: process.name, line: line.number)
  }
}
