/// `adb logcat -v threadtime` (the default): `MM-DD HH:MM:SS.mmm  PID  TID L TAG: message`.
/// No year: a year boundary is counted (``YearlessClock``).
struct LogcatThreadtimeReader: LogStyleReader {
  private var clock = YearlessClock()

  mutating func read(_ line: LogLineSplitter.Line) -> LineReading {
    var scanner = LogBytes(line.bytes)
    if scanner.expect("--------- ") { return .continuation }  // "--------- beginning of main"
    guard let time = LogcatFields.monthDayTime(&scanner, clock: &clock), let pid = LogcatFields.pidAndTid(&scanner)
    else { return .notInStyle }
    return LogcatFields.levelTagMessage(&scanner, time: time, pid: pid, line: line.number)
  }
}

/// `adb logcat -v threadtime,year` (`-v year`): threadtime with `YYYY-MM-DD` dates.
struct LogcatYearReader: LogStyleReader {
  mutating func read(_ line: LogLineSplitter.Line) -> LineReading {
    var scanner = LogBytes(line.bytes)
    if scanner.expect("--------- ") { return .continuation }
    guard let time = LogcatFields.dateTime(&scanner), let pid = LogcatFields.pidAndTid(&scanner) else {
      return .notInStyle
    }
    return LogcatFields.levelTagMessage(&scanner, time: time, pid: pid, line: line.number)
  }
}

/// `adb logcat -v epoch` (and `-v monotonic`): threadtime with seconds since the
/// epoch (or since boot), `SSSSSSSSSS.mmm  PID  TID L TAG: message`. Exact times.
struct LogcatEpochReader: LogStyleReader {
  mutating func read(_ line: LogLineSplitter.Line) -> LineReading {
    var scanner = LogBytes(line.bytes)
    if scanner.expect("--------- ") { return .continuation }
    scanner.skipBlanks()
    guard let seconds = scanner.number(), scanner.expect(46), let fraction = scanner.fractionNanoseconds(),
      let pid = LogcatFields.pidAndTid(&scanner)
    else { return .notInStyle }
    // Seconds past 2262 overflow 64-bit nanoseconds: garbage, not a log.
    guard seconds < 7_000_000_000 else { return .notInStyle }
    let time = LogTimestamp(nanoseconds: Int64(seconds) * 1_000_000_000 + fraction.nanoseconds)
    return LogcatFields.levelTagMessage(&scanner, time: time, pid: pid, line: line.number)
  }
}
