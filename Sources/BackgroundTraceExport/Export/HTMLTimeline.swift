/// Writes the SVG timeline inside a self-contained HTML page (well-formed XHTML, so
/// XML tools read it too), each finding's text written beside its marker: hovering over a bar, marker or lane label shows its details
/// (its SVG `<title>`) in a panel above the timeline, from a small inline script; with
/// scripts off the browser's own tooltips still show them.
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
      <pre id="details">Hover over a bar, marker or label for its details.</pre>
      <div class="timeline">

      """)
    SVGTimeline.write(model, window: window, standalone: false, findingText: true, to: sink)
    sink(
      """
      </div>
      <script>
      //<![CDATA[
      (function () {
        var details = document.getElementById("details");
        var svg = document.querySelector(".timeline svg");
        if (!details || !svg) { return; }
        svg.addEventListener("mouseover", function (event) {
          for (var node = event.target; node && node !== svg; node = node.parentNode) {
            var title = node.querySelector ? node.querySelector(":scope > title") : null;
            if (title) { details.textContent = title.textContent; return; }
          }
        });
      })();
      //]]>
      </script>
      </body>
      </html>

      """)
  }
}
