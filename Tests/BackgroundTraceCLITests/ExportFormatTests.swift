import BackgroundTrace
import BackgroundTraceCLI
import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `bgtrace export`: every shipped trace exports to every format, and each output is
/// well-formed for the tools that read it.
@Suite struct ExportFormatTests {
  static let root = Repository.root

  /// Every trace under Traces/, text and binary.
  static let shippedTraces: [String] = {
    let traces = root.appendingPathComponent("Traces").path
    let files = FileManager.default.enumerator(atPath: traces)?.compactMap { $0 as? String } ?? []
    return files.filter { $0.hasSuffix(".txt") || $0.hasSuffix(".bgtrace") }.sorted().map { traces + "/" + $0 }
  }()

  /// `--out PATH` writes what standard output would have had, and prints nothing
  /// (issue: `bgtrace export x.txt --out x.html` was an error).
  @Test func outWritesTheExportToAFile() throws {
    let trace = Self.root.appendingPathComponent("Traces/examples/demo.txt").path
    let directory = try TemporaryDirectory()
    for format in ["svg", "html", "chrome", "jsonl"] {
      let path = directory.path("demo.\(format)")
      let written = run("export", trace, "--format", format, "--out", path)
      #expect(written.status == .success && written.output.isEmpty && written.errors.isEmpty, "\(format)")
      let printed = run("export", trace, "--format", format)
      #expect(try String(contentsOfFile: path, encoding: .utf8) == printed.output, "\(format)")
    }
    let unwritable = run("export", trace, "--format", "svg", "--out", directory.path("missing/demo.svg"))
    #expect(unwritable.status == .badInput)
    #expect(unwritable.errors == "bgtrace: \(directory.path("missing/demo.svg")): cannot create the output file\n")
  }

  @Test func thereAreShippedTracesToExport() {
    #expect(Self.shippedTraces.count > 20)
  }

  @Test(arguments: shippedTraces)
  func everyFormatIsWellFormed(_ path: String) throws {
    let chrome = try ExportOutput.run(path, "--format", "chrome")
    try ExportOutput.checkChrome(chrome, path: path)
    let jsonl = try ExportOutput.run(path, "--format", "jsonl")
    try ExportOutput.checkJSONLines(jsonl, path: path)
    let svg = try ExportOutput.run(path, "--format", "svg")
    #expect(ExportOutput.xmlRoot(svg) == "svg", "\(path)")
    #expect(svg.hasPrefix("<?xml"), "\(path)")
    let html = try ExportOutput.run(path, "--format", "html")
    #expect(ExportOutput.xmlRoot(html) == "html", "\(path)")
    #expect(html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""), "\(path)")
  }
}

/// Runs `bgtrace export` in-process and checks its outputs the way their readers would.
enum ExportOutput {
  /// The standard output of `bgtrace export PATH ARGUMENTS…`, which must succeed quietly.
  static func run(_ path: String, _ arguments: String...) throws -> String {
    try run(path, arguments)
  }

  /// The standard output of `bgtrace export PATH ARGUMENTS…`, which must succeed quietly:
  /// no output on standard error but notes (Traces/format-v2/unsealed.bgtrace is an
  /// unsealed recording, which reads whole with a note; docs/FORMAT.md).
  static func run(_ path: String, _ arguments: [String]) throws -> String {
    let console = CapturingConsole()
    let status = BGTrace.run(["export", path] + arguments, console: console)
    #expect(status == .success, "\(path) \(arguments): \(console.errors)")
    let lines = console.errors.split(separator: "\n")
    #expect(lines.allSatisfy { $0.contains(": note: ") }, "\(path) \(arguments): \(console.errors)")
    return console.output
  }

  /// The `traceEvents` of a Chrome trace, after checking the top-level object.
  static func chromeEvents(_ text: String) throws -> [[String: Any]] {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    let root = try #require(object as? [String: Any])
    #expect(root["displayTimeUnit"] as? String == "ms")
    return try #require(root["traceEvents"] as? [[String: Any]])
  }

  /// Checks a Chrome trace: known phases with their required fields, times in order, every
  /// async begin (`b`) ended (`e`) with the same id, category, process and name, every
  /// flow started (`s`) once and finished (`f`) once after it.
  static func checkChrome(_ text: String, path: String) throws {
    let events = try chromeEvents(text)
    var open: [String: Int] = [:]
    var flows: [Int: [String]] = [:]
    var lastTime = -1.0
    for event in events {
      let phase = try #require(event["ph"] as? String, "\(path): \(event)")
      #expect(number(event["pid"]) != nil, "\(path): \(event)")
      #expect(number(event["tid"]) != nil, "\(path): \(event)")
      if phase == "M" {
        #expect(
          ["process_name", "process_sort_index", "thread_name", "thread_sort_index"].contains(event["name"] as? String),
          "\(path): \(event)")
        continue
      }
      let time = try #require(number(event["ts"]), "\(path): \(event)")
      #expect(time >= lastTime, "\(path): events out of order at \(event)")
      lastTime = time
      #expect(event["name"] is String && event["cat"] is String, "\(path): \(event)")
      switch phase {
      case "X":
        #expect((number(event["dur"]) ?? -1) >= 0, "\(path): \(event)")
      case "i":
        #expect(event["s"] as? String == "t", "\(path): \(event)")
      case "b", "e":
        let key = [event["id"], event["cat"], event["pid"], event["name"]].map { "\($0 ?? "")" }.joined(separator: "|")
        open[key, default: 0] += phase == "b" ? 1 : -1
        #expect(open[key]! >= 0, "\(path): 'e' before its 'b': \(event)")
      case "s", "f":
        let id = try #require(number(event["id"]), "\(path): \(event)")
        flows[Int(id), default: []].append(phase)
      default:
        Issue.record("\(path): unexpected phase in \(event)")
      }
    }
    #expect(open.values.allSatisfy { $0 == 0 }, "\(path): unmatched async slices \(open.filter { $0.value != 0 })")
    #expect(flows.values.allSatisfy { $0 == ["s", "f"] }, "\(path): unpaired flows \(flows)")
  }

  /// Checks JSON Lines: one object per event, each starting with the event's canonical
  /// time and kind.
  static func checkJSONLines(_ text: String, path: String) throws {
    #expect(text.isEmpty || text.hasSuffix("\n"), "\(path)")
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    var reader = try TraceReader(path: path)
    var count = 0
    while let located = try reader.next() {
      guard count < lines.count else { break }
      let line = String(lines[lines.startIndex + count])
      count += 1
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
      #expect(object is [String: Any], "\(path): \(line)")
      // The time, read back digit by digit as seconds with up to 9 decimals, is the
      // event's time in nanoseconds; the kind follows it.
      #expect(line.hasPrefix("{\"time\":"), "\(path): \(line)")
      let token = line.dropFirst(8).prefix { $0 != "," }
      #expect(nanoseconds(String(token)) == located.event.time.nanoseconds, "\(path): \(line)")
      #expect(
        line.dropFirst(8 + token.count).hasPrefix(",\"kind\":\"\(located.event.kind.tag.name)\""), "\(path): \(line)")
    }
    #expect(count == lines.count, "\(path): \(lines.count) lines for \(count) events")
  }

  /// `text` as a decimal number of seconds (`12`, `0.5`, `0.000000001`) in nanoseconds,
  /// or nil when it is not one.
  static func nanoseconds(_ text: String) -> UInt64? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, let whole = UInt64(parts[0]) else { return nil }
    let fraction = parts.count == 2 ? String(parts[1]) : ""
    guard fraction.count <= 9, fraction.allSatisfy(\.isNumber) else { return nil }
    let (seconds, overflow) = whole.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return nil }
    return seconds + (UInt64(fraction.padding(toLength: 9, withPad: "0", startingAt: 0)) ?? 0)
  }

  /// The root element's name when `text` is well-formed XML, else `nil`.
  static func xmlRoot(_ text: String) -> String? {
    let parser = XMLParser(data: Data(text.utf8))
    let delegate = RootElement()
    parser.delegate = delegate
    return parser.parse() ? delegate.root : nil
  }

  static func number(_ value: Any?) -> Double? {
    (value as? NSNumber)?.doubleValue
  }
}

/// Remembers the first element an `XMLParser` meets.
final class RootElement: NSObject, XMLParserDelegate {
  var root: String?

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    if root == nil { root = elementName }
  }
}
