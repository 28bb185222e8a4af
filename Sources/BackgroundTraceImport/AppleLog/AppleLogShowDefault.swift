/// `log show` / `log stream` in the default style (also what a sysdiagnose's
/// `log show system_logs.logarchive` prints):
/// `TIMESTAMP±ZONE  THREAD  TYPE  ACTIVITY  PID  TTL  Process: (Sender) [subsystem:category] message`,
/// under a column header `Timestamp  Thread  Type  Activity  PID  TTL`.
struct AppleLogShowDefaultReader: LogStyleReader {
  mutating func read(_ line: LogLineSplitter.Line) -> LineReading {
    var scanner = LogBytes(line.bytes)
    if scanner.expect("Timestamp ") || scanner.expect("Filtering the log data") || scanner.expect("Skipping info")
      || scanner.expect("Log      - ") || scanner.expect("----")
    {
      return .continuation
    }
    guard let time = AppleLogFields.timestamp(&scanner, needsZone: true), scanner.skipBlanks() > 0,
      scanner.expect("0x"), !scanner.word().isEmpty, scanner.skipBlanks() > 0
    else { return .notInStyle }
    let type = scanner.word()
    guard !type.isEmpty, scanner.skipBlanks() > 0, scanner.expect("0x"), !scanner.word().isEmpty,
      scanner.skipBlanks() > 0, let pid = scanner.number(), scanner.skipBlanks() > 0, scanner.number() != nil,
      scanner.skipBlanks() > 0
    else { return .notInStyle }
    // `Process: ` — the process name ends at the first ": ".
    let start = scanner.index
    let bytes = scanner.bytes
    var end = start
    while end + 1 < bytes.count, !(bytes[end] == 58 && bytes[end + 1] == 32) { end += 1 }
    guard end + 1 < bytes.count else { return .notInStyle }
    let process = start..<end
    scanner.index = end + 2
    let reading = AppleLogFields.entry(&scanner, time: time, pid: pid, process: nil, line: line.number)
    guard case .entry(var record) = reading else { return reading }
    record.process = scanner.string(process)
    return .entry(record)
  }
}
