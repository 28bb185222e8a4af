#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
    switch platform {
    case .ios: contains(line, "ask", rare: 2)
    case .android:
      contains(line, "WM-", rare: 0) || contains(line, "ActivityManager", rare: 5)
        || contains(line, "AndroidRuntime", rare: 7)
    }
  }

  /// Whether `line` holds `word`, found by `memchr` for its byte at `rare` (one that
  /// is rare in logs: `k`, `W`, `v`, `R`), then compared around it.
  @inline(__always)
  private static func contains(_ line: UnsafeBufferPointer<UInt8>, _ word: StaticString, rare: Int) -> Bool {
    let length = word.utf8CodeUnitCount
    guard let base = line.baseAddress, line.count >= length else { return false }
    let pattern = word.utf8Start
    var from = rare
    let end = line.count - (length - rare - 1)
    while from < end {
      guard let found = memchr(base + from, Int32(pattern[rare]), end - from) else { return false }
      let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) - rare
      var matched = 0
      while matched < length && base[at + matched] == pattern[matched] { matched += 1 }
      if matched == length { return true }
      from = at + rare + 1
    }
    return false
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
