import BackgroundTrace
import BackgroundTraceExport
import Testing

/// A process the trace did not see start (an imported log begins mid-run) is drawn in an
/// `unknown` state until its first `app.state`, not as launching.
@Suite struct UnknownAppStateTests {
  @Test func aProcessSeenMidRunIsUnknownUntilItsFirstState() throws {
    let trace = try RecordedTrace(
      text: """
        bgtrace 1
        meta platform=ios
        2 task.begin id=1
        5 app.state to=background
        9 task.end id=1

        """)
    let svg = ExportFormat.svg.render(trace, named: "mid-run")
    #expect(svg.contains("<title>unknown in process 1: 2s to 5s (3s)</title>"))
    #expect(!svg.contains("<title>launching in process 1"))
    #expect(svg.contains("<title>background in process 1: 5s to 9s (4s)</title>"))
  }

  @Test func aLaunchedProcessIsLaunchingUntilItsFirstState() throws {
    let trace = try RecordedTrace(
      text: "bgtrace 1\nmeta platform=ios\n0 app.launch\n2 app.state to=active\n4 app.state to=background\n")
    let svg = ExportFormat.svg.render(trace, named: "launched")
    #expect(svg.contains("<title>launching in process 1: 0s to 2s (2s)</title>"))
  }
}
