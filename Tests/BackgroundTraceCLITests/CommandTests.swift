import BackgroundTrace
import BackgroundTraceCLI
import Foundation
import Testing

/// Runs commands in-process against files in a fresh temporary directory.
@Suite struct CommandTests {
  let directory: String

  init() throws {
    directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("bgtrace-cli-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

  func write(_ text: String, to name: String) throws -> String {
    try text.write(toFile: path(name), atomically: true, encoding: .utf8)
    return path(name)
  }

  static let sample = """
    bgtrace 1
    meta platform=ios budget=30
    0 app.launch
    0.2 app.state to=active
    12.5 app.state to=background
    12.5 task.begin id=1 name=SaveDocument
    42.5 task.expire id=1
    42.5 task.end id=1
    42.51 task.end id=1

    """

  @Test func convertToBinaryAndBackIsByteIdentical() throws {
    let text = try write(Self.sample, to: "a.txt")
    #expect(run("convert", text, path("a.bgtrace")).status == .success)
    #expect(run("convert", path("a.bgtrace"), path("b.txt")).status == .success)
    #expect(try String(contentsOfFile: path("b.txt"), encoding: .utf8) == Self.sample)
    #expect(run("convert", path("b.txt"), path("b.bgtrace")).status == .success)
    #expect(
      FileManager.default.contents(atPath: path("a.bgtrace")) == FileManager.default.contents(atPath: path("b.bgtrace"))
    )
  }

  @Test func dumpPrintsCanonicalText() throws {
    let text = try write(
      "bgtrace 1\n# a comment\n0.50 app.launch\n\n1.000 task.begin  id=1\tname=\"Save\"\r\n", to: "loose.txt")
    let result = run("dump", text)
    #expect(result.status == .success)
    #expect(result.output == "bgtrace 1\n0.5 app.launch\n1 task.begin id=1 name=Save\n")
    #expect(result.errors == "")
  }

  @Test func malformedInputExitsTwoWithOneLine() throws {
    let text = try write("bgtrace 1\n0 task.begin id=x\n", to: "bad.txt")
    let result = run("dump", text)
    #expect(result.status == .badInput)
    #expect(result.output == "")
    #expect(result.errors == "bgtrace: \(text):2:17: expected a non-negative integer for 'id', found 'x'\n")
  }

  @Test func missingFileExitsTwo() {
    let result = run("dump", path("nope.bgtrace"))
    #expect(result.status == .badInput)
    #expect(result.errors == "bgtrace: \(path("nope.bgtrace")): cannot open: No such file or directory\n")
  }

  @Test func aTornBinaryTracePrintsWhatIsIntactAndExitsTwo() throws {
    var trace = try RecordedTrace(text: Self.sample)
    for copy in 1...40 {
      trace.events.append(TraceEvent(time: TraceTime(seconds: 50 + Double(copy)), .mark(label: "padding \(copy)")))
    }
    // Version 1, whose chunk layout the expected offsets below are worked out from.
    let bytes = try BinaryTraceEncoder.encode(trace, chunkPayloadLimit: 256, layout: .legacy(version: 1))
    #expect(try RecordedTrace.decode(binary: bytes).trace == trace)
    let cut = Array(bytes.dropLast(3))
    _ = FileManager.default.createFile(atPath: path("torn.bgtrace"), contents: Data(cut))
    let result = run("dump", path("torn.bgtrace"))
    #expect(result.status == .badInput)
    // Chunks of 256 payload bytes: the cut falls in the third, which holds events 40–47
    // (marks 33–40); the first 39 events are printed.
    let intact = (1...32).map { "\(50 + $0) mark label=\"padding \($0)\"\n" }.joined()
    #expect(result.output == Self.sample + intact)
    #expect(
      result.errors
        == "\(path("torn.bgtrace")): at byte 600: error: the file ends at byte 750, inside chunk 2 (events 40–47), which starts at byte 600: 110 of its 113 payload bytes are there (a torn tail); at least 8 events lost: the chunk's 8, and any after them\n"
    )
  }

  @Test func statsCountsKindsTasksAndWork() throws {
    let text = try write(
      """
      bgtrace 1
      0 app.launch
      1 task.begin id=1 name=Save
      3.5 task.end id=1
      4 task.begin id=0
      5 work.enqueue work=w limit=3
      6 work.start work=w attempt=0
      7 work.result work=w attempt=0 outcome=retry
      40 work.start work=w attempt=1
      41 work.result work=w attempt=1 outcome=success

      """, to: "stats.txt")
    let result = run("stats", text)
    #expect(result.status == .success)
    // 271 bytes of text for 9 events: 30.11 bytes an event.
    #expect(
      result.output == """
        \(text) (text, 271 bytes)
          events      9  (30.11 bytes/event)
          duration    41.000s
          processes   1
          tasks       begun 1, refused 1, ended 1, expired 0; longest: task 1 "Save", 2.500s; open p50 2.500s, p95 2.500s
          scheduler   submitted 0, rejected 0, launched 0, expired 0, completed 0
          work        enqueued 1, attempts 2, retries 1, succeeded 1, failed 0, stopped 0
          events by kind
            app.launch      1
            task.begin      2
            task.end        1
            work.enqueue    1
            work.start      2
            work.result     2

        """)
    #expect(result.errors == "")
  }

  @Test func demoWritesBothFormsThatAgree() throws {
    let out = path("demo")
    let result = run("demo", "--out", out)
    #expect(result.status == .success)
    #expect(result.output.contains("  41 task.expire id=2\n  41 task.end id=2\n"))
    #expect(result.output.contains("  28434.133 task.end id=0\n  >> error: task.end for .invalid (id 0)"))
    #expect(result.output.contains("demo.txt:28: error: task.end for .invalid (id 0)"))
    var binary = try TraceReader(path: (out as NSString).appendingPathComponent("demo.bgtrace"))
    let text = try String(contentsOfFile: (out as NSString).appendingPathComponent("demo.txt"), encoding: .utf8)
    #expect(try binary.readAll() == RecordedTrace(text: text))
    #expect(binary.damage.isEmpty)
  }

  /// The commands the demo suggests run as printed from a checkout, where bgtrace is not
  /// on PATH until Tools/install-bgtrace.sh puts it there; each of them runs on the
  /// demo's files.
  @Test func demoSuggestsCommandsThatRunFromTheCheckout() {
    let out = path("demo")
    let result = run("demo", "--out", out)
    #expect(
      result.output.hasSuffix(
        """
        BackgroundTask": the save's end is lost. Next, from this checkout (or without
        'swift run' once Tools/install-bgtrace.sh has put bgtrace on PATH):
          swift run bgtrace check \(out)/demo.txt
          swift run bgtrace explain \(out)/demo.txt
          swift run bgtrace export \(out)/demo.txt --format html --out \(out)/demo.html

        """))
    #expect(run("explain", "\(out)/demo.txt").status == .findings)  // the demo has its finding
    #expect(run("export", "\(out)/demo.txt", "--format", "html", "--out", "\(out)/demo.html").status == .success)
  }

  /// The demo says what the sample app is, with units on its times, and why the bad end
  /// comes at the next launch.
  @Test func demoExplainsItself() {
    let result = run("demo", "--out", path("demo"))
    #expect(!result.output.contains("seed articles"))
    #expect(result.output.contains("It ran for 32034.133 s (8.9 h) of virtual time"))
    #expect(result.output.contains("Timeline (seconds since launch; findings marked with >>):"))
    #expect(result.output.contains("suspends the app with the save unfinished"))
  }

  @Test func demoSaysWhereItWrote() {
    let out = path("demo")
    let result = run("demo", "--out", out)
    #expect(
      result.output.hasPrefix(
        """
        Wrote the sample app's trace:
          \(out)/demo.bgtrace  (binary, 425 bytes, 31 events)
          \(out)/demo.txt  (text)

        """))
  }

  @Test func theShippedDemoTraceIsWhatTheDemoWrites() throws {
    // Traces/examples/demo.txt is what docs/guides/checking.md and the export tests show; regenerate
    // it with `bgtrace demo --out DIR` and review the diff when the demo changes.
    let out = path("demo")
    #expect(run("demo", "--out", out).status == .success)
    let written = try String(contentsOfFile: (out as NSString).appendingPathComponent("demo.txt"), encoding: .utf8)
    let shipped = try String(
      contentsOf: ExportFormatTests.root.appendingPathComponent("Traces/examples/demo.txt"), encoding: .utf8)
    #expect(written == shipped)
  }

  @Test func helpForEveryCommand() {
    for name in CommandName.allCases {
      let result = run("help", name.rawValue)
      #expect(result.status == .success)
      #expect(result.output.hasPrefix(name == .help ? "bgtrace:" : "Usage: bgtrace \(name.rawValue)"))
    }
    #expect(run("--version").output == "bgtrace \(BGTrace.version)\n")
  }
}
