import BackgroundSimulation
import BackgroundTrace
import Testing

/// The ids the tests give their requests (androidx tests read `request.getId()`).
private func id(_ number: UInt64) -> WorkRequestID { WorkRequestID(high: 0xA, low: number) }

private func seconds(_ value: Double) -> TraceTime { TraceTime(nanoseconds: UInt64(value * 1e9)) }
private func interval(_ value: Double) -> TraceInterval { TraceInterval(nanoseconds: UInt64(value * 1e9)) }

/// WorkManager's reads, cancels and pruning (androidx `WorkManagerImplTest`), each test
/// following the androidx test it names. androidx inserts most of its requests straight
/// into its database in a given state; here each is enqueued and driven into that state
/// (run to success or failure, held by a long initial delay or a charging constraint),
/// and the expected values are worked out from that. Work runs 0.1 s after it is due
/// (``SimulationConfiguration/workDispatchDelay``).
@Suite struct WorkInfoTests {
  private let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))

  private func request(
    _ work: String, _ number: UInt64, tags: [String] = [], delay: Duration? = nil, result: WorkResult = .success,
    duration: Duration = .zero, charging: Bool = false, period: Duration? = nil, flex: Duration? = nil
  ) -> WorkRequest {
    WorkRequest(
      work: work, period: period, flex: flex, requiresCharging: charging, tags: tags, initialDelay: delay,
      id: id(number), worker: TimedWorker(clock: system.clock, duration: duration, result: result))
  }

  /// Held for a day: it stays ENQUEUED for as long as a test looks.
  private func pending(_ work: String, _ number: UInt64, tags: [String] = []) -> WorkRequest {
    request(work, number, tags: tags, delay: .seconds(86_400))
  }

  private func state(_ number: UInt64) -> WorkInfo.State? { system.workInfo(id: id(number))?.state }

  // MARK: Enqueue

  /// androidx `testEnqueue_insertWorkInitialDelay`: a chain whose first request has a
  /// 5 s initial delay; the one appended behind it has none.
  @Test func testEnqueueInsertWorkInitialDelay() throws {
    try system.enqueue(request("chain", 0, delay: .seconds(5)), policy: nil)
    try system.enqueue(request("chain", 1), policy: .append)
    #expect(system.workInfo(id: id(0))?.initialDelay == interval(5))
    #expect(system.workInfo(id: id(1))?.initialDelay == .zero)
  }

  /// androidx `testEnqueue_insertPeriodicWork`: a 15-minute periodic request without a
  /// flex has interval and flex both 15 minutes.
  @Test func testEnqueueInsertPeriodicWork() throws {
    try system.enqueue(request("sync", 0, period: .seconds(900)), policy: nil)
    let info = try #require(system.workInfo(id: id(0)))
    #expect(info.periodicity == WorkInfo.Periodicity(repeatInterval: interval(900), flexInterval: interval(900)))
  }

  /// androidx `testEnqueue_insertWorkTags`: a chain of three, tagged first and second,
  /// first, none.
  @Test func testEnqueueInsertWorkTags() throws {
    try system.enqueue(pending("chain", 0, tags: ["first_tag", "second_tag"]), policy: nil)
    try system.enqueue(request("chain", 1, tags: ["first_tag"]), policy: .append)
    try system.enqueue(request("chain", 2), policy: .append)
    #expect(system.workInfos(byTag: "first_tag").map(\.id) == [id(0), id(1)])
    #expect(system.workInfos(byTag: "second_tag").map(\.id) == [id(0)])
    #expect(system.workInfos(byTag: "third_tag").isEmpty)
  }

  /// androidx `testEnqueue_insertWithCompletedDependencies_isNotStatusBlocked`: work
  /// appended to succeeded work is not blocked.
  @Test func testEnqueueInsertWithCompletedDependenciesIsNotStatusBlocked() throws {
    try system.enqueue(request("chain", 1), policy: nil)
    system.advance(by: .seconds(1))
    try system.enqueue(request("chain", 2, charging: true), policy: .append)
    #expect(state(1) == .succeeded)
    #expect(state(2) == .enqueued)
  }

  /// androidx `testEnqueue_insertWithFailedDependencies_isStatusFailed`: work appended
  /// to failed work fails at once.
  @Test func testEnqueueInsertWithFailedDependenciesIsStatusFailed() throws {
    try system.enqueue(request("chain", 1, result: .failure), policy: nil)
    system.advance(by: .seconds(1))
    try system.enqueue(request("chain", 2), policy: .append)
    #expect(state(1) == .failed)
    #expect(state(2) == .failed)
  }

  /// androidx `testEnqueue_insertWithCancelledDependencies_isStatusCancelled`.
  @Test func testEnqueueInsertWithCancelledDependenciesIsStatusCancelled() throws {
    try system.enqueue(pending("chain", 1), policy: nil)
    system.cancel(work: "chain")
    try system.enqueue(request("chain", 2), policy: .append)
    #expect(state(1) == .cancelled)
    #expect(state(2) == .cancelled)
  }

  /// androidx `testEnqueued_work_setsPeriodStartTime`: once enqueued, the work's next
  /// schedule time is no earlier than the moment of the enqueue.
  @Test func testEnqueuedWorkSetsPeriodStartTime() throws {
    system.advance(to: seconds(7))
    try system.enqueue(request("w", 0, charging: true), policy: nil)
    #expect(try #require(system.workInfo(id: id(0))?.nextScheduleTime) >= seconds(7))
  }

  /// androidx `testEnqueued_periodicWork_setsPeriodStartTime`.
  @Test func testEnqueuedPeriodicWorkSetsPeriodStartTime() throws {
    system.advance(to: seconds(7))
    try system.enqueue(request("w", 0, charging: true, period: .seconds(900)), policy: nil)
    #expect(try #require(system.workInfo(id: id(0))?.nextScheduleTime) >= seconds(7))
  }

  /// androidx `testGetWorkInfoByIdSync_constraints`: the request's constraints, read back.
  @Test func testGetWorkInfoByIdSyncConstraints() throws {
    try system.enqueue(
      WorkRequest(
        work: "w", requiresCharging: true, id: id(0), requiredNetworkType: .connected,
        worker: TimedWorker(clock: system.clock)), policy: nil)
    #expect(system.workInfo(id: id(0))?.constraints == [.charging, .network])
  }

  // MARK: Unique work

  /// androidx `testBeginUniqueWork_setsUniqueName`: the work is among the name's.
  @Test func testBeginUniqueWorkSetsUniqueName() throws {
    try system.enqueue(pending("myname", 0), policy: .replace)
    try system.enqueue(request("myname", 1), policy: .append)
    #expect(system.workInfos(forUniqueWork: "myname").map(\.id).contains(id(0)))
  }

  /// androidx `testEnqueueUniquePeriodicWork_setsUniqueName`.
  @Test func testEnqueueUniquePeriodicWorkSetsUniqueName() throws {
    try system.enqueue(request("myname", 0, charging: true, period: .seconds(900)), policy: .replace)
    #expect(system.workInfos(forUniqueWork: "myname").map(\.id) == [id(0)])
  }

  /// androidx `testEnqueueUniquePeriodicWork_deletesOldWorkOnReplace`: REPLACE deletes
  /// the 15-minute original; the 30-minute replacement is what the name holds.
  @Test func testEnqueueUniquePeriodicWorkDeletesOldWorkOnReplace() throws {
    try system.enqueue(request("myname", 0, charging: true, period: .seconds(900)), policy: .keep)
    try system.enqueue(request("myname", 1, charging: true, period: .seconds(1800)), policy: .replace)
    #expect(system.workInfos(forUniqueWork: "myname").map(\.id) == [id(1)])
    #expect(system.workInfo(id: id(0)) == nil)
  }

  /// androidx `testEnqueueUniquePeriodicWork_replacesExistingWorkOnKeepWhenExistingWorkIsDone`:
  /// periodic work never succeeds, so it is finished here by a cancel; KEEP then replaces it.
  @Test func testEnqueueUniquePeriodicWorkReplacesExistingWorkOnKeepWhenExistingWorkIsDone() throws {
    try system.enqueue(request("myname", 0, charging: true, period: .seconds(900)), policy: .keep)
    system.cancel(work: "myname")
    try system.enqueue(request("myname", 1, charging: true, period: .seconds(1800)), policy: .keep)
    #expect(system.workInfos(forUniqueWork: "myname").map(\.id) == [id(1)])
    #expect(system.workInfo(id: id(0)) == nil)
  }

  /// androidx `testBeginUniqueWork_deletesOldWorkOnReplace`: REPLACE deletes the
  /// original; the replacement and the work appended to it are what the name holds.
  @Test func testBeginUniqueWorkDeletesOldWorkOnReplace() throws {
    try system.enqueue(pending("myname", 0), policy: nil)
    try system.enqueue(pending("myname", 1), policy: .replace)
    try system.enqueue(request("myname", 2), policy: .append)
    #expect(system.workInfos(forUniqueWork: "myname").map(\.id) == [id(1), id(2)])
    #expect(system.workInfo(id: id(0)) == nil)
    #expect(state(2) == .blocked)
  }

  /// androidx `testBeginUniqueWork_keepsExistingWorkOnKeep`: KEEP over unfinished work
  /// inserts nothing.
  @Test func testBeginUniqueWorkKeepsExistingWorkOnKeep() throws {
    try system.enqueue(pending("myname", 0), policy: nil)
    try system.enqueue(request("myname", 1), policy: .keep)
    #expect(system.workInfos(forUniqueWork: "myname").map(\.id) == [id(0)])
    #expect(system.workInfo(id: id(1)) == nil)
  }

  /// androidx `testEnqueueUniquePeriodicWork_keepsExistingWorkOnKeep`.
  @Test func testEnqueueUniquePeriodicWorkKeepsExistingWorkOnKeep() throws {
    try system.enqueue(request("myname", 0, charging: true, period: .seconds(900)), policy: .keep)
    try system.enqueue(request("myname", 1, period: .seconds(1800)), policy: .keep)
    #expect(system.workInfos(forUniqueWork: "myname").map(\.id) == [id(0)])
    #expect(system.workInfo(id: id(1)) == nil)
  }

  /// androidx `testBeginUniqueWork_replacesExistingWorkOnKeepWhenExistingWorkIsDone`:
  /// KEEP over finished work replaces it.
  @Test func testBeginUniqueWorkReplacesExistingWorkOnKeepWhenExistingWorkIsDone() throws {
    try system.enqueue(request("myname", 0), policy: nil)
    system.advance(by: .seconds(1))
    try system.enqueue(pending("myname", 1), policy: .keep)
    #expect(system.workInfos(forUniqueWork: "myname").map(\.id) == [id(1)])
    #expect(system.workInfo(id: id(0)) == nil)
  }

  /// androidx `testBeginUniqueWork_appendsExistingWorkOnAppend`: both appended requests
  /// are blocked behind the original.
  @Test func testBeginUniqueWorkAppendsExistingWorkOnAppend() throws {
    try system.enqueue(pending("myname", 0), policy: nil)
    try system.enqueue(request("myname", 1), policy: .append)
    try system.enqueue(request("myname", 2), policy: .append)
    #expect(system.workInfos(forUniqueWork: "myname").map(\.id) == [id(0), id(1), id(2)])
    #expect([state(0), state(1), state(2)] == [.enqueued, .blocked, .blocked])
  }

  /// androidx `testBeginUniqueWork_insertsWithAppendOrReplaceWithFailedPreRequisites`:
  /// APPEND_OR_REPLACE over failed work deletes it and enqueues afresh.
  @Test func testBeginUniqueWorkInsertsWithAppendOrReplaceWithFailedPreRequisites() throws {
    try system.enqueue(request("myname", 0, result: .failure), policy: .appendOrReplace)
    system.advance(by: .seconds(1))
    try system.enqueue(pending("myname", 1), policy: .appendOrReplace)
    #expect(system.workInfo(id: id(0)) == nil)
    #expect(state(1) == .enqueued)
  }

  /// androidx `testBeginUniqueWork_insertsWithAppendOrReplaceWithCancelledPreRequisites`.
  @Test func testBeginUniqueWorkInsertsWithAppendOrReplaceWithCancelledPreRequisites() throws {
    try system.enqueue(pending("myname", 0), policy: .appendOrReplace)
    system.cancel(work: "myname")
    try system.enqueue(pending("myname", 1), policy: .appendOrReplace)
    #expect(system.workInfo(id: id(0)) == nil)
    #expect(state(1) == .enqueued)
  }

  /// androidx `testBeginUniqueWork_appendsWork_whenUsingAppendOrReplace`: over
  /// unfinished work APPEND_OR_REPLACE appends.
  @Test func testBeginUniqueWorkAppendsWorkWhenUsingAppendOrReplace() throws {
    try system.enqueue(pending("myname", 0), policy: .appendOrReplace)
    try system.enqueue(request("myname", 1), policy: .appendOrReplace)
    #expect(state(1) == .blocked)
  }

  /// androidx `testBeginUniqueWork_insertsExistingWorkWhenNothingToAppendTo`.
  @Test func testBeginUniqueWorkInsertsExistingWorkWhenNothingToAppendTo() throws {
    try system.enqueue(pending("myname", 1), policy: .append)
    try system.enqueue(request("myname", 2), policy: .append)
    #expect(system.workInfos(forUniqueWork: "myname").map(\.id) == [id(1), id(2)])
    #expect([state(1), state(2)] == [.enqueued, .blocked])
  }

  // MARK: Reads

  /// androidx `testGetWorkInfoByIdSync`.
  @Test func testGetWorkInfoByIdSync() throws {
    try system.enqueue(request("w", 0), policy: nil)
    system.advance(by: .seconds(1))
    let info = try #require(system.workInfo(id: id(0)))
    #expect(info.id == id(0) && info.state == .succeeded)
  }

  /// androidx `testGetWorkInfoByIdSync_oneTime_schedules`: a 1.234 s initial delay, no
  /// periodicity.
  @Test func testGetWorkInfoByIdSyncOneTimeSchedules() throws {
    try system.enqueue(request("w", 0, delay: .milliseconds(1234)), policy: nil)
    system.advance(by: .seconds(5))
    let info = try #require(system.workInfo(id: id(0)))
    #expect(info.state == .succeeded)
    #expect(info.initialDelay == interval(1.234))
    #expect(info.periodicity == nil)
  }

  /// androidx `testGetWorkInfoByIdSync_periodic_schedules`: every 60 minutes, a flex of
  /// 30, a 1.234 s initial delay.
  @Test func testGetWorkInfoByIdSyncPeriodicSchedules() throws {
    try system.enqueue(
      request("w", 0, delay: .milliseconds(1234), period: .seconds(3600), flex: .seconds(1800)), policy: nil)
    let info = try #require(system.workInfo(id: id(0)))
    #expect(info.initialDelay == interval(1.234))
    #expect(info.periodicity == WorkInfo.Periodicity(repeatInterval: interval(3600), flexInterval: interval(1800)))
  }

  /// androidx `testGetWorkInfoByIdSync_returnsNullIfNotInDatabase`.
  @Test func testGetWorkInfoByIdSyncReturnsNullIfNotInDatabase() throws {
    try system.enqueue(request("w", 0), policy: nil)
    #expect(system.workInfo(id: id(99)) == nil)
  }

  /// androidx `testGetWorkInfoById_nextScheduleTime_notEnqueued`: a running request has
  /// no next schedule time (androidx `Long.MAX_VALUE`).
  @Test func testGetWorkInfoByIdNextScheduleTimeNotEnqueued() throws {
    try system.enqueue(request("w", 0, duration: .seconds(60)), policy: nil)
    system.advance(by: .seconds(1))
    let info = try #require(system.workInfo(id: id(0)))
    #expect(info.state == .running)
    #expect(info.nextScheduleTime == nil)
  }

  /// androidx `testGetWorkInfoById_nextScheduleTime_enqueued`: enqueued at 1 s, it may
  /// run from 1 s (held here by its charging constraint).
  @Test func testGetWorkInfoByIdNextScheduleTimeEnqueued() throws {
    system.advance(to: seconds(1))
    try system.enqueue(request("w", 0, charging: true), policy: nil)
    system.advance(to: seconds(10))
    let info = try #require(system.workInfo(id: id(0)))
    #expect(info.state == .enqueued)
    #expect(info.nextScheduleTime == seconds(1))
  }

  /// androidx `testGetWorkInfoById_nextScheduleTime_onetime_initialDelay`: enqueued at
  /// 1 s with a 2 s delay: 3 s.
  @Test func testGetWorkInfoByIdNextScheduleTimeOnetimeInitialDelay() throws {
    system.advance(to: seconds(1))
    try system.enqueue(request("w", 0, delay: .seconds(2)), policy: nil)
    let info = try #require(system.workInfo(id: id(0)))
    #expect(info.state == .enqueued)
    #expect(info.nextScheduleTime == seconds(3))
  }

  /// androidx `testGetWorkInfoById_nextScheduleTime_periodic_period`: after the first
  /// period the initial delay no longer counts; the next period is an interval after the
  /// last. Enqueued at 1 s with a 2 s delay, every 15 minutes: periods run at 3.1 s,
  /// 903.2 s and 1803.3 s, so after three the next is 2703.3 s.
  @Test func testGetWorkInfoByIdNextScheduleTimePeriodicPeriod() throws {
    system.advance(to: seconds(1))
    try system.enqueue(request("w", 0, delay: .seconds(2), period: .seconds(900)), policy: nil)
    system.advance(to: seconds(2000))
    let info = try #require(system.workInfo(id: id(0)))
    #expect(info.state == .enqueued)
    #expect(info.nextScheduleTime == seconds(2703.3))
    #expect(info.initialDelay == interval(2))
  }

  /// androidx `testGetWorkInfosByTagSync`: one request running with both tags, one
  /// blocked behind it with the first, one succeeded with the second; each read in full.
  @Test func testGetWorkInfosByTagSync() throws {
    try system.enqueue(request("w2", 2, tags: ["second_tag"]), policy: nil)
    try system.enqueue(request("w0", 0, tags: ["first_tag", "second_tag"], duration: .seconds(60)), policy: nil)
    try system.enqueue(request("w0", 1, tags: ["first_tag"]), policy: .append)
    system.advance(by: .seconds(1))
    let work0 = WorkInfo(id: id(0), work: "w0", state: .running, tags: ["first_tag", "second_tag"], runAttemptCount: 1)
    let work1 = WorkInfo(id: id(1), work: "w0", state: .blocked, tags: ["first_tag"])
    let work2 = WorkInfo(id: id(2), work: "w2", state: .succeeded, tags: ["second_tag"], runAttemptCount: 1)
    #expect(Set(system.workInfos(byTag: "first_tag")) == [work0, work1])
    #expect(Set(system.workInfos(byTag: "second_tag")) == [work0, work2])
    #expect(system.workInfos(byTag: "dummy").isEmpty)
  }

  /// androidx `getWorkInfosByNameSync`: one running, two blocked behind it.
  @Test func getWorkInfosByNameSync() throws {
    try system.enqueue(request("myname", 0, duration: .seconds(60)), policy: nil)
    try system.enqueue(request("myname", 1), policy: .append)
    try system.enqueue(request("myname", 2), policy: .append)
    system.advance(by: .seconds(1))
    #expect(
      system.workInfos(forUniqueWork: "myname") == [
        WorkInfo(id: id(0), work: "myname", state: .running, runAttemptCount: 1),
        WorkInfo(id: id(1), work: "myname", state: .blocked), WorkInfo(id: id(2), work: "myname", state: .blocked),
      ])
    #expect(system.workInfos(forUniqueWork: "dummy").isEmpty)
  }

  // MARK: Cancel

  /// androidx `testCancelWorkById`.
  @Test func testCancelWorkById() throws {
    try system.enqueue(pending("w0", 0), policy: nil)
    try system.enqueue(pending("w1", 1), policy: nil)
    system.cancelWork(id: id(0))
    #expect(state(0) == .cancelled)
    #expect(state(1) == .enqueued)
  }

  /// androidx `testCancelWorkById_cancelsDependentWork`.
  @Test func testCancelWorkByIdCancelsDependentWork() throws {
    try system.enqueue(pending("chain", 0), policy: nil)
    try system.enqueue(request("chain", 1), policy: .append)
    system.cancelWork(id: id(0))
    #expect([state(0), state(1)] == [.cancelled, .cancelled])
  }

  /// androidx `testCancelWorkById_cancelsUnfinishedWorkOnly`: cancelling succeeded work
  /// leaves it succeeded and cancels the work that depends on it.
  @Test func testCancelWorkByIdCancelsUnfinishedWorkOnly() throws {
    try system.enqueue(request("chain", 0), policy: nil)
    system.advance(by: .seconds(1))
    try system.enqueue(pending("chain", 1), policy: .append)
    system.cancelWork(id: id(0))
    #expect([state(0), state(1)] == [.succeeded, .cancelled])
  }

  /// androidx `testCancelAllWorkByTag`.
  @Test func testCancelAllWorkByTag() throws {
    for number: UInt64 in 0...3 {
      let tag = number < 2 ? "tag_to_clear" : "tag_not_to_clear"
      try system.enqueue(pending("w\(number)", number, tags: [tag]), policy: nil)
    }
    system.cancelAllWork(byTag: "tag_to_clear")
    #expect([state(0), state(1), state(2), state(3)] == [.cancelled, .cancelled, .enqueued, .enqueued])
  }

  /// androidx `testCancelAllWorkByTag_cancelsDependentWork`, on the chains the model has
  /// (androidx's own graph gives one request two prerequisites): the tagged request's
  /// dependents are cancelled, untagged work elsewhere is not, and a tagged request
  /// appended behind untagged work is cancelled with what follows it.
  @Test func testCancelAllWorkByTagCancelsDependentWork() throws {
    try system.enqueue(pending("a", 0, tags: ["tag"]), policy: nil)
    try system.enqueue(request("a", 1), policy: .append)
    try system.enqueue(pending("b", 3), policy: nil)
    try system.enqueue(request("b", 4, tags: ["tag"]), policy: .append)
    try system.enqueue(request("b", 5), policy: .append)
    system.cancelAllWork(byTag: "tag")
    #expect([state(0), state(1)] == [.cancelled, .cancelled])
    #expect([state(3), state(4), state(5)] == [.enqueued, .cancelled, .cancelled])
  }

  /// androidx `testCancelWorkByName`: two requests side by side under the name
  /// (`insertNamedWorks`), both cancelled.
  @Test func testCancelWorkByName() throws {
    try system.enqueueUniqueWork("myname", policy: .replace, [pending("w", 0), pending("w", 1)])
    system.cancel(work: "myname")
    #expect([state(0), state(1)] == [.cancelled, .cancelled])
  }

  /// androidx `testCancelWorkByName_ignoresFinishedWork`: of two requests side by side
  /// under the name, the one that succeeded stays succeeded.
  @Test func testCancelWorkByNameIgnoresFinishedWork() throws {
    try system.enqueueUniqueWork("myname", policy: .replace, [request("w", 0), pending("w", 1)])
    system.advance(by: .seconds(1))
    system.cancel(work: "myname")
    #expect([state(0), state(1)] == [.succeeded, .cancelled])
  }

  /// androidx `testCancelAllWork`.
  @Test func testCancelAllWork() throws {
    try system.enqueue(request("w2", 2), policy: nil)
    system.advance(by: .seconds(1))
    try system.enqueue(pending("w0", 0), policy: nil)
    try system.enqueue(pending("w1", 1), policy: nil)
    #expect([state(0), state(1), state(2)] == [.enqueued, .enqueued, .succeeded])
    system.cancelAllWork()
    #expect([state(0), state(1), state(2)] == [.cancelled, .cancelled, .succeeded])
  }

  /// androidx `testSynchronousCancelAndGetWorkInfo`.
  @Test func testSynchronousCancelAndGetWorkInfo() throws {
    try system.enqueue(pending("w", 0), policy: nil)
    #expect(state(0) == .enqueued)
    system.cancelWork(id: id(0))
    #expect(state(0) == .cancelled)
  }

  // MARK: Pruning

  /// androidx `pruneFinishedWork`: finished work goes, unless unfinished work depends on
  /// it; `pruneWork` ignores `keepResultsForAtLeast`.
  @Test func pruneFinishedWork() throws {
    try system.enqueue(request("finished", 1), policy: nil)
    try system.enqueue(request("chain", 2), policy: nil)
    system.advance(by: .seconds(1))
    try system.enqueue(pending("chain", 0), policy: .append)
    system.pruneWork()
    #expect(system.workInfo(id: id(0)) != nil)
    #expect(system.workInfo(id: id(1)) == nil)
    #expect(system.workInfo(id: id(2)) != nil)
  }

  // MARK: Stop reasons

  /// androidx `StopReasonTest.testStopReasonWhenCancelledPreRun`: cancelling work that
  /// never ran sets no stop reason.
  @Test func testStopReasonWhenCancelledPreRun() throws {
    try system.enqueue(request("w", 0, delay: .seconds(10 * 86_400)), policy: nil)
    system.cancelWork(id: id(0))
    let info = try #require(system.workInfo(id: id(0)))
    #expect(info.state == .cancelled)
    #expect(info.stopReason == .notStopped && info.stopReason.code == -256)
  }

  /// androidx `StopReasonTest.testStopReasonWhenCancelled`: cancelling running work:
  /// `STOP_REASON_CANCELLED_BY_APP` (1).
  @Test func testStopReasonWhenCancelled() throws {
    try system.enqueue(request("w", 0, duration: .seconds(60)), policy: nil)
    system.advance(by: .seconds(1))
    #expect(state(0) == .running)
    system.cancelWork(id: id(0))
    let info = try #require(system.workInfo(id: id(0)))
    #expect(info.state == .cancelled)
    #expect(info.stopReason.code == 1)
  }

  /// androidx `StopReasonTest.testStopReasonPropagated` and
  /// `testGetStopReasonWhileRunning`: running on the charger, no stop reason; unplugged,
  /// `STOP_REASON_CONSTRAINT_CHARGING` (6), and it waits again.
  @Test func testStopReasonPropagated() throws {
    system.setEnvironment(charging: true)
    try system.enqueue(request("w", 0, duration: .seconds(60), charging: true), policy: nil)
    system.advance(by: .seconds(1))
    #expect(system.workInfo(id: id(0))?.state == .running)
    #expect(system.workInfo(id: id(0))?.stopReason == .notStopped)
    system.setEnvironment(charging: false)
    let info = try #require(system.workInfo(id: id(0)))
    #expect(info.state == .enqueued)
    #expect(info.stopReason.code == 6)
    #expect(info.runAttemptCount == 1)
  }

  /// androidx `WorkSpecDaoTest.checkSetCancelled`: cancelled while running, the reason
  /// is `STOP_REASON_CANCELLED_BY_APP`; cancelled while enqueued, `STOP_REASON_NOT_STOPPED`.
  @Test func checkSetCancelled() throws {
    try system.enqueue(request("w1", 1, duration: .seconds(60)), policy: nil)
    try system.enqueue(pending("w2", 2), policy: nil)
    system.advance(by: .seconds(1))
    system.cancelAllWork()
    #expect(system.workInfo(id: id(1))?.stopReason == .cancelledByApp)
    #expect(system.workInfo(id: id(2))?.stopReason == .notStopped)
  }

  // MARK: Reads as they change

  /// androidx `WorkInfoFlowsTest.flowByName`, read after each step: nothing, then the
  /// first request, then both (KEEP, then APPEND; both wait for the charger).
  @Test func flowByName() throws {
    #expect(system.workInfos(forUniqueWork: "name").isEmpty)
    try system.enqueue(request("name", 1, charging: true), policy: .keep)
    #expect(system.workInfos(forUniqueWork: "name").map(\.id) == [id(1)])
    try system.enqueue(request("name", 2, charging: true), policy: .append)
    #expect(Set(system.workInfos(forUniqueWork: "name").map(\.id)) == [id(1), id(2)])
  }

  /// androidx `WorkInfoFlowsTest.flowByTag`, read after each step: a request held a day
  /// without the tag never shows.
  @Test func flowByTag() throws {
    #expect(system.workInfos(byTag: "tag").isEmpty)
    try system.enqueue(pending("unrelated", 9))
    try system.enqueue(request("r1", 1, tags: ["tag"], charging: true))
    #expect(system.workInfos(byTag: "tag").map(\.id) == [id(1)])
    try system.enqueue(pending("unrelated", 10))
    try system.enqueue(request("r2", 2, tags: ["tag"], charging: true))
    #expect(Set(system.workInfos(byTag: "tag").map(\.id)) == [id(1), id(2)])
  }

  /// Requests given no id get one drawn from the seed: the same ids in every run, a
  /// different id for each request, and version-4 UUIDs.
  @Test func idsComeFromTheSeed() throws {
    func ids(seed: UInt64) throws -> [WorkRequestID] {
      let system = SimulatedSystem(seed: seed, configuration: SimulationConfiguration(platform: .android))
      let worker = TimedWorker(clock: system.clock)
      try system.enqueue(WorkRequest(work: "a", tags: ["t"], worker: worker), policy: nil)
      try system.enqueue(WorkRequest(work: "b", tags: ["t"], worker: worker), policy: nil)
      return system.workInfos(byTag: "t").map(\.id)
    }
    let first = try ids(seed: 5)
    #expect(first == (try ids(seed: 5)))
    #expect(first != (try ids(seed: 6)))
    #expect(Set(first).count == 2)
    #expect(first.allSatisfy { $0.description.count == 36 && Array($0.description)[14] == "4" })
    #expect(first.allSatisfy { WorkRequestID($0.description) == $0 })
  }
}
