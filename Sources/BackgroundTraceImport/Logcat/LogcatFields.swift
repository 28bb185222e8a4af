/// The parts logcat's formats share (AOSP system/logging/liblog/logprint.cpp,
/// `android_log_formatLogLine`).
enum LogcatFields {
  /// `L TAG: message`, as threadtime, epoch and year print it after the ids
  /// (`%c %-8s: %s`): the priority letter, the tag padded with blanks, `: `.
  static func levelTagMessage(
    _ scanner: inout LogBytes, time: LogTimestamp?, pid: Int, line: Int
  ) -> LineReading {
    guard let level = scanner.peek, isLevel(level) else { return .notInStyle }
    scanner.index += 1
    guard scanner.skipBlanks() > 0 else { return .notInStyle }
    let start = scanner.index
    // The tag ends at the first ": " (or a ':' that ends the line).
    var end = start
    let bytes = scanner.bytes
    while end < bytes.count, !(bytes[end] == 58 && (end + 1 == bytes.count || bytes[end + 1] == 32)) { end += 1 }
    guard end < bytes.count else { return .notInStyle }
    var tagEnd = end
    while tagEnd > start, bytes[tagEnd - 1] == 32 { tagEnd -= 1 }
    scanner.index = min(end + 2, bytes.count)
    return entry(scanner, tag: start..<tagEnd, time: time, pid: pid, process: nil, line: line)
  }

  /// `L/TAG(PID): message`, as brief and time print it (`%c/%-8s(%5d): %s`).
  static func slashTagPidMessage(_ scanner: inout LogBytes, time: LogTimestamp?, line: Int) -> LineReading {
    guard let level = scanner.peek, isLevel(level) else { return .notInStyle }
    scanner.index += 1
    guard scanner.expect(47), let open = scanner.upTo(40) else { return .notInStyle }
    var tagEnd = open.upperBound
    while tagEnd > open.lowerBound, scanner.bytes[tagEnd - 1] == 32 { tagEnd -= 1 }
    scanner.index += 1
    scanner.skipBlanks()
    guard let pid = scanner.number(), scanner.expect(41), scanner.expect(58) else { return .notInStyle }
    _ = scanner.expect(32)
    return entry(scanner, tag: open.lowerBound..<tagEnd, time: time, pid: pid, process: nil, line: line)
  }

  /// The record of an entry whose tag is at `tag` and message at the scanner's index.
  static func entry(
    _ scanner: LogBytes, tag: Range<Int>, time: LogTimestamp?, pid: Int?, process: String?, line: Int
  ) -> LineReading {
    guard LogRelevance.logcatTag(scanner, tag) else { return .skipped(time, line: line) }
    return .entry(
      LogRecord(
        time: time, pid: pid, process: process, source: knownTag(scanner, tag) ?? scanner.string(tag),
        message: scanner.rest(), line: line))
  }

  /// The tags the import reads, as constants: a tag of more than 15 bytes built from
  /// the line would be allocated for every line.
  static let knownTags: [String] = [
    "WM-WorkerWrapper", "WM-Processor", "WM-GreedyScheduler", "WM-SystemJobScheduler", "WM-SystemJobService",
    "WM-ForceStopRunnable", "ActivityManager", "AndroidRuntime", "wm_on_start_called", "wm_on_resume_called",
    "wm_on_paused_called", "wm_on_stop_called", "am_on_start_called", "am_on_resume_called", "am_on_paused_called",
    "am_on_stop_called",
  ]

  /// WorkManager's tags before 1.0.0-beta01, each with the tag it has had since: the
  /// class name alone (`private static final String TAG = "WorkerWrapper";`) until
  /// androidx commit 38e7c6ab52 (2018-12-13, "Add a prefix to all WorkManager internal
  /// log tags") made them `Logger.tagWithPrefix("WorkerWrapper")`, `WM-WorkerWrapper`.
  /// Their messages are the same, and are read as the prefixed tag's. `Processor` is
  /// left out: the word is too common a tag, and its lines were DEBUG, hidden by
  /// default from 1.0.0-alpha06 on (docs/import.md).
  static let prefixlessWorkManagerTags: [(prefixless: StaticString, tag: String)] = [
    ("WorkerWrapper", "WM-WorkerWrapper"), ("SystemJobScheduler", "WM-SystemJobScheduler"),
    ("SystemJobService", "WM-SystemJobService"), ("GreedyScheduler", "WM-GreedyScheduler"),
    ("ForceStopRunnable", "WM-ForceStopRunnable"),
  ]

  private static func knownTag(_ scanner: LogBytes, _ range: Range<Int>) -> String? {
    for tag in knownTags where tag.utf8.count == range.count {
      let equal = tag.utf8.withContiguousStorageIfAvailable { known in
        known.indices.allSatisfy { known[$0] == scanner.bytes[range.lowerBound + $0] }
      }
      if equal ?? tag.utf8.elementsEqual(scanner.bytes[range]) { return tag }
    }
    for known in prefixlessWorkManagerTags where scanner.equals(range, known.prefixless) { return known.tag }
    return nil
  }

  /// logcat's priority letters: Verbose, Debug, Info, Warn, Error, Fatal, Assert, Silent.
  static func isLevel(_ byte: UInt8) -> Bool {
    switch byte {
    case 86, 68, 73, 87, 69, 70, 65, 83: true
    default: false
    }
  }

  /// `MM-DD HH:MM:SS.mmm`, with an optional zone after it (`-v zone`).
  static func monthDayTime(_ scanner: inout LogBytes, clock: inout YearlessClock) -> LogTimestamp? {
    guard let month = scanner.digits(2), scanner.expect(45), let day = scanner.digits(2), scanner.expect(32),
      let time = LogCalendar.clock(&scanner)
    else { return nil }
    let offset = optionalZone(&scanner)
    return clock.timestamp(
      month: month, day: day, hour: time.hour, minute: time.minute, second: time.second,
      nanosecond: time.nanosecond, offsetSeconds: offset)
  }

  /// `YYYY-MM-DD HH:MM:SS.mmm` (`-v year`, Android Studio), with an optional zone.
  static func dateTime(_ scanner: inout LogBytes) -> LogTimestamp? {
    LogCalendar.dateTime(&scanner) { .some(optionalZone(&$0)) }
  }

  /// `  PID  TID ` of threadtime (`%5d %5d`), also with `-v uid`'s user before them.
  static func pidAndTid(_ scanner: inout LogBytes) -> Int? {
    guard scanner.skipBlanks() > 0 else { return nil }
    let save = scanner.index
    if scanner.number() == nil {
      // `-v uid`: a user name (u0_a123, root, system) before the pid.
      scanner.index = save
      let user = scanner.word()
      guard !user.isEmpty, scanner.skipBlanks() > 0 else { return nil }
    } else {
      scanner.index = save
    }
    guard let pid = scanner.number(), scanner.skipBlanks() > 0, scanner.number() != nil || hexTid(&scanner),
      scanner.skipBlanks() > 0
    else { return nil }
    return pid
  }

  private static func hexTid(_ scanner: inout LogBytes) -> Bool {
    guard scanner.expect("0x") else { return false }
    let word = scanner.word()
    return !word.isEmpty
  }

  /// The zone after a time (`-v zone`), as seconds east of UTC; 0, and nothing read,
  /// when none follows.
  private static func optionalZone(_ scanner: inout LogBytes) -> Int {
    let save = scanner.index
    if scanner.skipBlanks() > 0, let zone = LogCalendar.zone(&scanner) { return zone }
    scanner.index = save
    return 0
  }
}
