import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// An app whose battery optimizations the user turned off is on the power allowlist
/// (`meta fgs-exempt=battery-unrestricted`), and AOSP treats it as such everywhere:
/// `AppStandbyController.getAppMinBucket` puts it in `STANDBY_BUCKET_EXEMPTED`
/// (`isNonIdleWhitelisted`), whatever its use; `DeviceIdleJobsController` lets its jobs
/// run in Doze (`isWhitelistedLocked`); and `QuotaController` gives the exempted bucket
/// `DEFAULT_EJ_LIMIT_EXEMPTED_MS` of expedited work, 45 minutes (60 from Android 16),
/// and the active bucket's unlimited window for regular jobs.
@Suite struct PowerAllowlistTests {
  private func system(allowlisted: Bool, release: Int = 15) -> SimulatedSystem {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(release)
    if allowlisted { configuration.backgroundStartExemptions = [.batteryUnrestricted] }
    return SimulatedSystem(seed: 1, configuration: configuration)
  }

  private func lines(_ system: SimulatedSystem) -> [String] {
    system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") || $0.contains(" env.set") }
  }

  /// Deep Doze from 3600 s: the allowlisted app's work enqueued at 3700 s runs at once
  /// (3700.1 s), where the same work of an optimized app waits for the maintenance
  /// window at 7200 s (`DozeTests.inDeepDozeWorkWaitsAnHour`).
  @Test func anAllowlistedAppsWorkRunsInDoze() throws {
    let system = system(allowlisted: true)
    system.setDeviceState(screenOn: false, stationary: true)
    system.advance(to: TraceTime(seconds: 3700))
    try system.enqueue(WorkRequest(work: "sync", worker: TimedWorker(clock: system.clock, duration: .seconds(30))))
    system.advance(to: TraceTime(seconds: 3800))
    #expect(
      lines(system).filter { !$0.contains("doze=light") && !$0.contains("bucket") } == [
        "0 env.set screen=off stationary=true", "3600 env.set doze=deep", "3700 work.enqueue work=sync:1",
        "3700.1 work.start work=sync:1 attempt=0", "3730.1 work.result work=sync:1 attempt=0 outcome=success",
      ])
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  /// Three days without use: an optimized app falls to `rare` (48 h,
  /// `StandbyBucketDecayTests`); the allowlisted one starts `exempted`, which its trace
  /// records at 0 s (`env.set bucket=exempted`), and never moves.
  @Test func anAllowlistedAppNeverLeavesTheExemptedBucket() {
    for allowlisted in [true, false] {
      let system = system(allowlisted: allowlisted)
      system.launch { _ in }
      system.advance(by: .seconds(60))
      system.moveToBackground()
      system.advance(by: .seconds(3 * 86_400))
      let buckets = system.trace.events.map(handWrittenLine(for:)).filter { $0.contains("bucket=") }
      #expect(
        buckets.map { $0.split(separator: "=").last.map(String.init) ?? "" }
          == (allowlisted ? ["exempted"] : ["working_set", "frequent", "rare"]), "allowlisted: \(allowlisted)")
    }
  }

  /// Expedited work of an exempted app runs 45 minutes a day on Android 15 and 60 on
  /// Android 16, past the active bucket's 30. In the background, past the minute's
  /// grace after the user left (``ExpeditedQuotaExemption/topAppGrace``), six expedited
  /// works of 8 minutes each, one every 10 minutes from 60 s: five use 40 minutes, so on
  /// Android 15 the sixth (at 3060 s) has 5 minutes left and is demoted at 3360.1 s
  /// (`work.stop reason=quota`); on Android 16 it finishes.
  @Test(arguments: [(15, true), (16, false)])
  func theExemptedBucketsExpeditedQuota(release: Int, demoted: Bool) throws {
    let system = system(allowlisted: true, release: release)
    system.launch { _ in }
    system.moveToBackground()
    system.advance(by: .seconds(60))
    for number in 1...6 {
      try system.enqueue(
        WorkRequest(
          work: "e\(number)", expedited: .runAsRegular,
          worker: TimedWorker(clock: system.clock, duration: .seconds(480))), policy: nil)
      system.advance(by: .seconds(600))
    }
    let stops = lines(system).filter { $0.contains("work.stop") || $0.contains("work.quota") }
    #expect(stops == (demoted ? ["3360.1 work.stop work=e6 attempt=0 reason=quota"] : []), "\(release)")
  }
}
