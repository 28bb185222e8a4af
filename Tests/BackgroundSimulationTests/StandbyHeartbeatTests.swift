import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// Android 9's standby deferral of jobs (AOSP `JobSchedulerService` for Pie:
/// `isReadyToBeExecutedLocked` and `heartbeatWhenJobsLastRun`, `DEFAULT_STANDBY_HEARTBEAT_TIME`
/// 11 minutes, `DEFAULT_STANDBY_WORKING_BEATS` 11, `_FREQUENT_BEATS` 43, `_RARE_BEATS`
/// 130; developer.android.com, "Power management restrictions", Android 9: jobs
/// "deferred up to 2 hours" in the working set, 8 in frequent, 24 in rare). Android 10
/// and later hold jobs by `QuotaController`'s time instead (`JobQuotaTests`). Heartbeats
/// count from the simulation's start, 660 s each. Work enqueued when it may run starts
/// 0.1 s later; deferred work starts when the heartbeat comes, as JobScheduler
/// re-evaluates its jobs then.
@Suite struct StandbyHeartbeatTests {
  /// The app, in the background, enqueues `first` at 0 s (a minute's work) and `second`
  /// at `at`, on Android `release` in `bucket`.
  static func run(release: Int, bucket: StandbyBucket, secondAt at: Int64) throws -> [String] {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(release)
    configuration.standbyBucket = bucket
    configuration.standbyBucketFollowsUse = false
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    try system.enqueue(
      WorkRequest(work: "first", worker: TimedWorker(clock: system.clock, duration: .seconds(60))), policy: nil)
    system.advance(to: TraceTime(.seconds(at)))
    try system.enqueue(
      WorkRequest(work: "second", worker: TimedWorker(clock: system.clock, duration: .seconds(60))), policy: nil)
    system.advance(to: TraceTime(.seconds(100_000)))
    #expect(TraceChecker.check(system.trace).isEmpty)
    return system.trace.events.map(handWrittenLine(for:)).filter {
      $0.contains("work.start") || $0.contains("work.wait")
    }
  }

  /// The first job runs at once: an app that never ran one counts as having run long
  /// ago. Its start is in heartbeat 0; the second, enqueued at 1,000 s (heartbeat 1),
  /// waits until heartbeat 0 + 11 in the working set: 11 × 660 = 7,260 s; 0 + 43 in
  /// frequent: 28,380 s; 0 + 130 in rare: 85,800 s.
  @Test(arguments: [(StandbyBucket.workingSet, "7260"), (.frequent, "28380"), (.rare, "85800")])
  func aJobWaitsTheBucketsHeartbeatsAfterTheLast(bucket: StandbyBucket, start: String) throws {
    let lines = try Self.run(release: 9, bucket: bucket, secondAt: 1000)
    #expect(
      lines == [
        "0.1 work.start work=first attempt=0", "1000 work.wait work=second reasons=quota",
        "\(start) work.start work=second attempt=0",
      ])
  }

  /// A bucket's window (`mNextBucketHeartbeat`): during each heartbeat that is a multiple
  /// of the bucket's beats, its jobs run whenever the app last ran one. The first job is
  /// enqueued at 3,000 s, heartbeat 4, and runs; the second, at 3,500 s (heartbeat 5),
  /// would wait until heartbeat 4 + 11 (9,900 s) in the working set, 4 + 43 (31,020 s)
  /// in frequent, 4 + 130 (88,440 s) in rare, but the window at heartbeat 11 (7,260 s),
  /// 43 (28,380 s), 130 (85,800 s) comes first.
  @Test(arguments: [(StandbyBucket.workingSet, "7260"), (.frequent, "28380"), (.rare, "85800")])
  func aJobRunsInTheBucketsWindowBeforeItsDeferralEnds(bucket: StandbyBucket, start: String) throws {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(9)
    configuration.standbyBucket = bucket
    configuration.standbyBucketFollowsUse = false
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.advance(to: TraceTime(.seconds(3000)))
    try system.enqueue(
      WorkRequest(work: "first", worker: TimedWorker(clock: system.clock, duration: .seconds(60))), policy: nil)
    system.advance(to: TraceTime(.seconds(3500)))
    try system.enqueue(
      WorkRequest(work: "second", worker: TimedWorker(clock: system.clock, duration: .seconds(60))), policy: nil)
    system.advance(to: TraceTime(.seconds(100_000)))
    #expect(TraceChecker.check(system.trace).isEmpty)
    #expect(
      system.trace.events.map(handWrittenLine(for:)).filter { $0.contains("work.start") || $0.contains("work.wait") }
        == [
          "3000.1 work.start work=first attempt=0", "3500 work.wait work=second reasons=quota",
          "\(start) work.start work=second attempt=0",
        ])
  }

  /// Near misses: in the active bucket nothing waits; within the heartbeat of the last
  /// run (300 s is heartbeat 0) a job is not deferred; and Android 10's quota lets a
  /// working-set app run its second minute of work at once (10 minutes per 2 hours).
  @Test(arguments: [(9, StandbyBucket.active, Int64(1000)), (9, .workingSet, 300), (10, .workingSet, 1000)])
  func theNearMissesRunAtOnce(release: Int, bucket: StandbyBucket, at: Int64) throws {
    let lines = try Self.run(release: release, bucket: bucket, secondAt: at)
    #expect(
      lines == [
        "0.1 work.start work=first attempt=0", "\(at).1 work.start work=second attempt=0",
      ])
  }
}
