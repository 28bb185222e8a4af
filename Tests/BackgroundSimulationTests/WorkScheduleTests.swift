import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// When WorkManager lets a request run (androidx `WorkSpec.calculateNextRunTime`), read
/// back as ``WorkInfo/nextScheduleTime`` and seen in the simulated timeline. Each test
/// follows the androidx `WorkSpecTest` test it names, with its constants: the request is
/// enqueued at 10 s (`PERIOD_START`), an initial delay is 5 s or 10 s, an interval
/// 905 s and a flex 305 s. Work starts 0.1 s after it is due.
@Suite struct WorkScheduleTests {
  private struct Quick: BackgroundWorker {
    func doWork(_ context: WorkContext) async -> WorkResult { .success }
  }

  private static let periodStart = TraceTime(nanoseconds: 10_000_000_000)

  /// The simulation at 10 s, with `request` just enqueued.
  private func enqueued(
    delay: Duration? = nil, period: Duration? = nil, flex: Duration? = nil
  ) throws -> SimulatedSystem {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    system.advance(to: Self.periodStart)
    try system.enqueue(
      WorkRequest(work: "w", period: period, flex: flex, initialDelay: delay, worker: Quick()), policy: nil)
    return system
  }

  private func next(_ system: SimulatedSystem) -> TraceTime? {
    system.workInfos(forUniqueWork: "w").first?.nextScheduleTime
  }

  private func seconds(_ value: Double) -> TraceTime { TraceTime(nanoseconds: UInt64(value * 1e9)) }

  private func starts(_ system: SimulatedSystem) -> [String] {
    system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.start ") }
  }

  /// `testCalculateNextRunTime_firstRunAttempt_oneOff`: 10 s + 5 s.
  @Test func testCalculateNextRunTimeFirstRunAttemptOneOff() throws {
    let system = try enqueued(delay: .seconds(5))
    #expect(next(system) == seconds(15))
    system.advance(to: seconds(20))
    #expect(starts(system) == ["15.1 work.start work=w attempt=0"])
  }

  /// `testCalculateNextRunTime_firstRun_periodic_withFlexApplicable`: 10 s + 905 s − 305 s.
  @Test func testCalculateNextRunTimeFirstRunPeriodicWithFlexApplicable() throws {
    let system = try enqueued(period: .seconds(905), flex: .seconds(305))
    #expect(next(system) == seconds(610))
  }

  /// `testCalculateNextRunTime_firstRun_periodic_withFlexNotApplicable`: a flex as long
  /// as the interval: at once.
  @Test func testCalculateNextRunTimeFirstRunPeriodicWithFlexNotApplicable() throws {
    let system = try enqueued(period: .seconds(905), flex: .seconds(905))
    #expect(next(system) == seconds(10))
  }

  /// `testCalculateNextRunTime_nextRun_periodic_withFlexApplicable`: the first period
  /// runs at 610.1 s; the next is an interval after it, 1515.1 s.
  @Test func testCalculateNextRunTimeNextRunPeriodicWithFlexApplicable() throws {
    let system = try enqueued(period: .seconds(905), flex: .seconds(305))
    system.advance(to: seconds(700))
    #expect(next(system) == seconds(1515.1))
  }

  /// `testCalculateNextRunTime_nextRun_periodic_withFlexNotApplicable`: the first period
  /// runs at 10.1 s, the next is due at 915.1 s.
  @Test func testCalculateNextRunTimeNextRunPeriodicWithFlexNotApplicable() throws {
    let system = try enqueued(period: .seconds(905), flex: .seconds(905))
    system.advance(to: seconds(100))
    #expect(next(system) == seconds(915.1))
  }

  /// `testCalculateNextRunTime_nextRun_periodic_withInitialDelay`: the first period waits
  /// for the 10 s delay: 20 s.
  @Test func testCalculateNextRunTimeNextRunPeriodicWithInitialDelay() throws {
    let system = try enqueued(delay: .seconds(10), period: .seconds(905), flex: .seconds(905))
    #expect(next(system) == seconds(20))
  }

  /// `testCalculateNextRunTime_nextRun_periodic_withInitialDelay_flex_firstRun`: the delay
  /// and then the flex window: 10 s + 10 s + 905 s − 305 s = 620 s.
  @Test func testCalculateNextRunTimeNextRunPeriodicWithInitialDelayFlexFirstRun() throws {
    let system = try enqueued(delay: .seconds(10), period: .seconds(905), flex: .seconds(305))
    #expect(next(system) == seconds(620))
    system.advance(to: seconds(700))
    #expect(starts(system) == ["620.1 work.start work=w attempt=0"])
  }

  /// androidx `WorkRequestTest.expeditedRequest_withInitialDelay_throwsException`:
  /// `WorkRequest.Builder.build()` throws "Expedited jobs cannot be delayed".
  @Test func expeditedRequestWithInitialDelayThrowsException() {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    let request = WorkRequest(work: "w", expedited: .runAsRegular, initialDelay: .seconds(10), worker: Quick())
    #expect(throws: WorkRequestError(.expeditedDelayed, work: "w")) { try system.enqueue(request, policy: nil) }
    #expect(
      WorkRequestError(.expeditedDelayed, work: "w").description
        == "IllegalArgumentException: Expedited jobs cannot be delayed (work w)")
    #expect(system.trace.events.isEmpty)
  }

  /// The trace records the delay (`initial=`), and `bgtrace explain --why` says the work
  /// was not due until it passed.
  @Test func theDelayIsInTheTraceAndExplained() throws {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    try system.enqueue(WorkRequest(work: "sync", initialDelay: .seconds(900), worker: Quick()), policy: nil)
    system.advance(to: seconds(1000))
    let lines = system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") }
    #expect(
      lines == [
        "0 work.enqueue work=sync initial=900", "900.1 work.start work=sync attempt=0",
        "900.1 work.result work=sync attempt=0 outcome=success",
      ])
    #expect(
      RequestHistory(of: "sync", in: system.trace)?.lines == [
        "work sync",
        "  0s: enqueued (initial delay 900s).",
        "  0s to 900s (900s): not due: its initial delay (900s) had not passed.",
        "  900.1s: attempt 0 started.",
        "  900.1s: attempt 0 returned success.",
      ])
  }
}
