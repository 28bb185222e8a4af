import BackgroundTrace
import BackgroundTraceExport
import Testing

/// A task that expired and was never ended is drawn to its expiration plus the grace the
/// checker allows (1 s, `task-expired-not-ended`), with its label and its finding there,
/// not at the next event, which can come hours later.
@Suite struct ExpiredTaskDrawingTests {
  @Test func anExpiredTaskEndsAtItsGrace() throws {
    let trace = try RecordedTrace(
      text: """
        bgtrace 1
        meta platform=ios
        0 app.launch
        0 app.state to=background
        0 task.begin id=1 name=Upload
        29 task.expire id=1
        3600 app.state to=suspended

        """)
    let svg = ExportFormat.svg.render(trace, named: "expired")
    #expect(svg.contains("<title>task 1 Upload: killed\n0s to 30s (30s)\nexpired at 29s</title>"))
    #expect(!svg.contains("0s to 3600s (3600s)\nexpired at 29s"))
    // The finding is noticed at the next event, 3600 s, and drawn where it became true.
    #expect(
      svg.contains("<title>#1 error [task-expired-not-ended] at 30s (found at 3600s): task 1 (&quot;Upload&quot;)"))
  }
}
