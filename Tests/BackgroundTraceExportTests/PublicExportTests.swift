import BackgroundTrace
import BackgroundTraceCLI
import BackgroundTraceExport
import Foundation
import TestSupport
import Testing

/// The public API renders what `bgtrace export` writes for the same trace, byte for byte
/// (docs/guides/checking.md, "Pictures and exports"; docs/cli.md, "bgtrace export").
@Suite struct PublicExportTests {
  static let root = Repository.root

  static func shipped(_ name: String) -> String { root.appendingPathComponent("Traces/\(name)").path }

  /// Every shipped trace (text and binary), read whole.
  static let shippedTraces: [String] = {
    let traces = root.appendingPathComponent("Traces").path
    let files = FileManager.default.enumerator(atPath: traces)?.compactMap { $0 as? String } ?? []
    return files.filter { $0.hasSuffix(".txt") || $0.hasSuffix(".bgtrace") }.sorted().map { traces + "/" + $0 }
  }()

  /// The standard output of `bgtrace export PATH ARGUMENTS…`, which must succeed.
  static func export(_ path: String, _ arguments: [String]) -> String {
    let console = CapturingConsole()
    let status = BGTrace.run(["export", path] + arguments, console: console)
    #expect(status == .success, "\(path) \(arguments): \(console.errors)")
    return console.output
  }

  static func read(_ path: String) throws -> RecordedTrace {
    var reader = try TraceReader(path: path)
    return try reader.readAll()
  }

  @Test func theDemoRendersAsTheCommandExportsIt() throws {
    let path = Self.shipped("examples/demo.txt")
    let trace = try Self.read(path)
    let svg = ExportFormat.svg.render(trace, named: path)
    #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg"))
    #expect(svg == Self.export(path, ["--format", "svg"]))
    #expect(ExportFormat.html.render(trace, named: path) == Self.export(path, ["--format", "html"]))
    #expect(ExportFormat.chrome.render(trace, named: path) == Self.export(path, ["--format", "chrome"]))
    #expect(ExportFormat.jsonl.render(trace) == Self.export(path, ["--format", "jsonl"]))
  }

  @Test func aWindowRendersAsTheCommandExportsIt() throws {
    let path = Self.shipped("examples/demo.txt")
    let trace = try Self.read(path)
    let from = try #require(TraceTime(decimalSeconds: "10"))
    let to = try #require(TraceTime(decimalSeconds: "100"))
    let window = ["--from", "10", "--to", "100"]
    #expect(
      ExportFormat.svg.render(trace, named: path, from: from, to: to)
        == Self.export(path, ["--format", "svg"] + window))
    #expect(
      ExportFormat.chrome.render(trace, named: path, from: from, to: to)
        == Self.export(path, ["--format", "chrome"] + window))
    #expect(ExportFormat.jsonl.render(trace, from: from, to: to) == Self.export(path, ["--format", "jsonl"] + window))
  }

  /// The timelines draw no event locations, so every shipped trace, binary too, renders
  /// the same bytes from memory as from its file.
  @Test(arguments: shippedTraces) func everyShippedTimelineRendersAsTheCommandExportsIt(path: String) throws {
    let trace = try Self.read(path)
    #expect(ExportFormat.svg.render(trace, named: path) == Self.export(path, ["--format", "svg"]))
    #expect(ExportFormat.jsonl.render(trace) == Self.export(path, ["--format", "jsonl"]))
  }

  @Test func aToBeforeFromDrawsTheInstantFrom() throws {
    let trace = try Self.read(Self.shipped("examples/demo.txt"))
    let ten = try #require(TraceTime(decimalSeconds: "10"))
    let five = try #require(TraceTime(decimalSeconds: "5"))
    #expect(
      ExportFormat.svg.render(trace, from: ten, to: five) == ExportFormat.svg.render(trace, from: ten, to: ten))
  }
}
