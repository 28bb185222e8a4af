package import BackgroundTrace

/// One device log imported as its lines arrive, for `bgtrace watch` (docs/import.md,
/// "Watching a running app"): each line's events are handed over as soon as the line
/// is read, and the log's clock is handed over on lines that give no event, so that a
/// deadline passes when the log's time passes it.
///
/// It reads lines as ``LogImporter`` does, with what it cannot know yet decided from
/// what it has read so far:
/// - the style, from the first lines, held until ``LogStyleDetector`` has read
///   ``LogStyleDetector/sampleLines`` of them or one style leads clearly
///   (``LogStyleDetector/clearLeader``);
/// - the app: the one `--process` names, else the first whose background-work message
///   is read; the messages read before it is known (up to ``heldMessageLimit``) are
///   kept, and its own are written once it is;
/// - a work's tags: from the lines read so far.
package struct LogStream {
  /// What reading a line hands over, in the order it happens.
  package enum Output {
    /// The trace's metadata, once, when the style is known.
    case meta(TraceMetadata)
    /// The app whose events are written, once, when it is known.
    case app(String)
    /// An event of the app, from the log line `line`.
    case event(TraceEvent, line: Int)
    /// The log's clock reached `time` at line `line`, which gave no event.
    case time(TraceTime, line: Int)
  }

  /// The most messages kept while the app is not known.
  package static let heldMessageLimit = 10_000

  /// The log's name.
  package let name: String
  private let options: LogImportOptions
  private var detector: LogStyleDetector
  /// The lines read before the style was known: their numbers and bytes.
  private var heldLines: [(number: Int, bytes: [UInt8], isOverlong: Bool)] = []
  private var heldBytes = 0
  private var reader: StyleReader?
  private var survey: LogSurvey?
  private var clock = ImportClock()
  private var translator = ImportTranslator()
  /// The app whose events are written, once known.
  package private(set) var app: String?
  /// Messages read before the app was known, oldest first.
  private var heldMessages: [SpooledMessage] = []
  /// The process names lines carry, indexed by ``SpooledMessage/processName``.
  private var processNames: [String] = []
  private var processIndex: [String: Int] = [:]
  private var kinds: [TraceEvent.Kind] = []
  /// What was read: the summary `bgtrace import` prints.
  package private(set) var summary = ImportSummary()

  /// A stream of the log `name`, read with `options` (`strict` is not used: a line
  /// that does not parse is counted, and the watch goes on).
  package init(name: String, options: LogImportOptions) {
    self.name = name
    self.options = options
    detector = LogStyleDetector(platform: options.platform)
  }

  /// The style the log was read in, once known.
  package var style: LogStyle? { survey?.styles.first?.style }

  /// Reads the next line, handing what it gives to `output`.
  ///
  /// - Throws: ``LogImportError`` when the first lines are in no known style.
  package mutating func take(_ line: LogLineSplitter.Line, _ output: (Output) -> Void) throws(LogImportError) {
    guard reader != nil else {
      heldLines.append((line.number, Array(line.bytes), line.isOverlong))
      heldBytes += line.bytes.count
      detector.sample(line)
      if detector.isDone || detector.clearLeader != nil || heldBytes > LogLineSplitter.maximumLineLength {
        try start(output)
      }
      return
    }
    try read(line, output)
  }

  /// Ends the log: reads what the last line still held, and decides the style when the
  /// log ended before it was known.
  ///
  /// - Throws: as ``take(_:_:)``.
  package mutating func finish(_ output: (Output) -> Void) throws(LogImportError) {
    if reader == nil { try start(output) }
    if let last = reader?.finish() { try take(last, output) }
    while let more = reader?.nextPending() { try take(more, output) }
    if app == nil, let chosen = try survey?.chooseApp(options.process) {
      // No background work named the app: the importer's choice, over what was kept.
      try choose(chosen, output)
    }
    summary.outOfOrderLines = clock.outOfOrder
    summary.interleavedLines = translator.interleavedLines
    if let survey {
      summary.apps = survey.apps
      summary.couldNotTell = LogLimits.sentences(
        platform: survey.platform, styles: survey.styles.map(\.style), translator: translator,
        unnamed: survey.apps.contains { $0.name == LogSurvey.unnamed && $0.pids.count > 1 })
    }
  }

  /// Decides the style from the lines held, hands over the metadata and reads them.
  private mutating func start(_ output: (Output) -> Void) throws(LogImportError) {
    guard let style = detector.finish() else {
      throw LogSurvey.noKnownStyle(name, platform: options.platform, readsAs: detector.otherPlatformStyle)
    }
    let survey = LogSurvey(file: name, style: style)
    self.survey = survey
    reader = style.makeReader()
    summary.platform = survey.platform
    summary.styles = survey.styles
    var metadata: TraceMetadata = ["platform": survey.platform.rawValue, "source": survey.platform.traceSource]
    if let process = options.process, Int(process) == nil { metadata["process"] = process }
    if survey.platform == .android { metadata["attempts"] = "from-first-start-seen" }
    output(.meta(metadata))
    let held = heldLines
    heldLines = []
    heldBytes = 0
    for line in held {
      try line.bytes.withUnsafeBufferPointer { (bytes) throws(LogImportError) in
        try read(LogLineSplitter.Line(number: line.number, bytes: bytes, isOverlong: line.isOverlong), output)
      }
    }
  }

  private mutating func read(_ line: LogLineSplitter.Line, _ output: (Output) -> Void) throws(LogImportError) {
    summary.lines += 1
    if line.isOverlong {
      summary.overlongLines += 1
      summary.skippedLines += 1
      return
    }
    try take(reader!.read(line), output)
    while let more = reader!.nextPending() { try take(more, output) }
  }

  private mutating func take(_ reading: LineReading, _ output: (Output) -> Void) throws(LogImportError) {
    switch reading {
    case .notInStyle:
      summary.unrecognisedLines += 1
      summary.skippedLines += 1
    case .unread(let entry):
      summary.unreadEntries[entry.summaryWords, default: 0] += 1
      summary.skippedLines += 1
    case .continuation:
      break
    case .skipped(let time, let line):
      clock.see(time)
      summary.skippedLines += 1
      try passTime(time, line: line, output)
    case .entry(let record):
      clock.see(record.time)
      let reading = LogMessages.read(record, platform: survey!.platform)
      survey!.take(record, reading)
      guard case .message(let message) = reading else {
        if case .malformed = reading { summary.malformedLines += 1 }
        summary.skippedLines += 1
        try passTime(record.time, line: record.line, output)
        return
      }
      if let printed = message.printedTags { translator.learnTags(printed.tags, of: printed.work) }
      let spooled = SpooledMessage(
        time: record.time, pid: record.pid, processName: record.process.map { index($0) }, message: message,
        location: LogLocation(input: 0, line: record.line))
      guard app != nil else {
        // Kept until the app is known; written with the others kept when this one names it.
        return try chooseApp(after: spooled, source: record.source, output)
      }
      if try !write(spooled, output) { try passTime(record.time, line: record.line, output) }
    }
  }

  /// Hands over the log's clock at a line that gave no event, once the app is known.
  private func passTime(_ time: LogTimestamp?, line: Int, _ output: (Output) -> Void) throws(LogImportError) {
    guard app != nil, let reached = clock.reached(time) else { return }
    output(.time(reached, line: line))
  }

  /// Writes `message`'s events when it is the app's; whether it wrote any.
  private mutating func write(_ message: SpooledMessage, _ output: (Output) -> Void) throws(LogImportError) -> Bool {
    guard isApp(message) else {
      summary.skippedLines += 1
      return false
    }
    kinds.removeAll(keepingCapacity: true)
    translator.translate(message.message, pid: message.pid, into: &kinds)
    guard !kinds.isEmpty else {
      summary.skippedLines += 1
      return false
    }
    let time = clock.traceTime(of: message.time)
    for kind in kinds {
      summary.eventsByKind[kind.tag, default: 0] += 1
      output(.event(TraceEvent(time: time, kind), line: message.location.line))
    }
    return true
  }

  /// Whether `message` is the app's, as ``LogImporter`` tells it: by pid when
  /// `--process` gives one, else by the app it belongs to.
  private func isApp(_ message: SpooledMessage) -> Bool {
    if let pid = processPID { return Self.pid(of: message) == pid }
    return app(of: message) == app
  }

  /// The app `message` belongs to: the process it names (ActivityManager's), else the
  /// name its line carries, else its pid's name.
  private func app(of message: SpooledMessage) -> String {
    if message.message.subjectProcess == nil, let name = message.processName { return processNames[name] }
    return survey!.app(of: message.message, pid: message.pid)
  }

  /// The pid `message` is about: the process it names, else the one that wrote it.
  private static func pid(of message: SpooledMessage) -> Int? {
    message.message.subjectProcess?.pid ?? message.pid
  }

  /// `--process`, when it is a pid.
  private var processPID: Int? { options.process.flatMap { Int($0) } }

  /// Keeps `message` until the app is known, or makes its app the one: the one
  /// `--process` names, else the first with a background-work message. Once known, the
  /// messages kept are written.
  private mutating func chooseApp(
    after message: SpooledMessage, source: String, _ output: (Output) -> Void
  ) throws(LogImportError) {
    hold(message)
    let candidate = app(of: message)
    if let process = options.process {
      let matches = processPID.map { Self.pid(of: message) == $0 } ?? (candidate == process)
      if matches { try choose(candidate, output) }
    } else if LogSurvey.isBackgroundSource(source) || message.message.isBackgroundWork {
      try choose(candidate, output)
    }
  }

  /// Makes `app` the one whose events are written, and writes its messages kept.
  private mutating func choose(_ app: String, _ output: (Output) -> Void) throws(LogImportError) {
    self.app = app
    summary.app = app
    output(.app(app))
    let held = heldMessages
    heldMessages = []
    for earlier in held { _ = try write(earlier, output) }
  }

  private mutating func hold(_ message: SpooledMessage) {
    if heldMessages.count == Self.heldMessageLimit {  // the older half is dropped, unwritten
      heldMessages.removeFirst(Self.heldMessageLimit / 2)
      summary.skippedLines += Self.heldMessageLimit / 2
    }
    heldMessages.append(message)
  }

  /// The index of a process name in ``processNames``, added when new.
  private mutating func index(_ name: String) -> Int {
    if let found = processIndex[name] { return found }
    processIndex[name] = processNames.count
    processNames.append(name)
    return processNames.count - 1
  }
}

/// Not Sendable: it holds a style reader, which is not shared.
@available(*, unavailable)
extension LogStream: Sendable {}
