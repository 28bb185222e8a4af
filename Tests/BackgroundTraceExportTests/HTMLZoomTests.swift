import BackgroundTrace
import BackgroundTraceExport
import Foundation
import TestSupport
import Testing

/// The HTML timeline zooms and pans its time axis (docs/guides/checking.md, "Pictures
/// and exports"): the page's script reads the plot's box and its linear stretches of
/// time from the drawing, and moves each text beside a bar or marker with what it stands
/// beside. The script's drawing is looked at in a browser (`Tools/screenshot-timelines.sh`,
/// screenshots before and after a zoom); these tests hold what it reads.
@Suite struct HTMLZoomTests {
  static func demo() throws -> RecordedTrace {
    var reader = try TraceReader(path: Repository.root.appendingPathComponent("Traces/examples/demo.txt").path)
    return try reader.readAll()
  }

  /// The demo's plot runs from x 250 (the lane labels' width) to 1176 (1200 less the
  /// right margin), its lanes end at 272, and its one compressed gap, 361.34133 s to
  /// 28113.79167 s, is drawn from 323.6 to 359.6: the two linear stretches are either
  /// side of it.
  @Test func thePageSaysWhereThePlotIsAndHowItsTimeRuns() throws {
    let html = ExportFormat.html.render(try Self.demo(), named: "demo.txt")
    #expect(html.contains(#" data-plot="250 1176 272" "#))
    #expect(html.contains(##" data-scale="250:323.6:0:361.34133 359.6:1176:28113.79167:"##))
    #expect(html.contains(##"<text x="744" y="54" text-anchor="middle" fill="#555555" class="tick">30000s</text>"##))
    #expect(html.contains("Over the timeline: the wheel zooms, drag or shift+wheel pans"))
  }

  /// A text right beside what it describes keeps that distance at any zoom; one that
  /// slid past something in the way is placed by its own x.
  @Test func eachTextSaysWhatItStandsBeside() throws {
    let html = ExportFormat.html.render(try Self.demo(), named: "demo.txt")
    // The state's name, 3 pixels into its span (suspended from 41 s, at x 258.4).
    #expect(html.contains(##"<text x="261.4" y="83" data-at="258.4" fill="#263238""##))
    // The never-launched request's outcome, ending 4 pixels left of its lane's start.
    #expect(html.contains(##"<text x="420.9" y="232" text-anchor="end" data-at="424.9" fill="#424242">"##))
    // The finding's text, 10 pixels right of its marker at 28434.133 s.
    #expect(html.contains(##"<text x="434.9" y="144" data-at="424.9" fill="#c62828">"##))
    // "expired" slid past the expiration's marker: placed by its own x.
    #expect(html.contains(##"<text x="265.9" y="180" data-at="265.9" fill="#424242"><title>expired</title>"##))
  }

  /// The SVG export is a picture with no script: it carries none of the page's hints.
  @Test func theSVGExportCarriesNoHints() throws {
    let svg = ExportFormat.svg.render(try Self.demo(), named: "demo.txt")
    #expect(!svg.contains("data-plot") && !svg.contains("data-scale") && !svg.contains("data-at"))
    #expect(!svg.contains(#"class="tick""#))
  }
}
