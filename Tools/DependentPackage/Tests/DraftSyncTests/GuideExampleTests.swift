import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import BackgroundTraceTesting
import DraftSync
import Foundation
import Testing

// The Swift examples of README.md and docs/guides (capturing.md, checking.md,
// exploration.md), compiled here against the package's products alone, as a user's
// package sees them, and run. The snippet test in the main package checks that each
// guide's text is this file's.

/// The exploration guide's scenario, on this package's own uploader (which handles every
/// timing, so nothing is found).
let scenario = ExplorationScenario("draft-upload") { run in
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

@Test func uploadingExploresClean() {
  expectNoTimingBugs(in: scenario, exploration: Exploration(runs: 1_000))
}

@Test func aLongUploadIsCutOffByTheExpirationHandler() {
  let system = SimulatedSystem(seed: 7)
  let clock = system.clock
  system.launchApp { system in
    DraftApp(host: system, context: AsyncContext(simulation: system.scheduler), inputs: system.inputs) {
      try? await clock.sleep(for: .seconds(45))  // a slow network: the budget is 30 s
      return "201"
    }
  }
  system.moveToBackground()
  system.advance(by: .seconds(60))  // the expiration handler runs at 29 s
  #expect(system.app(as: DraftApp.self)?.uploader.uploaded == 0)
  #expect(TraceChecker.check(system.trace).isEmpty)  // it ended the task in time
}

@Suite struct GuideExampleTests {
  /// capturing.md, "Recording": a recorder streaming to a file.
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

  /// capturing.md, "From UI tests": the app's start-up, with no BGTRACE_OUTPUT set here
  /// (so no recorder).
  @Test func uiTestStartUp() throws {
    // App start-up
    var environment = ProcessInfo.processInfo.environment
    if let name = environment["BGTRACE_OUTPUT"], !name.isEmpty, !name.hasPrefix("/") {
      environment["BGTRACE_OUTPUT"] = (NSTemporaryDirectory() as NSString).appendingPathComponent(name)
    }
    var meta: TraceMetadata = ["source": "ui-test"]
    if let test = environment["BGTRACE_TEST"] { meta["test"] = test }
    let recorder = try TraceRecorder.fromEnvironment(environment, meta: meta)
    if environment["BGTRACE_OUTPUT"] == nil { #expect(recorder == nil) }
  }

  /// checking.md, "Checking traces": the checker with a configuration.
  @Test func checkerConfiguration() throws {
    let trace = try RecordedTrace(text: "bgtrace 1\n0 work.enqueue work=w\n1 work.start work=w attempt=0\n")
    let findings = TraceChecker.check(trace, configuration: CheckerConfiguration(defaultRetryLimit: 3))
    #expect(findings.isEmpty)
  }

  /// capturing.md, "What a trace is": the text and binary forms.
  @Test func traceForms() throws {
    let data = Data("bgtrace 1\n0 app.launch\n1 task.begin id=1 name=Save\n2 task.end id=1\n".utf8)
    let trace = try RecordedTrace(text: String(decoding: data, as: UTF8.self), file: "golden.txt")
    let bytes = try trace.binary()
    let (decoded, damage) = try RecordedTrace.decode(binary: bytes)
    #expect(decoded == trace && damage.isEmpty)
  }

  /// capturing.md, "What a trace is": a large binary trace streamed one event at a time.
  @Test func streamingAReader() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID()).bgtrace").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let text = "bgtrace 1\n0 work.enqueue work=sync\n1 work.start work=sync attempt=0\n"
    try Data(try RecordedTrace(text: text).binary()).write(to: URL(fileURLWithPath: path))
    var starts: [String] = []
    var reader = try BinaryTraceReader(source: FileByteSource(path: path), file: path)
    while let located = try reader.next() {
      if case .workStart(let work, _) = located.event.kind { starts.append("\(located.location) \(work)") }
    }
    #expect(starts == ["2 sync"])
  }

  /// exploration.md: exploring the scenario and printing each failure.
  @Test func exploration() {
    let report = Exploration(runs: 1_000).explore(scenario)
    for failure in report.failures {
      print(failure.kind, failure.seed, failure.choices, failure.reproduction)
      print(failure.trace.text)
    }
    #expect(report.failures.isEmpty)
  }
}
