import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Foundation
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

  /// The first seed whose run fails the checker, with the path its trace was written to
  /// (what a failing test's message prints).
  static func firstFailingRun() throws -> (seed: UInt64, trace: Trace, path: String) {
    for seed in UInt64(1)...40 {
      let trace = simulate(seed: seed, fixed: false).trace
      guard !TraceChecker.check(trace).isEmpty else { continue }
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
        failed: !TraceChecker.check(Self.simulate(seed: seed, fixed: false).trace).isEmpty
      )
    }
    // An upload longer than 29 s (the expiration, 1 s before the 30 s budget) fails.
    #expect(outcomes.allSatisfy { $0.failed == ($0.seconds > 29) })
    #expect(outcomes.contains { $0.failed } && outcomes.contains { !$0.failed })
  }

  @Test func theFailingTraceReplaysTheSameFailureEveryTime() throws {
    let run = try Self.firstFailingRun()
    var reader = try TraceReader(path: run.path)
    let recorded = try reader.readAll()
    #expect(recorded == run.trace)
    let expected = TraceChecker.check(recorded)
    #expect(expected.map(\.rule) == [.taskExpiredNotEnded])
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

  @Test func codeThatReadsTheWallClockIsReportedAsNondeterministic() throws {
    let run = try Self.firstFailingRun()
    let (result, nondeterminism) = Replayer.replayChecked(run.trace) { platform in
      WallClockNamingApp(host: platform)
    }
    let split = try #require(nondeterminism)
    #expect(split.description.contains("nondeterministic"))
    #expect(split.first?.contains("task.begin") == true)
    // The split is reported apart from the behavioural comparison with the recording.
    #expect(result.divergence != nil)
  }

  @Test func codeThatReadsRandomNumbersIsReportedAsNondeterministic() throws {
    let run = try Self.firstFailingRun()
    let (_, nondeterminism) = Replayer.replayChecked(run.trace) { platform in
      let host = platform as any BackgroundTaskHost
      return RandomNamingApp(host: host)
    }
    let split = try #require(nondeterminism)
    #expect(split.description.contains("nondeterministic"))
  }
}

/// App code that names its task after the wall clock, outside the inputs API.
final class WallClockNamingApp: BackgroundAppDelegate {
  let host: any BackgroundTaskHost
  init(host: any BackgroundTaskHost) { self.host = host }
  func didEnterBackground() {
    let id = host.beginBackgroundTask(withName: "Upload-\(Date().timeIntervalSince1970)", expirationHandler: nil)
    host.endBackgroundTask(id)
  }
}

/// App code that names its task with a random number, outside the inputs API.
final class RandomNamingApp: BackgroundAppDelegate {
  let host: any BackgroundTaskHost
  init(host: any BackgroundTaskHost) { self.host = host }
  func didEnterBackground() {
    let id = host.beginBackgroundTask(withName: "Upload-\(Int.random(in: 0..<1_000_000))", expirationHandler: nil)
    host.endBackgroundTask(id)
  }
}
