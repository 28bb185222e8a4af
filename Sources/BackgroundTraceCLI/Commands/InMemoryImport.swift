import BackgroundTrace
import BackgroundTraceImport

/// A device log read as the trace `bgtrace import` would write, in memory: what
/// `check` and `explain --why` do with a file that is not a trace (docs/import.md).
enum InMemoryImport {
  /// The trace the log at `path` imports to, and a note saying so; `nil` when `path`
  /// is standard input, starts like a trace, or holds no line in a known log style (the
  /// trace reader then says what a trace's first line should be).
  ///
  /// - Throws: ``LogImportError`` for a log that cannot be read or holds no background
  ///   work.
  static func trace(at path: String) throws -> (trace: RecordedTrace, note: String)? {
    guard path != "-", !TraceFiles.startsLikeATrace(path) else { return nil }
    var meta = TraceMetadata()
    var events: [TraceEvent] = []
    let summary: ImportSummary
    do {
      summary = try LogImporter.run(
        [.file(path)], options: LogImportOptions(), meta: { meta = $0 }, located: { event, _ in events.append(event) })
    } catch let error as LogImportError where error.isInNoKnownStyle {
      return nil
    }
    guard summary.events > 0 else {
      throw LogImportError(file: path, message: ImportCommand.emptyImportMessage(summary))
    }
    let style = summary.styles.first.map { " (\($0.style.rawValue))" } ?? ""
    let note =
      "\(path): a device log\(style), read as the trace `bgtrace import` writes: "
      + "\(summary.events) \(summary.events == 1 ? "event" : "events") of \(summary.app ?? "no app")"
    return (RecordedTrace(meta: meta, events: events), note)
  }
}
