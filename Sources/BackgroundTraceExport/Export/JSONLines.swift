public import BackgroundTrace

/// JSON Lines for a trace in memory, as `bgtrace export --format jsonl` writes them: one
/// object per event with the canonical field names (docs/FORMAT.md; docs/cli.md,
/// "bgtrace export").
public enum JSONLines: Sendable {
  /// One JSON object per event of `trace`, each ending in a line feed.
  ///
  /// - Parameters:
  ///   - trace: the trace to export.
  ///   - from: the first time exported (default: the start).
  ///   - to: the last time exported (default: no limit); as in `bgtrace export`, the
  ///     output stops at the first event after `to`.
  /// - Returns: the lines, `{"time":12.5,"kind":"task.begin","id":1,"name":"SaveDocument"}`.
  /// - Complexity: O(*n*) in the number of events.
  public static func text(of trace: Trace, from: TraceTime? = nil, to: TraceTime? = nil) -> String {
    var text = ""
    for event in trace.events {
      if let to, event.time > to { break }
      if let from, event.time < from { continue }
      text += JSONLinesExporter.line(for: event) + "\n"
    }
    return text
  }
}
