import BackgroundTrace
import BackgroundTraceImport

/// A device log read as the trace `bgtrace import` would write, in memory: what
/// `check`, `explain`, `stats`, `export` and `diff` do with a file that is not a trace
/// (docs/import.md).
struct InMemoryImport {
  /// The trace it imports to.
  var trace: RecordedTrace
  /// Its events, each at the log line it came from.
  var located: [LocatedEvent]
  /// What was read: `PATH: a device log (STYLE), read as the trace bgtrace import
  /// writes: N events of APP`.
  var note: String

  /// The log at `path`, imported as a log of `platform` (`nil`: detected); `nil` when
  /// `path` is standard input, starts like a trace, or, with no platform given, holds no
  /// line in a known log style (the trace reader then says what a trace's first line
  /// should be).
  ///
  /// - Throws: ``LogImportError`` for a log that cannot be read or holds no background
  ///   work.
  static func log(at path: String, platform: LogPlatform? = nil) throws -> InMemoryImport? {
    guard path != "-", !TraceFiles.startsLikeATrace(path) else { return nil }
    var meta = TraceMetadata()
    var located: [LocatedEvent] = []
    let summary: ImportSummary
    do {
      summary = try LogImporter.run(
        [.file(path)], options: LogImportOptions(platform: platform), meta: { meta = $0 },
        located: { event, location in located.append(LocatedEvent(event: event, location: location.line)) })
    } catch {
      // With a platform given the file is a log, and the importer's error says why not.
      guard let failure = error.importError, failure.isInNoKnownStyle && platform == nil else {
        throw error.underlying
      }
      return nil
    }
    guard summary.events > 0 else {
      throw LogImportError(file: path, message: ImportCommand.emptyImportMessage(summary))
    }
    let style = summary.styles.first.map { " (\($0.style.rawValue))" } ?? ""
    let note =
      "\(path): a device log\(style), read as the trace `bgtrace import` writes: "
      + "\(summary.events) \(summary.events == 1 ? "event" : "events") of \(summary.app ?? "no app")"
    return InMemoryImport(
      trace: RecordedTrace(meta: meta, events: located.map(\.event)), located: located, note: note)
  }

  /// The trace at `path`: a trace file read whole, or a device log imported (its note
  /// written to standard error), and the damage the reader recovered from.
  static func trace(
    at path: String, platform: LogPlatform? = nil, console: some Console
  ) throws -> (trace: RecordedTrace, damage: [TraceDamage]) {
    if let imported = try log(at: path, platform: platform) {
      console.writeError("bgtrace: \(imported.note)\n")
      return (imported.trace, [])
    }
    var reader = try TraceReader(path: path)
    return (try reader.readAll(), reader.damage)
  }
}
