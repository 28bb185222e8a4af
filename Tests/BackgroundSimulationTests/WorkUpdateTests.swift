import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Testing

private func id(_ number: UInt64) -> WorkRequestID { WorkRequestID(high: 0xB, low: number) }

/// `ExistingPeriodicWorkPolicy.UPDATE` and `updateWork` (androidx `WorkerUpdater`), each
/// test following the androidx `WorkManagerImplTest` or `WorkUpdateTest` test it names.
/// Work starts 0.1 s after it is due.
@Suite struct WorkUpdateTests {
  private let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))

  private func periodic(_ number: UInt64, every seconds: Int64, charging: Bool = false) -> WorkRequest {
    WorkRequest(
      work: "myname", period: .seconds(seconds), requiresCharging: charging, id: id(number),
      worker: TimedWorker(clock: system.clock))
  }

  private func workLines() -> [String] {
    system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") }
  }

  /// androidx `WorkManagerImplTest.testEnqueueUniquePeriodicWork_update`: UPDATE keeps
  /// the original's id and enqueue time and takes the new interval.
  @Test func testEnqueueUniquePeriodicWorkUpdate() throws {
    try system.enqueue(periodic(0, every: 900, charging: true), policy: .keep)
    system.advance(to: TraceTime(seconds: 10))
    try system.enqueue(periodic(1, every: 1800, charging: true), policy: .update)
    let infos = system.workInfos(forUniqueWork: "myname")
    #expect(infos.map(\.id) == [id(0)])
    #expect(infos.first?.periodicity?.repeatInterval == TraceInterval(nanoseconds: 1_800_000_000_000))
    #expect(infos.first?.generation == 1)
    #expect(infos.first?.nextScheduleTime == TraceTime(seconds: 0))  // its enqueue time kept: due at once
    #expect(system.workInfo(id: id(1)) == nil)
  }

  /// androidx `testEnqueueUniquePeriodicWork_updateCancelled`: over cancelled work UPDATE
  /// enqueues the new request.
  @Test func testEnqueueUniquePeriodicWorkUpdateCancelled() throws {
    try system.enqueue(periodic(0, every: 900, charging: true), policy: .keep)
    system.cancel(work: "myname")
    try system.enqueue(periodic(1, every: 1800, charging: true), policy: .update)
    #expect(system.workInfo(id: id(1))?.state == .enqueued)
    #expect(system.workInfo(id: id(0)) == nil)
  }

  /// androidx `testEnqueueUniquePeriodicWork_updateNonExistent`.
  @Test func testEnqueueUniquePeriodicWorkUpdateNonExistent() throws {
    try system.enqueue(periodic(1, every: 1800, charging: true), policy: .update)
    #expect(system.workInfo(id: id(1))?.state == .enqueued)
  }

  /// androidx `testEnqueueUniquePeriodicWork_updateOneTimeWork`: UPDATE of one-time work
  /// with periodic work throws `UnsupportedOperationException`; nothing is recorded.
  @Test func testEnqueueUniquePeriodicWorkUpdateOneTimeWork() throws {
    try system.enqueue(
      WorkRequest(work: "myname", requiresCharging: true, id: id(0), worker: TimedWorker(clock: system.clock)),
      policy: .keep)
    #expect(throws: WorkRequestError(.updateType, work: "myname")) {
      try system.enqueue(periodic(1, every: 900), policy: .update)
    }
    #expect(
      WorkRequestError(.updateType, work: "myname").description
        == "UnsupportedOperationException: Can't update a worker to another type. Update operation must preserve "
        + "worker's type. (work myname)")
    #expect(workLines() == ["0 work.enqueue work=myname policy=keep needs=charging"])
  }

  /// androidx `WorkerUpdater`: "Can't apply UPDATE policy to the chains of work."
  @Test func updatingAChainThrows() throws {
    try system.enqueue(periodic(0, every: 900, charging: true), policy: .keep)
    try system.enqueue(periodic(1, every: 900), policy: .append)
    #expect(throws: WorkRequestError(.updateChain, work: "myname")) {
      try system.enqueue(periodic(2, every: 1800), policy: .update)
    }
  }

  /// androidx `WorkUpdateTest.updateRunningPeriodicWorkRequest`: a running attempt runs
  /// on with its worker (`APPLIED_FOR_NEXT_RUN`); the next period follows the new interval.
  @Test func updateRunningPeriodicWorkRequest() throws {
    try system.enqueue(
      WorkRequest(
        work: "myname", period: .seconds(900), id: id(0),
        worker: TimedWorker(clock: system.clock, duration: .seconds(60))
      ), policy: .keep)
    system.advance(to: TraceTime(seconds: 30))
    let result = try system.updateWork(
      WorkRequest(work: "ignored", period: .seconds(3600), id: id(0), worker: TimedWorker(clock: system.clock)))
    #expect(result == .appliedForNextRun)
    system.advance(to: TraceTime(seconds: 4000))
    #expect(
      workLines() == [
        "0 work.enqueue work=myname period=900 policy=keep", "0.1 work.start work=myname attempt=0",
        "30 work.enqueue work=myname period=3600 policy=update",
        "60.1 work.result work=myname attempt=0 outcome=success", "3660.2 work.start work=myname attempt=0",
        "3660.2 work.result work=myname attempt=0 outcome=success",
      ])
    #expect(system.workInfo(id: id(0))?.generation == 1)
  }

  /// androidx `WorkUpdateTest.constraintsUpdate`: a waiting request takes the new
  /// settings at once (`APPLIED_IMMEDIATELY`): its charging constraint dropped, it runs.
  @Test func constraintsUpdate() throws {
    try system.enqueue(
      WorkRequest(work: "w", requiresCharging: true, id: id(0), worker: TimedWorker(clock: system.clock)),
      policy: nil)
    system.advance(to: TraceTime(seconds: 50))
    let result = try system.updateWork(WorkRequest(work: "w", id: id(0), worker: TimedWorker(clock: system.clock)))
    #expect(result == .appliedImmediately)
    system.advance(to: TraceTime(seconds: 60))
    #expect(
      workLines() == [
        "0 work.enqueue work=w needs=charging", "0 work.wait work=w reasons=power",
        "50 work.enqueue work=w policy=update",
        "50.1 work.start work=w attempt=0", "50.1 work.result work=w attempt=0 outcome=success",
      ])
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  /// androidx `WorkUpdateTest.failFinished` and `failWorkDoesntExit`: finished work is
  /// `NOT_APPLIED`, an unknown id throws `IllegalArgumentException`; and
  /// `WorkerUpdater.updateWorkImpl`: a change of type throws
  /// `UnsupportedOperationException`.
  @Test func failFinishedAndFailWorkDoesntExit() throws {
    try system.enqueue(WorkRequest(work: "w", id: id(0), worker: TimedWorker(clock: system.clock)), policy: nil)
    system.advance(to: TraceTime(seconds: 5))
    #expect(
      try system.updateWork(WorkRequest(work: "w", id: id(0), worker: TimedWorker(clock: system.clock))) == .notApplied)
    #expect(throws: WorkRequestError(.updateUnknown, work: "w")) {
      try system.updateWork(WorkRequest(work: "w", id: id(9), worker: TimedWorker(clock: system.clock)))
    }
    try system.enqueue(
      WorkRequest(work: "p", period: .seconds(900), id: id(1), worker: TimedWorker(clock: system.clock)), policy: nil)
    #expect(throws: WorkRequestError(.updateType, work: "p")) {
      try system.updateWork(WorkRequest(work: "p", id: id(1), worker: TimedWorker(clock: system.clock)))
    }
  }

  /// androidx `WorkUpdateTest.updateRunningOneTimeWork`: the running attempt runs on
  /// (`APPLIED_FOR_NEXT_RUN`) and succeeds, the charging constraint of the update
  /// notwithstanding.
  @Test func updateRunningOneTimeWork() throws {
    try system.enqueue(
      WorkRequest(work: "w", id: id(0), worker: TimedWorker(clock: system.clock, duration: .seconds(30))), policy: nil)
    system.advance(to: TraceTime(seconds: 10))
    let result = try system.updateWork(
      WorkRequest(work: "w", requiresCharging: true, id: id(0), worker: TimedWorker(clock: system.clock)))
    #expect(result == .appliedForNextRun)
    system.advance(to: TraceTime(seconds: 60))
    #expect(system.workInfo(id: id(0))?.state == .succeeded)
  }

  /// androidx `WorkUpdateTest.updateTags`: the update's tags replace the request's.
  @Test func updateTags() throws {
    try system.enqueue(
      WorkRequest(
        work: "w", tags: ["previous"], initialDelay: .seconds(10 * 86_400), id: id(0),
        worker: TimedWorker(clock: system.clock)), policy: nil)
    let result = try system.updateWork(
      WorkRequest(
        work: "w", tags: ["test"], initialDelay: .seconds(10 * 86_400), id: id(0),
        worker: TimedWorker(clock: system.clock)
      ))
    #expect(result == .appliedImmediately)
    let tags = try #require(system.workInfo(id: id(0))?.tags)
    #expect(tags.contains("test") && !tags.contains("previous"))
  }

  /// androidx `WorkUpdateTest.chainsViaExistingPolicyLeafUpdate`: the request appended
  /// behind another is updated in place and stays blocked.
  @Test func chainsViaExistingPolicyLeafUpdate() throws {
    try system.enqueue(
      WorkRequest(work: "name", requiresCharging: true, id: id(1), worker: TimedWorker(clock: system.clock)),
      policy: .append)
    try system.enqueue(WorkRequest(work: "name", id: id(2), worker: TimedWorker(clock: system.clock)), policy: .append)
    let result = try system.updateWork(
      WorkRequest(work: "name", tags: ["updated"], id: id(2), worker: TimedWorker(clock: system.clock)))
    #expect(result == .appliedImmediately)
    let info = try #require(system.workInfo(id: id(2)))
    #expect(info.state == .blocked && info.tags.contains("updated"))
  }

  /// androidx `WorkUpdateTest.chainsViaExistingPolicyRootUpdate`: the first request of
  /// the chain loses its charging constraint, runs, and the one behind it runs after.
  @Test func chainsViaExistingPolicyRootUpdate() throws {
    try system.enqueue(
      WorkRequest(work: "name", requiresCharging: true, id: id(1), worker: TimedWorker(clock: system.clock)),
      policy: .append)
    try system.enqueue(WorkRequest(work: "name", id: id(2), worker: TimedWorker(clock: system.clock)), policy: .append)
    #expect(system.workInfo(id: id(2))?.state == .blocked)
    #expect(
      try system.updateWork(WorkRequest(work: "name", id: id(1), worker: TimedWorker(clock: system.clock)))
        == .appliedImmediately)
    system.advance(to: TraceTime(seconds: 5))
    #expect(system.workInfo(id: id(2))?.state == .succeeded)
    #expect(TraceChecker.check(system.trace).isEmpty)
  }
}
