import BackgroundTrace
package import BackgroundTraceCheck
package import BackgroundTraceImport
import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A device log checked as its lines arrive: ``LogStream`` imports each line, a
/// ``TraceChecker`` checks each event and each step of the log's clock, and every
/// finding is handed over at the line that made it certain (docs/import.md, "Watching
/// a running app").
package struct LogWatch {
  /// What the watch tells as it reads, besides findings.
  package enum Note: Equatable {
    /// The style the log is read in, once known.
    case style(LogStyle)
    /// The app whose events are checked, once known.
    case app(String)
  }

  private var stream: LogStream
  private let configuration: CheckerConfiguration
  private var checker: TraceChecker?
  private var finished = false
  /// How many events were checked.
  package private(set) var events = 0
  /// How many findings were handed over, by severity.
  package private(set) var errors = 0
  package private(set) var warnings = 0

  /// A watch of the log `name`, imported with `options` and checked with `configuration`.
  package init(name: String, options: LogImportOptions, configuration: CheckerConfiguration) {
    stream = LogStream(name: name, options: options)
    self.configuration = configuration
  }

  /// How `bgtrace watch` checks: as `check` does, remembering the last 10,000 to
  /// 20,000 finished works (``CheckerConfiguration/finishedWorkMemory``), so that memory
  /// stays flat on an endless stream.
  package static var configuration: CheckerConfiguration {
    var configuration = CheckerConfiguration()
    configuration.finishedWorkMemory = 10_000
    return configuration
  }

  /// What was read, as `bgtrace import` summarises it.
  package var summary: ImportSummary { stream.summary }

  /// Reads the next line; returns the findings it made certain, and hands `note` what
  /// became known.
  ///
  /// - Throws: ``LogImportError`` when the log's first lines are in no known style.
  package mutating func take(_ line: LogLineSplitter.Line, note: (Note) -> Void = { _ in }) throws(LogImportError)
    -> [Finding]
  {
    var outputs: [LogStream.Output] = []
    try stream.take(line) { outputs.append($0) }
    return handle(outputs, note: note)
  }

  /// Ends the log: returns what it left open (a task still open when the log ends is
  /// reported then, as `check` does at a trace's end).
  ///
  /// - Throws: as ``take(_:note:)``.
  package mutating func finish(note: (Note) -> Void = { _ in }) throws(LogImportError) -> [Finding] {
    guard !finished else { return [] }
    finished = true
    var outputs: [LogStream.Output] = []
    try stream.finish { outputs.append($0) }
    var findings = handle(outputs, note: note)
    var last: [Finding] = []
    checker?.finish(into: &last)
    count(last)
    findings += last
    return findings
  }

  /// Checks what the stream handed over; returns the findings.
  private mutating func handle(_ outputs: [LogStream.Output], note: (Note) -> Void) -> [Finding] {
    var findings: [Finding] = []
    for output in outputs { handle(output, into: &findings, note: note) }
    count(findings)
    return findings
  }

  private mutating func handle(_ output: LogStream.Output, into findings: inout [Finding], note: (Note) -> Void) {
    switch output {
    case .meta(let meta):
      checker = TraceChecker(configuration: configuration, meta: meta)
      if let style = stream.style { note(.style(style)) }
    case .app(let app):
      note(.app(app))
    case .event(let event, let line):
      events += 1
      checker?.check(LocatedEvent(event: event, location: line), into: &findings)
    case .time(let time, let line):
      checker?.pass(to: time, location: line, into: &findings)
    }
  }

  private mutating func count(_ findings: [Finding]) {
    for finding in findings {
      if finding.severity == .error { errors += 1 } else { warnings += 1 }
    }
  }
}

/// The options of `bgtrace watch`.
package struct WatchOptions: Sendable, Hashable {
  /// `--platform` and `--process`.
  package var log = LogImportOptions()
  /// `--strict`: warnings fail too.
  package var strict = false
  /// `--retry-limit`, `--budget`, `--grace` and `--ignore`, as `check` takes them.
  package var checker = CheckerSettings()

  /// Creates the default options.
  package init() {}
}

/// `bgtrace watch [LOG|-] [OPTIONS]`: checks a device log as it is written (docs/cli.md).
enum WatchCommand {
  /// Set by SIGINT: the watch ends at the next read.
  private static let interrupted = Atomic<Bool>(false)

  static func run(path: String, options: WatchOptions, console: some Console) throws -> ExitStatus {
    let name = path == "-" ? "<stdin>" : path
    let source: WatchedInput
    if path == "-" {
      source = WatchedInput(
        descriptor: 0, name: name, follows: false, interrupted: { interrupted.load(ordering: .relaxed) })
    } else {
      let descriptor = open(path, O_RDONLY)
      guard descriptor >= 0 else {
        throw ByteSourceError(file: path, message: "cannot open: \(String(cString: strerror(errno)))")
      }
      source = WatchedInput(
        descriptor: descriptor, name: name, follows: true, interrupted: { interrupted.load(ordering: .relaxed) })
    }
    let signals = catchInterrupt()
    defer { signals.cancel() }
    return try watch(source, name: name, options: options, showsStatus: isatty(2) == 1, console: console)
  }

  /// Watches the log `source` reads, named `name`, printing each finding as it is
  /// certain and the summary at the end; `showsStatus`: a one-line status on standard
  /// error, rewritten as lines arrive (a terminal).
  static func watch(
    _ source: some ByteSource, name: String, options: WatchOptions, showsStatus: Bool, console: some Console
  ) throws -> ExitStatus {
    var watch = LogWatch(
      name: name, options: options.log, configuration: options.checker.applied(to: LogWatch.configuration))
    var splitter = LogLineSplitter(source)
    var status = ""
    func note(_ note: LogWatch.Note) {
      clearStatus()
      switch note {
      case .style(let style):
        let platform = style.platform == .ios ? "an iOS" : "an Android"
        console.writeError("bgtrace: watching \(name): \(platform) log (\(style.rawValue))\n")
      case .app(let app):
        let chosen = options.log.process == nil ? " (the first with background work; --process chooses another)" : ""
        console.writeError("bgtrace: checking the events of \(app)\(chosen)\n")
      }
    }
    func clearStatus() {
      guard !status.isEmpty else { return }
      console.writeError("\r\u{1B}[K")
      status = ""
    }
    func print(_ findings: [Finding]) {
      guard !findings.isEmpty else { return }
      clearStatus()
      console.write(findings.map { $0.line(path: name) + "\n" }.joined())
    }
    try splitter.forEachLine { (line) throws(LogImportError) in
      print(try watch.take(line, note: note))
      if showsStatus && (line.number % 64 == 0) {
        status = "\(line.number) lines, \(watch.events) events, \(watch.errors + watch.warnings) findings"
        console.writeError("\r\u{1B}[K" + status)
      }
    }
    print(try watch.finish(note: note))
    clearStatus()
    let summary = watch.summary
    guard watch.events > 0 else {
      throw LogImportError(file: name, message: ImportCommand.emptyImportMessage(summary))
    }
    console.writeError(
      "bgtrace: \(name): \(summary.lines) \(summary.lines == 1 ? "line" : "lines"), \(watch.events) \(watch.events == 1 ? "event" : "events") of "
        + "\(summary.app ?? "no app"), \(watch.errors) \(watch.errors == 1 ? "error" : "errors"), "
        + "\(watch.warnings) \(watch.warnings == 1 ? "warning" : "warnings")\n")
    return watch.errors > 0 || (options.strict && watch.warnings > 0) ? .findings : .success
  }

  /// Makes SIGINT end the watch at its next read instead of killing the process, so
  /// that the summary is printed.
  private static func catchInterrupt() -> any DispatchSourceSignal {
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler { interrupted.store(true, ordering: .relaxed) }
    source.resume()
    return source
  }
}

/// The log `bgtrace watch` reads: a pipe read until it ends, or a file followed as it
/// grows (as `tail -f`); either ends when `interrupted` says so, checked at least every
/// 200 ms while no byte arrives. The reads are ``FileByteSource``'s.
final class WatchedInput: ByteSource {
  private let file: FileByteSource
  private let descriptor: Int32
  private let name: String
  private let follows: Bool
  private let interrupted: () -> Bool

  /// Reads `descriptor`, named `name`, and closes it when done unless it is standard
  /// input; `follows`: at the end of the file, waits for more.
  init(descriptor: Int32, name: String, follows: Bool, interrupted: @escaping () -> Bool) {
    file = FileByteSource(descriptor: descriptor, name: name, owned: descriptor != 0)
    self.descriptor = descriptor
    self.name = name
    self.follows = follows
    self.interrupted = interrupted
  }

  func read(into buffer: inout [UInt8], count: Int) throws(ByteSourceError) -> Int {
    while !interrupted() {
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, 200)
      if ready < 0 && errno != EINTR {
        throw ByteSourceError(file: name, message: "read failed: \(String(cString: strerror(errno)))")
      }
      guard ready > 0 else { continue }
      let got = try file.read(into: &buffer, count: count)
      if got == 0 && follows {
        usleep(200_000)  // a file at its end: more may be written
        continue
      }
      return got
    }
    return 0
  }
}
