import BackgroundTrace

/// The platform a device log comes from.
public enum LogPlatform: String, Sendable, Hashable, CaseIterable {
  /// iOS (and the simulator): Apple's unified log.
  case ios
  /// Android: logcat.
  case android

  /// The trace's `meta source=` for an import from this platform's log.
  public var traceSource: String {
    switch self {
    case .ios: TraceMetadata.iosLogSource
    case .android: TraceMetadata.androidLogSource
    }
  }
}

/// A device log's style: how its lines are laid out; the importer tells it from
/// the content.
public enum LogStyle: String, Sendable, Hashable, CaseIterable {
  /// Xcode's debug console, copied (`TIME±ZONE Process[PID:TID] message`).
  case xcodeConsole = "xcode-console"
  /// `log show` / `log stream`, default style (and sysdiagnose's `log show` output).
  case logShowDefault = "log-show"
  /// `log show --style compact`.
  case logShowCompact = "log-show-compact"
  /// `log show --style syslog`.
  case logShowSyslog = "log-show-syslog"
  /// `log show --style json` and `log stream --style ndjson`.
  case logShowJSON = "log-show-json"
  /// Console.app's view of a device's log, copied (`TYPE\tTIME\tPROCESS\tMESSAGE`).
  case consoleApp = "console-app"
  /// `adb logcat -v threadtime` (the default).
  case logcatThreadtime = "logcat-threadtime"
  /// `adb logcat -v threadtime,year`.
  case logcatYear = "logcat-year"
  /// `adb logcat -v epoch` (or `-v monotonic`).
  case logcatEpoch = "logcat-epoch"
  /// `adb logcat -v brief`.
  case logcatBrief = "logcat-brief"
  /// `adb logcat -v time`.
  case logcatTime = "logcat-time"
  /// `adb logcat -v long`.
  case logcatLong = "logcat-long"
  /// Android Studio's Logcat window, copied.
  case androidStudio = "android-studio"
  /// Android Studio's earlier Logcat window, copied.
  case androidStudioLegacy = "android-studio-legacy"
  /// `adb shell dumpsys activity exit-info`: the process exits the system kept.
  case dumpsysExitInfo = "dumpsys-exit-info"
  /// `adb shell dumpsys jobscheduler`: the jobs JobScheduler holds.
  case dumpsysJobScheduler = "dumpsys-jobscheduler"

  /// The platform whose logs have this style.
  public var platform: LogPlatform {
    switch self {
    case .xcodeConsole, .logShowDefault, .logShowCompact, .logShowSyslog, .logShowJSON, .consoleApp: .ios
    default: .android
    }
  }

  /// Whether a line of the style can be skipped unread when it holds none of the words
  /// every line the import reads holds (``LogRelevance/mayMatter(_:platform:)``): true
  /// for the styles whose entries are one line each.
  var skipsLinesByWord: Bool {
    switch self {
    case .xcodeConsole, .logShowJSON, .logcatLong, .dumpsysExitInfo, .dumpsysJobScheduler: false
    default: true
    }
  }

  /// A reader for the style; one whose entries are one line each reads hard-wrapped
  /// lines as its entries' continuations (``WrappedLineJoining``).
  func makeReader() -> StyleReader {
    var reader: StyleReader?
    withReader(ReaderMaking(), on: &reader)
    return reader!
  }

  /// Hands `use` a new reader of the style, as ``makeReader()`` makes it, as the
  /// reader's own type: the code that reads with it is compiled for that reader. Called
  /// through `any LogStyleReader`, a reader that joins wrapped lines runs its generic
  /// code unspecialized on every line.
  func withReader<Use: LogStyleReaderUse>(_ use: Use, on subject: inout Use.Subject) throws(Use.Failure) {
    switch self {
    case .xcodeConsole: try use.read(XcodeConsoleReader(), on: &subject)
    case .logShowDefault: try use.read(WrappedLineJoining(AppleLogShowDefaultReader()), on: &subject)
    case .logShowCompact: try use.read(WrappedLineJoining(AppleLogShowCompactReader()), on: &subject)
    case .logShowSyslog: try use.read(WrappedLineJoining(AppleLogShowSyslogReader()), on: &subject)
    case .logShowJSON: try use.read(AppleLogJSONReader(), on: &subject)
    case .consoleApp: try use.read(WrappedLineJoining(ConsoleAppReader()), on: &subject)
    case .logcatThreadtime: try use.read(WrappedLineJoining(LogcatThreadtimeReader()), on: &subject)
    case .logcatYear: try use.read(WrappedLineJoining(LogcatYearReader()), on: &subject)
    case .logcatEpoch: try use.read(WrappedLineJoining(LogcatEpochReader()), on: &subject)
    case .logcatBrief: try use.read(WrappedLineJoining(LogcatBriefReader()), on: &subject)
    case .logcatTime: try use.read(WrappedLineJoining(LogcatTimeReader()), on: &subject)
    case .logcatLong: try use.read(LogcatLongReader(), on: &subject)
    case .androidStudio: try use.read(WrappedLineJoining(AndroidStudioLogcatReader()), on: &subject)
    case .androidStudioLegacy: try use.read(WrappedLineJoining(AndroidStudioLegacyLogcatReader()), on: &subject)
    case .dumpsysExitInfo: try use.read(DumpsysExitInfoReader(), on: &subject)
    case .dumpsysJobScheduler: try use.read(DumpsysJobSchedulerReader(), on: &subject)
    }
  }
}

/// What is done with a style's new reader (``LogStyle/withReader(_:on:)``), given the
/// reader as its own type, changing `subject`.
protocol LogStyleReaderUse {
  /// What the use changes.
  associatedtype Subject
  /// What the use throws.
  associatedtype Failure: Error
  /// Does the use with `reader`.
  func read(_ reader: consuming some LogStyleReader, on subject: inout Subject) throws(Failure)
}

/// ``LogStyle/makeReader()``'s use: keeps the reader behind closures compiled for it.
private struct ReaderMaking: LogStyleReaderUse {
  func read(_ reader: consuming some LogStyleReader, on subject: inout StyleReader?) {
    subject = StyleReader(reader)
  }
}

/// A style's reader kept across calls (``LogStyle/makeReader()``), behind closures
/// compiled for the reader's own type where ``LogStyle/withReader(_:on:)`` hands it over:
/// kept as `any LogStyleReader`, a reader that joins wrapped lines runs its generic code
/// unspecialized on every line.
///
/// The reader lives in a box the closures share, so copies of a `StyleReader` read
/// through the same reader: each holder keeps one (a `LogStream` the one it reads with,
/// the style detector one a style).
struct StyleReader: LogStyleReader {
  private let readLine: (LogLineSplitter.Line) -> LineReading
  private let finishReading: () -> LineReading?
  private let nextPendingReading: () -> LineReading?
  private let heldLine: () -> Int?
  let joinsWrappedLines: Bool

  init<Reader: LogStyleReader>(_ reader: Reader) {
    let box = ReaderBox(reader)
    readLine = { box.reader.read($0) }
    finishReading = { box.reader.finish() }
    nextPendingReading = { box.reader.nextPending() }
    heldLine = { box.reader.heldEntryLine }
    joinsWrappedLines = reader.joinsWrappedLines
  }

  mutating func read(_ line: LogLineSplitter.Line) -> LineReading { readLine(line) }
  mutating func finish() -> LineReading? { finishReading() }
  mutating func nextPending() -> LineReading? { nextPendingReading() }
  var heldEntryLine: Int? { heldLine() }
}

/// The reader a ``StyleReader``'s closures share and change.
private final class ReaderBox<Reader: LogStyleReader> {
  var reader: Reader
  init(_ reader: Reader) { self.reader = reader }
}

/// Tells a log's style from its first lines: each style's reader reads them, and the
/// style whose reader takes the most lines as entries wins (the first listed on a tie).
///
/// With a platform given, only its styles may win, but the other platform's read the
/// lines too: a log whose lines only the other platform's styles read as entries (with
/// a time or a process) is in none of the given platform's styles, though Xcode's
/// console copy takes any line as a bare message, and is refused rather than read as
/// the wrong platform's (``otherPlatformStyle``).
package struct LogStyleDetector {
  /// How many non-blank lines the detector looks at.
  package static let sampleLines = 400

  private var readers: [(style: LogStyle, reader: StyleReader, entries: Int, bare: Int)]
  private var sampled = 0
  /// The platform whose styles may win, when given.
  private let platform: LogPlatform?
  /// After ``finish()`` returned `nil` with a platform given: the other platform's style
  /// that read the lines as entries, when one did.
  package private(set) var otherPlatformStyle: LogStyle?

  /// Creates a detector for the styles of `platform` (every style when `nil`).
  package init(platform: LogPlatform?) {
    self.platform = platform
    readers = LogStyle.allCases.map { ($0, $0.makeReader(), 0, 0) }
  }

  /// Whether the detector has seen enough lines.
  package var isDone: Bool { sampled >= Self.sampleLines }

  /// The style that read the most lines as entries, when it read at least 3 and no
  /// other read half as many: a log read as it arrives (``LogStream``) need not wait
  /// for ``sampleLines`` lines then.
  package var clearLeader: LogStyle? {
    let ranked = readers.filter { platform == nil || $0.style.platform == platform }.sorted { $0.entries > $1.entries }
    guard let best = ranked.first, best.entries >= 3 else { return nil }
    if ranked.count > 1 && ranked[1].entries * 2 >= best.entries { return nil }
    return otherPlatformReadsMore(than: best) ? nil : best.style
  }

  /// Whether a style of the other platform than the one given read more lines as
  /// entries than `best`, of the given one's.
  private func otherPlatformReadsMore(than best: (style: LogStyle, reader: StyleReader, entries: Int, bare: Int))
    -> Bool
  {
    guard let platform else { return false }
    return readers.contains { $0.style.platform != platform && $0.entries > best.entries }
  }

  /// Reads one line of the sample.
  package mutating func sample(_ line: LogLineSplitter.Line) {
    guard !line.isOverlong, !line.bytes.isEmpty else { return }
    sampled += 1
    for index in readers.indices {
      count(readers[index].reader.read(line), at: index)
      while let more = readers[index].reader.nextPending() { count(more, at: index) }
    }
  }

  /// Counts a reading: an entry with neither time nor process (a bare message, which
  /// fits Xcode's console copy and many other styles) counts only when no style reads
  /// any line of its own.
  private mutating func count(_ reading: LineReading?, at index: Int) {
    switch reading {
    case .entry(let record) where record.time == nil && record.pid == nil: readers[index].bare += 1
    case .entry?, .skipped?, .unread?: readers[index].entries += 1
    default: break
    }
  }

  /// Ends the sample: the style that read the most lines as entries (bare messages
  /// breaking a tie), or `nil` when none read any.
  package mutating func finish() -> LogStyle? {
    for index in readers.indices {
      count(readers[index].reader.finish(), at: index)
      while let more = readers[index].reader.nextPending() { count(more, at: index) }
    }
    var best: (style: LogStyle, reader: StyleReader, entries: Int, bare: Int)?
    for candidate in readers where platform == nil || candidate.style.platform == platform {
      guard (candidate.entries, candidate.bare) > (best?.entries ?? 0, best?.bare ?? 0) else { continue }
      best = candidate
    }
    guard let best else { return nil }
    if otherPlatformReadsMore(than: best) {
      otherPlatformStyle = readers.filter { $0.style.platform != platform }.max { $0.entries < $1.entries }?.style
      return nil
    }
    return best.style
  }
}

/// Not Sendable: it holds readers, which are not shared.
@available(*, unavailable)
extension LogStyleDetector: Sendable {}
