import BackgroundSimulation
import BackgroundTrace
import Testing

/// The expedited quota's rewards, with ``SimulationConfiguration/expeditedQuotaRewards``
/// on: AOSP `QuotaController` (Android 12 to 15, `QcConstants`; 16's below) pays back
/// `DEFAULT_EJ_REWARD_TOP_APP_MS` (10 s) per `DEFAULT_EJ_TOP_APP_TIME_CHUNK_SIZE_MS`
/// (30 s) on top when the app leaves it (`TopAppTimer`), and
/// `DEFAULT_EJ_REWARD_INTERACTION_MS` (15 s) per `USER_INTERACTION`
/// (`grantRewardForInstantEvent`), into `ShrinkableDebits`, which never go below zero.
/// The restricted bucket earns them too (no reward path looks at the bucket); its
/// quota is `DEFAULT_EJ_LIMIT_RESTRICTED_MS`, 5 minutes, and Android 14+ guarantees an
/// expedited job 3 minutes (`DEFAULT_RUNTIME_MIN_EJ_GUARANTEE_MS`).
@Suite struct ExpeditedQuotaRewardTests {
  static func system(rewards: Bool, release: Int = 15) -> SimulatedSystem {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(release)
    configuration.standbyBucket = .restricted
    configuration.standbyBucketFollowsUse = false  // pinned: opening the app would make it active
    configuration.expeditedQuotaRewards = rewards
    return SimulatedSystem(seed: 1, configuration: configuration)
  }

  static func stops(_ system: SimulatedSystem) -> [String] {
    system.trace.events.map(TextTraceWriter.line(for:)).filter { $0.contains(" work.stop") }
  }

  /// The user leaves the app at once; past the minute's grace
  /// (``ExpeditedQuotaExemption/topAppGrace``), a 240-second expedited job uses 240 s of
  /// the 300 (100.1 to 340.1). The user then keeps the app on top from 400 s to 1300 s:
  /// 30 chunks, 300 s of reward, which pays back all 240 s and loses the rest. A
  /// 20-minute expedited job enqueued as the user leaves runs free until 1360 (the
  /// grace), then has the whole 5 minutes and is stopped at 1660. Without rewards, 60 s
  /// are left, and the 3-minute guarantee stops it at 1300.1 + 180.
  @Test(arguments: [(true, "1660"), (false, "1480.1")])
  func timeOnTopPaysBackTheQuota(rewards: Bool, stopAt: String) throws {
    let system = Self.system(rewards: rewards)
    system.launch { _ in }
    system.moveToBackground()
    system.advance(to: TraceTime(.seconds(100)))
    try system.enqueueExpedited("a", for: 240)
    system.advance(to: TraceTime(.seconds(400)))
    system.moveToForeground()
    system.advance(to: TraceTime(.seconds(1300)))
    system.moveToBackground()
    try system.enqueueExpedited("b", for: 1200)
    system.advance(to: TraceTime(.seconds(1800)))
    #expect(Self.stops(system) == ["\(stopAt) work.stop work=b attempt=0 reason=quota"])
  }

  /// Twelve taps in the app (`userAction`) earn 12 × 15 s = 180 s: after a 270-second
  /// job (from 100.1, past the grace) left 30 s, 210 s are left; the next job runs free
  /// until 660, the minute after the user left, and is stopped at 660 + 210; without
  /// rewards, at the 3-minute guarantee, 600.1 + 180. The app was on top for 0 s: no
  /// chunk, no reward.
  @Test(arguments: [(true, "870"), (false, "780.1")])
  func eachInteractionPaysBackFifteenSeconds(rewards: Bool, stopAt: String) throws {
    let system = Self.system(rewards: rewards)
    try Self.tapThenRunAgain(taps: 12, on: system)
    #expect(Self.stops(system) == ["\(stopAt) work.stop work=b attempt=0 reason=quota"])
  }

  /// The user leaves the app at once; from 100 s (past the grace) a 270-second expedited
  /// job runs; at 600 s the user opens the app, taps `taps` times and leaves, and a
  /// 20-minute expedited job is enqueued; the run goes on to 1200 s.
  static func tapThenRunAgain(taps: Int, on system: SimulatedSystem) throws {
    system.launch { _ in }
    system.moveToBackground()
    system.advance(to: TraceTime(.seconds(100)))
    try system.enqueueExpedited("a", for: 270)
    system.advance(to: TraceTime(.seconds(600)))
    system.moveToForeground()
    for tap in 1...taps { system.userAction("tap-\(tap)") }
    system.moveToBackground()
    try system.enqueueExpedited("b", for: 1200)
    system.advance(to: TraceTime(.seconds(1200)))
  }

  /// Android 16's smaller rewards (`adjust_quota_default_constants`:
  /// `DEFAULT_CURRENT_EJ_REWARD_INTERACTION_MS`, 5 s): 40 taps earn 200 s there, so after
  /// a 270-second job (from 100.1 s) the next has 30 + 200 s, charged from 660, and is
  /// stopped at 890; on Android 15 they earn 600 s, which pays back all 270 (the debit
  /// goes no lower), and it is stopped at 660 + 300.
  @Test(arguments: [(16, "890"), (15, "960")])
  func android16PaysLessPerInteraction(release: Int, stopAt: String) throws {
    let system = Self.system(rewards: true, release: release)
    try Self.tapThenRunAgain(taps: 40, on: system)
    #expect(Self.stops(system) == ["\(stopAt) work.stop work=b attempt=0 reason=quota"])
  }

  /// `TopAppTimer.calculateTimeChunks`: whole chunks, and a last part of at least a
  /// second counts as one: chunks of 30 s, and of 5 minutes from Android 16
  /// (`DEFAULT_CURRENT_EJ_TOP_APP_TIME_CHUNK_SIZE_MS`).
  @Test func timeOnTopIsCountedInChunksRoundedUpFromASecond() {
    let legacy = AndroidRelease(15)
    #expect(ExpeditedQuotaReward.forTimeOnTop(.zero, on: legacy) == .zero)
    #expect(ExpeditedQuotaReward.forTimeOnTop(.milliseconds(999), on: legacy) == .zero)
    #expect(ExpeditedQuotaReward.forTimeOnTop(.seconds(1), on: legacy) == .seconds(10))
    #expect(ExpeditedQuotaReward.forTimeOnTop(.seconds(30), on: legacy) == .seconds(10))
    #expect(ExpeditedQuotaReward.forTimeOnTop(.milliseconds(30_999), on: legacy) == .seconds(10))
    #expect(ExpeditedQuotaReward.forTimeOnTop(.seconds(31), on: legacy) == .seconds(20))
    #expect(ExpeditedQuotaReward.forTimeOnTop(.seconds(900), on: legacy) == .seconds(300))
    let adjusted = AndroidRelease(16)
    #expect(ExpeditedQuotaReward.forTimeOnTop(.seconds(1), on: adjusted) == .seconds(10))
    #expect(ExpeditedQuotaReward.forTimeOnTop(.seconds(300), on: adjusted) == .seconds(10))
    #expect(ExpeditedQuotaReward.forTimeOnTop(.seconds(301), on: adjusted) == .seconds(20))
    #expect(ExpeditedQuotaReward.forTimeOnTop(.seconds(900), on: adjusted) == .seconds(30))
  }
}
