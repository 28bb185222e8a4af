import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import Foundation
import Testing

/// Runs the app under `seed`: the seed drives the system's decisions and, through
/// `appChoices`, how long this run's upload takes. A finding writes the trace.
func uploadInTheBackground(seed: UInt64) throws {
  let system = SimulatedSystem(seed: seed)
  let uploadTime = system.appChoices.duration(in: .seconds(10) ... .seconds(40))
  let clock = system.clock
  system.launchApp { system in
    ChangesUploadApp(host: system, context: AsyncContext(simulation: system.scheduler), inputs: system.inputs) {
      try? await clock.sleep(for: uploadTime)  // the network, as slow as the seed says
      return "201"
    }
  }
  system.advance(by: .seconds(5))  // the user edits for 5 s, then leaves
  system.moveToBackground()
  system.advance(by: .seconds(120))

  let trace = system.trace
  let findings = TraceChecker.check(trace)
  if !findings.isEmpty {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("upload-seed-\(seed).bgtrace").path
    try Data(try trace.binary()).write(to: URL(fileURLWithPath: path), options: .atomic)
    Issue.record("\(findings.map(\.message).joined(separator: "; ")); trace: \(path)")
  }
}

/// The guide's failing test, as it shows it: it fails on the seeds whose upload
/// outlasts the budget, by design. ``ReplayGuideTests`` runs every seed of it, those
/// under `withKnownIssue`.
@Suite(.disabled("the guide's deliberately failing test; ReplayGuideTests runs its seeds"))
struct ReplayGuideFailingTest {
  @Test(arguments: 1...20) func uploadingInTheBackgroundEndsItsTask(seed: UInt64) throws {
    try uploadInTheBackground(seed: seed)
  }
}

/// docs/guides/replaying.md, "Replaying a flaky failure", run: the seed gives the
/// upload's time (``SimulatedSystem/appChoices``), the failing seeds' traces replay the
/// failure, and the fixed app diverges at the expiration.
@Suite struct ReplayGuideTests {
  /// The upload times `system.appChoices.duration(in: 10 s ... 40 s)` draws first for seeds
  /// 1 to 20, in ms, worked out by hand from SplitMix64 seeded with `seed ^
  /// 0xA99C_4011_CE5A_99C0` and Lemire's bound on 30,000 (an independent implementation).
  static let uploadMilliseconds: [UInt64: Int64] = [
    1: 10_920, 2: 39_568, 3: 39_816, 4: 25_705, 5: 33_323, 6: 12_909, 7: 39_878, 8: 31_172, 9: 28_899,
    10: 32_244, 11: 39_623, 12: 19_652, 13: 36_451, 14: 18_672, 15: 28_456, 16: 38_814, 17: 19_896,
    18: 37_475, 19: 33_871, 20: 31_089,
  ]

  /// The seeds whose upload outlasts the 30 s budget counted from entering the background
  /// at 5 s (so it is still open at the watchdog's 35 s): uploads over 30,000 ms. Seeds 9
  /// and 15 (28.9 s, 28.5 s) finish before the expiration handler at 34 s.
  static let failingSeeds: Set<UInt64> = [2, 3, 5, 7, 8, 10, 11, 13, 16, 18, 19, 20]

  @Test func theSeedGivesTheUploadsTime() {
    for seed in UInt64(1)...20 {
      let system = SimulatedSystem(seed: seed)
      #expect(
        system.appChoices.duration(in: .seconds(10) ... .seconds(40)) == .milliseconds(Self.uploadMilliseconds[seed]!))
    }
  }

  @Test func theSeedsWhoseUploadOutlastsTheBudgetFailAndOnlyThose() throws {
    for seed in UInt64(1)...20 {
      if Self.failingSeeds.contains(seed) {
        try withKnownIssue("the upload outlasts the budget and the task stays open") {
          try uploadInTheBackground(seed: seed)
        } matching: {
          $0.comments.contains { $0.rawValue.contains("still open") || $0.rawValue.contains("not ended") }
        }
      } else {
        try uploadInTheBackground(seed: seed)
      }
    }
  }

  /// Seed 2's run, event by event: 5 s in the foreground, the task begun on leaving, the
  /// expiration handler at 5 + 29 = 34 s leaves it open, the watchdog kills the app at
  /// 5 + 30 = 35 s; the upload (39.568 s) never finishes.
  @Test func theSameSeedGivesTheSameTrace() throws {
    func run() -> RecordedTrace {
      let system = SimulatedSystem(seed: 2)
      let uploadTime = system.appChoices.duration(in: .seconds(10) ... .seconds(40))
      let clock = system.clock
      system.launchApp { system in
        ChangesUploadApp(host: system, context: AsyncContext(simulation: system.scheduler), inputs: system.inputs) {
          try? await clock.sleep(for: uploadTime)
          return "201"
        }
      }
      system.advance(by: .seconds(5))
      system.moveToBackground()
      system.advance(by: .seconds(120))
      return system.trace
    }
    let trace = run()
    #expect(run().text == trace.text)
    #expect(
      trace.text == """
        bgtrace 1
        meta platform=ios seed=2 budget=30
        0 app.launch
        0 app.state to=active
        5 app.state to=inactive
        5 app.state to=background
        5 task.begin id=1 name=UploadChanges
        34 task.expire id=1
        35 app.terminate reason=watchdog

        """)
  }

  static let path = FileManager.default.temporaryDirectory.appendingPathComponent("upload-seed-2.bgtrace").path

  /// The failure reads as the guide quotes it: the finding's message, then the trace's path.
  @Test func theFailureNamesTheFindingAndTheTrace() throws {
    let expected =
      #"task 1 ("UploadChanges") expired at 34s and was not ended before the app terminated; trace: "# + Self.path
    try withKnownIssue("seed 2 fails, and writes its trace") {
      try uploadInTheBackground(seed: 2)
    } matching: {
      $0.comments.map(\.rawValue) == [expected]
    }
  }

  @Test func theFailingTraceReplaysAndTheFixDiverges() throws {
    withKnownIssue("seed 2 fails, and writes its trace") { try uploadInTheBackground(seed: 2) }
    let path = Self.path
    var reader = try TraceReader(path: path)
    let recorded = try reader.readAll()
    let result = Replayer.replay(recorded) { platform in
      ChangesUploadApp(host: platform, context: AsyncContext(simulation: platform.scheduler), inputs: platform.inputs) {
        "not called in a replay"
      }
    }
    // result.divergence == nil: the code did exactly what it did on CI
    // result.findings: what the checker says about the replayed run
    #expect(result.divergence == nil)
    #expect(result.findings.map(\.rule.id) == ["task-expired-not-ended"])

    let fixed = Replayer.replay(recorded) { platform in
      FixedChangesUploadApp(
        host: platform, context: AsyncContext(simulation: platform.scheduler), inputs: platform.inputs
      ) { "not called in a replay" }
    }
    #expect(fixed.divergence?.actual == "34 task.end id=1")
    #expect(fixed.unapplied.map(\.line) == ["35 app.terminate reason=watchdog"])
    #expect(fixed.findings.isEmpty)
  }
}
