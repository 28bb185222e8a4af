import BackgroundTrace
import BackgroundTraceExport

/// `bgtrace export PATH --format …`: the trace in formats other tools open, written to
/// standard output. `--from`/`--to` keep the part of the trace between them.
enum ExportCommand {
  static func run(
    path: String, format: ExportFormat, from: TraceTime?, to: TraceTime?, console: some Console
  ) throws -> ExitStatus {
    if let from, let to, from > to {
      throw UsageError("'--from' (\(from)s) is after '--to' (\(to)s); give a window that starts before it ends")
    }
    var reader = try TraceReader(path: path)
    try format.write(&reader, from: from, to: to) { console.write($0) }
    return BGTrace.reportDamage(reader.damage, console: console)
  }
}
