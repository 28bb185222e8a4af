/// The HTML timeline's inline script: the details panel, and zoom and pan along the time
/// axis.
///
/// The SVG it drives is the one ``SVGTimeline`` writes inside a page, whose root
/// carries `data-plot="LEFT RIGHT BOTTOM"`: the plot's left and right edges and the
/// bottom of its lanes. What lies in that box (bars, markers, ticks, labels beside them)
/// follows the zoom; lane labels, the header, the legend and the findings list do not.
/// Spans (a bar, a dashed wait, a horizontal stroke) stretch with the zoom; marks (a
/// marker, a tick, a text) keep their size and move with the instant they are at, a
/// text beside a bar or marker keeping its distance from it (`data-at`), so that what
/// was placed apart stays apart. The view is kept in the page's address as
/// `#zoom=FACTOR,START` (START the fraction of the plot at its left edge), so that a
/// zoomed view can be bookmarked, shared, or opened by a headless browser.
enum HTMLTimelineScript {
  static let hint =
    "Hover over a bar, marker or label for its details. Over the timeline: the wheel zooms, "
    + "drag or shift+wheel pans; keys + - to zoom, arrows to pan, 0 to reset."

  static let source = """
    (function () {
      "use strict";
      var details = document.getElementById("details");
      var svg = document.querySelector(".timeline svg");
      if (!details || !svg) { return; }
      var HINT = details.textContent;
      svg.addEventListener("mouseover", function (event) {
        for (var node = event.target; node && node !== svg; node = node.parentNode) {
          var title = node.querySelector ? node.querySelector(":scope > title") : null;
          if (title) { details.textContent = title.textContent; return; }
        }
      });

      var plot = (svg.getAttribute("data-plot") || "").split(" ").map(Number);
      if (plot.length !== 3 || plot.some(isNaN)) { return; }
      var left = plot[0], right = plot[1], bottom = plot[2], span = right - left;
      var NS = "http://www.w3.org/2000/svg";
      var zoom = 1, offset = 0, maxZoom = 1000;
      var items = [];

      function X(x) { return left + (x - left) * zoom - offset; }
      function r(x) { return Math.round(x * 100) / 100; }
      function num(node, name) { return parseFloat(node.getAttribute(name)); }

      // Absolute M, L and Z commands, the only ones SVGTimeline writes.
      function subpaths(d) {
        var result = [], current = null;
        (d.match(/[MLZ][^MLZ]*/g) || []).forEach(function (part) {
          var command = part.charAt(0);
          var values = part.slice(1).trim().split(/[\\s,]+/).filter(function (s) { return s !== ""; }).map(Number);
          if (command === "M") { current = { points: [], closed: false }; result.push(current); }
          if (!current) { return; }
          if (command === "Z") { current.closed = true; return; }
          for (var i = 0; i + 1 < values.length; i += 2) { current.points.push([values[i], values[i + 1]]); }
        });
        result.forEach(function (sub) {
          var xs = sub.points.map(function (p) { return p[0]; });
          var ys = sub.points.map(function (p) { return p[1]; });
          var flat = ys.every(function (y) { return y === ys[0]; });
          sub.centre = (Math.min.apply(null, xs) + Math.max.apply(null, xs)) / 2;
          sub.stretches = flat && Math.max.apply(null, xs) > Math.min.apply(null, xs);
        });
        return result;
      }

      function prepare(node) {
        switch (node.tagName) {
          case "rect":
            var x = num(node, "x"), width = num(node, "width");
            if (width >= 3) {
              items.push(function () { node.setAttribute("x", r(X(x))); node.setAttribute("width", r(width * zoom)); });
            } else {
              items.push(function () { node.setAttribute("x", r(X(x + width / 2) - width / 2)); });
            }
            break;
          case "line":
            var x1 = num(node, "x1"), x2 = num(node, "x2");
            items.push(function () { node.setAttribute("x1", r(X(x1))); node.setAttribute("x2", r(X(x2))); });
            break;
          case "circle":
            var cx = num(node, "cx");
            items.push(function () { node.setAttribute("cx", r(X(cx))); });
            break;
          case "text":
            // A text beside a bar or marker keeps its distance from it (data-at).
            var tx = num(node, "x"), at = node.hasAttribute("data-at") ? num(node, "data-at") : tx;
            items.push(function () { node.setAttribute("x", r(X(at) + tx - at)); });
            break;
          case "path":
            var subs = subpaths(node.getAttribute("d") || "");
            items.push(function () {
              node.setAttribute("d", subs.map(function (sub) {
                var shift = X(sub.centre) - sub.centre;
                return sub.points.map(function (p, i) {
                  var x = sub.stretches ? X(p[0]) : p[0] + shift;
                  return (i === 0 ? "M" : "L") + r(x) + " " + p[1];
                }).join("") + (sub.closed ? "Z" : "");
              }).join(""));
            });
            break;
          case "g":
            Array.prototype.forEach.call(node.children, prepare);
            break;
        }
      }

      // What lies in the plot's box follows the zoom, clipped to the box.
      var defs = document.createElementNS(NS, "defs");
      var clip = document.createElementNS(NS, "clipPath");
      clip.setAttribute("id", "bgtrace-plot");
      var box = document.createElementNS(NS, "rect");
      var width = svg.viewBox.baseVal.width, height = svg.viewBox.baseVal.height;
      box.setAttribute("x", left - 8);
      box.setAttribute("y", 0);
      box.setAttribute("width", width - left + 8);
      box.setAttribute("height", height);
      clip.appendChild(box);
      defs.appendChild(clip);
      svg.insertBefore(defs, svg.firstChild);
      Array.prototype.forEach.call(svg.children, function (node) {
        if (node.tagName === "title" || node.tagName === "defs" || node.getAttribute("class") === "tick") { return; }
        var bbox;
        try { bbox = node.getBBox(); } catch (error) { return; }
        if (bbox.x < left - 12 || bbox.y < 40 || bbox.y + bbox.height > bottom + 6) { return; }
        node.setAttribute("clip-path", "url(#bgtrace-plot)");
        prepare(node);
      });

      // The axis: the drawing's own ticks at 1x; zoomed, ticks at a 1-2-5 step about
      // every 110 pixels in each linear stretch of time (data-scale), none closer than 50.
      var stretches = (svg.getAttribute("data-scale") || "").split(" ").filter(function (s) { return s !== ""; })
        .map(function (s) {
          var p = s.split(":").map(Number);
          return { left: p[0], right: p[1], start: p[2], end: p[3] };
        })
        .filter(function (s) { return s.right > s.left && s.end > s.start; });
      var drawnTicks = svg.querySelectorAll(".tick");
      var ticks = document.createElementNS(NS, "g");
      ticks.setAttribute("clip-path", "url(#bgtrace-plot)");
      svg.insertBefore(ticks, drawnTicks.length > 0 ? drawnTicks[0] : defs.nextSibling);
      function tick(x, text) {
        var line = document.createElementNS(NS, "line");
        line.setAttribute("x1", r(x)); line.setAttribute("x2", r(x));
        line.setAttribute("y1", 58); line.setAttribute("y2", bottom);
        line.setAttribute("stroke", "#e0e0e0");
        var label = document.createElementNS(NS, "text");
        label.setAttribute("x", r(x)); label.setAttribute("y", 54);
        label.setAttribute("text-anchor", "middle"); label.setAttribute("fill", "#555555");
        label.textContent = text;
        ticks.appendChild(line); ticks.appendChild(label);
      }
      function drawTicks() {
        while (ticks.firstChild) { ticks.removeChild(ticks.firstChild); }
        Array.prototype.forEach.call(drawnTicks, function (node) { node.style.display = zoom === 1 ? "" : "none"; });
        if (zoom === 1) { return; }
        var lastX = -Infinity;
        stretches.forEach(function (s) {
          var from = Math.max(X(s.left), left), to = Math.min(X(s.right), right);
          if (to <= from) { return; }
          var perSecond = (s.right - s.left) * zoom / (s.end - s.start);
          var raw = 110 / perSecond, magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
          var step = [1, 2, 5, 10].map(function (m) { return m * magnitude; }).filter(function (v) { return v >= raw; })[0];
          var digits = Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
          var first = s.start + (from - X(s.left)) / perSecond, last = s.start + (to - X(s.left)) / perSecond;
          for (var k = Math.ceil(first / step - 1e-9), drawn = 0; k * step <= last + step * 1e-9 && drawn < 100; k++) {
            var time = k * step, x = X(s.left) + (time - s.start) * perSecond;
            if (x - lastX < 50) { continue; }
            lastX = x;
            drawn++;
            tick(x, String(Number(time.toFixed(digits))) + "s");
          }
        });
      }

      function show(fromAddress) {
        zoom = Math.min(Math.max(zoom, 1), maxZoom);
        offset = Math.min(Math.max(offset, 0), span * (zoom - 1));
        box.setAttribute("x", zoom === 1 ? left - 8 : left);  // zoomed, nothing crosses the plot's edge
        items.forEach(function (apply) { apply(); });
        drawTicks();
        var view = zoom === 1 ? "" : "#zoom=" + r(zoom) + "," + Math.round(offset / (span * zoom) * 1e6) / 1e6;
        if (!fromAddress && window.history && window.history.replaceState) {
          window.history.replaceState(null, "", view === "" ? window.location.pathname : view);
        }
        details.textContent = zoom === 1 ? HINT :
          "Zoom " + r(zoom) + "x, showing " + r(offset / (span * zoom) * 100) + "% to " +
          r((offset + span) / (span * zoom) * 100) + "% of the window. 0 resets.";
      }

      // Zooms by `factor`, keeping what is under `at` (a drawing x) where it is.
      function zoomBy(factor, at) {
        var fixed = left + (at - left + offset) / zoom;
        zoom = Math.min(Math.max(zoom * factor, 1), maxZoom);
        offset = (fixed - left) * zoom - (at - left);
        show(false);
      }
      function drawingX(event) {
        var matrix = svg.getScreenCTM();
        return matrix ? (event.clientX - matrix.e) / matrix.a : event.clientX;
      }
      function inPlot(x) { return x >= left && x <= right; }

      svg.addEventListener("wheel", function (event) {
        var x = drawingX(event);
        if (!inPlot(x)) { return; }
        var sideways = event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY);
        var delta = event.deltaMode === 1 ? 16 : 1;
        if (sideways) {
          offset += (event.shiftKey ? event.deltaY : event.deltaX) * delta;
          show(false);
        } else {
          zoomBy(Math.exp(-event.deltaY * delta * 0.002), x);
        }
        event.preventDefault();
      }, { passive: false });

      var drag = null;
      svg.addEventListener("pointerdown", function (event) {
        var x = drawingX(event);
        if (!inPlot(x) || event.button !== 0) { return; }
        drag = { x: x, offset: offset };
        svg.setPointerCapture(event.pointerId);
      });
      svg.addEventListener("pointermove", function (event) {
        if (!drag) { return; }
        offset = drag.offset - (drawingX(event) - drag.x);
        show(false);
      });
      function endDrag() { drag = null; }
      svg.addEventListener("pointerup", endDrag);
      svg.addEventListener("pointercancel", endDrag);
      svg.addEventListener("dblclick", function (event) {
        if (inPlot(drawingX(event))) { zoom = 1; offset = 0; show(false); }
      });

      document.addEventListener("keydown", function (event) {
        if (event.altKey || event.ctrlKey || event.metaKey) { return; }
        var centre = left + span / 2;
        switch (event.key) {
          case "+": case "=": zoomBy(1.5, centre); break;
          case "-": case "_": zoomBy(1 / 1.5, centre); break;
          case "0": zoom = 1; offset = 0; show(false); break;
          case "ArrowLeft": offset -= span / 10; show(false); break;
          case "ArrowRight": offset += span / 10; show(false); break;
          default: return;
        }
        event.preventDefault();
      });

      // #zoom=FACTOR,START: a view from the address.
      var match = /^#zoom=([0-9.]+),([0-9.]+)$/.exec(window.location.hash);
      if (match) {
        zoom = parseFloat(match[1]);
        zoom = Math.min(Math.max(zoom, 1), maxZoom);
        offset = parseFloat(match[2]) * span * zoom;
        show(true);
      }
    })();
    """
}
