/// Writes the SVG timeline inside a self-contained HTML page (well-formed XHTML, so
/// XML tools read it too), each finding's text written beside its marker. An inline
/// script (``HTMLTimelineScript``) shows the details of what the pointer is over (its
/// SVG `<title>`) in a panel above the timeline, and zooms and pans the time axis (the
/// wheel, a drag, keys), since real traces span hours; with scripts off the browser's
/// own tooltips still show the details.
package enum HTMLTimeline {
  /// Writes the page for `model` within `window` to `sink`, in pieces.
  ///
  /// - Complexity: that of ``SVGTimeline/write(_:window:standalone:to:)``.
  package static func write(_ model: TimelineModel, window: TimeWindow, to sink: @escaping (String) -> Void) {
    let title = XMLText.escape("bgtrace timeline: \(model.name)")
    sink(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE html>
      <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
      <head>
      <meta charset="utf-8"/>
      <title>\(title)</title>
      <style>
      body { font-family: Helvetica, Arial, sans-serif; margin: 0; color: #212121; }
      #details { position: sticky; top: 0; z-index: 1; min-height: 3.6em; margin: 0; padding: 8px 12px;
        background: #263238; color: #eceff1; font: 12px/1.5 Menlo, Consolas, monospace; white-space: pre-wrap; }
      .timeline { overflow-x: auto; padding: 4px 0 8px; }
      .timeline svg { display: block; }
      @media print { #details { display: none; } }
      svg rect:hover, svg path:hover, svg circle:hover { stroke: #000000; stroke-width: 1.5; }
      </style>
      </head>
      <body>
      <pre id="details">\(HTMLTimelineScript.hint)</pre>
      <div class="timeline">

      """)
    SVGTimeline.write(model, window: window, standalone: false, findingText: true, to: sink)
    sink("</div>\n<script>\n//<![CDATA[\n")
    sink(HTMLTimelineScript.source)
    sink("\n//]]>\n</script>\n</body>\n</html>\n")
  }
}
