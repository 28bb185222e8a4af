public import BackgroundTrace

/// What `bgtrace import` was asked for.
public struct LogImportOptions: Sendable, Hashable {
  /// `--from ios|android`: the platform, when the content should not decide it.
  public var platform: LogPlatform?
  /// `--process NAME|PID`: the app to import, when not the one with the most
  /// background-work messages.
  public var process: String?
  /// `--strict`: a line of a recognised source whose message does not parse is an error.
  public var strict = false

  /// Creates the default options.
  public init(platform: LogPlatform? = nil, process: String? = nil, strict: Bool = false) {
    self.platform = platform
    self.process = process
    self.strict = strict
  }
}

/// Why an import failed: its description names the log, the line and what was expected,
/// or what failed reading it.
public struct LogImportError: BackgroundTraceError, Hashable {
  /// The log's name (or the import's temporary file, for a failure of that file).
  public var file: String?
  /// The line, when the problem is at one.
  public var position: TracePosition?
  /// What was expected and what was found, or what failed.
  public var message: String
  /// Whether a read failed, below the log's text.
  private var isUnreadable = false
  /// Whether the log has no line in any known style: it may be no log at all (a
  /// command that also reads traces then says what a trace starts with).
  package var isInNoKnownStyle = false

  /// Creates an error about what a log holds, at `line` when given.
  public init(file: String?, line: Int? = nil, message: String) {
    self.file = file
    position = line.map { .text(line: $0, column: 1) }
    self.message = message
  }

  /// The error for a read that failed below the log's text: a log that cannot be
  /// opened or read, or the import's temporary file.
  public init(unreadable failure: ByteSourceError) {
    file = failure.file
    position = nil
    message = failure.message
    isUnreadable = true
  }

  /// ``/BackgroundTrace/TraceErrorKind/io`` for a read that failed,
  /// ``/BackgroundTrace/TraceErrorKind/malformedTrace`` at a line,
  /// ``/BackgroundTrace/TraceErrorKind/configuration`` otherwise (a problem of the whole
  /// log or of the options).
  public var kind: TraceErrorKind { isUnreadable ? .io : position == nil ? .configuration : .malformedTrace }
}

/// Why ``LogImporter/run(_:options:meta:event:)`` stopped: the import failed, or what
/// it handed its output to threw.
public enum LogImportFailure: Error, CustomStringConvertible {
  /// The logs could not be imported.
  case importing(LogImportError)
  /// `meta` or `event` threw this.
  case output(any Error)

  /// The error itself.
  public var underlying: any Error {
    switch self {
    case .importing(let error): error
    case .output(let error): error
    }
  }

  /// The underlying error's description: for the import's own, the log, the line and
  /// what was expected.
  public var description: String { String(describing: underlying) }

  /// The import's error; `nil` when `meta` or `event` threw.
  public var importError: LogImportError? {
    if case .importing(let error) = self { error } else { nil }
  }
}

/// Where in the imported logs an event came from.
public struct LogLocation: Sendable, Hashable {
  /// The log: its index among the inputs of the import.
  public var input: Int
  /// The line, counting from 1.
  public var line: Int

  /// The line `line` of input `input`.
  public init(input: Int, line: Int) {
    self.input = input
    self.line = line
  }
}

/// One log to import: a name for messages and a way to read it from its start (the
/// import opens it twice: to detect its style from its first lines, then for its pass).
public struct LogInput: Sendable {
  /// The log's name (its path, or `<stdin>`).
  public var name: String
  /// Opens the log at its start.
  public var open: @Sendable () throws(ByteSourceError) -> any ByteSource

  /// A log read from `open`, named `name`.
  public init(name: String, open: @escaping @Sendable () throws(ByteSourceError) -> any ByteSource) {
    self.name = name
    self.open = open
  }

  /// The log at `path`.
  public static func file(_ path: String) -> LogInput {
    LogInput(name: path) { () throws(ByteSourceError) in try FileByteSource(path: path) }
  }

  /// The log's lines, from its start.
  ///
  /// - Throws: ``LogImportError`` when the log cannot be opened.
  func lines() throws(LogImportError) -> LogLineSplitter {
    do throws(ByteSourceError) { return LogLineSplitter(try open()) } catch { throw LogImportError(unreadable: error) }
  }

  /// A log held in memory.
  public static func bytes(_ bytes: [UInt8], name: String) -> LogInput {
    LogInput(name: name) { MemoryByteSource(bytes) }
  }
}

/// Imports device logs into a trace: detects each log's style, reads its lines as they
/// stream (memory flat in the log's length), reads the platforms' background-work
/// messages, picks an app and turns its messages into events (docs/import.md).
///
/// One pass over the logs (after each style is detected from its first lines): it names
/// the processes, counts each app's background-work messages and keeps every message
/// read (`ImportPass`); the chosen app's events are then written from what it kept.
public enum LogImporter: Sendable {
  /// Imports `inputs` (read in the order given, as one capture), handing the trace's
  /// metadata to `meta` once and then each event to `event`, in order.
  ///
  /// - Returns: what was read and written.
  /// - Throws: ``LogImportFailure/importing(_:)`` with a ``LogImportError`` for a log
  ///   none of whose lines is in a known style, an unknown `--process`, (with `strict`)
  ///   a message that does not parse, or a read that failed (of a log, or of the
  ///   temporary file of a long log's messages); ``LogImportFailure/output(_:)`` with
  ///   what `meta` or `event` threw.
  public static func run(
    _ inputs: [LogInput], options: LogImportOptions,
    meta: (TraceMetadata) throws -> Void, event: (TraceEvent) throws -> Void
  ) throws(LogImportFailure) -> ImportSummary {
    try run(inputs, options: options, meta: meta) { (imported, _) in try event(imported) }
  }

  /// Imports `inputs` as ``run(_:options:meta:event:)`` does, handing each event with
  /// the log line it came from, so that what is found in the trace can cite the log.
  public static func run(
    _ inputs: [LogInput], options: LogImportOptions,
    meta: (TraceMetadata) throws -> Void, located event: (TraceEvent, LogLocation) throws -> Void
  ) throws(LogImportFailure) -> ImportSummary {
    var pass: ImportPass
    let app: String?
    do throws(LogImportError) {
      pass = ImportPass(survey: try LogSurvey.detectingStyles(inputs, platform: options.platform))
      for (index, input) in inputs.enumerated() {
        try pass.read(input, index: index, style: pass.survey.styles[index].style, strict: options.strict)
      }
      app = try pass.survey.chooseApp(options.process)
    } catch {
      throw .importing(error)
    }
    let survey = pass.survey
    // The records of `dumpsys` dumps, merged by time with the logs' messages.
    let dumpRecords = pass.dumpsInTheLogsFrame()
    var summary = pass.summary
    summary.platform = survey.platform
    summary.styles = survey.styles
    summary.app = app
    summary.apps = survey.apps
    var metadata: TraceMetadata = ["platform": survey.platform.rawValue, "source": survey.platform.traceSource]
    if let app { metadata["process"] = app }
    if survey.platform == .android { metadata["attempts"] = "from-first-start-seen" }
    do { try meta(metadata) } catch { throw .output(error) }

    var translator = ImportTranslator(workTags: pass.workTags)
    var kinds: [TraceEvent.Kind] = []
    // Counted by code, not in the summary's dictionary: no hashing per event.
    var kindCounts = [Int](repeating: 0, count: Int(EventTag.allCases.map(\.rawValue).max() ?? 0) + 1)
    // Whether each process name lines carry is the app's, worked out once per name.
    let isAppName = pass.processNames.map { $0 == app }
    func write(_ spooled: SpooledMessage) throws(LogImportFailure) {
      let isApp: Bool =
        if spooled.message.subjectProcess == nil, let name = spooled.processName {
          isAppName[name]
        } else {
          survey.app(of: spooled.message, pid: spooled.pid) == app
        }
      guard isApp else {
        summary.skippedLines += 1
        return
      }
      kinds.removeAll(keepingCapacity: true)
      translator.translate(spooled.message, pid: spooled.pid, into: &kinds)
      if kinds.isEmpty { summary.skippedLines += 1 }
      let time = pass.clock.traceTime(of: spooled.time)
      for kind in kinds {
        kindCounts[Int(kind.tag.rawValue)] += 1
        do { try event(TraceEvent(time: time, kind), spooled.location) } catch { throw .output(error) }
      }
    }
    var nextDumpRecord = 0
    var read = 0
    let strictFailure = pass.strictFailure
    try pass.spool.replay { (spooled) throws(LogImportFailure) in
      if let strictFailure, read == strictFailure.before { throw .importing(strictFailure.error) }
      read += 1
      while nextDumpRecord < dumpRecords.count, let record = dumpRecords[nextDumpRecord].time,
        let line = spooled.time, record.nanoseconds <= line.nanoseconds
      {
        try write(dumpRecords[nextDumpRecord])
        nextDumpRecord += 1
      }
      try write(spooled)
    }
    if let strictFailure { throw .importing(strictFailure.error) }
    for record in dumpRecords[nextDumpRecord...] { try write(record) }
    for tag in EventTag.allCases where kindCounts[Int(tag.rawValue)] > 0 {
      summary.eventsByKind[tag] = kindCounts[Int(tag.rawValue)]
    }
    summary.outOfOrderLines = pass.clock.outOfOrder
    summary.interleavedLines = translator.interleavedLines
    summary.couldNotTell = LogLimits.sentences(
      platform: survey.platform, styles: survey.styles.map(\.style), translator: translator,
      unnamed: survey.apps.contains { $0.name == LogSurvey.unnamed && $0.pids.count > 1 })
    return summary
  }
}

/// Reads a record's message with its platform's reader.
enum LogMessages {
  static func read(_ record: LogRecord, platform: LogPlatform) -> MessageReading {
    switch platform {
    case .ios: AppleBackgroundMessages.read(record)
    case .android: AndroidBackgroundMessages.read(record)
    }
  }
}

/// Trace time from log time: relative to the log's first timed line, never earlier
/// than the event before (a line out of order keeps the time before, and is counted).
struct ImportClock {
  private var base: Int64?
  private var last: UInt64 = 0
  /// Whether the log's first time is known.
  var hasBase: Bool { base != nil }
  /// The log's first time, the trace's 0, once known.
  var start: Int64? { base }
  private(set) var outOfOrder = 0

  /// Takes note of a line's time (the first timed line is the trace's 0).
  mutating func see(_ time: LogTimestamp?) {
    if base == nil, let time { base = time.nanoseconds }
  }

  /// The trace time a line with `time` has reached, without taking it as an event's:
  /// `nil` when it has no time, or one before the last event's.
  func reached(_ time: LogTimestamp?) -> TraceTime? {
    guard let time, let base else { return nil }
    let (offset, overflow) = time.nanoseconds.subtractingReportingOverflow(base)
    guard !overflow, offset >= 0, UInt64(offset) >= last else { return nil }
    return TraceTime(nanoseconds: UInt64(offset))
  }

  /// The trace time of an event on a line with `time` (the time before when it has none).
  mutating func traceTime(of time: LogTimestamp?) -> TraceTime {
    guard let time, let base else { return TraceTime(nanoseconds: last) }
    let (offset, overflow) = time.nanoseconds.subtractingReportingOverflow(base)
    guard !overflow, offset >= 0, UInt64(offset) >= last else {
      outOfOrder += 1
      return TraceTime(nanoseconds: last)
    }
    last = UInt64(offset)
    return TraceTime(nanoseconds: last)
  }
}
