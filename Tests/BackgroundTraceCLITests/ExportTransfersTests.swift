import BackgroundTraceCLI
import Foundation
import TestSupport
import Testing

/// The timelines and the Chrome export draw background transfers: one lane (track) per
/// session, each transfer from submit to finish, each wake to the completion handler's
/// call, or red where the app never called it.
@Suite struct ExportTransfersTests {
  static let vector = Repository.path("Traces/format/background-transfers.txt")

  @Test func theSVGTimelineHasALanePerSessionWithItsTransfersAndWakes() {
    let result = run("export", Self.vector, "--format", "svg")
    #expect(result.status == .success)
    for expected in [
      "Background transfers (URLSession) (1)",
      "com.example.upload transfer 1 (upload): success\n1s to 60s (59s)",
      "com.example.upload transfer 2 (download): failed\n1s to 61s (60s)",
      "com.example.upload transfer 3 (upload): cancelled",
      "com.example.upload woken at 62.001s: completion handler called at 62.75s",
    ] {
      #expect(result.output.contains(expected), "\(expected)")
    }
  }

  @Test func theChromeExportHasEachTransferAndWakeAsASlice() {
    let result = run("export", Self.vector, "--format", "chrome")
    #expect(result.status == .success)
    #expect(
      result.output.contains(
        #""name":"transfer 1","cat":"net","ph":"X","ts":1000000,"dur":59000000,"pid":1,"#))
    #expect(result.output.contains(#""args":{"task":2,"outcome":"failed","kind":"download"}"#))
    #expect(result.output.contains(#""name":"wake","cat":"net","ph":"X","ts":62001000,"dur":749000,"pid":2,"#))
    #expect(result.output.contains(#""URLSession com.example.upload""#))
  }

  @Test func aWakeTheAppNeverAnsweredIsMarked() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("unanswered.txt")
    try """
    bgtrace 1
    0 app.launch
    0 app.state to=background
    0 net.wake session=com.example.upload
    0.1 net.create session=com.example.upload
    0.5 net.events-done session=com.example.upload
    5 app.state to=suspended

    """.write(toFile: path, atomically: true, encoding: .utf8)
    let chrome = run("export", path, "--format", "chrome")
    #expect(chrome.output.contains(#""name":"wake (handler not called)","cat":"net","ph":"X","ts":0,"dur":5000000"#))
    let svg = run("export", path, "--format", "svg")
    #expect(svg.output.contains("com.example.upload woken at 0s: completion handler not called (ended at 5s)"))
  }
}
