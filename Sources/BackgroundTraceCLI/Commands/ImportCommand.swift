import BackgroundTrace
import BackgroundTraceImport
import Foundation

/// `bgtrace import LOG…`: reads device logs into a trace (docs/import.md), written as
/// it is read; the summary goes to standard error.
enum ImportCommand {
  static func run(paths: [String], options: ImportOptions, console: some Console) throws -> ExitStatus {
    var spooled: String?
    defer { if let spooled { try? FileManager.default.removeItem(atPath: spooled) } }
    var inputs: [LogInput] = []
    for path in paths {
      if path == "-" {
        // Standard input is read twice (its style detected from its first lines, then the pass): kept in a
        // temporary file, so that memory stays flat in the log's length.
        let file = try spoolStandardInput()
        spooled = file
        inputs.append(LogInput(name: "<stdin>") { () throws(ByteSourceError) in try FileByteSource(path: file) })
      } else {
        _ = try FileByteSource(path: path)  // a missing file fails before anything is written
        inputs.append(.file(path))
      }
    }
    let sink = try TraceSink(path: options.output, console: console)
    let names = inputs.map(\.name)
    let summary: ImportSummary
    do {
      summary = try LogImporter.run(
        inputs, options: options.log, meta: { try sink.begin($0) },
        located: { event, location in
          // An event no single line told (line 0) notes none.
          let source = location.line > 0 ? EventSource(file: names[location.input], line: location.line) : nil
          try sink.append(event, source: source)
        })
    } catch {
      throw error.underlying
    }
    try sink.close()
    console.writeError(summary.text)
    if summary.events == 0 && !options.allowsEmpty {
      // A CI gate that imports a log captured with the wrong settings must not pass on an
      // empty trace: the trace is not kept, and the error says what to capture.
      if let path = options.output, path != "-" { try? FileManager.default.removeItem(atPath: path) }
      throw LogImportError(
        file: inputs.map(\.name).joined(separator: ", "),
        message: emptyImportMessage(summary) + "; --allow-empty accepts an empty trace")
    }
    return .success
  }

  /// Why an import found nothing, and what capture setting is likely missing (`import`
  /// adds how to accept it).
  static func emptyImportMessage(_ summary: ImportSummary) -> String {
    let read = "\(summary.lines) \(summary.lines == 1 ? "line" : "lines") read"
    let messages = summary.apps.reduce(0) { $0 + $1.backgroundMessages }
    let sources =
      switch summary.platform {
      case .ios: "UIKit's background tasks, BackgroundTasks or background URLSession"
      case .android: "WorkManager, JobScheduler or ActivityManager"
      }
    var found =
      messages == 0
      ? "none from \(sources)" : "\(messages) from \(sources), none of them an event of the app imported"
    for (what, count) in summary.unreadEntries.sorted(by: { $0.key < $1.key }) {
      found += "; \(count) \(what), not read"
    }
    let capture =
      switch summary.platform {
      case .ios:
        "capture with `log stream --level debug` and the predicate docs/import.md gives (subsystem "
          + "com.apple.UIKit, category BackgroundTask, or subsystem com.apple.BackgroundTasks)"
      case .android:
        "turn WorkManager's debug logging on (Configuration.Builder().setMinimumLoggingLevel(Log.DEBUG)) and "
          + "capture the whole buffer (`adb logcat -v threadtime`)"
      }
    return "found no background work to import (\(read), \(found)): \(capture)"
  }

  private static func spoolStandardInput() throws -> String {
    let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("bgtrace-import-\(UUID().uuidString).log")
    let file = try OutputFile(path: path)
    let input = FileByteSource(standardInput: ())
    var buffer: [UInt8] = []
    while try input.read(into: &buffer, count: LogLineSplitter.blockSize) > 0 {
      try file.write(buffer)
      buffer.removeAll(keepingCapacity: true)
    }
    try file.close()
    return path
  }
}

/// Where `import` writes the trace: text on standard output, or a file, text or binary
/// by its extension.
private final class TraceSink {
  private enum Form {
    case console(any Console)
    case text(OutputFile)
    case binary(OutputFile)
  }

  private let form: Form
  private var encoder: BinaryTraceEncoder?
  private var text = ""
  private var bytes: [UInt8] = []

  init(path: String?, console: some Console) throws {
    switch path {
    case nil, "-"?: form = .console(console)
    case let path? where path.hasSuffix(".bgtrace"): form = .binary(try OutputFile(path: path))
    case let path?: form = .text(try OutputFile(path: path))
    }
  }

  func begin(_ meta: TraceMetadata) throws {
    switch form {
    case .console, .text: text = TextTraceWriter.headerAndMeta(meta)
    case .binary:
      encoder = BinaryTraceEncoder(meta: meta)
      bytes = encoder!.header()
    }
  }

  /// Appends `event`; the text form notes the log line it came from, the binary form
  /// has no place for it (docs/import.md).
  func append(_ event: TraceEvent, source: EventSource?) throws {
    switch form {
    case .console, .text:
      TextTraceWriter.appendLine(for: event, source: source, to: &text)
      if text.utf8.count >= 256 * 1024 { try drain() }
    case .binary(let file):
      try encoder!.append(event, into: &bytes)
      if !bytes.isEmpty {
        try file.write(bytes)
        bytes.removeAll(keepingCapacity: true)
      }
    }
  }

  func close() throws {
    switch form {
    case .console, .text: try drain()
    case .binary(let file):
      encoder!.flush(into: &bytes)
      try file.write(bytes)
    }
    switch form {
    case .text(let file), .binary(let file): try file.close()
    case .console: break
    }
  }

  private func drain() throws {
    switch form {
    case .console(let console): console.write(text)
    case .text(let file): try file.write(text)
    case .binary: break
    }
    text.removeAll(keepingCapacity: true)
  }
}
