import BackgroundSimulation
import BackgroundTraceCheck
import BackgroundTraceReplay
import Testing

@testable import BackgroundTrace

private func id(_ number: UInt64) -> WorkRequestID { WorkRequestID(high: 0xE, low: number) }

/// Unique continuations (androidx `WorkManager.beginUniqueWork`), each test following
/// the androidx test it names, from `impl/WorkManagerImplTest.java` (work-runtime
/// androidTest), or the androidx code it cites. androidx's `insertNamedWorks` puts a
/// request under the name without running it; here it is enqueued under the name and
/// the clock does not move, so it stays ENQUEUED. Work runs 0.1 s after it is due.
@Suite struct UniqueContinuationTests {
  private let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))

  private func request(_ number: UInt64, result: WorkResult = .success, duration: Duration = .zero) -> WorkRequest {
    WorkRequest(
      work: "TestWorker", id: id(number), worker: TimedWorker(clock: system.clock, duration: duration, result: result))
  }

  /// androidx's `InfiniteTestWorker`, under the name `myname`: it never returns.
  private func insertNamedWork(_ number: UInt64) throws {
    var original = request(number, duration: .seconds(86_400))
    original.work = "myname"
    try system.enqueue(original, policy: .replace)
  }

  private func idsWithName() -> [WorkRequestID?] { system.workInfos(forUniqueWork: "myname").map(\.id) }

  private func state(_ number: UInt64) -> WorkInfo.State? { system.workInfo(id: id(number))?.state }

  private func enqueueLines() -> [String] {
    system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.enqueue ") }
  }

  // MARK: WorkManagerImplTest.java

  /// androidx `testBeginUniqueWork_setsUniqueName`: both steps are under the name, the
  /// second waiting for the first.
  @Test func testBeginUniqueWorkSetsUniqueName() throws {
    let continuation = system.beginUniqueWork("myname", policy: .replace, request(0)).then(request(1))
    try continuation.enqueue()
    #expect(idsWithName() == [id(0), id(1)])
    #expect([state(0), state(1)] == [.enqueued, .blocked])
    #expect(continuation.allWorks == ["myname", "myname"])
    #expect(
      enqueueLines() == [
        "0 work.enqueue work=myname policy=replace", "0 work.enqueue work=myname policy=append",
      ])
  }

  /// androidx `testBeginUniqueWork_deletesOldWorkOnReplace`.
  @Test func testBeginUniqueWorkDeletesOldWorkOnReplace() throws {
    try insertNamedWork(0)
    #expect(idsWithName() == [id(0)])
    try system.beginUniqueWork("myname", policy: .replace, request(1)).then(request(2)).enqueue()
    #expect(idsWithName() == [id(1), id(2)])
    #expect(state(0) == nil)
    #expect([state(1), state(2)] == [.enqueued, .blocked])
  }

  /// androidx `testBeginUniqueWork_keepsExistingWorkOnKeep`: KEEP keeps the name's
  /// unfinished work, and the step after the kept one is not enqueued either
  /// (`EnqueueRunnable`: its prerequisite was never inserted).
  @Test func testBeginUniqueWorkKeepsExistingWorkOnKeep() throws {
    try insertNamedWork(0)
    let first = system.beginUniqueWork("myname", policy: .keep, request(1))
    let second = first.then(request(2))
    #expect(try second.enqueue() == [])
    #expect(idsWithName() == [id(0)])
    #expect(state(0) == .enqueued)
    #expect(state(1) == nil && state(2) == nil)
    #expect(first.isEnqueued && first.wasDropped && second.isEnqueued && second.wasDropped)
    #expect(
      enqueueLines() == ["0 work.enqueue work=myname policy=replace", "0 work.enqueue work=myname policy=keep"])
  }

  /// androidx `testBeginUniqueWork_replacesExistingWorkOnKeepWhenExistingWorkIsDone`:
  /// KEEP over work that has finished enqueues the continuation, and the finished request
  /// is deleted.
  @Test func testBeginUniqueWorkReplacesExistingWorkOnKeepWhenExistingWorkIsDone() throws {
    var original = request(0)
    original.work = "myname"
    try system.enqueue(original, policy: .replace)
    system.advance(by: .seconds(1))
    #expect(state(0) == .succeeded)
    try system.beginUniqueWork("myname", policy: .keep, request(1)).then(request(2)).enqueue()
    #expect(idsWithName() == [id(1), id(2)])
    #expect(state(0) == nil)
  }

  /// androidx `testBeginUniqueWork_appendsExistingWorkOnAppend`: both steps wait behind
  /// the name's unfinished work.
  @Test func testBeginUniqueWorkAppendsExistingWorkOnAppend() throws {
    try insertNamedWork(0)
    try system.beginUniqueWork("myname", policy: .append, request(1)).then(request(2)).enqueue()
    #expect(idsWithName() == [id(0), id(1), id(2)])
    #expect([state(0), state(1), state(2)] == [.enqueued, .blocked, .blocked])
  }

  /// androidx `testBeginUniqueWork_insertsWithAppendOrReplaceWithFailedPreRequisites`:
  /// APPEND_OR_REPLACE over failed work deletes it and enqueues afresh.
  @Test func testBeginUniqueWorkInsertsWithAppendOrReplaceWithFailedPreRequisites() throws {
    try system.beginUniqueWork("myname", policy: .appendOrReplace, request(0, result: .failure)).enqueue()
    system.advance(by: .seconds(1))
    #expect(state(0) == .failed)
    try system.beginUniqueWork("myname", policy: .appendOrReplace, request(1)).enqueue()
    #expect(state(0) == nil)
    #expect(state(1) == .enqueued)
    #expect(idsWithName() == [id(1)])
  }

  /// androidx `testBeginUniqueWork_insertsWithAppendOrReplaceWithCancelledPreRequisites`.
  @Test func testBeginUniqueWorkInsertsWithAppendOrReplaceWithCancelledPreRequisites() throws {
    try system.beginUniqueWork("myname", policy: .appendOrReplace, request(0)).enqueue()
    system.cancelWork(id: id(0))
    #expect(state(0) == .cancelled)
    try system.beginUniqueWork("myname", policy: .appendOrReplace, request(1)).enqueue()
    #expect(state(0) == nil)
    #expect(state(1) == .enqueued)
  }

  /// androidx `testBeginUniqueWork_appendsWork_whenUsingAppendOrReplace`: over work not
  /// finished, APPEND_OR_REPLACE appends.
  @Test func testBeginUniqueWorkAppendsWorkWhenUsingAppendOrReplace() throws {
    try system.beginUniqueWork("myname", policy: .appendOrReplace, request(0)).enqueue()
    try system.beginUniqueWork("myname", policy: .appendOrReplace, request(1)).enqueue()
    #expect([state(0), state(1)] == [.enqueued, .blocked])
  }

  /// androidx `testBeginUniqueWork_insertsExistingWorkWhenNothingToAppendTo`.
  @Test func testBeginUniqueWorkInsertsExistingWorkWhenNothingToAppendTo() throws {
    try system.beginUniqueWork("myname", policy: .append, request(0)).then(request(1)).enqueue()
    #expect(idsWithName() == [id(0), id(1)])
  }

  // MARK: What the queue answers

  /// `enqueue(_:policy:)` says whether it enqueued the request (or applied an update):
  /// not when KEEP keeps unfinished work, nor when an update finds one-time work
  /// finished (androidx's `updateWork` answers `NOT_APPLIED` for finished work); KEEP over
  /// finished work enqueues afresh.
  @Test func enqueueSaysWhetherItEnqueued() throws {
    func named(_ number: UInt64) -> WorkRequest {
      var named = request(number)
      named.work = "myname"
      return named
    }
    #expect(try system.enqueue(named(0), policy: .replace))
    #expect(try !system.enqueue(named(1), policy: .keep))
    system.advance(by: .seconds(1))
    #expect(state(0) == .succeeded)
    #expect(try !system.enqueue(named(2), policy: .update))
    #expect(try system.enqueue(named(3), policy: .keep))
    #expect(
      enqueueLines() == [
        "0 work.enqueue work=myname policy=replace", "0 work.enqueue work=myname policy=keep",
        "1 work.enqueue work=myname policy=keep",
      ])
  }

  // MARK: The chain as it runs

  /// Each step runs once the one before it has succeeded (androidx `WorkerWrapper`
  /// `setSucceededAndResolve`), and a failure fails the steps after it
  /// (`iterativelyFailWorkAndDependents`). Every request is due at once and starts 0.1 s
  /// later; each runs 10 s.
  @Test func stepsRunInTurnAndAFailureFailsTheRest() throws {
    try system.beginUniqueWork("myname", policy: .keep, request(0, duration: .seconds(10)))
      .then(request(1, result: .failure, duration: .seconds(10)))
      .then(request(2, duration: .seconds(10)))
      .enqueue()
    system.advance(by: .seconds(5))
    #expect([state(0), state(1), state(2)] == [.running, .blocked, .blocked])
    system.advance(by: .seconds(10))
    #expect([state(0), state(1), state(2)] == [.succeeded, .running, .blocked])
    system.advance(by: .seconds(10))
    #expect([state(0), state(1), state(2)] == [.succeeded, .failed, .failed])
    let findings = TraceChecker.check(system.trace)
    #expect(findings.isEmpty, "\(findings)")
  }

  /// A step after a kept one is dropped however it joins it: `combine` waits for the
  /// kept step's request, which was never inserted, so the combining request is not
  /// enqueued, while the other continuation is.
  @Test func aCombineWithAKeptStepIsNotEnqueued() throws {
    try insertNamedWork(0)
    let kept = system.beginUniqueWork("myname", policy: .keep, request(1))
    let other = system.beginWith(request(2))
    let combined = WorkContinuation.combine(kept, other)
    #expect(try combined.enqueue() == [])
    #expect(combined.wasDropped && !other.wasDropped)
    #expect(state(2) == .enqueued)
    #expect(
      enqueueLines() == [
        "0 work.enqueue work=myname policy=replace", "0 work.enqueue work=myname policy=keep",
        "0 work.enqueue work=TestWorker:1",
      ])
  }

  /// `update`, which androidx's `ExistingWorkPolicy` does not have, is refused before
  /// anything is enqueued. A queue that holds one request a unique name (the default
  /// `WorkQueue.enqueueUniqueWork`) refuses a first step of several.
  @Test func updateAndSeveralOnAQueueOfOneRequestANameAreRefused() {
    let update = system.beginUniqueWork("myname", policy: .update, request(3))
    #expect(throws: WorkRequestError(.uniqueContinuationUpdate, work: "myname")) { try update.enqueue() }
    #expect(system.trace.events.allSatisfy { $0.kind.tag != .workEnqueue })
    #expect(!update.isEnqueued)
    let queue = StartOnRequestQueue()
    let several = queue.beginUniqueWork("myname", policy: .replace, [request(0), request(1)]).then(request(2))
    #expect(throws: WorkRequestError(.uniqueStepOfSeveral, work: "myname")) { try several.enqueue() }
    #expect(!several.isEnqueued)
  }

  /// androidx `WorkManagerImpl.beginUniqueWork` and `beginWith` throw
  /// `IllegalArgumentException` for an empty list ("… needs at least one
  /// OneTimeWorkRequest."); here `enqueue()` throws, and nothing is enqueued.
  @Test func aContinuationBegunWithNoRequestIsRefused() {
    let unique = system.beginUniqueWork("myname", policy: .keep, []).then(request(0))
    #expect(throws: WorkRequestError(.beginUniqueWorkEmpty, work: "myname")) { try unique.enqueue() }
    let plain = system.beginWith([]).then(request(1))
    #expect(throws: WorkRequestError(.beginWithEmpty, work: "")) { try plain.enqueue() }
    #expect(
      WorkRequestError(.beginWithEmpty, work: "").message
        == "IllegalArgumentException: beginWith needs at least one OneTimeWorkRequest.")
    #expect(system.trace.events.allSatisfy { $0.kind.tag != .workEnqueue })
  }

  /// Through the tracing wrapper, the queue's answer comes back to the continuation: the
  /// trace records the kept step's enqueue and nothing after it.
  @Test func theTracingQueueReturnsWhatItsBaseDecided() throws {
    try insertNamedWork(0)
    let recorder = TraceRecorder(clock: system.clock)
    let traced = TracingWorkQueue(base: system, recorder: recorder)
    let continuation = traced.beginUniqueWork("myname", policy: .keep, request(1)).then(request(2))
    try continuation.enqueue()
    #expect(continuation.wasDropped)
    #expect(
      recorder.trace.events.map(handWrittenLine(for:)) == ["0 work.enqueue work=myname policy=keep"])
  }

  /// A replay runs a unique continuation's steps with their own workers, in turn, and
  /// keeps what the recording kept. The app enqueues a fetch then a post under `digest`
  /// with KEEP: at 0, while it runs at 5 (kept, nothing enqueued), and at 30, when it
  /// has finished (enqueued again). The fetch takes 10 s and the post 3 s, so the post's
  /// result at 13.2 and 43.2 comes from its own worker.
  @Test func aReplayRunsEachStepsWorkerAndKeepsWhatTheRecordingKept() throws {
    func app(_ queue: any WorkQueue, _ clock: VirtualClock) -> UserActionApp {
      UserActionApp { _ in
        let fetch = WorkRequest(work: "fetch", worker: TimedWorker(clock: clock, duration: .seconds(10)))
        let post = WorkRequest(work: "post", worker: TimedWorker(clock: clock, duration: .seconds(3)))
        try? queue.beginUniqueWork("digest", policy: .keep, fetch).then(post).enqueue()
      }
    }
    system.launchApp { app($0, $0.clock) }
    for time in [0.0, 5, 30] {
      system.advance(to: TraceTime(seconds: time))
      system.userAction("sync")
    }
    system.advance(to: TraceTime(seconds: 60))
    let work = system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") }
    #expect(
      work == [
        "0 work.enqueue work=digest policy=keep", "0 work.enqueue work=digest policy=append",
        "0.1 work.start work=digest attempt=0", "5 work.enqueue work=digest policy=keep",
        "10.1 work.result work=digest attempt=0 outcome=success", "10.2 work.start work=digest attempt=0",
        "13.2 work.result work=digest attempt=0 outcome=success", "30 work.enqueue work=digest policy=keep",
        "30 work.enqueue work=digest policy=append", "30.1 work.start work=digest attempt=0",
        "40.1 work.result work=digest attempt=0 outcome=success", "40.2 work.start work=digest attempt=0",
        "43.2 work.result work=digest attempt=0 outcome=success",
      ])
    let replay = Replayer.replay(system.trace, timing: .exact) { app($0, $0.clock) }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(replay.trace.events == system.trace.events)
  }

  /// APPEND_OR_REPLACE over failed work starts afresh with its own input alone (androidx
  /// `EnqueueRunnable` deletes the failed work, so no prerequisite's output is merged),
  /// in a replay as in the recording; over work that succeeded it is appended, and its
  /// input merges that work's output (`WorkerWrapper.runWorker`). The first worker fails
  /// with output `n`, the second succeeds only without it, the third only with it.
  @Test func aReplayMergesOnlyASucceededWorksOutput() throws {
    struct FailsWithOutput: BackgroundWorker {
      func doWork(_ context: WorkContext) async -> WorkResult { .failure(["n": .int(1)]) }
    }
    struct SucceedsWith: BackgroundWorker {
      let n: Bool
      func doWork(_ context: WorkContext) async -> WorkResult {
        (context.inputData["n"] != nil) == n ? .success(["n": .int(2)]) : .failure
      }
    }
    func app(_ queue: any WorkQueue) -> UserActionApp {
      UserActionApp { action in
        let worker: any BackgroundWorker =
          switch action {
          case "first": FailsWithOutput()
          case "second": SucceedsWith(n: false)
          default: SucceedsWith(n: true)
          }
        try? queue.enqueue(WorkRequest(work: "sync", worker: worker), policy: .appendOrReplace)
      }
    }
    system.launchApp { app($0) }
    for (time, action) in [(0.0, "first"), (10, "second"), (20, "third")] {
      system.advance(to: TraceTime(seconds: time))
      system.userAction(action)
    }
    system.advance(to: TraceTime(seconds: 30))
    let results = system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.result ") }
    #expect(
      results == [
        "0.1 work.result work=sync attempt=0 outcome=failure",
        "10.1 work.result work=sync attempt=0 outcome=success",
        "20.1 work.result work=sync attempt=0 outcome=success",
      ])
    let replay = Replayer.replay(system.trace, timing: .exact) { app($0) }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(replay.trace.events == system.trace.events)
  }
}
