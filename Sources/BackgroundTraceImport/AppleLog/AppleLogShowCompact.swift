/// `log show --style compact`: `TIMESTAMP TY Process[PID:TID] (Sender) [subsystem:category] message`,
/// under a header `Timestamp               Ty Process[PID:TID]`. The time has no zone.
struct AppleLogShowCompactReader: LogStyleReader {
  mutating func read(_ line: LogLineSplitter.Line) -> LineReading {
    var scanner = LogBytes(line.bytes)
    if scanner.expect("Timestamp ") || scanner.expect("Filtering the log data") || scanner.expect("Skipping info") {
      return .continuation
    }
    guard let time = AppleLogFields.timestamp(&scanner, needsZone: false), scanner.skipBlanks() > 0 else {
      return .notInStyle
    }
    // Df, I, Db, E, F, A: the entry's type, abbreviated.
    let type = scanner.word()
    guard (1...2).contains(type.count), scanner.skipBlanks() > 0,
      let process = AppleLogFields.processAndPid(&scanner), scanner.skipBlanks() > 0 || scanner.atEnd
    else { return .notInStyle }
    return AppleLogFields.entry(&scanner, time: time, pid: process.pid, process: process.name, line: line.number)
  }
}
