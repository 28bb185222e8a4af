/// What a style's reader made of one line.
enum LineReading {
  /// A whole entry that may matter (its source or message is one the import reads).
  case entry(LogRecord)
  /// An entry of the style that cannot matter: only its time is kept.
  case skipped(LogTimestamp?)
  /// A line that belongs to the style without being an entry of its own: a column
  /// header, a blank, a line of a multi-line entry.
  case continuation
  /// A line that does not fit the style.
  case notInStyle
}

/// Reads one log style's lines into records. Each style is one reader, in its own file.
protocol LogStyleReader {
  /// Reads the next line.
  mutating func read(_ line: LogLineSplitter.Line) -> LineReading
  /// The entry still being assembled when the log ends (multi-line styles), if any.
  mutating func finish() -> LineReading?
}

extension LogStyleReader {
  mutating func finish() -> LineReading? { nil }
}

/// Which entries can matter, tested on bytes before any string is built.
enum LogRelevance {
  /// Whether a whole line holds a word every line the import reads holds: `WM-`,
  /// `ActivityManager` or `AndroidRuntime` on Android, `ask` (task, Task,
  /// BackgroundTask, submitTaskRequest) on iOS. One pass over the bytes, cheaper than
  /// reading the line's header.
  @inline(__always)
  static func mayMatter(_ line: UnsafeBufferPointer<UInt8>, platform: LogPlatform) -> Bool {
    let count = line.count
    guard count >= 3 else { return false }
    var index = 0
    switch platform {
    case .ios:
      while index < count - 2 {
        if line[index] == 97 && line[index + 1] == 115 && line[index + 2] == 107 { return true }
        index &+= 1
      }
    case .android:
      while index < count - 2 {
        let byte = line[index]
        if byte == 87 && line[index + 1] == 77 && line[index + 2] == 45 { return true }  // WM-
        if byte == 65 && (line[index + 1] == 99 || line[index + 1] == 110) {  // Ac…, An…
          if starts(line, at: index, with: "ActivityManager") || starts(line, at: index, with: "AndroidRuntime") {
            return true
          }
        }
        index &+= 1
      }
    }
    return false
  }

  private static func starts(_ line: UnsafeBufferPointer<UInt8>, at index: Int, with word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard index + count <= line.count else { return false }
    let bytes = word.utf8Start
    for offset in 0..<count where line[index + offset] != bytes[offset] { return false }
    return true
  }

  /// A logcat tag the import reads: WorkManager's (`WM-…`), ActivityManager's or
  /// AndroidRuntime's.
  static func logcatTag(_ scanner: LogBytes, _ range: Range<Int>) -> Bool {
    scanner.starts(range, with: "WM-") || scanner.equals(range, "ActivityManager")
      || scanner.equals(range, "AndroidRuntime")
  }

  /// An Apple log entry the import may read: its source or message mentions a task
  /// (`task`, `Task`, `BackgroundTask`, `submitTaskRequest`), or a launch handler.
  static func apple(_ scanner: LogBytes, _ range: Range<Int>) -> Bool {
    let bytes = scanner.bytes
    var index = range.lowerBound
    let end = range.upperBound - 2
    while index < end {
      // "ask": task, Task, BackgroundTask, submitTaskRequest.
      if bytes[index] == 97 && bytes[index + 1] == 115 && bytes[index + 2] == 107 { return true }
      index &+= 1
    }
    return false
  }
}

/// Logcat's yearless times (threadtime, time, long): counted in 2000, a year more each
/// time the log passes a year boundary (a time more than half a year before the last).
struct YearlessClock {
  private var years = 0
  private var last: Int64?

  mutating func timestamp(
    month: Int, day: Int, hour: Int, minute: Int, second: Int, nanosecond: Int64, offsetSeconds: Int = 0
  ) -> LogTimestamp? {
    guard
      var time = LogCalendar.nanoseconds(
        year: 2000 + years, month: month, day: day, hour: hour, minute: minute, second: second,
        nanosecond: nanosecond, offsetSeconds: offsetSeconds)
    else { return nil }
    let halfYear: Int64 = 183 * 86_400 * 1_000_000_000
    if let last, time < last - halfYear {
      years += 1
      time =
        LogCalendar.nanoseconds(
          year: 2000 + years, month: month, day: day, hour: hour, minute: minute, second: second,
          nanosecond: nanosecond, offsetSeconds: offsetSeconds) ?? time
    }
    last = time
    return LogTimestamp(nanoseconds: time, hasYear: false)
  }
}
