import BackgroundTrace
import BackgroundTraceCLI
import Foundation
import TestSupport
import Testing

/// A recording that stopped early, or a killed recorder's file, read by `bgtrace`: the
/// loss is an error with its count (exit 2) and the cut is not judged as the trace's
/// end; reserved zeros are not counted as the trace's bytes.
@Suite struct StoppedRecordingCommandTests {
  /// A recorder that stops writing at its fourth event, which has no binary form (a
  /// negative id), as it would at a full disk: events 1–3 are in the file, and a task
  /// begun at 2 s is still open when the recording stops. Log chunk 0 at byte 24 holds
  /// events 1–2 (sealed at `app.state to=background`, its body 5 bytes: it ends at 77);
  /// log chunk 1 at byte 80 holds event 3 (a definition of "Upload", 8 bytes, and the
  /// record, 4: it ends at 140); the stop record follows at byte 144.
  static func stoppedRecording(at path: String) throws {
    let recorder = try TraceRecorder(writingTo: path)
    recorder.record(.appLaunch, at: .zero)
    recorder.record(.appState(to: .background), at: TraceTime(seconds: 1))
    recorder.record(.taskBegin(id: 1, name: "Upload"), at: TraceTime(seconds: 2))
    recorder.record(.taskEnd(id: -1), at: TraceTime(seconds: 3))
    recorder.record(.taskEnd(id: 1), at: TraceTime(seconds: 4))
    recorder.record(.appState(to: .suspended), at: TraceTime(seconds: 5))
    #expect(throws: TraceRecordingError.self) { try recorder.close() }
  }

  @Test func checkReportsTheEventsNotWrittenAsAnErrorAndDoesNotJudgeTheCutAsTheEnd() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("stopped.bgtrace")
    try Self.stoppedRecording(at: path)
    let result = run("check", path)
    #expect(result.status == .badInput)
    // Task 1 was ended after the cut: had the trace ended normally at 2 s, the checker
    // would have reported it as never ended.
    #expect(result.output == "")
    #expect(
      result.errors
        == "\(path): at byte 144: error: the recording stopped writing after event 3 (at 2s): event 4: field 'id' "
        + "is negative; trace integers are non-negative; 3 events recorded after it, from 3s to 5s, were not written\n")
  }

  @Test func explainJudgesTheCutAsCheckDoes() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("stopped.bgtrace")
    try Self.stoppedRecording(at: path)
    let result = run("explain", path)
    #expect(result.status == .badInput)
    #expect(!result.output.contains("at the end"), "task 1, open at the cut, is not reported as never ended")
    #expect(result.errors.hasSuffix("3 events recorded after it, from 3s to 5s, were not written\n"))
  }

  /// The timelines draw task 1 open at the cut, with no finding: had the trace ended
  /// at 2 s, it would be drawn leaked and reported never ended.
  @Test func exportDrawsWhatIsOpenAtTheCutAsOpen() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("stopped.bgtrace")
    try Self.stoppedRecording(at: path)
    let svg = run("export", path, "--format", "svg")
    #expect(svg.status == .badInput)
    #expect(svg.output.contains("Upload: open at the cut"))
    #expect(svg.output.contains("2s (cut there: the trace&#39;s last events are lost)"))
    #expect(!svg.output.contains("task-leaked"))
    #expect(!svg.output.contains("Upload: leaked"))
    let chrome = run("export", path, "--format", "chrome")
    #expect(chrome.output.contains(#""outcome":"open at the cut""#))
  }

  @Test func statsAndDumpSayTheSame() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("stopped.bgtrace")
    try Self.stoppedRecording(at: path)
    for command in ["stats", "dump"] {
      let result = run(command, path)
      #expect(result.status == .badInput, "\(command)")
      #expect(result.errors.hasPrefix("\(path): at byte 144: error: the recording stopped writing after event 3"))
      #expect(result.errors.hasSuffix("3 events recorded after it, from 3s to 5s, were not written\n"))
    }
  }

  @Test func statsCountsAKilledRecordersTraceBytesWithoutItsReservedZeros() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("killed.bgtrace")
    let recorder = try TraceRecorder(writingTo: path)
    recorder.record(.appLaunch, at: .zero)
    recorder.record(.taskBegin(id: 1, name: nil), at: TraceTime(seconds: 1))
    // Not closed: the file stays as a killed process leaves it, grown by a 1 MiB window.
    let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    #expect(size >= 1 << 20)
    let result = run("stats", path)
    #expect(result.status == .success)
    let lines = result.output.split(separator: "\n")
    // 24 header bytes, a 48-byte log chunk header and 2 + 3 body bytes: 77 trace bytes.
    #expect(lines.first == "\(path) (binary, 77 bytes and \(size - 77) bytes of unwritten space)")
    #expect(lines.dropFirst().first == "  events      2  (38.50 bytes/event)")
    _ = recorder
  }
}
