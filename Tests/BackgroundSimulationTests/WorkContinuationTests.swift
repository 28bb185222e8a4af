import BackgroundSimulation
import BackgroundTraceCheck
import Testing

@testable import BackgroundTrace

private func id(_ number: UInt64) -> WorkRequestID { WorkRequestID(high: 0xD, low: number) }

/// Continuations (androidx `WorkContinuation`: `beginWith`, `then`, `combine`), each
/// test following the androidx test it names, from `impl/WorkContinuationImplTest.java`
/// and `impl/WorkManagerImplTest.java` (work-runtime androidTest), or the androidx code
/// it cites. Every request is a `TestWorker`, so the works are `TestWorker:1`,
/// `TestWorker:2`, … in the order they are enqueued. Work runs 0.1 s after it is due.
@Suite struct WorkContinuationTests {
  private let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))

  private func request(
    _ number: UInt64, tags: [String] = [], delay: Duration? = nil, result: WorkResult = .success,
    duration: Duration = .zero
  ) -> WorkRequest {
    WorkRequest(
      work: "TestWorker", tags: tags, initialDelay: delay, id: id(number),
      worker: TimedWorker(clock: system.clock, duration: duration, result: result))
  }

  private func state(_ number: UInt64) -> WorkInfo.State? { system.workInfo(id: id(number))?.state }

  private func lines(_ kind: String) -> [String] {
    system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" \(kind) ") }
  }

  /// androidx's `verifyEnqueued`: the continuation and every one before it is enqueued.
  private func expectEnqueued(_ continuation: WorkContinuation) {
    #expect(continuation.isEnqueued)
    continuation.parents.forEach(expectEnqueued)
  }

  // MARK: WorkContinuationImplTest.java

  /// androidx `testContinuation_noParent`.
  @Test func testContinuationNoParent() throws {
    let continuation = system.beginWith(request(0))
    #expect(continuation.parents.isEmpty)
    #expect(continuation.requests.map(\.id) == [id(0)])
    try continuation.enqueue()
    #expect(continuation.allWorks == ["TestWorker:1"])
  }

  /// androidx `testContinuation_singleChain`.
  @Test func testContinuationSingleChain() throws {
    let continuation = system.beginWith(request(0))
    let dependent = continuation.then(request(1))
    #expect(dependent.parents.count == 1 && dependent.parents[0] === continuation)
    #expect(dependent.requests.map(\.id) == [id(1)])
    try dependent.enqueue()
    #expect(dependent.works == ["TestWorker:2"])
    #expect(dependent.allWorks == ["TestWorker:1", "TestWorker:2"])
  }

  /// androidx `testContinuation_enqueue`.
  @Test func testContinuationEnqueue() throws {
    let continuation = system.beginWith(request(0))
    #expect(!continuation.isEnqueued)
    try continuation.enqueue()
    expectEnqueued(continuation)
    #expect(state(0) == .enqueued)
  }

  /// androidx `testContinuation_withEmptyNode_enqueue`: an empty step adds nothing, and
  /// the step after it has the step before it as its prerequisite.
  @Test func testContinuationWithEmptyNodeEnqueue() throws {
    let first = system.beginWith(request(0))
    let empty = first.then([])
    #expect(empty === first)
    try empty.then(request(1)).enqueue()
    #expect(state(0) == .enqueued && state(1) == .blocked)
    #expect(lines("work.after") == ["0 work.after work=TestWorker:2 prerequisite=TestWorker:1"])
  }

  /// androidx `testContinuation_chainEnqueue`.
  @Test func testContinuationChainEnqueue() throws {
    let continuation = system.beginWith(request(0))
    let chain = continuation.then(request(1)).then([request(2), request(3)])
    try chain.enqueue()
    expectEnqueued(chain)
    #expect([state(0), state(1), state(2), state(3)] == [.enqueued, .blocked, .blocked, .blocked])
  }

  /// androidx `testContinuation_chainEnqueueNoOpOnRetry`: enqueueing again enqueues
  /// nothing more.
  @Test func testContinuationChainEnqueueNoOpOnRetry() throws {
    let chain = system.beginWith(request(0)).then(request(1)).then([request(2), request(3)])
    try chain.enqueue()
    let recorded = system.trace.events.count
    #expect(try chain.enqueue() == ["TestWorker:3", "TestWorker:4"])
    #expect(system.trace.events.count == recorded)
  }

  /// androidx `testContinuation_join`.
  @Test func testContinuationJoin() {
    let first = system.beginWith(request(0))
    let second = system.beginWith(request(1))
    let dependent = WorkContinuation.combine(first, second)
    #expect(dependent.parents.count == 2 && dependent.parents[0] === first && dependent.parents[1] === second)
  }

  /// androidx `testContinuation_joinAndEnqueue`.
  @Test func testContinuationJoinAndEnqueue() throws {
    let first = system.beginWith(request(0))
    let second = system.beginWith(request(1))
    let third = system.beginWith(request(2))
    let fourth = system.beginWith(request(3))
    let dependent = WorkContinuation.combine(
      WorkContinuation.combine(first, second), WorkContinuation.combine(third, fourth))
    try dependent.enqueue()
    expectEnqueued(dependent)
  }

  /// androidx `testContinuation_joinAndEnqueueWithOverlaps`: `first`, in both joins, is
  /// enqueued once. androidx's `combine` adds a `CombineContinuationsWorker` request per
  /// join: six enqueues in all.
  @Test func testContinuationJoinAndEnqueueWithOverlaps() throws {
    let first = system.beginWith(request(0))
    let second = system.beginWith(request(1))
    let third = system.beginWith(request(2))
    let dependent = WorkContinuation.combine(
      WorkContinuation.combine(first, second), WorkContinuation.combine(first, third))
    try dependent.enqueue()
    expectEnqueued(dependent)
    #expect(
      lines("work.enqueue") == [
        "0 work.enqueue work=TestWorker:1", "0 work.enqueue work=TestWorker:2",
        "0 work.enqueue work=CombineContinuationsWorker:1", "0 work.enqueue work=TestWorker:3",
        "0 work.enqueue work=CombineContinuationsWorker:2", "0 work.enqueue work=CombineContinuationsWorker:3",
      ])
    #expect(
      lines("work.after") == [
        "0 work.after work=CombineContinuationsWorker:1 prerequisite=TestWorker:1",
        "0 work.after work=CombineContinuationsWorker:1 prerequisite=TestWorker:2",
        "0 work.after work=CombineContinuationsWorker:2 prerequisite=TestWorker:1",
        "0 work.after work=CombineContinuationsWorker:2 prerequisite=TestWorker:3",
        "0 work.after work=CombineContinuationsWorker:3 prerequisite=CombineContinuationsWorker:1",
        "0 work.after work=CombineContinuationsWorker:3 prerequisite=CombineContinuationsWorker:2",
      ])
  }

  private func hasCycles(_ continuation: WorkContinuation) -> Bool {
    var visited = Set<WorkRequestID>()
    return continuation.hasCycles(&visited)
  }

  /// androidx `testContinuation_hasCycles`: B → C, combined with A, then B again.
  @Test func testContinuationHasCycles() {
    let (a, b, c) = (request(0), request(1), request(2))
    let join = WorkContinuation.combine(system.beginWith(a), system.beginWith(b).then(c))
    let withCycles = join.then(b)
    #expect(hasCycles(withCycles))
    #expect(throws: WorkRequestError(.continuationCycle, work: "TestWorker")) { try withCycles.enqueue() }
    #expect(system.trace.events.allSatisfy { $0.kind.tag != .workEnqueue })
  }

  /// androidx `testContinuation_hasCycles2`: A → A.
  @Test func testContinuationHasCycles2() {
    #expect(hasCycles(system.beginWith(request(0)).then(request(0))))
  }

  /// androidx `testContinuation_hasCycles3`: A → A twice, combined.
  @Test func testContinuationHasCycles3() {
    let a = system.beginWith(request(0))
    #expect(hasCycles(WorkContinuation.combine(a.then(request(0)), a.then(request(0)))))
  }

  /// androidx `testContinuation_hasCycles4`: A and A combined, then C, then A.
  @Test func testContinuationHasCycles4() {
    let a = system.beginWith(request(0))
    #expect(hasCycles(WorkContinuation.combine(a, a).then(request(2)).then(request(0))))
  }

  /// androidx `testContinuation_hasNoCycles`: [A, B] and [B, C] side by side.
  @Test func testContinuationHasNoCycles() {
    let joined = WorkContinuation.combine(
      system.beginWith([request(0), request(1)]), system.beginWith([request(1), request(2)]))
    #expect(!hasCycles(joined))
  }

  /// androidx `testContinuation_hasNoCycles2`: A → B and A → C, twice over, combined.
  @Test func testContinuationHasNoCycles2() {
    let a = system.beginWith(request(0))
    let a2 = system.beginWith(request(0))
    let joined = WorkContinuation.combine(
      a.then(request(1)), a.then(request(2)), a2.then(request(1)), a2.then(request(2)))
    #expect(!hasCycles(joined))
  }

  /// androidx `testContinuation_hasNoCycles3`: A with B, and A with C, combined.
  @Test func testContinuationHasNoCycles3() {
    let a = system.beginWith(request(0))
    let first = WorkContinuation.combine(a, system.beginWith(request(1)))
    let second = WorkContinuation.combine(a, system.beginWith(request(2)))
    #expect(!hasCycles(WorkContinuation.combine(first, second)))
  }

  /// androidx `testGetWorkInfosSync`: every request of the graph is there to read.
  @Test func testGetWorkInfosSync() throws {
    let firstChain = system.beginWith(request(0)).then(request(1))
    let secondChain = system.beginWith(request(2))
    let combined = WorkContinuation.combine(firstChain, secondChain).then(request(3))
    try combined.enqueue()
    let ids = combined.allWorks.flatMap { system.workInfos(forUniqueWork: $0) }.map(\.id)
    #expect(Set([id(0), id(1), id(2), id(3)]).isSubset(of: Set(ids)))
    #expect(ids.count == 5)  // and the CombineContinuationsWorker's
  }

  // MARK: WorkManagerImplTest.java

  /// androidx `WorkManagerImplTest.testEnqueue_insertMultipleWork_continuationBlocking`.
  @Test func testEnqueueInsertMultipleWorkContinuationBlocking() throws {
    try system.beginWith([request(1), request(2), request(3)]).enqueue()
    #expect([state(1), state(2), state(3)] == [.enqueued, .enqueued, .enqueued])
  }

  /// androidx `WorkManagerImplTest.testEnqueue_insertWithDependencies`: 2 after 1a and
  /// 1b; 3a and 3b after 2.
  @Test func testEnqueueInsertWithDependencies() throws {
    try system.beginWith([request(10), request(11)]).then(request(2)).then([request(30), request(31)]).enqueue()
    #expect(
      [state(10), state(11), state(2), state(30), state(31)] == [.enqueued, .enqueued, .blocked, .blocked, .blocked])
    #expect(
      lines("work.after") == [
        "0 work.after work=TestWorker:3 prerequisite=TestWorker:1",
        "0 work.after work=TestWorker:3 prerequisite=TestWorker:2",
        "0 work.after work=TestWorker:4 prerequisite=TestWorker:3",
        "0 work.after work=TestWorker:5 prerequisite=TestWorker:3",
      ])
  }

  /// androidx `WorkManagerImplTest.testEnqueue_insertWithCompletedDependencies_isNotStatusBlocked`.
  @Test func testEnqueueInsertWithCompletedDependenciesIsNotStatusBlocked() throws {
    let continuation = system.beginWith(request(1))
    try continuation.enqueue()
    system.advance(by: .seconds(1))
    #expect(state(1) == .succeeded)
    try continuation.then(request(2, duration: .seconds(3600))).enqueue()
    #expect(state(2) == .enqueued)
    system.advance(by: .seconds(1))
    #expect(state(2) == .running)
  }

  /// androidx `WorkManagerImplTest.testEnqueue_insertWithFailedDependencies_isStatusFailed`.
  @Test func testEnqueueInsertWithFailedDependenciesIsStatusFailed() throws {
    let continuation = system.beginWith(request(1, result: .failure))
    try continuation.enqueue()
    system.advance(by: .seconds(1))
    #expect(state(1) == .failed)
    try continuation.then(request(2)).enqueue()
    #expect(state(2) == .failed)
  }

  /// androidx `WorkManagerImplTest.testEnqueue_insertWithCancelledDependencies_isStatusCancelled`.
  @Test func testEnqueueInsertWithCancelledDependenciesIsStatusCancelled() throws {
    let continuation = system.beginWith(request(1))
    try continuation.enqueue()
    system.cancelWork(id: id(1))
    #expect(state(1) == .cancelled)
    try continuation.then(request(2)).enqueue()
    #expect(state(2) == .cancelled)
  }

  /// androidx `WorkManagerImplTest.testCancelAllWorkByTag_cancelsDependentWork`, on its own
  /// graph (0 before 1 and 4; 1 and 3 before 2): cancelling 0 cancels 1, 4 and 2, not
  /// 3. androidx inserts the dependencies straight; here 2 follows a `combine` of 1 and 3.
  @Test func testCancelAllWorkByTagCancelsDependentWork() throws {
    let zero = system.beginWith(request(0, tags: ["tag"]))
    try zero.then(request(4)).enqueue()
    try WorkContinuation.combine(zero.then(request(1)), system.beginWith(request(3))).then(request(2)).enqueue()
    system.cancelAllWork(byTag: "tag")
    #expect(
      [state(0), state(1), state(2), state(3), state(4)] == [.cancelled, .cancelled, .cancelled, .enqueued, .cancelled])
  }

  /// androidx `WorkManagerImplTest.pruneFinishedWork`: a finished request stays while
  /// unfinished work depends on it; other finished requests go.
  @Test func pruneFinishedWork() throws {
    try system.beginWith(request(1)).enqueue()
    let prerequisite = system.beginWith(request(2))
    try prerequisite.then(request(3, delay: .seconds(86_400))).enqueue()
    system.advance(by: .seconds(1))
    system.pruneWork()
    #expect(state(1) == nil)
    #expect(state(2) == .succeeded)
    #expect(state(3) == .enqueued)
  }

  // MARK: WorkerWrapper and EnqueueRunnable

  /// androidx `WorkerWrapper.setSucceededAndResolve`: a dependent whose prerequisites
  /// have all succeeded is ENQUEUED with its `lastEnqueueTime` now, so its initial
  /// delay counts from there; one still waiting for another stays BLOCKED.
  @Test func aDependentRunsOnceItsLastPrerequisiteSucceeds() throws {
    let first = system.beginWith(request(1, duration: .seconds(10)))
    let second = system.beginWith(request(2, duration: .seconds(60)))
    try WorkContinuation.combine(first, second).then(request(3, delay: .seconds(30))).enqueue()
    system.advance(to: TraceTime(seconds: 20))
    #expect(state(1) == .succeeded && state(2) == .running && state(3) == .blocked)
    system.advance(to: TraceTime(seconds: 200))
    #expect(state(3) == .succeeded)
    #expect(
      lines("work.start") == [
        // TestWorker:1 wakes the app's process and starts once it runs, after TestWorker:2.
        "0.1 work.start work=TestWorker:2 attempt=0", "0.1 work.start work=TestWorker:1 attempt=0",
        "60.2 work.start work=CombineContinuationsWorker:1 attempt=0",
        "90.3 work.start work=TestWorker:3 attempt=0",
      ])
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  /// androidx `WorkerWrapper` (`iterativelyFailWorkAndDependents`): a failure fails
  /// every dependent, and theirs after them; none runs.
  @Test func aFailureFailsEveryDependent() throws {
    try system.beginWith(request(1, result: .failure)).then(request(2)).then([request(3), request(4)]).enqueue()
    system.advance(by: .seconds(60))
    #expect([state(1), state(2), state(3), state(4)] == [.failed, .failed, .failed, .failed])
    #expect(lines("work.start") == ["0.1 work.start work=TestWorker:1 attempt=0"])
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  /// Periodic work cannot be in a continuation (androidx `beginWith` and `then` take
  /// `OneTimeWorkRequest`s), and a prerequisite the queue does not hold is refused
  /// (androidx `EnqueueRunnable`: "not enqueuing"); nothing is recorded for either.
  @Test func periodicWorkAndUnknownPrerequisitesAreRefused() {
    let periodic = WorkRequest(work: "sync", period: .seconds(900), worker: TimedWorker(clock: system.clock))
    #expect(throws: WorkRequestError(.continuationPeriodic, work: "sync")) {
      try system.beginWith(request(1)).then(periodic).enqueue()
    }
    #expect(throws: WorkRequestError(.prerequisiteUnknown, work: "TestWorker")) {
      try system.enqueue(request(2), after: ["nothing:1"])
    }
    #expect(system.trace.events.allSatisfy { $0.kind.tag != .workEnqueue })
  }

  /// The tracing wrapper records what the simulation does: the enqueues and each
  /// prerequisite.
  @Test func theTracingWrapperRecordsThePrerequisites() throws {
    let recorder = TraceRecorder(clock: system.clock)
    let queue = TracingWorkQueue(base: system, recorder: recorder)
    try WorkContinuation.combine(queue.beginWith(request(1)), queue.beginWith(request(2))).enqueue()
    system.advance(by: .seconds(10))
    let kinds: Set<EventTag> = [.workEnqueue, .workAfter, .workStart, .workResult]
    #expect(
      recorder.trace.events.map(withoutRequestID)
        == system.trace.events.filter { kinds.contains($0.kind.tag) }.map(withoutRequestID))
    #expect(recorder.trace.events.filter { $0.kind.tag == .workAfter }.count == 2)
  }
}
