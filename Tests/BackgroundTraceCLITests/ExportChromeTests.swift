import BackgroundTraceCLI
import Foundation
import Testing

/// `bgtrace export --format chrome`: the slices, instants and flows of known traces.
@Suite struct ExportChromeTests {
  let directory: String

  init() throws {
    directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("bgtrace-export-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  static func shipped(_ name: String) -> String {
    ExportFormatTests.root.appendingPathComponent("Traces/\(name)").path
  }

  func events(_ path: String, _ arguments: String...) throws -> [[String: Any]] {
    try ExportOutput.chromeEvents(ExportOutput.run(path, ["--format", "chrome"] + arguments))
  }

  func write(_ text: String) throws -> String {
    let path = (directory as NSString).appendingPathComponent("trace.txt")
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// The names of the events with phase `phase` (and category `category`), in order.
  func names(_ events: [[String: Any]], _ phase: String, _ category: String? = nil) -> [String] {
    events.filter { $0["ph"] as? String == phase && (category == nil || $0["cat"] as? String == category) }
      .compactMap { $0["name"] as? String }
  }

  func times(_ events: [[String: Any]], _ phase: String, _ category: String) -> [Double] {
    events.filter { $0["ph"] as? String == phase && $0["cat"] as? String == category }
      .compactMap { ExportOutput.number($0["ts"]) }
  }

  @Test func doubleEndShowsOneTaskOneExpirationAndOneFinding() throws {
    let events = try events(Self.shipped("examples/double-end.txt"))
    #expect(names(events, "b", "task") == ["SaveDocument"])
    #expect(times(events, "b", "task") == [12_500_000])
    #expect(times(events, "e", "task") == [42_500_000])
    #expect(names(events, "i", "expiration") == ["expire SaveDocument"])
    #expect(names(events, "i", "finding") == ["task-double-end"])
    #expect(times(events, "i", "finding") == [42_510_000])
    #expect(names(events, "X", "app") == ["launching", "active", "background"])
    #expect(names(events, "M").filter { $0 == "process_name" }.count == 1)
    #expect(names(events, "s").isEmpty && names(events, "f").isEmpty)
  }

  @Test func demoShowsTheRetryAsAFlowBetweenAttempts() throws {
    let events = try events(Self.shipped("examples/demo.txt"))
    #expect(names(events, "b", "task") == ["FlushLogs", "SaveDocument"])
    #expect(names(events, "X", "work") == ["DataSyncWorker #0", "DataSyncWorker #1", "DataSyncWorker #2"])
    // Launch and active are both at 0 s, so there is no launching slice; the last
    // suspension lasts from 28442.133 s to the next request's `sched.wait` at the
    // trace's end (32034.133 s).
    #expect(
      names(events, "X", "app") == ["active", "background", "suspended", "background", "suspended"])
    // The refresh submitted at 0 s launches at 28434.133 s; each retry flows to the next
    // attempt, the second one to the same instant: the app was suspended from 41 s until
    // the launch woke it, and an iOS in-process queue runs only while the app runs.
    #expect(times(events, "s", "flow") == [0, 2_100_000, 34_200_000])
    #expect(times(events, "f", "flow") == [34_200_000, 28_434_133_000, 28_434_133_000])
    #expect(names(events, "s") == ["submit to launch", "retry", "retry"])
    #expect(names(events, "i", "expiration") == ["expire SaveDocument"])
    #expect(names(events, "i", "finding") == ["task-unknown-end"])
  }

  @Test func allKindsShowsTwoProcessesRunsRejectionsAndExpirations() throws {
    let events = try events(Self.shipped("format/all-kinds.txt"))
    #expect(names(events, "M").filter { $0 == "process_name" }.count == 2)
    #expect(Set(events.compactMap { ExportOutput.number($0["pid"]) }) == [1, 2])
    #expect(names(events, "b", "task") == ["SaveDocument", "task 2", "UploadPhotos", "task 3"])
    let runs = events.filter {
      $0["ph"] as? String == "X" && $0["cat"] as? String == "sched" && ExportOutput.number($0["dur"]) != 0
    }
    #expect(runs.compactMap { $0["name"] as? String } == ["com.example.refresh", "com.example.cleanup"])
    #expect(runs.compactMap { ($0["args"] as? [String: Any])?["outcome"] as? String } == ["completed", "expired"])
    #expect(names(events, "X", "work") == ["upload #0", "upload #1", "Sync Worker #0", "a #0"])
    #expect(names(events, "i", "rejection").count == 4)
    #expect(names(events, "i", "expiration") == ["expire UploadPhotos", "expire run 5"])
    #expect(names(events, "i", "finding") == ["sched-refresh-not-rescheduled"])
    #expect(names(events, "s") == ["retry"])
  }

  @Test func aSubmissionFlowsToTheLaunchItLedTo() throws {
    let events = try events(Self.shipped("golden/ios/refresh-fetch-within-runtime.txt"))
    #expect(names(events, "X", "sched") == ["submit refresh", "submit refresh", "com.example.refresh"])
    #expect(names(events, "s") == ["submit to launch"])
    #expect(times(events, "s", "flow") == [0])
    #expect(times(events, "f", "flow") == [7_665_264_000])
    let start = try #require(events.first { $0["ph"] as? String == "s" })
    let submission = try #require(events.first { $0["name"] as? String == "submit refresh" })
    #expect(ExportOutput.number(start["tid"]) == ExportOutput.number(submission["tid"]))
  }

  @Test func anUnendedTaskEndsWhereItsProcessEnds() throws {
    let path = try write(
      """
      bgtrace 1
      0 app.launch
      0.5 app.state to=background
      1 task.begin id=1 name=Upload
      2 task.begin id=2
      3 task.end id=2
      10 app.terminate reason=watchdog
      20 app.launch
      21 task.begin id=1 name=Again

      """)
    let events = try events(path)
    #expect(names(events, "b", "task") == ["Upload", "task 2", "Again"])
    #expect(times(events, "e", "task") == [3_000_000, 10_000_000, 21_000_000])
    let outcomes = events.filter { $0["ph"] as? String == "b" }.compactMap {
      ($0["args"] as? [String: Any])?["outcome"] as? String
    }
    #expect(outcomes == ["leaked", "ended", "leaked"])
    #expect(names(events, "i", "finding") == ["task-leaked", "task-leaked"])
  }

  @Test func theWindowClipsSlicesAndDropsWhatIsOutside() throws {
    let path = try write(
      """
      bgtrace 1
      0 app.launch
      0.2 app.state to=active
      1 task.begin id=1 name=Early
      2 task.end id=1
      5 task.begin id=2 name=Across
      15 task.end id=2
      30 mark label=late

      """)
    let events = try events(path, "--from", "10", "--to", "20")
    #expect(names(events, "b", "task") == ["Across"])
    #expect(times(events, "b", "task") == [10_000_000])
    #expect(times(events, "e", "task") == [15_000_000])
    #expect(names(events, "i", "event").isEmpty)
    #expect(names(events, "X", "app") == ["active"])
  }
}
