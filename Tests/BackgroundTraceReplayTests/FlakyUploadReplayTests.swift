import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import Foundation
import Synchronization
import Testing

/// The flaky-failure workflow end to end: an upload that sometimes outlasts the
/// background budget fails under some seeds; the failing run's trace replays against
/// the same code with the same failure every time; after the fix, the replay shows the
/// first divergence at the expiration and the checker is clean.
@Suite struct FlakyUploadReplayTests {
  /// The upload takes 10–40 s, drawn from the seed: longer than the 29 s to the
  /// expiration handler on some seeds only.
  static func uploadSeconds(seed: UInt64) -> Int {
    var random = SplitMix64(seed: seed)
    return Int.random(in: 10...40, using: &random)
  }

  /// Runs the app in the simulation: launch, 5 s in the foreground, 2 minutes in the background.
  static func simulate(seed: UInt64, fixed: Bool) -> SimulatedSystem {
    let system = SimulatedSystem(seed: seed)
    let clock = system.clock
    let seconds = uploadSeconds(seed: seed)
    system.launchApp { system in
      UploadApp(
        host: system, context: AsyncContext(simulation: system.scheduler), inputs: system.inputs,
        endsTaskOnExpiration: fixed
      ) {
        try? await clock.sleep(for: .seconds(seconds))
        return "ok"
      }
    }
    system.advance(by: .seconds(5))
    system.moveToBackground()
    system.advance(by: .seconds(120))
    return system
  }

  /// The app as the replay builds it: the upload is never run, its recorded result is
  /// handed back at the recorded time.
  static func replayApp(fixed: Bool) -> (ReplayPlatform) -> any BackgroundAppDelegate {
    { platform in
      UploadApp(
        host: platform, context: AsyncContext(simulation: platform.scheduler), inputs: platform.inputs,
        endsTaskOnExpiration: fixed
      ) { "never called in a replay" }
    }
  }

  /// The checker's findings as `rule-id @ EVENT` (the text line of the event each is
  /// located at).
  static func findings(_ trace: RecordedTrace) -> [String] {
    TraceChecker.check(trace).map { "\($0.rule.id) @ \(TextTraceWriter.line(for: trace.events[$0.location - 1]))" }
  }

  /// What a failing run reports: the task begun on entering the background (5 s) is
  /// still open after its expiration handler ran (34 s), located at the watchdog kill
  /// that ends it (35 s).
  static let failure = ["task-expired-not-ended @ 35 app.terminate reason=watchdog"]

  /// The first seed whose run fails the checker, with the path its trace was written to
  /// (what a failing test's message prints).
  static func firstFailingRun() throws -> (seed: UInt64, trace: RecordedTrace, path: String) {
    for seed in UInt64(1)...40 {
      let trace = simulate(seed: seed, fixed: false).trace
      guard findings(trace) == failure else { continue }
      let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("upload-seed-\(seed)-\(UUID().uuidString).bgtrace").path
      try Data(try trace.binary()).write(to: URL(fileURLWithPath: path), options: .atomic)
      return (seed, trace, path)
    }
    throw CocoaError(.featureUnsupported)
  }

  @Test func theUploadFailsUnderSomeSeedsOnly() throws {
    let outcomes = (UInt64(1)...20).map { seed in
      (
        seconds: Self.uploadSeconds(seed: seed),
        findings: Self.findings(Self.simulate(seed: seed, fixed: false).trace)
      )
    }
    // An upload longer than 29 s (the expiration, 1 s before the 30 s budget) fails, with
    // that one finding; the others are clean.
    for outcome in outcomes {
      #expect(outcome.findings == (outcome.seconds > 29 ? Self.failure : []), "\(outcome.seconds) s")
    }
    let failed = outcomes.map { !$0.findings.isEmpty }
    #expect(failed.contains(true) && failed.contains(false))
  }

  @Test func theFailingTraceReplaysTheSameFailureEveryTime() throws {
    let run = try Self.firstFailingRun()
    var reader = try TraceReader(path: run.path)
    let recorded = try reader.readAll()
    #expect(recorded == run.trace)
    let expected = TraceChecker.check(recorded)
    #expect(Self.findings(recorded) == Self.failure)
    // 5 s + 29 s: the handler runs, the task stays open, the watchdog kills the app at 35 s.
    #expect(
      recorded.events.contains { $0 == TraceEvent(time: TraceTime(seconds: 35), .appTerminate(reason: "watchdog")) })
    for _ in 0..<50 {
      let result = Replayer.replay(recorded, timing: .exact, makeApp: Self.replayApp(fixed: false))
      #expect(result.divergence == nil)
      #expect(result.unapplied.isEmpty)
      #expect(result.findings == expected)
      #expect(result.trace.events == recorded.events)
    }
  }

  @Test func afterTheFixTheReplayDivergesAtTheExpirationAndIsClean() throws {
    let run = try Self.firstFailingRun()
    let result = Replayer.replay(run.trace, timing: .exact, makeApp: Self.replayApp(fixed: true))
    let divergence = try #require(result.divergence)
    // The fixed expiration handler ends the task at 34 s (5 s + 29 s); the recording
    // has no more app actions after the begin, so the end is the first difference.
    #expect(divergence.expected == nil)
    #expect(divergence.actual == "34 task.end id=1")
    #expect(divergence.time == TraceTime(seconds: 34))
    // The recorded watchdog kill no longer applies: it is reported, not forced.
    #expect(result.unapplied.map(\.line) == ["35 app.terminate reason=watchdog"])
    #expect(result.findings.isEmpty, "\(result.findings)")
  }

  /// A wall clock that moves on between reads, as `Date()` does: a counter, so the two
  /// replays read different values on every run (two `Date()` reads could be equal).
  @Test func codeThatReadsTheWallClockIsReportedAsNondeterministic() throws {
    let run = try Self.firstFailingRun()
    let clock = Mutex(1_700_000_000)
    let (result, nondeterminism) = Replayer.replayChecked(run.trace) { platform in
      ClockNamingApp(host: platform) {
        clock.withLock {
          $0 += 1; return $0
        }
      }
    }
    let split = try #require(nondeterminism)
    #expect(
      split.description
        == "the app is nondeterministic: two replays split at event 5 ('5 task.begin id=1 name=Upload-1700000001' vs '5 task.begin id=1 name=Upload-1700000002'); read the wall clock, random numbers and I/O through RecordedInputs"
    )
    // The split is reported apart from the behavioural comparison with the recording,
    // whose begin is named UploadChanges.
    #expect(result.divergence?.expected == "5 task.begin id=1 name=UploadChanges")
  }

  /// Random numbers from one generator shared by both replays: seeded, so the draws are
  /// known and differ (`Int.random` could draw the same name twice).
  @Test func codeThatReadsRandomNumbersIsReportedAsNondeterministic() throws {
    let run = try Self.firstFailingRun()
    let random = Mutex(SplitMix64(seed: 7))
    var expected = SplitMix64(seed: 7)
    let draws = (0..<2).map { _ in Int.random(in: 0..<1_000_000, using: &expected) }
    #expect(draws[0] != draws[1])
    let (_, nondeterminism) = Replayer.replayChecked(run.trace) { platform in
      ClockNamingApp(host: platform as any BackgroundTaskHost) {
        random.withLock { Int.random(in: 0..<1_000_000, using: &$0) }
      }
    }
    let split = try #require(nondeterminism)
    #expect(split.eventNumber == 5)
    #expect(split.first == "5 task.begin id=1 name=Upload-\(draws[0])")
    #expect(split.second == "5 task.begin id=1 name=Upload-\(draws[1])")
  }
}

/// App code that names its task after a value read outside the inputs API (the wall
/// clock, a random number), as `read` gives it.
final class ClockNamingApp: BackgroundAppDelegate {
  let host: any BackgroundTaskHost
  let read: @Sendable () -> Int
  init(host: any BackgroundTaskHost, read: @escaping @Sendable () -> Int) {
    self.host = host
    self.read = read
  }
  func didEnterBackground() {
    let id = host.beginBackgroundTask(withName: "Upload-\(read())", expirationHandler: nil)
    host.endBackgroundTask(id)
  }
}
