/// `adb logcat -v brief`: `L/TAG(  PID): message`. No time: every entry is at 0.
struct LogcatBriefReader: LogStyleReader {
  mutating func read(_ line: LogLineSplitter.Line) -> LineReading {
    var scanner = LogBytes(line.bytes)
    if scanner.expect("--------- ") { return .continuation }
    return LogcatFields.slashTagPidMessage(&scanner, time: nil, line: line.number)
  }
}

/// `adb logcat -v time`: `MM-DD HH:MM:SS.mmm L/TAG(  PID): message`.
struct LogcatTimeReader: LogStyleReader {
  private var clock = YearlessClock()

  mutating func read(_ line: LogLineSplitter.Line) -> LineReading {
    var scanner = LogBytes(line.bytes)
    if scanner.expect("--------- ") { return .continuation }
    guard let time = LogcatFields.monthDayTime(&scanner, clock: &clock), scanner.skipBlanks() > 0 else {
      return .notInStyle
    }
    return LogcatFields.slashTagPidMessage(&scanner, time: time, line: line.number)
  }
}
