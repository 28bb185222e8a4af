import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// What the job quota leaves free in the foreground, per release (AOSP
/// `QuotaController`). Android 16 charges jobs started while the app is on top once it
/// leaves the top (flag `enforce_quota_policy_to_top_started_jobs`,
/// `QuotaControllerTest.testTracking_OutOfQuota_ForegroundAndBackground_EnableTopStartedJobsThrottling`)
/// and the jobs of an app running a foreground service (`enforce_quota_policy_to_fgs_jobs`:
/// the quota-free threshold becomes `PROCESS_STATE_BOUND_TOP`); developer.android.com,
/// "Behavior changes: all apps" (Android 16): "Jobs started while the app is visible to
/// the user and continues after the app becomes invisible, will adhere to the job
/// runtime quota", and so will "jobs that are executing while concurrently with a
/// foreground service". Before 16, a top-started job runs free to its end
/// (`prepareForExecutionLocked`: "Top jobs won't count towards quota",
/// `…_DisableTopStartedJobsThrottling`), and `PROCESS_STATE_FOREGROUND_SERVICE` counts
/// as in the foreground (`mForegroundUids`).
///
/// Each case pins the app in the rare bucket (10 minutes of jobs a day), runs a first
/// job of 590 s, and enqueues a second at 1,000 s: it starts at once unless the first
/// was charged, which leaves less than the in-quota buffer.
@Suite struct QuotaForegroundTests {
  private func system(release: Int, bucket: StandbyBucket = .rare) -> SimulatedSystem {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(release)
    configuration.standbyBucket = bucket
    configuration.standbyBucketFollowsUse = false  // pinned: opening the app would make it active
    return SimulatedSystem(seed: 1, configuration: configuration)
  }

  /// The app is launched and `prepare` runs; the first job (590 s) is enqueued at 0 s,
  /// `meanwhile` runs at `meanwhileAt`, and the second (60 s) is enqueued at 1,000 s.
  /// Returns the work lines up to 1,001 s.
  private func twoJobs(
    release: Int, prepare: (SimulatedSystem) throws -> Void, meanwhileAt: Int64 = 10,
    meanwhile: (SimulatedSystem) -> Void = { _ in }
  ) throws -> [String] {
    let system = system(release: release)
    system.launch { _ in }
    try prepare(system)
    try system.enqueue(
      WorkRequest(work: "first", worker: TimedWorker(clock: system.clock, duration: .seconds(590))), policy: nil)
    system.advance(to: TraceTime(.seconds(meanwhileAt)))
    meanwhile(system)
    system.advance(to: TraceTime(seconds: 1000))
    try system.enqueue(
      WorkRequest(work: "second", worker: TimedWorker(clock: system.clock, duration: .seconds(60))), policy: nil)
    system.advance(to: TraceTime(seconds: 1001))
    return system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") }
  }

  /// The first job's lines, and the second's enqueue.
  private static let firstJob = [
    "0 work.enqueue work=first", "0.1 work.start work=first attempt=0",
    "590.1 work.result work=first attempt=0 outcome=success", "1000 work.enqueue work=second",
  ]

  /// The first job starts on top at 0.1 s and goes on after the app leaves at 10 s.
  /// Android 15 leaves it uncharged; 16 charges its 580 s in the background.
  @Test(arguments: [
    (15, "1000.1 work.start work=second attempt=0"), (16, "1000 work.wait work=second reasons=quota"),
  ])
  func aJobStartedOnTopIsChargedFromAndroid16(release: Int, second: String) throws {
    let lines = try twoJobs(release: release, prepare: { _ in }, meanwhile: { $0.moveToBackground() })
    #expect(lines == Self.firstJob + [second])
  }

  /// A player in the foreground while the first job runs in the background: Android 15
  /// counts the app as in the foreground and charges nothing; 16 charges the job
  /// (`WorkConstraintTests.aForegroundServiceDoesNotFreeTheJobQuota`).
  @Test(arguments: [
    (15, "1000.1 work.start work=second attempt=0"), (16, "1000 work.wait work=second reasons=quota"),
  ])
  func aForegroundServiceFreesTheJobQuotaBeforeAndroid16(release: Int, second: String) throws {
    let lines = try twoJobs(release: release) { system in
      try system.startForegroundService("player", MediaPlayer())
      system.moveToBackground()
    }
    #expect(lines == Self.firstJob + [second])
  }

  /// The near miss on Android 15: the player stops at 5 s, while the first job runs,
  /// and the job's time is charged from then on (585.1 s), so the second waits.
  @Test func aStoppedForegroundServiceFreesNothingMore() throws {
    let lines = try twoJobs(
      release: 15,
      prepare: { system in
        try system.startForegroundService("player", MediaPlayer())
        system.moveToBackground()
      }, meanwhileAt: 5, meanwhile: { $0.stopService("player") })
    #expect(lines == Self.firstJob + ["1000 work.wait work=second reasons=quota"])
  }

  /// Expedited work of 400 s in the restricted bucket (5 minutes of expedited time a
  /// day), enqueued at 0 s after `prepare`, with the app leaving the top at `leavesAt`.
  /// Returns its starts, stops and results up to 401 s.
  private func expeditedRun(
    release: Int, leavesAt: Int64, prepare: (SimulatedSystem) throws -> Void = { _ in }
  ) throws -> [String] {
    let system = system(release: release, bucket: .restricted)
    system.launch { _ in }
    try prepare(system)
    if leavesAt == 0 { system.moveToBackground() }
    var request = WorkRequest(work: "sync", worker: TimedWorker(clock: system.clock, duration: .seconds(400)))
    request.expedited = .runAsRegular
    try system.enqueue(request, policy: nil)
    system.advance(to: TraceTime(.seconds(leavesAt)))
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 401))
    return system.trace.events.map(handWrittenLine(for:)).filter {
      $0.contains("work.start") || $0.contains("work.stop") || $0.contains("work.result")
    }
  }

  /// Expedited work beside a player: the app leaves the top at 0 s, so its time is free
  /// until the top app's grace ends at 60 s. Android 16 charges it from then and stops
  /// it for its quota at 360 s, and it runs again at once as regular work; Android 15
  /// counts the app as in the foreground (`isWithinEJQuotaLocked` and the expedited
  /// timer read `mForegroundUids` too), and the worker's 400 s run to their end.
  @Test(arguments: [
    (15, ["400.1 work.result work=sync attempt=0 outcome=success"]),
    (16, ["360 work.stop work=sync attempt=0 reason=quota", "360.1 work.start work=sync attempt=1"]),
  ])
  func aForegroundServiceFreesTheExpeditedQuotaBeforeAndroid16(release: Int, end: [String]) throws {
    let lines = try expeditedRun(release: release, leavesAt: 0) {
      try $0.startForegroundService("player", MediaPlayer())
    }
    #expect(lines == ["0.1 work.start work=sync attempt=0"] + end)
  }

  /// Expedited work started on top: the app leaves the top at 10 s, and the grace frees
  /// its time until 70 s. Android 16 charges it from then and stops it for its quota at
  /// 370 s; Android 15 leaves a job started on top off the quota to its end.
  @Test(arguments: [
    (15, ["400.1 work.result work=sync attempt=0 outcome=success"]),
    (16, ["370 work.stop work=sync attempt=0 reason=quota", "370.1 work.start work=sync attempt=1"]),
  ])
  func anExpeditedJobStartedOnTopIsChargedFromAndroid16(release: Int, end: [String]) throws {
    #expect(try expeditedRun(release: release, leavesAt: 10) == ["0.1 work.start work=sync attempt=0"] + end)
  }
}
