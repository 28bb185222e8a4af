import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceTesting
import DraftSync
import Foundation
import Testing

/// The README's Swift examples, compiled here against the package's products alone (as
/// a user's package sees them) and run.
@Suite struct ReadmeExampleTests {
  /// "Recording": a recorder streaming to a file.
  @Test func recording() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID()).bgtrace").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try TraceRecorder(writingTo: path, meta: ["platform": "ios"])
    recorder.record(.taskBegin(id: 1, name: "SaveDocument"))
    recorder.record(.taskEnd(id: 1))
    try recorder.close()

    var reader = try TraceReader(path: path)
    #expect(try reader.readAll().events.map(\.kind) == [.taskBegin(id: 1, name: "SaveDocument"), .taskEnd(id: 1)])
  }

  /// "Replaying a flaky failure": record a run whose upload took 35 s, then replay it
  /// against the same code; the network is not called again.
  @Test func replayingAFlakyFailure() throws {
    let system = SimulatedSystem(seed: 4)
    let clock = system.clock
    system.launchApp { system in
      DraftApp(
        host: system, context: AsyncContext(simulation: system.scheduler), inputs: system.inputs
      ) {
        try? await clock.sleep(for: .seconds(35))  // a slow network, this time
        return "201"
      }
    }
    system.advance(by: .seconds(1))
    system.moveToBackground()
    system.advance(by: .seconds(60))
    let trace = system.trace
    #expect(TraceChecker.check(trace).isEmpty)  // the expiration handler ended the task

    let path = FileManager.default.temporaryDirectory.appendingPathComponent("upload-seed-4.bgtrace").path
    try Data(try trace.binary()).write(to: URL(fileURLWithPath: path))
    var reader = try TraceReader(path: path)
    let recorded = try reader.readAll()
    let result = Replayer.replay(recorded) { platform in
      DraftApp(
        host: platform, context: AsyncContext(simulation: platform.scheduler), inputs: platform.inputs
      ) { "not called in a replay" }
    }
    #expect(result.divergence == nil)
    #expect(result.findings.isEmpty)
    #expect(result.trace.text == recorded.text)
  }

  /// "Golden traces in swift test": the assertion, with the checker and diff options.
  @Test func goldenAssertionOptions() {
    let system = SimulatedSystem(seed: 7)
    let uploader = DraftUploader(host: system, context: AsyncContext(simulation: system.scheduler))
    system.launch { _ in }
    system.moveToBackground()
    uploader.appDidEnterBackground(uploadTaking: .seconds(10))
    system.advance(by: .seconds(60))
    let options = DiffOptions(identifiers: .exact, times: .tolerance(TraceInterval(seconds: 0.1)))
    #expect(TraceDiff(expected: system.trace, actual: system.trace, options: options).isEqual)
  }
}
