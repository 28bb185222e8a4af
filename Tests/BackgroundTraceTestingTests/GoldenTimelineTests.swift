import BackgroundTrace
import BackgroundTraceExport
import BackgroundTraceTesting
import Foundation
import Testing

/// A failing golden assertion leaves the SVG timelines of the golden and of the actual
/// trace, and the actual one's HTML page, in the artifacts directory (docs/guides/checking.md, "Pictures and exports").
@Suite struct GoldenTimelineTests {
  let directory: String

  init() throws {
    directory = try GoldenFixtures.temporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: (directory as NSString).appendingPathComponent("goldens"), withIntermediateDirectories: true)
  }

  func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

  func read(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }

  func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

  @Test func aMismatchWritesTheTimelinesOfBothTraces() throws {
    try GoldenFixtures.save.write(toFile: path("goldens/save.txt"), atomically: true, encoding: .utf8)
    let golden = try GoldenFixtures.trace(GoldenFixtures.save)
    let slower = try GoldenFixtures.trace(GoldenFixtures.saveSlower)
    withKnownIssue {
      expectTrace(slower, matchesGolden: "save", record: .never, directory: path("goldens"), artifacts: path("out"))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().hasPrefix(
        "the trace does not match the golden \(path("goldens/save.txt")):\n")
    }
    let goldenSVG = try read("out/GoldenTimelineTests/save.golden.svg")
    let actualSVG = try read("out/GoldenTimelineTests/save.actual.svg")
    #expect(goldenSVG == ExportFormat.svg.render(golden, named: "save.txt"))
    #expect(actualSVG == ExportFormat.svg.render(slower, named: "save.txt.actual"))
    #expect(goldenSVG.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg"))
    #expect(actualSVG.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg"))
    #expect(goldenSVG != actualSVG)
    #expect(
      try read("out/GoldenTimelineTests/save.actual.html") == ExportFormat.html.render(slower, named: "save.txt.actual")
    )
    #expect(exists("out/GoldenTimelineTests/save.txt.actual"))
    #expect(exists("out/GoldenTimelineTests/save.txt.diff"))
    #expect(!exists("goldens/save.golden.svg"))
    #expect(!exists("goldens/save.actual.svg"))
  }

  @Test func aMissingGoldenWritesOnlyTheActualTimeline() throws {
    let trace = try GoldenFixtures.trace(GoldenFixtures.save)
    withKnownIssue {
      expectTrace(trace, matchesGolden: "new", record: .never, directory: path("goldens"), artifacts: path("out"))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().hasPrefix("no golden trace at \(path("goldens/new.txt"))")
    }
    let actualSVG = try read("out/GoldenTimelineTests/new.actual.svg")
    #expect(actualSVG == ExportFormat.svg.render(trace, named: "new.txt.actual"))
    #expect(actualSVG.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg"))
    #expect(exists("out/GoldenTimelineTests/new.actual.html"))
    #expect(!exists("out/GoldenTimelineTests/new.golden.svg"))
  }

  @Test func aMatchRemovesTheTimelinesOfAnEarlierMismatch() throws {
    try GoldenFixtures.save.write(toFile: path("goldens/save.txt"), atomically: true, encoding: .utf8)
    let slower = try GoldenFixtures.trace(GoldenFixtures.saveSlower)
    withKnownIssue {
      expectTrace(slower, matchesGolden: "save", record: .never, directory: path("goldens"), artifacts: path("out"))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().hasPrefix("the trace does not match the golden")
    }
    #expect(exists("out/GoldenTimelineTests/save.golden.svg"))
    expectTrace(
      try GoldenFixtures.trace(GoldenFixtures.save), matchesGolden: "save", record: .never,
      directory: path("goldens"), artifacts: path("out"))
    #expect(!exists("out/GoldenTimelineTests/save.golden.svg"))
    #expect(!exists("out/GoldenTimelineTests/save.actual.svg"))
    #expect(!exists("out/GoldenTimelineTests/save.actual.html"))
  }

  @Test func withoutAnArtefactsDirectoryNoTimelineIsWritten() throws {
    try GoldenFixtures.save.write(toFile: path("save.txt"), atomically: true, encoding: .utf8)
    let slower = try GoldenFixtures.trace(GoldenFixtures.saveSlower)
    withKnownIssue {
      expectTrace(slower, matchesGolden: "save", record: .never, directory: directory, artifacts: nil)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().hasPrefix("the trace does not match the golden")
    }
    #expect(exists("save.txt.actual"))
    let files = try FileManager.default.contentsOfDirectory(atPath: directory)
    #expect(!files.contains { $0.hasSuffix(".svg") || $0.hasSuffix(".html") })
  }
}
