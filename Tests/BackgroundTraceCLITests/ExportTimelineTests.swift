import BackgroundTraceCLI
import Foundation
import Testing

/// `bgtrace export --format svg|html`: lanes, markers, the lane cap and the window.
@Suite struct ExportTimelineTests {
  let directory: String

  init() throws {
    directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("bgtrace-timeline-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  func write(_ text: String) throws -> String {
    let path = (directory as NSString).appendingPathComponent("trace.txt")
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func doubleEndDrawsAnExpiredTaskTheExpirationAndTheFinding() throws {
    let path = ExportChromeTests.shipped("examples/double-end.txt")
    let svg = try ExportOutput.run(path, "--format", "svg")
    #expect(svg.contains(">task 1 SaveDocument</text>"))
    #expect(svg.contains("<title>task 1 SaveDocument: expired\n12.5s to 42.5s (30s)\nexpired at 42.5s</title>"))
    #expect(svg.contains("<title>task 1 SaveDocument expired at 42.5s</title>"))
    #expect(svg.contains("42.51s  error  [task-double-end]  task 1 ended twice (first end at 42.5s)"))
    #expect(svg.contains(">UIKit background tasks (1)</text>"))
  }

  @Test func manyLanesAreCappedWithTheProblemsKept() throws {
    var text = "bgtrace 1\n0 app.launch\n0.1 app.state to=active\n"
    for id in 1...300 {
      text += "\(id) task.begin id=\(id) name=T\(id)\n"
      if id != 250 { text += "\(id).5 task.end id=\(id)\n" }
    }
    let svg = try ExportOutput.run(try write(text), "--format", "svg")
    #expect(svg.contains("Showing 200 of 300 lanes"))
    #expect(svg.contains(">UIKit background tasks (200 of 300)</text>"))
    #expect(svg.contains(">task 250 T250</text>"))
    #expect(svg.components(separatedBy: "<text x=\"22\"").count - 1 == 200)
    #expect(ExportOutput.xmlRoot(svg) == "svg")
  }

  @Test func theWindowDrawsOnlyWhatMeetsIt() throws {
    let path = try write(
      """
      bgtrace 1
      0 app.launch
      0.2 app.state to=active
      1 task.begin id=1 name=Early
      2 task.end id=1
      5 task.begin id=2 name=Across
      15 task.end id=2

      """)
    let svg = try ExportOutput.run(path, "--format", "svg", "--from", "10", "--to", "20")
    #expect(svg.contains(">task 2 Across</text>"))
    #expect(!svg.contains("Early"))
    #expect(svg.contains("window 10s to 20s"))
    #expect(svg.contains(">10s</text>") && svg.contains(">20s</text>"))
  }

  /// A due work's wait is drawn on its lane from its `work.wait` to its start, with
  /// the reasons on hover, and does not count as activity: the idle stretch around it
  /// is still compressed.
  @Test func aWaitIsDrawnOnTheWorksLaneWithItsReasons() throws {
    let path = try write(
      """
      bgtrace 1
      meta platform=android
      0 work.enqueue work=upload
      0 work.wait work=upload reasons=network
      600 work.start work=upload attempt=0
      660 work.result work=upload attempt=0 outcome=success

      """)
    let svg = try ExportOutput.run(path, "--format", "svg")
    #expect(svg.contains("<title>upload waited 0s to 600s ("))
    #expect(svg.contains("): it needs a network connection of the type it asks for, and there was none</title>"))
  }

  /// A scheduler request's waits are drawn the same way: on its run's lane when a
  /// launch answers it, on its own lane when none does.
  @Test func aSchedulerRequestsWaitsAreDrawnWithTheirReasons() throws {
    let path = try write(
      """
      bgtrace 1
      meta platform=ios
      0 app.launch
      0 sched.register ident=refresh
      0 sched.register ident=clean
      0 sched.submit ident=refresh type=refresh earliest=60
      0 sched.submit ident=clean type=processing earliest=60 power=true
      1 app.state to=background
      4 app.state to=suspended
      60 sched.wait ident=refresh reasons=scheduler
      60 sched.wait ident=clean reasons=power+scheduler
      500 app.state to=background
      500 sched.launch ident=refresh run=1
      505 sched.complete run=1 success=true
      508 app.state to=suspended
      900 sched.wait ident=clean reasons=power

      """)
    let svg = try ExportOutput.run(path, "--format", "svg")
    #expect(
      svg.contains(
        "<title>refresh waited 60s to 500s (440s): the system had not chosen to launch it yet (it launches minutes "
          + "to hours after the earliest date)</title>"))
    #expect(svg.contains("<title>clean waited 60s to 900s (840s): it needs external power"))
    #expect(svg.contains("<title>clean waited 900s to 900s (0s): it needs external power"))
  }

  @Test func aLongSuspensionIsDrawnCompressed() throws {
    let path = ExportChromeTests.shipped("golden/ios/refresh-fetch-within-runtime.txt")
    let svg = try ExportOutput.run(path, "--format", "svg")
    // Suspended and idle from 13s to 7665.264s: compressed, keeping 1% of the window (80s) at each end.
    #expect(svg.contains("<title>93s to 7585.264s (7492.264s) drawn compressed: the app was suspended"))
    #expect(svg.contains(">7492s</text>") && !svg.contains(">2h</text>"))  // the axis's one unit
    #expect(svg.contains(">0s</text>") && svg.contains(">7600s</text>") && !svg.contains(">3600s</text>"))
  }

  @Test func htmlWrapsTheSVGWithADetailsPanel() throws {
    let path = ExportChromeTests.shipped("examples/demo.txt")
    let html = try ExportOutput.run(path, "--format", "html")
    #expect(html.contains("<pre id=\"details\">"))
    #expect(html.contains("<script>") && !html.contains("src="))
    #expect(html.contains("<title>sync-1 DataSyncWorker attempt 0: retry\n2.1s to 4.1s (2s)</title>"))
    #expect(ExportOutput.xmlRoot(html) == "html")
  }

  @Test func aWindowThatEndsBeforeItStartsIsAUsageError() {
    let console = CapturingConsole()
    let path = ExportChromeTests.shipped("examples/demo.txt")
    let status = BGTrace.run(["export", path, "--format", "svg", "--from", "20", "--to", "10"], console: console)
    #expect(status == .badInput)
    #expect(console.errors.contains("'--from' (20s) is after '--to' (10s)"))
    #expect(console.output.isEmpty)
  }

  @Test(arguments: ["chrome", "jsonl", "svg", "html"])
  func malformedInputExitsWithStatus2(_ format: String) throws {
    let path = try write("bgtrace 1\n0 app.launch\n1 task.begin id=x\n")
    let console = CapturingConsole()
    let status = BGTrace.run(["export", path, "--format", format], console: console)
    #expect(status == .badInput)
    #expect(console.errors.contains("trace.txt:3"))
  }
}
