public import BackgroundTrace

/// The pictures `bgtrace export --format svg|html` draws, for a trace in memory: what a
/// golden-trace assertion attaches on a mismatch (README, "Pictures and exports").
///
/// ```swift
/// import BackgroundTraceExport
///
/// let svg = TraceTimeline.svg(of: trace, named: "save-document")
/// try svg.write(toFile: "save-document.svg", atomically: true, encoding: .utf8)
/// ```
///
/// The output is byte for byte what `bgtrace export NAME --format svg` writes for the
/// trace's canonical text form saved as `NAME` (docs/cli.md, "bgtrace export"); for
/// the timelines, which show no event locations, that holds for its binary form too.
public enum TraceTimeline: Sendable {
  /// The self-contained SVG timeline of `trace`: the app-state band, one lane per task,
  /// scheduler run and work item coloured by outcome, and the checker's findings.
  ///
  /// - Parameters:
  ///   - trace: the trace to draw.
  ///   - name: the trace's name, shown in the title (`bgtrace export` shows the path).
  ///   - from: the first time drawn, as `--from` (default: the start).
  ///   - to: the last time drawn, as `--to` (default: the last event); a `to` before
  ///     `from` is taken as `from`.
  /// - Returns: the SVG document, starting with its XML declaration.
  /// - Complexity: O(*n* log *n*) in the number of events.
  public static func svg(
    of trace: Trace, named name: String = "trace", from: TraceTime? = nil, to: TraceTime? = nil
  ) -> String {
    let model = TimelineModel.build(trace, name: name)
    var text = ""
    SVGTimeline.write(model, window: ExportWindow.window(from: from, to: to, end: model.end), standalone: true) {
      text += $0
    }
    return text
  }

  /// The SVG timeline of `trace` inside a self-contained HTML page that shows each
  /// element's details on hover, with no external scripts (`--format html`).
  ///
  /// - Parameters:
  ///   - trace: the trace to draw.
  ///   - name: the trace's name, shown in the title.
  ///   - from: the first time drawn (default: the start).
  ///   - to: the last time drawn (default: the last event).
  /// - Returns: the page, well-formed XHTML.
  /// - Complexity: that of ``svg(of:named:from:to:)``.
  public static func html(
    of trace: Trace, named name: String = "trace", from: TraceTime? = nil, to: TraceTime? = nil
  ) -> String {
    let model = TimelineModel.build(trace, name: name)
    var text = ""
    HTMLTimeline.write(model, window: ExportWindow.window(from: from, to: to, end: model.end)) { text += $0 }
    return text
  }
}
