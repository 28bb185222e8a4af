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

  /// "Traces": the text and binary forms.
  @Test func traceForms() throws {
    let data = Data("bgtrace 1\n0 app.launch\n1 task.begin id=1 name=Save\n2 task.end id=1\n".utf8)
    let trace = try Trace(text: String(decoding: data, as: UTF8.self), file: "golden.txt")
    let bytes = try trace.binary()
    let (decoded, damage) = try Trace.decode(binary: bytes)
    #expect(decoded == trace && damage.isEmpty)
  }

  /// "Checking traces": the checker with a configuration.
  @Test func checkerConfiguration() throws {
    let trace = try Trace(text: "bgtrace 1\n0 work.enqueue work=w\n1 work.start work=w attempt=0\n")
    let findings = TraceChecker.check(trace, configuration: CheckerConfiguration(defaultRetryLimit: 3))
    #expect(findings.isEmpty)
  }

  /// "Finding timing bugs by exploration": the scenario and the Swift Testing helper,
  /// on this package's own uploader (which handles every timing, so nothing is found).
  static let scenario = ExplorationScenario("draft-upload") { run in
    let system = run.makeSystem()
    let uploader = DraftUploader(host: system, context: AsyncContext(simulation: system.scheduler))
    system.launch { _ in }
    system.advance(by: run.choices.duration(in: .zero ... .seconds(10)))  // the user uses the app
    system.moveToBackground()
    uploader.appDidEnterBackground(uploadTaking: run.choices.duration(in: .seconds(1) ... .seconds(40)))
    if run.choices.chance(percent: 80) {  // the user comes back, or never does
      system.advance(by: run.choices.duration(in: .zero ... .seconds(120)))
      system.moveToForeground()
    }
    system.advance(by: .seconds(60))
    run.expect(uploader.uploaded <= 1, "one upload")  // an assertion of the test's own
  }

  @Test func exploration() {
    let report = Exploration(runs: 200).explore(Self.scenario)
    #expect(report.failures.isEmpty)
  }

  @Test func uploadingExploresClean() {
    expectNoTimingBugs(in: Self.scenario, exploration: Exploration(runs: 200))
  }
}
