import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import Testing

private func id(_ number: UInt64) -> WorkRequestID { WorkRequestID(high: 0x5E, low: number) }

/// Several requests under one unique name (androidx `enqueueUniqueWork(name, policy,
/// List)`, and `beginUniqueWork` with a step of several), each test following the
/// androidx test it names from `impl/WorkManagerImplTest.java` (work-runtime
/// androidTest), or the androidx code it cites
/// (`work/work-runtime/src/main/java/androidx/work/impl/utils/EnqueueRunnable.kt`).
/// androidx's `insertNamedWorks` and `insertDependency` put requests under the name
/// without running them; here a unique continuation enqueues them and the clock does
/// not move, so they stay ENQUEUED or BLOCKED. Work runs 0.1 s after it is due.
@Suite struct UniqueWorkOfSeveralTests {
  private let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))

  /// androidx's `TestWorker` (`duration` zero: it succeeds at once) or
  /// `InfiniteTestWorker` (a day: it never returns in a test).
  private func request(_ number: UInt64, duration: Duration = .zero, result: WorkResult = .success) -> WorkRequest {
    WorkRequest(
      work: "TestWorker", id: id(number), worker: TimedWorker(clock: system.clock, duration: duration, result: result))
  }

  private func infinite(_ number: UInt64) -> WorkRequest { request(number, duration: .seconds(86_400)) }

  private func idsWithName() -> [WorkRequestID?] { system.workInfos(forUniqueWork: "myname").map(\.id) }

  private func state(_ number: UInt64) -> WorkInfo.State? { system.workInfo(id: id(number))?.state }

  private func workLines() -> [String] {
    system.trace.events.map(handWrittenLine(for:)).filter {
      $0.contains(" work.enqueue ") || $0.contains(" work.after ")
    }
  }

  /// androidx `testEnqueueUniqueWork_appendsExistingWorkOnAppend`: both requests are
  /// under the name, blocked, and each depends on the original.
  @Test func testEnqueueUniqueWorkAppendsExistingWorkOnAppend() throws {
    var original = infinite(0)
    original.work = "myname"
    try system.enqueue(original, policy: .replace)
    #expect(idsWithName() == [id(0)])
    let enqueued = try system.enqueueUniqueWork("myname", policy: .append, [request(1), request(2)])
    #expect(enqueued == EnqueuedUniqueWork(works: ["TestWorker:1", "TestWorker:2"], prerequisites: ["myname"]))
    #expect(Set(idsWithName()) == [id(0), id(1), id(2)])
    #expect([state(0), state(1), state(2)] == [.enqueued, .blocked, .blocked])
    #expect(
      workLines() == [
        "0 work.enqueue work=myname policy=replace",
        "0 work.enqueue work=TestWorker:1 policy=append unique=myname",
        "0 work.after work=TestWorker:1 prerequisite=myname",
        "0 work.enqueue work=TestWorker:2 unique=myname",
        "0 work.after work=TestWorker:2 prerequisite=myname",
      ])
  }

  /// androidx `testBeginUniqueWork_appendsExistingWorkToOnlyLeavesOnAppend`: the name
  /// holds 1, then 2 after it, then 3 and 4 after 2; an APPEND continuation's first
  /// request waits for the leaves, 3 and 4, and its second for the first.
  @Test func testBeginUniqueWorkAppendsExistingWorkToOnlyLeavesOnAppend() throws {
    try system.beginUniqueWork("myname", policy: .replace, infinite(1)).then(infinite(2))
      .then([infinite(3), infinite(4)]).enqueue()
    #expect(Set(idsWithName()) == [id(1), id(2), id(3), id(4)])
    try system.beginUniqueWork("myname", policy: .append, request(5)).then(request(6)).enqueue()
    #expect(Set(idsWithName()) == [id(1), id(2), id(3), id(4), id(5), id(6)])
    #expect([state(5), state(6)] == [.blocked, .blocked])
    #expect(
      workLines() == [
        "0 work.enqueue work=myname policy=replace",
        "0 work.enqueue work=myname policy=append",
        "0 work.enqueue work=TestWorker:1 unique=myname",
        "0 work.after work=TestWorker:1 prerequisite=myname",
        "0 work.enqueue work=TestWorker:2 unique=myname",
        "0 work.after work=TestWorker:2 prerequisite=myname",
        "0 work.enqueue work=TestWorker:3 policy=append unique=myname",
        "0 work.after work=TestWorker:3 prerequisite=TestWorker:1",
        "0 work.after work=TestWorker:3 prerequisite=TestWorker:2",
        "0 work.enqueue work=TestWorker:4 unique=myname",
        "0 work.after work=TestWorker:4 prerequisite=TestWorker:3",
      ])
  }

  /// A step of two runs them side by side, and the step after waits for both
  /// (androidx `EnqueueRunnable`: a dependency on each request of the step before);
  /// the checker finds nothing wrong.
  @Test func aStepOfTwoRunsSideBySide() throws {
    try system.beginUniqueWork("myname", policy: .keep, [request(1), request(2)]).then(request(3)).enqueue()
    #expect([state(1), state(2), state(3)] == [.enqueued, .enqueued, .blocked])
    system.advance(to: TraceTime(seconds: 1))
    #expect([state(1), state(2), state(3)] == [.succeeded, .succeeded, .succeeded])
    let results = system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.result ") }
    // The two of the first step end at the same instant, in an order the platform
    // leaves open; the third after both.
    #expect(
      Set(results.prefix(2)) == [
        "0.1 work.result work=TestWorker:1 attempt=0 outcome=success",
        "0.1 work.result work=TestWorker:2 attempt=0 outcome=success",
      ])
    #expect(results.dropFirst(2) == ["0.2 work.result work=TestWorker:3 attempt=0 outcome=success"])
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  /// A step after a chain of one request a step waits for the chain's last request,
  /// not its first (androidx: a step depends on each request of the step before it), and
  /// fails with it; the checker finds nothing wrong.
  @Test func aStepAfterAChainWaitsForItsLastRequest() throws {
    try system.beginUniqueWork("myname", policy: .replace, request(1))
      .then(request(2, duration: .seconds(5), result: .failure)).then([request(3), request(4)]).enqueue()
    system.advance(to: TraceTime(seconds: 60))
    #expect([state(1), state(2), state(3), state(4)] == [.succeeded, .failed, .failed, .failed])
    let starts = system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.start ") }
    #expect(starts == ["0.1 work.start work=myname attempt=0", "0.2 work.start work=myname attempt=0"])
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  /// KEEP inserts nothing while a request of the name is unfinished, though it is not
  /// the first (androidx `EnqueueRunnable`: KEEP returns when any of the name's
  /// requests is ENQUEUED or RUNNING); the kept request is recorded under the name.
  @Test func keepKeepsWhileAnyRequestOfTheNameIsUnfinished() throws {
    try system.enqueueUniqueWork("myname", policy: .replace, [request(1), infinite(2)])
    system.advance(to: TraceTime(seconds: 1))
    #expect([state(1), state(2)] == [.succeeded, .running])
    #expect(try system.enqueueUniqueWork("myname", policy: .keep, [request(3)]).works.isEmpty)
    #expect(!(try system.enqueue(WorkRequest(work: "myname", worker: TimedWorker(clock: system.clock)), policy: .keep)))
    #expect(state(3) == nil)
    #expect(workLines().suffix(2).allSatisfy { $0.hasPrefix("1 work.enqueue work=myname policy=keep") })
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  /// REPLACE cancels every request of the name and deletes them (androidx
  /// `EnqueueRunnable`: `CancelWorkRunnable.forName`, then `workSpecDao.delete`): the
  /// running one is stopped as cancelled by the app.
  @Test func replaceCancelsAndDeletesEveryRequestOfTheName() throws {
    try system.enqueueUniqueWork("myname", policy: .replace, [infinite(1), infinite(2)])
    system.advance(to: TraceTime(seconds: 1))
    try system.enqueueUniqueWork("myname", policy: .replace, [request(3)])
    #expect(idsWithName() == [id(3)])
    #expect([state(1), state(2)] == [nil, nil])
    let stops = system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.stop ") }
    #expect(
      stops == [
        "1 work.stop work=TestWorker:1 attempt=0 reason=cancelled",
        "1 work.stop work=TestWorker:2 attempt=0 reason=cancelled",
      ])
    system.advance(to: TraceTime(seconds: 2))
    #expect(state(3) == .succeeded)
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  /// APPEND_OR_REPLACE over a name one of whose leaves failed starts afresh: the
  /// name's requests are deleted and the new one waits for nothing (androidx
  /// `EnqueueRunnable`, `APPEND_OR_REPLACE` with `hasFailed`).
  @Test func appendOrReplaceOverAFailedLeafStartsAfresh() throws {
    try system.enqueueUniqueWork("myname", policy: .replace, [request(1), request(2, result: .failure)])
    system.advance(to: TraceTime(seconds: 1))
    #expect([state(1), state(2)] == [.succeeded, .failed])
    let enqueued = try system.enqueueUniqueWork("myname", policy: .appendOrReplace, [request(3)])
    #expect(enqueued.prerequisites.isEmpty)
    #expect(idsWithName() == [id(3)])
    #expect(state(3) == .enqueued)
  }

  /// Succeeds with `key` in its output.
  private struct Produces: BackgroundWorker {
    let key: String
    func doWork(_ context: WorkContext) async -> WorkResult { .success([key: .int(1)]) }
  }

  /// Succeeds when its input holds both `a` and `b`, else fails.
  private struct NeedsBoth: BackgroundWorker {
    func doWork(_ context: WorkContext) async -> WorkResult {
      context.inputData["a"] != nil && context.inputData["b"] != nil ? .success : .failure
    }
  }

  /// The app of the replay and wrapper tests: two requests side by side under `sync`
  /// (`a` waits 10 s), one appended to the name, which waits for both and merges their
  /// outputs, and a `keep` that the unfinished `a` keeps out.
  private func perform(_ action: String, on queue: any WorkQueue) {
    switch action {
    case "several":
      let a = WorkRequest(work: "a", initialDelay: .seconds(10), worker: Produces(key: "a"))
      try? queue.enqueueUniqueWork("sync", policy: .replace, [a, WorkRequest(work: "b", worker: Produces(key: "b"))])
    case "append":
      try? queue.enqueue(WorkRequest(work: "sync", worker: NeedsBoth()), policy: .append)
    default:
      try? queue.enqueueUniqueWork("sync", policy: .keep, [WorkRequest(work: "d", worker: NeedsBoth())])
    }
  }

  /// A replay records what the simulation recorded: the works of their own, the leaves
  /// an append waits for, and a kept request.
  @Test func aReplayRecordsWhatTheRecordingDid() {
    system.launchApp { queue in UserActionApp { self.perform($0, on: queue) } }
    for (time, action) in [(0.0, "several"), (1, "append"), (2, "keep")] {
      system.advance(to: TraceTime(seconds: time))
      system.userAction(action)
    }
    system.advance(to: TraceTime(seconds: 30))
    let lines = system.trace.events.map(handWrittenLine(for:))
    #expect(
      lines.filter { $0.contains(" work.result ") } == [
        "0.1 work.result work=b:1 attempt=0 outcome=success",
        "10.1 work.result work=a:1 attempt=0 outcome=success",
        "10.2 work.result work=sync:1 attempt=0 outcome=success",
      ])
    #expect(lines.contains("2 work.enqueue work=sync policy=keep"))
    #expect(TraceChecker.check(system.trace).isEmpty)
    let replay = Replayer.replay(system.trace, timing: .exact) { queue in UserActionApp { self.perform($0, on: queue) }
    }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(replay.trace.events == system.trace.events)
  }

  /// The tracing wrapper records what its base queue did with requests under a unique
  /// name: the same enqueues and `work.after` lines as the simulation's own trace.
  @Test func theTracingWrapperRecordsWhatItsQueueDid() {
    let recorder = TraceRecorder(clock: system.clock)
    let queue = TracingWorkQueue(base: system, recorder: recorder)
    system.launch { _ in
      for action in ["several", "append", "keep"] { self.perform(action, on: queue) }
    }
    system.advance(to: TraceTime(seconds: 30))
    func enqueues(_ trace: RecordedTrace) -> [String] {
      trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.enqueue ") || $0.contains(" work.after ") }
    }
    #expect(
      enqueues(recorder.trace) == [
        "0 work.enqueue work=a:1 policy=replace initial=10 unique=sync",
        "0 work.enqueue work=b:1 unique=sync",
        "0 work.enqueue work=sync:1 policy=append unique=sync",
        "0 work.after work=sync:1 prerequisite=a:1",
        "0 work.after work=sync:1 prerequisite=b:1",
        "0 work.enqueue work=sync policy=keep",
      ])
    #expect(enqueues(recorder.trace) == enqueues(system.trace))
  }

  /// `update` acts on one request of the name: over works of their own, a request
  /// alone is refused as `enqueue(_:policy:)` refuses it (androidx
  /// `enqueueUniquelyNamedPeriodic`: "Can't apply UPDATE policy to the chains of
  /// work."), and nothing is recorded or stopped.
  @Test func anUpdateOfANameHoldingSeveralIsRefused() throws {
    try system.enqueueUniqueWork("myname", policy: .replace, [infinite(1), infinite(2)])
    let before = system.trace.events.count
    #expect(throws: WorkRequestError(.updateChain, work: "myname")) {
      try system.enqueueUniqueWork("myname", policy: .update, [request(3)])
    }
    #expect(system.trace.events.count == before)
    #expect([state(1), state(2)] == [.enqueued, .enqueued])
  }

  /// After a policy deletes the name's works, one request is the name's own work again
  /// (androidx holds one request under the name), so `update` applies to it.
  @Test func aNameHoldsOneRequestAgainAfterAReplace() throws {
    try system.enqueueUniqueWork("myname", policy: .replace, [infinite(1), infinite(2)])
    var periodic = request(3)
    periodic.work = "myname"
    periodic.period = .seconds(900)
    try system.enqueueUniqueWork("myname", policy: .replace, [periodic])
    periodic.id = id(4)
    periodic.period = .seconds(1800)
    #expect(try system.enqueue(periodic, policy: .update))
    #expect(idsWithName() == [id(3)])
    #expect(system.workInfo(id: id(3))?.generation == 1)
    #expect(workLines().last == "0 work.enqueue work=myname period=1800 policy=update")
  }

  /// Waits until its attempt is stopped.
  private struct UntilStopped: BackgroundWorker {
    func doWork(_ context: WorkContext) async -> WorkResult {
      let (stream, continuation) = AsyncStream<Void>.makeStream()
      await withTaskCancellationHandler {
        for await _ in stream {}
      } onCancel: {
        continuation.finish()
      }
      return .retry
    }
  }

  private func performDeleting(_ action: String, on queue: any WorkQueue) {
    switch action {
    case "several":
      let a = WorkRequest(work: "a", worker: NeedsBoth())  // fails: no input
      try? queue.enqueueUniqueWork("sync", policy: .replace, [a, WorkRequest(work: "b", worker: UntilStopped())])
    case "afresh":
      try? queue.enqueueUniqueWork(
        "sync", policy: .appendOrReplace, [WorkRequest(work: "c", worker: Produces(key: "c"))])
    default:
      try? queue.enqueueUniqueWork("sync", policy: .keep, [WorkRequest(work: "d", worker: Produces(key: "d"))])
    }
  }

  /// An `appendOrReplace` over a name one of whose works failed stops and deletes the
  /// others and starts afresh as the name's own work; a `keep` over its finished work
  /// starts afresh again. The checker follows each step, and a replay records the same.
  @Test func appendOrReplaceOverAFailedWorkReplaysAsRecorded() {
    system.launchApp { queue in UserActionApp { self.performDeleting($0, on: queue) } }
    for (time, action) in [(0.0, "several"), (5, "afresh"), (10, "keep")] {
      system.advance(to: TraceTime(seconds: time))
      system.userAction(action)
    }
    system.advance(to: TraceTime(seconds: 20))
    let lines = system.trace.events.map(handWrittenLine(for:)).filter {
      $0.contains(" work.result ") || $0.contains(" work.stop ")
    }
    #expect(
      lines == [
        "0.1 work.result work=a:1 attempt=0 outcome=failure",
        "5 work.stop work=b:1 attempt=0 reason=cancelled",
        "5.1 work.result work=sync attempt=0 outcome=success",
        "10.1 work.result work=sync attempt=0 outcome=success",
      ])
    #expect(TraceChecker.check(system.trace).isEmpty)
    let replay = Replayer.replay(system.trace, timing: .exact) { queue in
      UserActionApp { self.performDeleting($0, on: queue) }
    }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(replay.trace.events == system.trace.events)
  }
}
