/// Android Studio's Logcat window, copied (Android Studio Dolphin and later):
/// `YYYY-MM-DD HH:MM:SS.mmm  PID-TID  TAG  PACKAGE  L  message`, the columns padded
/// with blanks; the date may be left out in the window's settings.
struct AndroidStudioLogcatReader: LogStyleReader {
  private var clock = YearlessClock()

  mutating func read(_ line: LogLineSplitter.Line) -> LineReading {
    var scanner = LogBytes(line.bytes)
    let time: LogTimestamp?
    if let dated = LogcatFields.dateTime(&scanner) {
      time = dated
    } else {
      scanner.index = 0
      guard let clockTime = LogCalendar.clock(&scanner) else { return .notInStyle }
      time = clock.timestamp(
        month: 1, day: 1, hour: clockTime.hour, minute: clockTime.minute, second: clockTime.second,
        nanosecond: clockTime.nanosecond)
    }
    guard scanner.skipBlanks() > 0, let pid = scanner.number(), scanner.expect(45), scanner.number() != nil,
      scanner.skipBlanks() > 0
    else { return .notInStyle }
    let tag = scanner.word()
    guard !tag.isEmpty, scanner.skipBlanks() > 0 else { return .notInStyle }
    // The package column may be hidden: then the priority letter comes next.
    var package = scanner.word()
    if package.count == 1, LogcatFields.isLevel(scanner.bytes[package.lowerBound]) {
      scanner.index = package.lowerBound
      package = package.lowerBound..<package.lowerBound
    } else {
      guard !package.isEmpty, scanner.skipBlanks() > 0 else { return .notInStyle }
    }
    guard let level = scanner.peek, LogcatFields.isLevel(level) else { return .notInStyle }
    scanner.index += 1
    guard scanner.atEnd || scanner.skipBlanks() > 0 else { return .notInStyle }
    // An unknown package is shown as `pid-1234`.
    let process = package.isEmpty || scanner.starts(package, with: "pid-") ? nil : scanner.string(package)
    return LogcatFields.entry(scanner, tag: tag, time: time, pid: pid, process: process, line: line.number)
  }
}

/// Android Studio's earlier Logcat window, copied:
/// `YYYY-MM-DD HH:MM:SS.mmm PID-TID/PACKAGE L/TAG: message` (`?` for an unknown package),
/// or with no year (`MM-DD HH:MM:SS.mmm`, as the window wrote before Android Studio 3:
/// a year boundary is counted, ``YearlessClock``).
struct AndroidStudioLegacyLogcatReader: LogStyleReader {
  private var clock = YearlessClock()

  mutating func read(_ line: LogLineSplitter.Line) -> LineReading {
    var scanner = LogBytes(line.bytes)
    var time = LogcatFields.dateTime(&scanner)
    if time == nil {
      scanner.index = 0
      time = LogcatFields.monthDayTime(&scanner, clock: &clock)
    }
    guard let time, scanner.skipBlanks() > 0, let pid = scanner.number(),
      scanner.expect(45), scanner.number() != nil, scanner.expect(47)
    else { return .notInStyle }
    let package = scanner.word()
    guard scanner.skipBlanks() > 0, let level = scanner.peek, LogcatFields.isLevel(level) else { return .notInStyle }
    scanner.index += 1
    guard scanner.expect(47) else { return .notInStyle }
    let start = scanner.index
    guard let colon = scanner.upTo(58) else { return .notInStyle }
    scanner.index += 1
    _ = scanner.expect(32)
    let process = scanner.equals(package, "?") || package.isEmpty ? nil : scanner.string(package)
    return LogcatFields.entry(
      scanner, tag: start..<colon.upperBound, time: time, pid: pid, process: process, line: line.number)
  }
}
