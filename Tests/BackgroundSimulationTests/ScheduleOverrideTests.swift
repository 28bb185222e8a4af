import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// A worker that, while it runs, enqueues its own work again under `policy` with a next
/// schedule time override at `override` (androidx `WorkManagerImplTest`'s mocked worker).
private struct SelfReschedulingWorker: BackgroundWorker {
  let system: SimulatedSystem
  let policy: ExistingWorkPolicy
  let override: TraceTime
  func doWork(_ context: WorkContext) async -> WorkResult {
    var request = WorkRequest(
      work: context.work, period: .seconds(3600), worker: TimedWorker(clock: system.clock))
    request.setNextScheduleTimeOverride(override)
    try? system.enqueue(request, policy: policy)
    return .success
  }
}

private func id(_ number: UInt64) -> WorkRequestID { WorkRequestID(high: 0xC, low: number) }
private func hours(_ hours: Double) -> TraceTime { TraceTime(seconds: hours * 3600) }

/// Periodic work's next schedule time override (androidx
/// `PeriodicWorkRequest.Builder.setNextScheduleTimeOverride`), each test following the
/// androidx test it names, from `WorkSpecTest.java`, `PeriodicWorkRequestTest.kt`,
/// `impl/WorkerWrapperTest.java`, `WorkUpdateTest.kt` and `impl/WorkManagerImplTest.java`
/// (work-runtime androidTest). Work starts 0.1 s after it is due, so times measured from
/// a run's end carry that 0.1 s.
@Suite struct ScheduleOverrideTests {
  private let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))

  private func periodic(
    _ number: UInt64, every period: Duration, initialDelay: Duration? = nil, backoff: BackoffPolicy? = nil,
    backoffDelay: Duration? = nil, override: TraceTime? = nil, worker: (any BackgroundWorker)? = nil
  ) -> WorkRequest {
    var request = WorkRequest(
      work: "myname", backoff: backoff, backoffDelay: backoffDelay, period: period, initialDelay: initialDelay,
      id: id(number), worker: worker ?? TimedWorker(clock: system.clock))
    if let override { request.setNextScheduleTimeOverride(override) }
    return request
  }

  private var info: WorkInfo? { system.workInfos(forUniqueWork: "myname").first }

  // MARK: WorkSpecTest.java (calculateNextRunTime)

  /// `WorkSpecTest`'s constants: enqueued at 10 s, an interval of 905 s, an override at
  /// 913 s (`OVERRIDE_SOONER`: 2 s before the interval's end).
  private static let lastEnqueue = TraceTime(seconds: 10)
  private static let interval = TraceInterval(seconds: 905)
  private static let sooner = TraceTime(seconds: 913)

  /// androidx `WorkSpecTest.testNextScheduleTimeOverride_firstRun`.
  @Test func testNextScheduleTimeOverrideFirstRun() {
    let enqueue = WorkEnqueue(work: "w", period: Self.interval, nextScheduleTimeOverride: Self.sooner)
    #expect(WorkSchedule.firstRun(of: enqueue, enqueuedAt: Self.lastEnqueue) == Self.sooner)
  }

  /// androidx `WorkSpecTest.testNextScheduleTimeOverride_doesntRespectFlex`: "Flex
  /// doesn't adjust the schedule".
  @Test func testNextScheduleTimeOverrideDoesntRespectFlex() {
    let enqueue = WorkEnqueue(
      work: "w", period: Self.interval, flex: TraceInterval(seconds: 12.345), nextScheduleTimeOverride: Self.sooner)
    #expect(WorkSchedule.firstRun(of: enqueue, enqueuedAt: Self.lastEnqueue) == Self.sooner)
  }

  /// androidx `WorkSpecTest.testNextScheduleTimeOverride_firstRun_allowsImmediateExecution`.
  @Test func testNextScheduleTimeOverrideFirstRunAllowsImmediateExecution() {
    let enqueue = WorkEnqueue(work: "w", period: Self.interval, nextScheduleTimeOverride: Self.lastEnqueue)
    #expect(WorkSchedule.firstRun(of: enqueue, enqueuedAt: Self.lastEnqueue) == TraceTime(seconds: 10))
  }

  /// androidx `WorkSpecTest.testNextScheduleTimeOverride_firstRun_allowsScheduleInPast`.
  @Test func testNextScheduleTimeOverrideFirstRunAllowsScheduleInPast() {
    let enqueue = WorkEnqueue(work: "w", period: Self.interval, nextScheduleTimeOverride: TraceTime(seconds: 8))
    #expect(WorkSchedule.firstRun(of: enqueue, enqueuedAt: Self.lastEnqueue) == TraceTime(seconds: 8))
  }

  /// androidx `WorkSpecTest.testCalculateNextRunTime_nextRun_minimumDelay_met`.
  @Test func testCalculateNextRunTimeNextRunMinimumDelayMet() {
    #expect(
      WorkSchedule.overriddenRun(at: Self.sooner, periods: 1, lastEnqueue: Self.lastEnqueue) == TraceTime(seconds: 913))
  }

  /// androidx `WorkSpecTest.testCalculateNextRunTime_nextRun_minimumDelay_clamped`: a
  /// later period waits at least `MIN_PERIODIC_INTERVAL_MILLIS` after the last enqueue.
  @Test func testCalculateNextRunTimeNextRunMinimumDelayClamped() {
    #expect(
      WorkSchedule.overriddenRun(at: Self.lastEnqueue, periods: 1, lastEnqueue: Self.lastEnqueue)
        == TraceTime(seconds: 910))
  }

  /// androidx `WorkSpecTest.testCalculateNextRunTime_oneTimeWork_nextScheduleTimeOverride_doesNothing`:
  /// one-time work's next run ignores an override. The model goes further and refuses to
  /// enqueue one (androidx has the setter only on the periodic builder).
  @Test func testCalculateNextRunTimeOneTimeWorkNextScheduleTimeOverrideDoesNothing() {
    let enqueue = WorkEnqueue(
      work: "w", initialDelay: TraceInterval(seconds: 5), nextScheduleTimeOverride: TraceTime(seconds: 916))
    #expect(WorkSchedule.firstRun(of: enqueue, enqueuedAt: Self.lastEnqueue) == TraceTime(seconds: 15))
    var request = WorkRequest(work: "w", worker: TimedWorker(clock: system.clock))
    request.setNextScheduleTimeOverride(TraceTime(seconds: 916))
    #expect(throws: WorkRequestError(.overrideOneTime, work: "w")) { try system.enqueue(request, policy: .keep) }
  }

  /// androidx `WorkSpecTest.testCalculateNextRunTime_backOffSet_overrideTakesPriority`.
  @Test func testCalculateNextRunTimeBackOffSetOverrideTakesPriority() {
    #expect(
      WorkSchedule.overriddenRun(at: TraceTime(seconds: 916), periods: 2, lastEnqueue: Self.lastEnqueue)
        == TraceTime(seconds: 916))
  }

  // MARK: PeriodicWorkRequestTest.kt (the builder)

  /// androidx `PeriodicWorkRequestTest.testPeriodicWorkRequestBuilder_noNextScheduleTimeOverride_noGeneration`.
  @Test func testPeriodicWorkRequestBuilderNoNextScheduleTimeOverrideNoGeneration() {
    let request = periodic(0, every: .seconds(15 * 3600))
    #expect(request.nextScheduleTimeOverride == nil)
    #expect(!request.changesNextScheduleTimeOverride)
  }

  /// androidx `PeriodicWorkRequestTest.testPeriodicWorkRequestBuilder_nextScheduleTimeOverride_setsGeneration`.
  @Test func testPeriodicWorkRequestBuilderNextScheduleTimeOverrideSetsGeneration() {
    let request = periodic(0, every: .seconds(15 * 3600), override: TraceTime(seconds: 123.456))
    #expect(request.nextScheduleTimeOverride == TraceTime(seconds: 123.456))
    #expect(request.changesNextScheduleTimeOverride)
  }

  /// androidx `PeriodicWorkRequestTest.testPeriodicWorkRequest_clearNextScheduleTimeOverride_setsGeneration`:
  /// a cleared override still marks the request as changing it.
  @Test func testPeriodicWorkRequestClearNextScheduleTimeOverrideSetsGeneration() {
    var request = periodic(0, every: .seconds(15 * 3600), override: TraceTime(seconds: 123.456))
    request.clearNextScheduleTimeOverride()
    #expect(request.nextScheduleTimeOverride == nil)
    #expect(request.changesNextScheduleTimeOverride)
  }

  // MARK: WorkerWrapperTest.java (a run's end)

  /// androidx `WorkerWrapperTest.testNextScheduleTimeOverride_delayNormalNextSchedule`:
  /// enqueued at 4 h with an hourly interval and an override at 14 h, the work waits for
  /// 14 h; after that run the override is gone and the next period is an interval later.
  @Test func testNextScheduleTimeOverrideDelayNormalNextSchedule() throws {
    system.advance(to: hours(4))
    try system.enqueue(periodic(0, every: .seconds(3600), override: hours(14)), policy: .keep)
    system.advance(to: hours(5))
    #expect(info?.state == .enqueued)
    #expect(info?.nextScheduleTime == hours(14))
    system.advance(to: hours(14) + TraceInterval(seconds: 1))
    #expect(info?.nextScheduleTime == hours(15) + TraceInterval(seconds: 0.1))
    #expect(
      system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") } == [
        "14400 work.enqueue work=myname period=3600 policy=keep override=50400",
        "50400.1 work.start work=myname attempt=0", "50400.1 work.result work=myname attempt=0 outcome=success",
      ])
  }

  /// androidx `WorkerWrapperTest.testNextScheduleTimeOverride_backsOffNextTimeAfterRetry`:
  /// a retry clears the override, and the backoff decides the next attempt.
  @Test func testNextScheduleTimeOverrideBacksOffNextTimeAfterRetry() throws {
    system.advance(to: hours(4))
    try system.enqueue(
      periodic(
        0, every: .seconds(100 * 3600), backoff: .linear, backoffDelay: .seconds(1800), override: hours(14),
        worker: TimedWorker(clock: system.clock, result: .retry)), policy: .keep)
    system.advance(to: hours(14) + TraceInterval(seconds: 1))
    #expect(info?.state == .enqueued)
    #expect(info?.runAttemptCount == 1)
    #expect(info?.nextScheduleTime == hours(14.5) + TraceInterval(seconds: 0.1))
  }

  /// androidx `WorkerWrapperTest.testNextScheduleTimeOverride_whileWorkerIsRunning_appliesToNextRun`:
  /// an override set by an update while the attempt runs outlives the attempt's end.
  /// androidx writes generation 3 into its database; here one update makes it 1.
  @Test func testNextScheduleTimeOverrideWhileWorkerIsRunningAppliesToNextRun() throws {
    try overrideSetWhileRunning(result: .success)
    #expect(info?.runAttemptCount == 0)
  }

  /// androidx `WorkerWrapperTest.testNextScheduleTimeOverride_whileWorkerIsRunning_returnsRetry_usesOverride`.
  @Test func testNextScheduleTimeOverrideWhileWorkerIsRunningReturnsRetryUsesOverride() throws {
    try overrideSetWhileRunning(result: .retry)
    #expect(info?.runAttemptCount == 1)
  }

  /// Enqueues 100-hour periodic work at 14 h that runs a minute and returns `result`, and
  /// sets an override at 34 h half a minute in: the next run is due at 34 h.
  private func overrideSetWhileRunning(result: WorkResult) throws {
    system.advance(to: hours(14))
    try system.enqueue(
      periodic(
        0, every: .seconds(100 * 3600), worker: TimedWorker(clock: system.clock, duration: .seconds(60), result: result)
      ), policy: .keep)
    system.advance(to: hours(14) + TraceInterval(seconds: 30))
    #expect(try system.updateWork(periodic(0, every: .seconds(100 * 3600), override: hours(34))) == .appliedForNextRun)
    system.advance(to: hours(15))
    #expect(info?.state == .enqueued)
    #expect(info?.generation == 1)
    #expect(info?.nextScheduleTime == hours(34))
  }

  /// androidx `WorkerWrapperTest.testClearNextScheduleTimeOverride_whileWorkerIsRunning_schedulesNextBasedOnEnqueue`:
  /// an override cleared while the attempt runs leaves the next period to the interval.
  @Test func testClearNextScheduleTimeOverrideWhileWorkerIsRunningSchedulesNextBasedOnEnqueue() throws {
    system.advance(to: hours(14))
    try system.enqueue(
      periodic(
        0, every: .seconds(100 * 3600), override: hours(14),
        worker: TimedWorker(clock: system.clock, duration: .seconds(60))), policy: .keep)
    system.advance(to: hours(14) + TraceInterval(seconds: 30))
    var cleared = periodic(0, every: .seconds(100 * 3600))
    cleared.clearNextScheduleTimeOverride()
    try system.updateWork(cleared)
    system.advance(to: hours(15))
    #expect(info?.generation == 1)
    #expect(info?.runAttemptCount == 0)
    #expect(info?.nextScheduleTime == hours(114) + TraceInterval(seconds: 60.1))
  }

  /// androidx `WorkerWrapperTest.testClearNextScheduleTimeOverride_whileWorkerIsRunning_schedulesNextBasedOnBackoff`.
  @Test func testClearNextScheduleTimeOverrideWhileWorkerIsRunningSchedulesNextBasedOnBackoff() throws {
    system.advance(to: hours(6))
    try system.enqueue(
      periodic(
        0, every: .seconds(10 * 3600), backoff: .linear, backoffDelay: .seconds(3600), override: hours(6),
        worker: TimedWorker(clock: system.clock, duration: .seconds(60), result: .retry)), policy: .keep)
    system.advance(to: hours(6) + TraceInterval(seconds: 30))
    var cleared = periodic(0, every: .seconds(10 * 3600), backoff: .linear, backoffDelay: .seconds(3600))
    cleared.clearNextScheduleTimeOverride()
    try system.updateWork(cleared)
    system.advance(to: hours(6.5))
    #expect(info?.runAttemptCount == 1)
    #expect(info?.nextScheduleTime == hours(7) + TraceInterval(seconds: 60.1))
  }

  // MARK: WorkUpdateTest.kt (updateWork)

  /// `WorkUpdateTest`'s request: enqueued at 5 h, daily, with an initial delay of two days.
  private func daily(override: TraceTime? = nil, worker: (any BackgroundWorker)? = nil) -> WorkRequest {
    periodic(0, every: .seconds(86_400), initialDelay: .seconds(2 * 86_400), override: override, worker: worker)
  }

  /// androidx `WorkUpdateTest.updateNextScheduleTimeOverride`.
  @Test func updateNextScheduleTimeOverride() throws {
    system.advance(to: hours(5))
    try system.enqueue(daily(), policy: nil)
    try system.updateWork(daily(override: hours(10)))
    #expect(info?.nextScheduleTime == hours(10))
  }

  /// androidx `WorkUpdateTest.updateNextScheduleTimeOverride_multipleGenerations`.
  @Test func updateNextScheduleTimeOverrideMultipleGenerations() throws {
    system.advance(to: hours(5))
    try system.enqueue(daily(), policy: nil)
    try system.updateWork(daily(override: hours(10)))
    #expect(info?.nextScheduleTime == hours(10))
    try system.updateWork(daily(override: hours(12)))
    #expect(info?.nextScheduleTime == hours(12))
    #expect(info?.generation == 2)
  }

  /// androidx `WorkUpdateTest.updateNextScheduleTimeOverride_overridesBackoff`: androidx
  /// writes `runAttemptCount = 1` into the request; here an attempt retries (linear
  /// backoff of an hour) and the update comes during the backoff.
  @Test func updateNextScheduleTimeOverrideOverridesBackoff() throws {
    system.advance(to: hours(5))
    var request = periodic(
      0, every: .seconds(86_400), backoff: .linear, backoffDelay: .seconds(3600),
      worker: TimedWorker(clock: system.clock, result: .retry))
    try system.enqueue(request, policy: nil)
    system.advance(to: hours(5.5))
    #expect(info?.runAttemptCount == 1)
    #expect(info?.nextScheduleTime == hours(6) + TraceInterval(seconds: 0.1))
    request.setNextScheduleTimeOverride(hours(10))
    try system.updateWork(request)
    #expect(info?.nextScheduleTime == hours(10))
    #expect(info?.runAttemptCount == 1)
  }

  /// androidx `WorkUpdateTest.clearNextScheduleTimeOverride_incrementGeneration`: cleared,
  /// the next run is the enqueue time plus the initial delay again.
  @Test func clearNextScheduleTimeOverrideIncrementGeneration() throws {
    system.advance(to: hours(5))
    try system.enqueue(daily(override: hours(10)), policy: .keep)
    #expect(info?.nextScheduleTime == hours(10))
    var cleared = daily()
    cleared.clearNextScheduleTimeOverride()
    try system.updateWork(cleared)
    #expect(info?.nextScheduleTime == hours(5 + 48))
  }

  /// androidx `WorkUpdateTest.clearNextScheduleTimeOverride_noExistingOverride_incrementGenerationAnyway`.
  @Test func clearNextScheduleTimeOverrideNoExistingOverrideIncrementGenerationAnyway() throws {
    system.advance(to: hours(5))
    try system.enqueue(daily(), policy: nil)
    var cleared = daily()
    cleared.clearNextScheduleTimeOverride()
    try system.updateWork(cleared)
    #expect(info?.nextScheduleTime == hours(5 + 48))
    #expect(info?.generation == 1)
  }

  /// An update that neither sets nor clears the override keeps the work's (androidx
  /// `WorkerUpdater.updateWorkImpl`: only a request whose override generation is 1
  /// replaces it; the field comment in `WorkSpec.kt` gives the reason).
  @Test func anUpdateThatLeavesTheOverrideKeepsIt() throws {
    system.advance(to: hours(5))
    try system.enqueue(daily(override: hours(10)), policy: .keep)
    try system.updateWork(periodic(0, every: .seconds(2 * 86_400), initialDelay: .seconds(2 * 86_400)))
    #expect(info?.nextScheduleTime == hours(10))
    #expect(info?.periodicity?.repeatInterval == TraceInterval(seconds: 2 * 86_400))
  }

  // MARK: WorkManagerImplTest.java (the enqueue's check, a worker that reschedules itself)

  /// androidx `WorkManagerImplTest.testOverrideNextSchedule_cancelAndReenqueue_fails`:
  /// `REPLACE` and `CANCEL_AND_REENQUEUE` (both `replace` here) throw
  /// `IllegalArgumentException`; nothing is recorded.
  @Test func testOverrideNextScheduleCancelAndReenqueueFails() {
    let error = WorkRequestError(.overrideReplaced, work: "myname")
    #expect(throws: error) {
      try system.enqueue(periodic(0, every: .seconds(3600), override: TraceTime(seconds: 123.456)), policy: .replace)
    }
    #expect(
      error.message
        == "IllegalArgumentException: Next Schedule Time Override must be used with "
        + "ExistingPeriodicWorkPolicyUPDATE (preferably) or KEEP (work myname)")
    #expect(system.trace.events.allSatisfy { $0.kind.tag != .workEnqueue })
  }

  /// androidx `WorkManagerImplTest.testOverrideNextSchedule_update_allowed`.
  @Test func testOverrideNextScheduleUpdateAllowed() throws {
    try system.enqueue(periodic(0, every: .seconds(3600), override: TraceTime(seconds: 123.456)), policy: .update)
    #expect(info?.nextScheduleTime == TraceTime(seconds: 123.456))
  }

  /// androidx `WorkManagerImplTest.testOverrideNextSchedule_keep_allowed`.
  @Test func testOverrideNextScheduleKeepAllowed() throws {
    try system.enqueue(periodic(0, every: .seconds(3600), override: TraceTime(seconds: 123.456)), policy: .keep)
    #expect(info?.nextScheduleTime == TraceTime(seconds: 123.456))
  }

  /// androidx `WorkManagerImplTest.testOverrideNextSchedule_selfRescheduleWorker_update`:
  /// hourly work enqueued at 1 h re-enqueues itself with `UPDATE` and an override at
  /// 10 h while it runs; after the run the override stands.
  @Test func testOverrideNextScheduleSelfRescheduleWorkerUpdate() throws {
    try selfRescheduling(policy: .update)
    #expect(info?.nextScheduleTime == hours(10))
    #expect(info?.runAttemptCount == 0)
  }

  /// androidx `WorkManagerImplTest.testOverrideNextSchedule_selfRescheduleWorker_keep`:
  /// with `KEEP` the re-enqueue changes nothing ("KEEP meant that the override wasn't
  /// changed"), and the next period is an hour after the run.
  @Test func testOverrideNextScheduleSelfRescheduleWorkerKeep() throws {
    try selfRescheduling(policy: .keep)
    #expect(info?.nextScheduleTime == hours(2) + TraceInterval(seconds: 0.1))
    #expect(info?.runAttemptCount == 0)
  }

  private func selfRescheduling(policy: ExistingWorkPolicy) throws {
    system.advance(to: hours(1))
    try system.enqueue(
      periodic(
        0, every: .seconds(3600), worker: SelfReschedulingWorker(system: system, policy: policy, override: hours(10))),
      policy: .update)
    system.advance(to: hours(1.5))
  }

  // MARK: The trace

  /// The trace records the override (`override=`) and the checker finds nothing wrong
  /// with a run at it, before the interval, flex or initial delay would have allowed one.
  @Test func theTraceRecordsTheOverrideAndTheCheckerFollowsIt() throws {
    try system.enqueue(
      periodic(0, every: .seconds(3600), initialDelay: .seconds(7200), override: TraceTime(seconds: 60)),
      policy: .keep)
    system.advance(to: TraceTime(seconds: 120))
    let lines = system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") }
    #expect(
      lines == [
        "0 work.enqueue work=myname period=3600 policy=keep initial=7200 override=60",
        "60.1 work.start work=myname attempt=0", "60.1 work.result work=myname attempt=0 outcome=success",
      ])
    #expect(TraceChecker.check(system.trace).isEmpty)
  }
}
