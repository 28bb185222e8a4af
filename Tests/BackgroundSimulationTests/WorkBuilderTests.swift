import BackgroundSimulation
import BackgroundTrace
import Testing

private func id(_ number: UInt64) -> WorkRequestID { WorkRequestID(high: 0xB1, low: number) }

/// WorkManager's request builders as androidx's `WorkTest.java` and
/// `PeriodicWorkTest.java` (work-runtime androidTest) test them, each test following
/// the one it names: what the builder keeps, clamps or refuses, read back from the
/// request's `WorkInfo` once enqueued, or the `WorkRequestError` the enqueue throws for
/// androidx's `IllegalArgumentException`, with nothing recorded. Work runs 0.1 s after
/// it is due.
@Suite struct WorkBuilderTests {
  private let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))

  /// androidx's `TestWorker`: it succeeds at once.
  private var testWorker: TimedWorker { TimedWorker(clock: system.clock) }

  private func info(_ number: UInt64) -> WorkInfo? { system.workInfo(id: id(number)) }

  private func expectRefused(_ request: WorkRequest, by check: WorkRequestCheck) {
    #expect(throws: WorkRequestError(check, work: request.work)) { try system.enqueue(request, policy: nil) }
    #expect(system.trace.events.allSatisfy { $0.kind.tag != .workEnqueue })
  }

  // MARK: WorkTest.java

  /// androidx `WorkTest.testBuild_GetsUniqueIdsOnBuild`: two requests built alike get
  /// two ids (here given at their enqueues).
  @Test func testBuildGetsUniqueIdsOnBuild() throws {
    let works = [
      try system.enqueue(WorkRequest(work: "w", worker: testWorker)),
      try system.enqueue(WorkRequest(work: "w", worker: testWorker)),
    ]
    let ids = works.map { system.workInfos(forUniqueWork: $0).first?.id }
    #expect(ids.count == 2 && ids[0] != nil && ids[0] != ids[1])
  }

  /// androidx `WorkTest.testBuild_withInitialDelay`: 123 ms, kept.
  @Test func testBuildWithInitialDelay() throws {
    try system.enqueue(
      WorkRequest(work: "w", initialDelay: .milliseconds(123), id: id(1), worker: testWorker), policy: nil)
    #expect(info(1)?.initialDelay == TraceInterval(nanoseconds: 123_000_000))
  }

  /// androidx `WorkTest.testBuild_withInitialDelayUsingDurationParameter`: 2 h 3 min.
  @Test func testBuildWithInitialDelayUsingDurationParameter() throws {
    try system.enqueue(
      WorkRequest(work: "w", initialDelay: .seconds(2 * 3600 + 3 * 60), id: id(1), worker: testWorker), policy: nil)
    #expect(info(1)?.initialDelay == TraceInterval(nanoseconds: 7_380_000_000_000))
  }

  /// When a request with an exponential backoff of `delay` that retries its first
  /// attempt (at 0.1 s) may run again: the backoff it waits is the delay as the builder
  /// clamps it.
  private func nextRunAfterARetry(backoffDelay delay: Duration) throws -> TraceTime? {
    try system.enqueue(
      WorkRequest(
        work: "w", backoff: .exponential, backoffDelay: delay, id: id(1),
        worker: TimedWorker(clock: system.clock, result: .retry)), policy: nil)
    system.advance(to: TraceTime(seconds: 1))
    return info(1)?.nextScheduleTime
  }

  /// androidx `WorkTest.testBuild_setBackoffCriteria_exceedMaxBackoffDuration`:
  /// `MAX_BACKOFF_MILLIS` + 123 ms becomes `MAX_BACKOFF_MILLIS` (5 h), so the first
  /// retry waits 5 h.
  @Test func testBuildSetBackoffCriteriaExceedMaxBackoffDuration() throws {
    #expect(try nextRunAfterARetry(backoffDelay: .milliseconds(18_000_123)) == TraceTime(seconds: 18_000.1))
  }

  /// androidx `WorkTest.testBuild_setBackoffCriteria_lessThanMinBackoffDuration`:
  /// `MIN_BACKOFF_MILLIS` − 123 ms becomes `MIN_BACKOFF_MILLIS` (10 s).
  @Test func testBuildSetBackoffCriteriaLessThanMinBackoffDuration() throws {
    #expect(try nextRunAfterARetry(backoffDelay: .milliseconds(9_877)) == TraceTime(seconds: 10.1))
  }

  /// androidx `WorkTest.testBuild_backoffAndIdleMode_throwsIllegalArgumentException`
  /// (`OneTimeWorkRequest.Builder.buildInternal()`).
  @Test func testBuildBackoffAndIdleModeThrowsIllegalArgumentException() {
    expectRefused(
      WorkRequest(
        work: "w", backoff: .exponential, backoffDelay: .milliseconds(123), requiresDeviceIdle: true, worker: testWorker
      ),
      by: .backoffIdle)
  }

  /// androidx `WorkTest.testBuild_initialDelayMaxLong_throwsIllegalArgumentException`:
  /// `Long.MAX_VALUE` ms (`setInitialDelay`).
  @Test func testBuildInitialDelayMaxLongThrowsIllegalArgumentException() {
    expectRefused(
      WorkRequest(work: "w", initialDelay: .milliseconds(Int64.max), worker: testWorker), by: .initialDelayOverflow)
  }

  /// androidx `WorkTest.testBuild_initialDelayTooLarge_throwsIllegalArgumentException`:
  /// `Long.MAX_VALUE` less the wall clock, here 2026-12-07 (1,796,601,600,000 ms), and
  /// so less 2100-01-01's clock too; one millisecond under the model's limit is taken.
  @Test func testBuildInitialDelayTooLargeThrowsIllegalArgumentException() throws {
    expectRefused(
      WorkRequest(work: "w", initialDelay: .milliseconds(Int64.max - 1_796_601_600_000), worker: testWorker),
      by: .initialDelayOverflow)
    let longest = WorkRequest(
      work: "w", initialDelay: .milliseconds(9_223_367_934_409_975_806), worker: testWorker)
    #expect(throws: Never.self) { try longest.validate() }
    // Within a second of Long.MAX_VALUE ms, the sum overflows: refused, not a crash.
    expectRefused(
      WorkRequest(
        work: "w", initialDelay: .seconds(9_223_372_036_854_775) + .milliseconds(900), worker: testWorker),
      by: .initialDelayOverflow)
  }

  /// androidx `WorkTest.testBuild_expedited_noConstraints`: taken, with no network
  /// required.
  @Test func testBuildExpeditedNoConstraints() throws {
    try system.enqueue(WorkRequest(work: "w", expedited: .runAsRegular, id: id(1), worker: testWorker), policy: nil)
    #expect(info(1)?.constraints == [])
  }

  /// androidx `WorkTest.testBuild_expedited_networkConstraints`: a metered network,
  /// taken.
  @Test func testBuildExpeditedNetworkConstraints() throws {
    try system.enqueue(
      WorkRequest(work: "w", expedited: .runAsRegular, id: id(1), requiredNetworkType: .metered, worker: testWorker),
      policy: nil)
    #expect(info(1)?.constraints == [.metered])
  }

  /// androidx `WorkTest.testBuild_expedited_networkStorageConstraints`: a metered
  /// network and storage not low, taken.
  @Test func testBuildExpeditedNetworkStorageConstraints() throws {
    try system.enqueue(
      WorkRequest(
        work: "w", expedited: .runAsRegular, id: id(1), requiredNetworkType: .metered, requiresStorageNotLow: true,
        worker: testWorker), policy: nil)
    #expect(info(1)?.constraints == [.metered, .storageNotLow])
  }

  /// androidx `WorkTest.testBuild_expedited_withUnspportedConstraints`: charging besides.
  @Test func testBuildExpeditedWithUnsupportedConstraints() {
    expectRefused(
      WorkRequest(
        work: "w", requiresCharging: true, expedited: .runAsRegular, requiredNetworkType: .metered,
        requiresStorageNotLow: true, worker: testWorker),
      by: .expeditedConstraints)
  }

  /// androidx `WorkTest.testBuild_expedited_withUnspportedConstraints2`: device idle
  /// besides.
  @Test func testBuildExpeditedWithUnsupportedConstraints2() {
    expectRefused(
      WorkRequest(
        work: "w", expedited: .runAsRegular, requiredNetworkType: .metered, requiresStorageNotLow: true,
        requiresDeviceIdle: true, worker: testWorker),
      by: .expeditedConstraints)
  }

  // MARK: PeriodicWorkTest.java

  /// `PeriodicWorkRequest.MIN_PERIODIC_INTERVAL_MILLIS` (15 min) and
  /// `MIN_PERIODIC_FLEX_MILLIS` (5 min), in milliseconds.
  private static let minimumInterval: Int64 = 900_000
  private static let minimumFlex: Int64 = 300_000

  /// The periodicity WorkManager reports for a request of `interval` and `flex`
  /// milliseconds.
  private func periodicity(interval: Int64, flex: Int64? = nil) throws -> WorkInfo.Periodicity? {
    try system.enqueue(
      WorkRequest(
        work: "p", period: .milliseconds(interval), flex: flex.map(Duration.milliseconds), id: id(1),
        worker: testWorker), policy: nil)
    return info(1)?.periodicity
  }

  private func millis(_ interval: Int64, _ flex: Int64) -> WorkInfo.Periodicity {
    WorkInfo.Periodicity(
      repeatInterval: TraceInterval(nanoseconds: UInt64(interval) * 1_000_000),
      flexInterval: TraceInterval(nanoseconds: UInt64(flex) * 1_000_000))
  }

  /// androidx `PeriodicWorkTest.testBuild_backoffAndIdleMode_throwsIllegalArgumentException`
  /// (`PeriodicWorkRequest.Builder.buildInternal()`).
  @Test func periodicBuildBackoffAndIdleModeThrowsIllegalArgumentException() {
    expectRefused(
      WorkRequest(
        work: "p", backoff: .exponential, backoffDelay: .seconds(20), period: .milliseconds(Self.minimumInterval),
        requiresDeviceIdle: true, worker: testWorker),
      by: .backoffIdle)
  }

  /// androidx `PeriodicWorkTest.testBuild_setPeriodic_onlyIntervalDuration_inRange`: the
  /// flex is the interval.
  @Test func testBuildSetPeriodicOnlyIntervalDurationInRange() throws {
    let interval = Self.minimumInterval + 123
    #expect(try periodicity(interval: interval) == millis(interval, interval))
  }

  /// androidx `PeriodicWorkTest.testBuild_setPeriodic_onlyIntervalDuration_outOfRange`.
  @Test func testBuildSetPeriodicOnlyIntervalDurationOutOfRange() throws {
    #expect(try periodicity(interval: Self.minimumInterval - 123) == millis(Self.minimumInterval, Self.minimumInterval))
  }

  /// androidx `PeriodicWorkTest.testBuild_setPeriodic_intervalAndFlexDurations_inRange`.
  @Test func testBuildSetPeriodicIntervalAndFlexDurationsInRange() throws {
    let (interval, flex) = (Self.minimumInterval + 123, Self.minimumFlex + 123)
    #expect(try periodicity(interval: interval, flex: flex) == millis(interval, flex))
  }

  /// androidx `PeriodicWorkTest.testBuild_setPeriodic_intervalAndFlexDurations_outOfRange`.
  @Test func testBuildSetPeriodicIntervalAndFlexDurationsOutOfRange() throws {
    #expect(
      try periodicity(interval: Self.minimumInterval - 123, flex: Self.minimumFlex - 123)
        == millis(Self.minimumInterval, Self.minimumFlex))
  }

  /// androidx `PeriodicWorkTest.testBuild_setPeriodic_intervalInRange_flexOutOfRange`.
  @Test func testBuildSetPeriodicIntervalInRangeFlexOutOfRange() throws {
    let interval = Self.minimumInterval + 123
    #expect(try periodicity(interval: interval, flex: Self.minimumFlex - 123) == millis(interval, Self.minimumFlex))
  }

  /// androidx `PeriodicWorkTest.testBuild_setPeriodic_intervalOutOfRange_flexInRange`.
  @Test func testBuildSetPeriodicIntervalOutOfRangeFlexInRange() throws {
    let flex = Self.minimumFlex + 123
    #expect(try periodicity(interval: Self.minimumInterval - 123, flex: flex) == millis(Self.minimumInterval, flex))
  }

  /// androidx `PeriodicWorkTest.testBuild_setPeriodic_withDurationParameters`: 2 d 3 h,
  /// flex 1 h 2 min.
  @Test func testBuildSetPeriodicWithDurationParameters() throws {
    let interval: Int64 = ((2 * 24) + 3) * 3_600_000
    let flex: Int64 = (60 + 2) * 60_000
    #expect(try periodicity(interval: interval, flex: flex) == millis(interval, flex))
  }
}
