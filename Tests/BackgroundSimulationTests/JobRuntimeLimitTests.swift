import BackgroundSimulation
import BackgroundTrace
import Testing

/// How long a regular job may run, as JobScheduler decides it when the job starts:
/// `JobServiceContext` takes the larger of the job's maximum and its guarantee
/// (`DEFAULT_RUNTIME_MIN_GUARANTEE_MS`, 10 minutes); from Android 14 the maximum is
/// `QuotaController.getMaxJobExecutionTimeMsLocked`'s, at most
/// `DEFAULT_RUNTIME_FREE_QUOTA_MAX_LIMIT_MS` (30 minutes). AOSP `QuotaControllerTest`:
/// `testGetMaxJobExecutionTimeLocked_Regular` (charging, a foreground service, a job
/// started on top: the free 30 minutes, for an important job from Android 15;
/// otherwise what is left of the bucket's quota)
/// and `testGetMaxJobExecutionTimeLocked_Regular_Active` (an ACTIVE app, whose window is
/// its quota: what is left of the 24-hour maximum). A worker here runs an hour; work
/// starts 0.1 s after it is due.
@Suite struct JobRuntimeLimitTests {
  /// When the hour-long worker enqueued at 100 s was stopped, or nil if it finished.
  private func stop(
    release: Int = 16, bucket: StandbyBucket = .workingSet, onTop: Bool = false, foregroundService: Bool = false,
    initialDelay: Duration? = nil
  ) throws -> String? {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(release)
    configuration.standbyBucket = bucket
    configuration.standbyBucketFollowsUse = false
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launch { _ in }
    if foregroundService {
      try system.startForegroundService("player", BootCompletedServiceTests.Service(type: .dataSync))
    }
    if !onTop { system.moveToBackground() }
    system.advance(to: TraceTime(seconds: 100))
    var request = WorkRequest(work: "hour", worker: TimedWorker(clock: system.clock, duration: .seconds(3600)))
    request.initialDelay = initialDelay
    try system.enqueue(request)
    system.advance(by: .seconds(3700))
    return system.trace.events.map(TextTraceWriter.line(for:)).first { $0.contains("work.stop work=hour:1") }
  }

  /// In a bucket whose quota limits jobs, in the background on battery: the guarantee,
  /// 10 minutes (the 7 minutes `testGetMaxJobExecutionTimeLocked_Regular` leaves a rare
  /// app are under it).
  @Test func aLimitedBucketsJobGetsItsTenMinutes() throws {
    #expect(try stop(bucket: .workingSet) == "700.1 work.stop work=hour:1 attempt=0 reason=timeout")
    #expect(try stop(bucket: .rare) == "700.1 work.stop work=hour:1 attempt=0 reason=timeout")
  }

  /// A job started with the app in the foreground (on top, or, before Android 16, running
  /// a foreground service): the free 30 minutes, whatever its bucket, on Android 14; from
  /// Android 15 only for an important job (`getMaxJobExecutionTimeMsLocked`:
  /// `isJobImportant`, `PRIORITY_HIGH` or `FLAG_IMPORTANT_WHILE_FOREGROUND`). WorkManager
  /// sets no priority, and marks a job important while foreground when it is scheduled
  /// to run at once (androidx `SystemJobInfoConverter`: `setImportantWhileForeground`
  /// when the offset is 0), a flag Android 16 ignores (`ignore_important_while_foreground`).
  /// So on 15 a job without an initial delay gets the 30 minutes, and one with a delay
  /// and every job on 16 what is left of the bucket's quota: the guarantee here.
  @Test func inTheForegroundAJobGetsThirtyMinutesIfImportant() throws {
    #expect(try stop(release: 14, onTop: true) == "1900.1 work.stop work=hour:1 attempt=0 reason=timeout")
    #expect(try stop(release: 15, onTop: true) == "1900.1 work.stop work=hour:1 attempt=0 reason=timeout")
    #expect(
      try stop(release: 15, foregroundService: true) == "1900.1 work.stop work=hour:1 attempt=0 reason=timeout")
    #expect(
      try stop(release: 15, onTop: true, initialDelay: .seconds(60))
        == "760.1 work.stop work=hour:1 attempt=0 reason=timeout")
    #expect(try stop(onTop: true) == "700.1 work.stop work=hour:1 attempt=0 reason=timeout")
    #expect(try stop(foregroundService: true) == "700.1 work.stop work=hour:1 attempt=0 reason=timeout")
  }

  /// Android 14 and 15: an app in the active (or exempted) bucket, whose window is its
  /// quota, gets what is left of its 4 hours a day, at most 30 minutes.
  @Test func anActiveAppsJobGetsWhatIsLeftOfItsDayUpToThirtyMinutes() throws {
    #expect(try stop(release: 15, bucket: .active) == "1900.1 work.stop work=hour:1 attempt=0 reason=timeout")
    #expect(try stop(release: 15, bucket: .exempted) == "1900.1 work.stop work=hour:1 attempt=0 reason=timeout")
  }

  /// Android 16 (`adjust_quota_default_constants`) gives the active bucket 20 minutes per
  /// hour and the exempted one 20 per 40 minutes
  /// (`DEFAULT_CURRENT_ALLOWED_TIME_PER_PERIOD_ACTIVE_MS`, `DEFAULT_LATEST_WINDOW_SIZE_ACTIVE_MS`):
  /// a window longer than the quota, so the job gets what is left of the 20 minutes.
  @Test func onAndroid16AnActiveAppsJobGetsItsTwentyMinutes() throws {
    #expect(try stop(bucket: .active) == "1300.1 work.stop work=hour:1 attempt=0 reason=timeout")
    #expect(try stop(bucket: .exempted) == "1300.1 work.stop work=hour:1 attempt=0 reason=timeout")
  }

  /// Android 13 and earlier: 10 minutes, whatever the quota.
  @Test func beforeAndroid14EveryJobGetsTenMinutes() throws {
    #expect(
      try stop(release: 13, bucket: .active, onTop: true) == "700.1 work.stop work=hour:1 attempt=0 reason=timeout")
  }
}

/// What the regular jobs' quota is charged: AOSP `QuotaController`'s regular timer does
/// not track while the app is in the foreground (`Timer.shouldTrackLocked`:
/// `mForegroundUids`) or the device charges outside the restricted bucket
/// (`isQuotaFreeLocked`), and a job may start then whatever its quota
/// (`isWithinQuotaLocked`). On Android 16 the active bucket has 20 minutes an hour.
@Suite struct JobQuotaChargingTests {
  /// An Android 16 simulation of an app in the active bucket, launched on top.
  static func activeApp() -> SimulatedSystem {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.standbyBucketFollowsUse = false
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launch { _ in }
    return system
  }

  /// The lines of the attempts of `system`'s work: its work events but the enqueues.
  static func attemptLines(_ system: SimulatedSystem) -> [String] {
    system.trace.events.map(TextTraceWriter.line(for:)).filter { $0.contains(" work.") && !$0.contains("enqueue") }
  }

  /// An 1,100-second job runs with the app on top (0.1 to 1100.1 s, under the 20
  /// minutes it may run) and is charged nothing; the user leaves at 1200 s, and a
  /// 15-minute job started then has the whole 20 minutes: it finishes at 2100.1 s.
  /// Charged, the first would have left 100 s, and the second been stopped at its
  /// 10-minute guarantee.
  @Test func timeOnTopIsNotCharged() throws {
    let system = Self.activeApp()
    try system.enqueue(WorkRequest(work: "a", worker: TimedWorker(clock: system.clock, duration: .seconds(1100))))
    system.advance(to: TraceTime(seconds: 1200))
    system.moveToBackground()
    try system.enqueue(WorkRequest(work: "b", worker: TimedWorker(clock: system.clock, duration: .seconds(900))))
    system.advance(to: TraceTime(seconds: 3000))
    #expect(
      Self.attemptLines(system) == [
        "0.1 work.start work=a:1 attempt=0", "1100.1 work.result work=a:1 attempt=0 outcome=success",
        "1200.1 work.start work=b:1 attempt=0", "2100.1 work.result work=b:1 attempt=0 outcome=success",
      ])
  }

  /// In the background a 15-minute job runs from 100.1 s; plugged in at 400 s, its time
  /// from then is free: 299.9 s are charged, so a second 15-minute job at 2000 s, on
  /// battery again, has 900.1 s left of the 20 minutes and finishes (its limit is that,
  /// over the 10-minute guarantee); charged whole, it would have had 300 s and been
  /// stopped at the guarantee, 2600.1 s.
  @Test func timeWhileChargingIsNotCharged() throws {
    let system = Self.activeApp()
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 100))
    try system.enqueue(WorkRequest(work: "a", worker: TimedWorker(clock: system.clock, duration: .seconds(900))))
    system.advance(to: TraceTime(seconds: 400))
    system.setEnvironment(charging: true)
    system.advance(to: TraceTime(seconds: 1500))
    system.setEnvironment(charging: false)
    system.advance(to: TraceTime(seconds: 2000))
    try system.enqueue(WorkRequest(work: "b", worker: TimedWorker(clock: system.clock, duration: .seconds(900))))
    system.advance(to: TraceTime(seconds: 3000))
    #expect(
      system.trace.events.map(TextTraceWriter.line(for:)).filter { $0.contains("work=b") && !$0.contains("enqueue") }
        == ["2000.1 work.start work=b:1 attempt=0", "2900.1 work.result work=b:1 attempt=0 outcome=success"])
  }

  /// A job started in the background on Android 16 gets the active bucket's 20 minutes
  /// and is stopped at 1210.1 s; its next attempt waits for the quota. When the user
  /// opens the app at 1300 s it starts at once (`isWithinQuotaLocked`: the app is on
  /// top), free of the quota, but a WorkManager job is not important enough for the
  /// free runtime (`isJobImportant`): with the quota spent it gets its 10-minute
  /// guarantee, and each later attempt starts again at once, since the app is on top.
  @Test func openingTheAppStartsWorkTheQuotaHeld() throws {
    let system = Self.activeApp()
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 10))
    try system.enqueue(WorkRequest(work: "a", worker: TimedWorker(clock: system.clock, duration: .seconds(1500))))
    system.advance(to: TraceTime(seconds: 1300))
    system.moveToForeground()
    system.advance(to: TraceTime(seconds: 3000))
    #expect(
      Self.attemptLines(system) == [
        "10.1 work.start work=a:1 attempt=0", "1210.1 work.stop work=a:1 attempt=0 reason=timeout",
        "1210.1 work.wait work=a:1 reasons=quota", "1300 work.start work=a:1 attempt=1",
        "1900 work.stop work=a:1 attempt=1 reason=timeout", "1900.1 work.start work=a:1 attempt=2",
        "2500.1 work.stop work=a:1 attempt=2 reason=timeout", "2500.2 work.start work=a:1 attempt=3",
      ])
  }
}
