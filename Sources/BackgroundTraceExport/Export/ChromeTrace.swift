public import BackgroundTrace

/// Chrome trace-event JSON for a trace in memory, as `bgtrace export --format chrome`
/// writes it: it opens in Perfetto UI and `chrome://tracing` (README, "Pictures and
/// exports"; docs/cli.md, "bgtrace export").
public enum ChromeTrace: Sendable {
  /// The trace-event JSON of `trace`: a process per app launch, tasks, states, runs and
  /// attempts on their own tracks, instants for expirations, rejections and findings,
  /// and flow arrows from submissions to launches and from retries to attempts.
  ///
  /// - Parameters:
  ///   - trace: the trace to export.
  ///   - name: the trace's name, for the process names.
  ///   - from: the first time exported (default: the start).
  ///   - to: the last time exported (default: the last event); a `to` before `from` is
  ///     taken as `from`.
  /// - Returns: one JSON object. Findings are located by their lines in `trace.text`.
  /// - Complexity: O(*n* log *n*) in the number of events.
  public static func json(
    of trace: Trace, named name: String = "trace", from: TraceTime? = nil, to: TraceTime? = nil
  ) -> String {
    let model = TimelineModel.build(trace, name: name)
    var text = ""
    ChromeTraceExporter.export(model, window: ExportWindow.window(from: from, to: to, end: model.end)) { text += $0 }
    return text
  }
}
