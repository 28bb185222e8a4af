public import BackgroundTrace

/// The formats a trace is exported in, for other tools: what `bgtrace export --format`
/// takes (its raw value is the option's word) and what ``render(_:named:from:to:)``
/// writes for a trace in memory (docs/guides/checking.md, "Pictures and exports"; docs/cli.md,
/// "bgtrace export").
///
/// ```swift
/// import BackgroundTraceExport
///
/// let svg = ExportFormat.svg.render(trace, named: "save-document")
/// try svg.write(toFile: "save-document.svg", atomically: true, encoding: .utf8)
/// ```
///
/// The output is byte for byte what `bgtrace export NAME --format …` writes for the
/// trace's canonical text form saved as `NAME`; for the timelines, which show no event
/// locations, that holds for its binary form too.
public enum ExportFormat: String, Sendable, Hashable, CaseIterable {
  /// Chrome trace-event JSON, which opens in Perfetto UI and `chrome://tracing`: a
  /// process per app launch, tasks, states, runs and attempts on their own tracks,
  /// instants for expirations, rejections and findings, and flow arrows from
  /// submissions to launches and from retries to attempts.
  case chrome
  /// JSON Lines: one object per event with the canonical field names,
  /// `{"time":12.5,"kind":"task.begin","id":1,"name":"SaveDocument"}`.
  case jsonl
  /// A self-contained SVG timeline: the app-state band, one lane per task, scheduler
  /// run and work item coloured by outcome, and the checker's findings.
  case svg
  /// The SVG timeline inside a self-contained HTML page that shows each element's
  /// details on hover, with no external scripts (well-formed XHTML).
  case html

  /// `trace` in this format.
  ///
  /// - Parameters:
  ///   - trace: the trace to export.
  ///   - name: the trace's name, shown in the timelines' title and Chrome's process
  ///     names (`bgtrace export` gives the path).
  ///   - from: the first time exported (default: the start).
  ///   - to: the last time exported (default: the last event); a `to` before `from` is
  ///     taken as `from`. JSON Lines stop at the first event after `to`.
  /// - Returns: the document (JSON Lines: the lines, each ending in a line feed).
  ///   Findings are located by their lines in `trace.text`.
  /// - Complexity: O(*n* log *n*) in the number of events.
  public func render(
    _ trace: RecordedTrace, named name: String = "trace", from: TraceTime? = nil, to: TraceTime? = nil
  ) -> String {
    var text = ""
    if self == .jsonl {
      for event in trace.events {
        if let to, event.time > to { break }
        if let from, event.time < from { continue }
        text += JSONLinesExporter.line(for: event) + "\n"
      }
      return text
    }
    let model = TimelineModel.build(trace, name: name)
    write(model, window: ExportWindow.window(from: from, to: to, end: model.end)) { text += $0 }
    return text
  }

  /// Writes the trace `reader` has not read yet in this format, piece by piece, as
  /// `bgtrace export` does: JSON Lines stream, the others read the whole trace first.
  package func write(
    _ reader: inout TraceReader, from: TraceTime?, to: TraceTime?, into output: @escaping (String) -> Void
  ) throws(TraceReadError) {
    if self == .jsonl {
      let window = from == nil && to == nil ? nil : TimeWindow(from: from, to: to, end: .max)
      try JSONLinesExporter.export(&reader, window: window, to: output)
      return
    }
    let model = try TimelineModel.read(&reader)
    write(model, window: TimeWindow(from: from, to: to, end: model.end), into: output)
  }

  /// Writes a timeline model in this format (not JSON Lines, which needs no model).
  private func write(_ model: TimelineModel, window: TimeWindow, into output: @escaping (String) -> Void) {
    switch self {
    case .chrome: ChromeTraceExporter.export(model, window: window, to: output)
    case .svg: SVGTimeline.write(model, window: window, standalone: true, to: output)
    case .html: HTMLTimeline.write(model, window: window, to: output)
    case .jsonl: preconditionFailure("JSON Lines are written from the events")
    }
  }
}
