import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import BackgroundTraceTesting
import Testing

/// The public background-download sample (``DownloadAppDelegate``, ported from
/// daferpi/DownloadBackground) through the simulation: recorded, checked, replayed and
/// compared with its goldens, with its bug and its fix.
@Suite struct BackgroundDownloadExampleTests {
  /// Starts the download in the foreground, leaves after 10 s, and, when `killed`, has
  /// the system kill the suspended app for memory at 15 s, before the download (70.155 s
  /// with seed 1) ends.
  static func run(fixed: Bool, killed: Bool) -> SimulatedSystem {
    let system = SimulatedSystem(seed: 1)
    system.launchApp { DownloadAppDelegate(transfers: $0, createsSessionAtLaunch: fixed) }
    system.advance(by: .seconds(10))
    system.moveToBackground()
    if killed {
      system.advance(to: TraceTime(seconds: 15))
      system.terminate(reason: "memory")
    }
    system.advance(by: .seconds(600))
    return system
  }

  @Test func withoutAKillTheSampleWorksAsWritten() {
    let trace = Self.run(fixed: false, killed: false).trace
    #expect(TraceChecker.check(trace).isEmpty)
    expectTrace(trace, matchesGolden: "background-download", directory: ExampleTrace.iosGoldens)
    let replay = Replayer.replay(trace) { DownloadAppDelegate(transfers: $0) }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(replay.findings.isEmpty)
  }

  @Test func aKillDuringTheDownloadLeavesTheSessionNeverRecreated() {
    let trace = Self.run(fixed: false, killed: true).trace
    let findings = TraceChecker.check(trace)
    #expect(findings.map(\.rule) == [.netNotRecreated])
    #expect(findings.first?.message.contains("background session MySession") == true)
    expectTrace(
      trace, matchesGolden: "background-download-killed", checks: GoldenChecks(rules: []),
      directory: ExampleTrace.iosGoldens)
    // The replay of the recording reproduces it with the sample's code.
    let replay = Replayer.replay(trace) { DownloadAppDelegate(transfers: $0) }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(replay.findings.map(\.rule) == [.netNotRecreated])
  }

  @Test func theFixRecreatesTheSessionAtTheBackgroundLaunch() {
    let system = Self.run(fixed: true, killed: true)
    let trace = system.trace
    #expect(TraceChecker.check(trace).isEmpty)
    expectTrace(trace, matchesGolden: "background-download-fixed", directory: ExampleTrace.iosGoldens)
    let replay = Replayer.replay(trace) { DownloadAppDelegate(transfers: $0, createsSessionAtLaunch: true) }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(replay.findings.isEmpty)
  }
}
