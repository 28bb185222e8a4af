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
  case skipped(LogTimestamp?, line: Int)
  /// A line that belongs to the style without being an entry of its own: a column
  /// header, a blank, a line of a multi-line entry.
  case continuation
  /// A line that does not fit the style.
  case notInStyle
  /// An entry of the style that the import knows and deliberately does not read, for
  /// the reason `UnreadEntry` gives; the summary counts it.
  case unread(UnreadEntry)

  /// Whether the line starts no entry: it continues one, or is not in the style.
  var isNotAnEntry: Bool {
    switch self {
    case .continuation, .notInStyle: true
    case .entry, .skipped, .unread: false
    }
  }
}

/// An entry a log style prints that the import knows and does not read, because what
/// it says cannot be put into the trace without a guess. Each is declared here once,
/// with the words the summary uses for it (docs/import.md lists them).
enum UnreadEntry: Hashable {
  /// Android 7's `dumpsys jobscheduler` job history (`-33m57s905ms START: u0a71
  /// PACKAGE/SERVICE`): it names the app and the job's service, not the job, and every
  /// WorkManager job of an app runs the same service.
  case jobHistoryWithoutJobID

  /// What the summary calls such entries, in the plural.
  var summaryWords: String {
    switch self {
    case .jobHistoryWithoutJobID: "job history entries of Android 7, which name no job"
    }
  }
}

/// Reads one log style's lines into records. Each style is one reader, in its own file.
protocol LogStyleReader {
  /// Reads the next line.
  mutating func read(_ line: LogLineSplitter.Line) -> LineReading
  /// The entry still being assembled when the log ends (multi-line styles), if any.
  mutating func finish() -> LineReading?
  /// The next of the further entries the last line read holds (a style whose line may
  /// end several), if any: the caller takes them after ``read(_:)``'s.
  mutating func nextPending() -> LineReading?
  /// The line of the entry held for the lines that may continue it, if one is: the
  /// next line must be read, even one with none of the words the import looks for.
  var heldEntryLine: Int? { get }
  /// Whether a line not in the style may continue the entry before it
  /// (``WrappedLineJoining``): a line skipped for lacking the words may then be the
  /// first part of a message whose continuation holds them.
  var joinsWrappedLines: Bool { get }
}

extension LogStyleReader {
  mutating func finish() -> LineReading? { nil }
  mutating func nextPending() -> LineReading? { nil }
  var heldEntryLine: Int? { nil }
  var joinsWrappedLines: Bool { false }
}

/// Which entries can matter, tested on bytes before any string is built.
enum LogRelevance {
  /// Whether a whole line holds a word every line the import reads holds: `WM-`,
  /// `ActivityManager`, `AndroidRuntime` or `m_on_` (the activity lifecycle's event
  /// tags, `wm_on_…` and `am_on_…`) on Android, `ask` (task, Task,
  /// BackgroundTask, submitTaskRequest) or ``stateUpdateWords`` / ``visibilityWords`` (RunningBoard's
  /// and FrontBoard's app states, found by their `v`) on iOS. One pass over the bytes (two on iOS), cheaper
  /// than reading the line's header.
  @inline(__always)
  static func mayMatter(_ line: UnsafeBufferPointer<UInt8>, platform: LogPlatform) -> Bool {
    switch platform {
    case .ios: contains(line, "ask", rare: 2) || containsStateWords(line)
    case .android:
      containsAndroidWord(line)
    }
  }

  /// Whether `line` holds `word`, found by `memchr` for its byte at `rare` (one that
  /// is rare in logs: `k`), then compared around it.
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
      if matches(line, at: at, word) { return true }
      from = at + rare + 1
    }
    return false
  }

  /// Whether `line` holds one of Android's words: `WM-`, `ActivityManager`,
  /// `AndroidRuntime` or `m_on_`, or a WorkManager tag from before the `WM-` prefix
  /// (`WorkerWrapper`, `SystemJob…`, `GreedyScheduler`, `ForceStopRunnable`), each found
  /// by a pair of its bytes that is rare in logs (`M-`, `m_`, `mJ`, tested as one: an `M`
  /// or `m` followed by `-`, `_` or `J`; `vi`; `Ru`; `rW`; `yS`): one
  /// scan for the pairs at once, 16 positions at a time (a `memchr` per word would scan
  /// the line once per word, and a single byte matches far more often than a pair), each
  /// hit compared around it.
  @inline(__always)
  private static func containsAndroidWord(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = line.baseAddress else { return false }
    @inline(__always)
    func hit(at index: Int) -> Bool {
      // Only the words whose pair starts with this byte.
      switch line[index] {
      case 77, 109:  // M, m
        matches(line, at: index - 1, "WM-") || matches(line, at: index, "m_on_")
          || matches(line, at: index - 5, "SystemJob")
      case 118: matches(line, at: index - 4, "ActivityManager")  // v
      case 82: matches(line, at: index - 7, "AndroidRuntime") || matches(line, at: index - 9, "ForceStopRunnable")  // R
      case 114: matches(line, at: index - 5, "WorkerWrapper")  // r
      case 121: matches(line, at: index - 5, "GreedyScheduler")  // y
      default: false
      }
    }
    typealias Bytes = SIMD16<UInt8>
    let lowercaseBit = Bytes(repeating: 0x20)
    let m = Bytes(repeating: 109)
    let dash = Bytes(repeating: 45)
    let underscore = Bytes(repeating: 95)
    let v = Bytes(repeating: 118)
    let i = Bytes(repeating: 105)
    let r = Bytes(repeating: 82)
    let u = Bytes(repeating: 117)
    let jUpper = Bytes(repeating: 74)
    let rLower = Bytes(repeating: 114)
    let wUpper = Bytes(repeating: 87)
    let y = Bytes(repeating: 121)
    let sUpper = Bytes(repeating: 83)
    // A lane's bit within its half, to make the hits' mask a number (summed per half).
    let weights = SIMD16<UInt8>(1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128)
    var index = 0
    while index + 17 <= line.count {
      let here = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
      let next = UnsafeRawPointer(base + index + 1).loadUnaligned(as: SIMD16<UInt8>.self)
      let mHere: SIMDMask<SIMD16<Int8>> = (here | lowercaseBit) .== m
      let markNext: SIMDMask<SIMD16<Int8>> = (next .== dash) .| (next .== underscore) .| (next .== jUpper)
      let viHits: SIMDMask<SIMD16<Int8>> = (here .== v) .& (next .== i)
      let ruHits: SIMDMask<SIMD16<Int8>> = (here .== r) .& (next .== u)
      let rwHits: SIMDMask<SIMD16<Int8>> = (here .== rLower) .& (next .== wUpper)
      let ysHits: SIMDMask<SIMD16<Int8>> = (here .== y) .& (next .== sUpper)
      let hits = (mHere .& markNext) .| viHits .| ruHits .| rwHits .| ysHits
      if any(hits) {
        let picked = SIMD16<UInt8>(repeating: 0).replacing(with: weights, where: hits)
        var lanes = UInt16(picked.lowHalf.wrappedSum()) | UInt16(picked.highHalf.wrappedSum()) << 8
        while lanes != 0 {
          if hit(at: index + lanes.trailingZeroBitCount) { return true }
          lanes &= lanes - 1
        }
      }
      index += 16
    }
    while index < line.count {
      if hit(at: index) { return true }
      index += 1
    }
    return false
  }

  /// Whether `line` holds RunningBoard's `Received state update for ` or FrontBoard's
  /// `Setting process visibility to: ` (its `task state` line holds `ask`), found by their
  /// `v` with one `memchr` scan.
  @inline(__always)
  private static func containsStateWords(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = line.baseAddress else { return false }
    var from = 0
    while from < line.count {
      guard let found = memchr(base + from, 118, line.count - from) else { return false }
      let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
      // The `v` is byte 5 of the one and byte 18 of the other.
      if matches(line, at: at - 5, stateUpdateWords) || matches(line, at: at - 18, visibilityWords) {
        return true
      }
      from = at + 1
    }
    return false
  }

  /// Whether `word` is at `at` in `line` (wholly inside it).
  @inline(__always)
  private static func matches(_ line: UnsafeBufferPointer<UInt8>, at: Int, _ word: StaticString) -> Bool {
    at >= 0 && at <= line.count && LogBytes(line).starts(at..<line.count, with: word)
  }

  /// A logcat tag the import reads: WorkManager's (`WM-…`, or one of
  /// ``LogcatFields/prefixlessWorkManagerTags``), ActivityManager's, AndroidRuntime's, or
  /// an activity lifecycle event's (`wm_on_…_called`, `am_on_…_called`).
  static func logcatTag(_ scanner: LogBytes, _ range: Range<Int>) -> Bool {
    scanner.starts(range, with: "WM-") || scanner.equals(range, "ActivityManager")
      || scanner.equals(range, "AndroidRuntime") || scanner.starts(range, with: "wm_on_")
      || scanner.starts(range, with: "am_on_")
      || LogcatFields.prefixlessWorkManagerTags.contains { scanner.equals(range, $0.prefixless) }
  }

  /// An Apple log entry the import may read: its source or message mentions a task
  /// (`task`, `Task`, `BackgroundTask`, `submitTaskRequest`), or a launch handler; or
  /// its message is RunningBoard's `Received state update for …` or FrontBoard's
  /// `[app<…>:PID] Setting process visibility to: …`.
  static func apple(_ scanner: LogBytes, _ range: Range<Int>) -> Bool {
    let bytes = scanner.bytes
    var index = range.lowerBound
    let end = range.upperBound - 2
    while index < end {
      // "ask": task, Task, BackgroundTask, submitTaskRequest.
      if bytes[index] == 97 && bytes[index + 1] == 115 && bytes[index + 2] == 107 { return true }
      index &+= 1
    }
    return scanner.starts(range, with: stateUpdateWords)
      || scanner.find(visibilityWords, from: range.lowerBound).map { $0.upperBound <= range.upperBound } ?? false
  }

  /// ``apple(_:_:)`` for an entry whose fields are strings already (`log show --style
  /// json`): its source holds `ask`, or its message is one the import may read.
  static func apple(message: String, source: String) -> Bool {
    if source.contains("ask") { return true }
    var message = message
    return message.withUTF8 { apple(LogBytes($0), 0..<$0.count) }
  }

  /// The first words of RunningBoardServices' state update (`Received state update for
  /// %d (…`), which the import reads as the app's state.
  static let stateUpdateWords: StaticString = "Received state update for "
  /// FrontBoard's visibility line after its process's `[app<BUNDLE>:PID`
  /// (`… Setting process visibility to: %{public}@`).
  static let visibilityWords: StaticString = "] Setting process visibility to: "
  /// The length of the longest word ``mayMatter(_:platform:)`` looks for
  /// (``visibilityWords``; Android's longest, `ForceStopRunnable`, is shorter): a word
  /// cut by a hard wrap lies within this many bytes of the cut on each side.
  static let longestWord = visibilityWords.utf8CodeUnitCount

  /// Whether a word lies across the cut between two lines that were one before a hard
  /// wrap: `first`'s last ``longestWord`` bytes, a blank unless `first` ends in one (as
  /// ``WrappedLineJoining`` joins them), and `second`'s first, held in `scratch`.
  static func mayMatter(
    across first: [UInt8], _ second: UnsafeBufferPointer<UInt8>, platform: LogPlatform, scratch: inout [UInt8]
  ) -> Bool {
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: first.suffix(longestWord))
    if scratch.last != UInt8(ascii: " ") { scratch.append(UInt8(ascii: " ")) }
    scratch.append(contentsOf: second.prefix(longestWord))
    return scratch.withUnsafeBufferPointer { mayMatter($0, platform: platform) }
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
