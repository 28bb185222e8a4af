import BackgroundTraceCheck

extension SVGTimeline {
  /// One legend entry: a swatch (`rect`) or a marker, and its meaning.
  private enum Key {
    case swatch(String, String)
    case expiration(String)
    case line(String, String)
    case dot(String)
    case cross(String)
    case pending(String)
    case tick(String)
  }

  /// Draws the legend: five rows of colour keys and markers.
  mutating func drawLegend(top: Double) {
    let rows: [(String, [Key])] = [
      ("App state", SVGPalette.states.map { .swatch($0.color, $0.name) } + [.tick("entered and left at once")]),
      (
        "Tasks",
        [
          .swatch(SVGPalette.good, "ended"), .swatch(SVGPalette.late, "ended after expiring"),
          .swatch(SVGPalette.bad, "leaked (never ended)"), .swatch(SVGPalette.killed, "expired, never ended"),
          .expiration("expiration"),
        ]
      ),
      (
        "Runs",
        [
          .swatch(SVGPalette.good, "completed"), .swatch(SVGPalette.failedRun, "completed, success=false"),
          .swatch(SVGPalette.late, "completed after expiring"), .swatch(SVGPalette.bad, "not completed"),
          .dot("submitted (dashes: waiting for launch)"), .pending("never launched"),
        ]
      ),
      (
        "Work",
        [
          .swatch(SVGPalette.good, "success"), .swatch(SVGPalette.retry, "retry"),
          .swatch(SVGPalette.bad, "failure"), .swatch(SVGPalette.stopped, "stopped"),
          .swatch(SVGPalette.killed, "process ended"), .swatch(SVGPalette.unfinished, "unfinished"),
          .dot("enqueued"), .cross("cancelled"),
        ]
      ),
      (
        "Marks",
        [
          .line(SVGPalette.error, "error finding"), .line(SVGPalette.warning, "warning finding"),
          .line(SVGPalette.bad, "rejection"), .line("#212121", "termination"), .line("#78909c", "other event"),
          .line("#263238", "process launch"), .swatch("#eceff1", "idle, drawn compressed"),
        ]
      ),
    ]
    for (row, (title, keys)) in rows.enumerated() {
      let y = top + Double(row) * 18
      label(title, x: 12, y: y + 10, bold: true)
      var x = 90.0
      for key in keys {
        let meaning: String
        switch key {
        case .swatch(let color, let text):
          emit("<rect x=\"\(n(x))\" y=\"\(n(y + 1))\" width=\"14\" height=\"10\" fill=\"\(color)\"/>\n")
          meaning = text
        case .expiration(let text):
          emit(
            "<path d=\"M\(n(x + 2.5)) \(n(y + 2))L\(n(x + 11.5)) \(n(y + 2))L\(n(x + 7)) \(n(y + 10))Z\" "
              + "fill=\"\(SVGPalette.expiration)\" stroke=\"#212121\" stroke-width=\"0.8\"/>\n")
          meaning = text
        case .line(let color, let text):
          emit("<rect x=\"\(n(x + 6))\" y=\"\(n(y))\" width=\"2\" height=\"12\" fill=\"\(color)\"/>\n")
          meaning = text
        case .pending(let text):
          emit(
            "<rect x=\"\(n(x))\" y=\"\(n(y + 2))\" width=\"14\" height=\"8\" fill=\"\(SVGPalette.pending)\" "
              + "stroke=\"#616161\" stroke-width=\"0.8\" stroke-dasharray=\"3,2\"/>\n")
          meaning = text
        case .tick(let text):
          emit(
            "<path d=\"M\(n(x + 3.5)) \(n(y))L\(n(x + 10.5)) \(n(y))L\(n(x + 7)) \(n(y + 5))Z\" fill=\"#ffffff\" "
              + "stroke=\"#263238\" stroke-width=\"0.6\"/><rect x=\"\(n(x + 6))\" y=\"\(n(y + 5))\" width=\"2\" "
              + "height=\"7\" fill=\"#ffffff\" stroke=\"#263238\" stroke-width=\"0.5\"/>\n")
          meaning = text
        case .dot(let text):
          emit("<circle cx=\"\(n(x + 7))\" cy=\"\(n(y + 6))\" r=\"2.5\" fill=\"#616161\"/>\n")
          meaning = text
        case .cross(let text):
          emit(
            "<path d=\"M\(n(x + 4)) \(n(y + 3))L\(n(x + 10)) \(n(y + 9))M\(n(x + 10)) \(n(y + 3))L\(n(x + 4)) \(n(y + 9))\" "
              + "stroke=\"#212121\" stroke-width=\"1.5\"/>\n")
          meaning = text
        }
        label(meaning, x: x + 18, y: y + 10, color: "#424242")
        x += 18 + Double(meaning.count) * 5.8 + 16
      }
    }
  }

  /// Lists the findings inside the window, numbered as on the timeline.
  mutating func drawFindingList(top: Double) {
    guard !findings.isEmpty else { return }
    label("Findings (\(findings.count))", x: 12, y: top + 10, bold: true)
    for (index, located) in findings.prefix(Self.listedFindings).enumerated() {
      let finding = located.finding
      let y = top + 22 + Double(index) * 15
      let color = finding.severity == .error ? SVGPalette.error : SVGPalette.warning
      emit(
        "<circle cx=\"19\" cy=\"\(n(y + 6))\" r=\"7\" fill=\"\(color)\"/><text x=\"19\" y=\"\(n(y + 9))\" "
          + "text-anchor=\"middle\" font-size=\"8\" fill=\"#ffffff\">\(index + 1)</text>\n")
      let line = "\(finding.time)s  \(finding.severity.rawValue)  [\(finding.rule.id)]  \(finding.message)"
      emit(
        "<text x=\"34\" y=\"\(n(y + 10))\" fill=\"#212121\"><title>\(XMLText.escape(line))</title>"
          + XMLText.escape(XMLText.truncated(line, to: 190)) + "</text>\n")
    }
    if findings.count > Self.listedFindings {
      let y = top + 22 + Double(Self.listedFindings) * 15
      label(
        "… and \(findings.count - Self.listedFindings) more: bgtrace check lists them all.", x: 34, y: y + 10,
        color: "#555555")
    }
  }
}
