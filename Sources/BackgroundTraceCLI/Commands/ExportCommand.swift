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
    switch format {
    case .jsonl:
      let window = from == nil && to == nil ? nil : TimeWindow(from: from, to: to, end: .max)
      try JSONLinesExporter.export(&reader, window: window) { console.write($0) }
    case .chrome:
      let model = try TimelineModel.read(&reader)
      ChromeTraceExporter.export(model, window: TimeWindow(from: from, to: to, end: model.end)) { console.write($0) }
    case .svg:
      let model = try TimelineModel.read(&reader)
      SVGTimeline.write(model, window: TimeWindow(from: from, to: to, end: model.end), standalone: true) {
        console.write($0)
      }
    case .html:
      let model = try TimelineModel.read(&reader)
      HTMLTimeline.write(model, window: TimeWindow(from: from, to: to, end: model.end)) { console.write($0) }
    }
    return BGTrace.reportDamage(reader.damage, console: console)
  }
}
