import BackgroundSimulation
import BackgroundTrace
import Testing

/// When AOSP `QuotaController` charges no time to the expedited quota: its expedited
/// `Timer.shouldTrackLocked` is false while the device charges outside the restricted
/// bucket (`isQuotaFreeLocked`), while the app is on top or within
/// `DEFAULT_EJ_GRACE_PERIOD_TOP_APP_MS` (1 minute) of leaving it (`mTopAppCache`,
/// `mTopAppGraceCache`), and while it is on the temporary allowlist or within
/// `DEFAULT_EJ_GRACE_PERIOD_TEMP_ALLOWLIST_MS` (3 minutes) of its end, outside the
/// restricted bucket (`hasTempAllowlistExemptionLocked`); `isWithinEJQuotaLocked` takes
/// a new expedited job in the same states with the quota spent
/// (`apex/jobscheduler/service/java/com/android/server/job/controllers/QuotaController.java`).
/// Each scenario measures what was charged by the quota stop of a later job, which
/// runs in the background with the quota left: the rare bucket's 10 minutes
/// (`DEFAULT_EJ_LIMIT_RARE_MS`) or the restricted bucket's 5, and a stop no sooner than
/// the 3-minute guarantee. A foreground service, which `QuotaController` exempts as
/// well (`mForegroundUids`, `testEJTimerTracking_AllForeground`), frees nothing in the
/// model, the strict reading, as it frees no job quota there (docs/platform-model.md).
@Suite struct ExpeditedQuotaExemptionTests {
  static func system(_ bucket: StandbyBucket) -> SimulatedSystem {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.standbyBucket = bucket
    configuration.standbyBucketFollowsUse = false
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launch { _ in }
    return system
  }

  static func lines(_ system: SimulatedSystem, _ filter: (String) -> Bool) -> [String] {
    system.trace.events.map(TextTraceWriter.line(for:)).filter(filter)
  }

  /// A 400-second job starts with the app on top; the user leaves at 100, and its time
  /// is charged from 160, the minute after: 240.1 s. The next job, at 1000, has 359.9 s
  /// left and is stopped at 1360. Charged from its start, it would have had 200 s, and
  /// been stopped at 1200.1. After AOSP `QuotaControllerTest.testEJTimerTracking_TopAndNonTop`
  /// and `testEJTimerTracking_TopAndTempAllowlisting`.
  @Test func timeOnTopAndTheMinuteAfterAreFree() throws {
    let system = Self.system(.rare)
    try system.enqueueExpedited("a", for: 400)
    system.advance(to: TraceTime(.seconds(100)))
    system.moveToBackground()
    system.advance(to: TraceTime(.seconds(1000)))
    try system.enqueueExpedited("b", for: 600)
    system.advance(to: TraceTime(.seconds(1400)))
    #expect(
      Self.lines(system) { $0.contains("work.stop") } == ["1360 work.stop work=b attempt=0 reason=quota"])
  }

  /// Charging, from 100 to 300, frees a 400-second job's first 199.9 s: 200.1 s are
  /// charged, and the next job has 399.9 s, stopped at 1400. After
  /// `QuotaControllerTest.testEJTimerTracking_ChargingAndDischarging`.
  @Test func timeWhileChargingIsFree() throws {
    let system = Self.system(.rare)
    system.moveToBackground()
    system.advance(to: TraceTime(.seconds(100)))
    system.setEnvironment(charging: true)
    try system.enqueueExpedited("a", for: 400)
    system.advance(to: TraceTime(.seconds(300)))
    system.setEnvironment(charging: false)
    system.advance(to: TraceTime(.seconds(1000)))
    try system.enqueueExpedited("b", for: 600)
    system.advance(to: TraceTime(.seconds(1450)))
    #expect(
      Self.lines(system) { $0.contains("work.stop") } == ["1400 work.stop work=b attempt=0 reason=quota"])
  }

  /// A high-priority FCM message at 100 allowlists the app for 10 s, and its time stays
  /// free for 3 minutes after, to 290: a 400-second job started at 100.1 is charged
  /// 210.1 s, and the next one has 389.9 s, stopped at 1390. In the restricted bucket
  /// the allowlist frees nothing: the job itself is charged from its start and stopped
  /// when its 5 minutes are spent, at 400.1. After
  /// `QuotaControllerTest.testEJTimerTracking_TempAllowlisting` and
  /// `testEJTimerTracking_TempAllowlisting_Restricted`.
  @Test(arguments: [(StandbyBucket.rare, "1390 work.stop work=b"), (.restricted, "400.1 work.stop work=a")])
  func theTemporaryAllowlistAndItsGraceAreFreeOutsideTheRestrictedBucket(bucket: StandbyBucket, stop: String)
    throws
  {
    let system = Self.system(bucket)
    system.moveToBackground()
    system.advance(to: TraceTime(.seconds(100)))
    system.deliverHighPriorityMessage()
    try system.enqueueExpedited("a", for: 400)
    system.advance(to: TraceTime(.seconds(1000)))
    if bucket != .restricted { try system.enqueueExpedited("b", for: 600) }
    system.advance(to: TraceTime(.seconds(1450)))
    #expect(
      Self.lines(system) { $0.contains("work.stop") && $0.contains("attempt=0") } == ["\(stop) attempt=0 reason=quota"])
  }

  /// A 290-second job in the background leaves 10 s of the restricted bucket's 5
  /// minutes. JobScheduler takes an expedited job from the app on top (b, at 1000) and
  /// within the minute after it left (c, at 1100), and both are charged from 1160, with
  /// the 10 s soon spent: each is stopped at its guarantee's end, 1180.1 and 1280.1. It
  /// drops one after that minute (d, at 1200), with the quota spent. After
  /// `QuotaControllerTest.testIsWithinEJQuotaLocked_TopApp`.
  @Test func onTopAnExpeditedJobIsTakenWithTheQuotaSpent() throws {
    let system = Self.system(.restricted)
    system.moveToBackground()
    system.advance(to: TraceTime(.seconds(100)))
    try system.enqueueExpedited("a", for: 290)
    system.advance(to: TraceTime(.seconds(1000)))
    system.moveToForeground()
    try system.enqueueExpedited("b", for: 600)
    system.advance(to: TraceTime(.seconds(1100)))
    system.moveToBackground()
    try system.enqueueExpedited("c", for: 600)
    system.advance(to: TraceTime(.seconds(1200)))
    try system.enqueueExpedited("d", for: 600)
    system.advance(to: TraceTime(.seconds(1300)))
    #expect(
      Self.lines(system) { $0.contains("work.quota") || ($0.contains("work.stop") && $0.contains("attempt=0")) } == [
        "1180.1 work.stop work=b attempt=0 reason=quota", "1200 work.quota work=d policy=drop",
        "1280.1 work.stop work=c attempt=0 reason=quota",
      ])
  }
}
