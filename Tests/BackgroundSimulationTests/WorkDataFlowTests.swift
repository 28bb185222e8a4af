import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceReplay
import Synchronization
import Testing

private func id(_ number: UInt64) -> WorkRequestID { WorkRequestID(high: 0xE, low: number) }

/// Returns its input as its output (androidx's `EchoingWorker`), after `duration`.
private struct EchoingWorker: BackgroundWorker {
  let clock: VirtualClock
  var duration: Duration = .zero
  func doWork(_ context: WorkContext) async throws -> WorkResult {
    if duration > .zero { try await clock.sleep(for: duration) }
    return .success(context.inputData)
  }
}

/// Keeps the input of its last run, and returns `result`.
private final class InputKeepingWorker: BackgroundWorker {
  let input = Mutex<WorkData?>(nil)
  let result: WorkResult
  init(result: WorkResult = .success) { self.result = result }
  func doWork(_ context: WorkContext) async -> WorkResult {
    input.withLock { $0 = context.inputData }
    return result
  }
}

/// Input, output and progress as androidx's `WorkerWrapper` hands them on, each test
/// following the androidx test or code it names (`WorkerWrapperTest.java`,
/// `CoroutineWorkerTest.kt`, `WorkInfo.kt`, `WorkerWrapper.kt`). Work runs 0.1 s after
/// it is due.
@Suite struct WorkDataFlowTests {
  private let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))

  private func request(_ number: UInt64, _ worker: any BackgroundWorker, input: WorkData = .empty) -> WorkRequest {
    var request = WorkRequest(work: "w\(number)", id: id(number), worker: worker)
    request.inputData = input
    return request
  }

  /// androidx `WorkerWrapperTest.testDependencies_passesOutputs`: a prerequisite's
  /// success output is its dependent's input.
  @Test func testDependenciesPassesOutputs() throws {
    let dependent = InputKeepingWorker()
    try system.beginWith(request(1, EchoingWorker(clock: system.clock), input: ["key": .string("value")]))
      .then(request(2, dependent)).enqueue()
    system.advance(by: .seconds(10))
    #expect(dependent.input.withLock { $0 } == ["key": .string("value")])
    #expect(system.workInfo(id: id(2))?.state == .succeeded)
  }

  /// androidx `WorkerWrapperTest.testDependencies_passesMergedOutputs`: two prerequisites'
  /// outputs under one key, merged by `ArrayCreatingInputMerger` into an array of both.
  @Test func testDependenciesPassesMergedOutputs() throws {
    let dependent = InputKeepingWorker()
    try system.enqueue(request(1, EchoingWorker(clock: system.clock), input: ["key": .string("value1")]), policy: nil)
    try system.enqueue(request(2, EchoingWorker(clock: system.clock), input: ["key": .string("value2")]), policy: nil)
    var last = request(3, dependent)
    last.inputMerger = .arrayCreating
    try system.enqueue(last, after: ["w1", "w2"])
    system.advance(by: .seconds(10))
    let input = try #require(dependent.input.withLock { $0 })
    #expect(input.count == 1)
    guard case .strings(let values)? = input["key"] else {
      Issue.record("not a string array: \(input)")
      return
    }
    #expect(Set(values) == ["value1", "value2"])
  }

  /// `combine` joins its steps with androidx's `CombineContinuationsWorker` and
  /// `ArrayCreatingInputMerger`, which echoes what it merged: the step after it gets
  /// both outputs in one array.
  @Test func combinePassesTheJoinedOutputsOn() throws {
    let dependent = InputKeepingWorker()
    try WorkContinuation.combine(
      system.beginWith(request(1, EchoingWorker(clock: system.clock), input: ["key": .string("value1")])),
      system.beginWith(request(2, EchoingWorker(clock: system.clock), input: ["key": .string("value2")]))
    ).then(request(3, dependent)).enqueue()
    system.advance(by: .seconds(10))
    guard case .strings(let values)? = dependent.input.withLock({ $0 })?["key"] else {
      Issue.record("no string array: \(String(describing: dependent.input.withLock { $0 }))")
      return
    }
    #expect(Set(values) == ["value1", "value2"])
  }

  /// androidx `WorkerWrapper.runWorker`: the dependent's own input is merged first, so
  /// with the default `OverwritingInputMerger` a prerequisite's output wins a key both
  /// hold.
  @Test func aPrerequisitesOutputOverwritesTheOwnInput() throws {
    let dependent = InputKeepingWorker()
    try system.beginWith(request(1, EchoingWorker(clock: system.clock), input: ["key": .string("theirs")]))
      .then(request(2, dependent, input: ["key": .string("own"), "other": .int(1)])).enqueue()
    system.advance(by: .seconds(10))
    #expect(dependent.input.withLock { $0 } == ["key": .string("theirs"), "other": .int(1)])
  }

  /// `ArrayCreatingInputMerger` throws `IllegalArgumentException` for an int and a long
  /// under one key, in `WorkerWrapper.runWorker`, which fails the work ("Unexpected error
  /// in WorkerWrapper"): it starts and fails before its worker runs.
  @Test func inputsTheMergerRefusesFailTheWork() throws {
    let dependent = InputKeepingWorker()
    try system.enqueue(request(1, EchoingWorker(clock: system.clock), input: ["key": .int(3)]), policy: nil)
    try system.enqueue(request(2, EchoingWorker(clock: system.clock), input: ["key": .long(3)]), policy: nil)
    var last = request(3, dependent)
    last.inputMerger = .arrayCreating
    try system.enqueue(last, after: ["w1", "w2"])
    system.advance(by: .seconds(10))
    #expect(dependent.input.withLock { $0 } == nil)
    #expect(system.workInfo(id: id(3))?.state == .failed)
    #expect(
      system.trace.events.map(handWrittenLine(for:)).filter { $0.contains("work=w3") }.suffix(2) == [
        "0.2 work.start work=w3 attempt=0", "0.2 work.result work=w3 attempt=0 outcome=failure",
      ])
  }

  /// androidx `EnqueueRunnable`: an APPEND makes the new request depend on the work's
  /// leaves, so the first request's output is the appended one's input.
  @Test func anAppendedRequestGetsTheOutputOfTheOneBefore() throws {
    let second = InputKeepingWorker()
    try system.enqueue(
      WorkRequest(work: "chain", id: id(1), worker: TimedWorker(clock: system.clock, duration: .seconds(5)))
        .with(input: [:]), policy: nil)
    try system.enqueue(
      WorkRequest(work: "chain", id: id(2), worker: EchoingWorker(clock: system.clock)).with(input: ["n": .int(1)]),
      policy: .append)
    try system.enqueue(WorkRequest(work: "chain", id: id(3), worker: second), policy: .append)
    system.advance(by: .seconds(60))
    #expect(second.input.withLock { $0 } == ["n": .int(1)])
  }

  /// androidx `CoroutineWorkerTest.testCoroutineWorker_basicUsage` and `WorkInfo.kt`:
  /// output is reported once one-time work has finished (`Data.EMPTY` before), for a
  /// failure too.
  @Test func testCoroutineWorkerBasicUsage() throws {
    try system.enqueue(
      request(1, TimedWorker(clock: system.clock, duration: .seconds(5), result: .success(["output": .long(999)]))),
      policy: nil)
    try system.enqueue(
      request(2, TimedWorker(clock: system.clock, result: .failure(["why": .string("offline")]))), policy: nil)
    system.advance(by: .seconds(1))
    #expect(system.workInfo(id: id(1))?.state == .running)
    #expect(system.workInfo(id: id(1))?.outputData == .empty)
    system.advance(by: .seconds(10))
    #expect(system.workInfo(id: id(1))?.state == .succeeded)
    #expect(system.workInfo(id: id(1))?.outputData["output"] == .long(999))
    #expect(system.workInfo(id: id(2))?.outputData == ["why": .string("offline")])
  }

  /// androidx `WorkerWrapper`: a retry writes no output (`Result.retry()` carries none,
  /// and `reschedule` does not call `setOutput`), and periodic work's result data is
  /// dropped (`resetPeriodic`).
  @Test func aRetryAndAPeriodicRunLeaveNoOutput() throws {
    try system.enqueue(request(1, TimedWorker(clock: system.clock, result: .retry)), policy: nil)
    var periodic = request(2, TimedWorker(clock: system.clock, result: .success(["k": .int(1)])))
    periodic.period = .seconds(900)
    try system.enqueue(periodic, policy: nil)
    system.advance(by: .seconds(10))
    #expect(system.workInfo(id: id(1))?.state == .enqueued)
    #expect(system.workInfo(id: id(1))?.outputData == .empty)
    #expect(WorkResult.retry.outputData == .empty)
    #expect(system.workInfo(id: id(2))?.outputData == .empty)
  }

  /// Output WorkManager cannot take fails the attempt: `Data.Builder.build()` throws
  /// `IllegalStateException` in `doWork`, which `WorkerWrapper` turns into a failure.
  @Test func outputOverTheLimitFailsTheAttempt() throws {
    let big: WorkData = ["k": .string(String(repeating: "a", count: 10_227))]
    try system.enqueue(request(1, TimedWorker(clock: system.clock, result: .success(big))), policy: nil)
    system.advance(by: .seconds(10))
    #expect(system.workInfo(id: id(1))?.state == .failed)
    #expect(system.workInfo(id: id(1))?.outputData == .empty)
    #expect(system.trace.events.map(handWrittenLine(for:)).last == "0.1 work.result work=w1 attempt=0 outcome=failure")
  }

  /// androidx `CoroutineWorkerTest.testProgressUpdates`: progress is reported while the
  /// worker runs, each update replacing the last, and is `Data.EMPTY` once it succeeded.
  @Test func testProgressUpdates() throws {
    struct ProgressWorker: BackgroundWorker {
      let clock: VirtualClock
      func doWork(_ context: WorkContext) async throws -> WorkResult {
        await context.setProgress(["progress": .int(1)])
        try await clock.sleep(for: .seconds(10))
        await context.setProgress(["progress": .int(100)])
        try await clock.sleep(for: .seconds(10))
        return .success
      }
    }
    try system.enqueue(request(1, ProgressWorker(clock: system.clock)), policy: nil)
    system.advance(to: TraceTime(seconds: 5))
    #expect(system.workInfo(id: id(1))?.progress == ["progress": .int(1)])
    system.advance(to: TraceTime(seconds: 15))
    #expect(system.workInfo(id: id(1))?.progress == ["progress": .int(100)])
    system.advance(to: TraceTime(seconds: 25))
    #expect(system.workInfo(id: id(1))?.state == .succeeded)
    #expect(system.workInfo(id: id(1))?.progress == .empty)
  }

  /// A replay hands each worker the input the recording's did: the dependent echoes
  /// its prerequisite's output, and its result and the whole trace replay alike.
  @Test func aReplayMergesTheSameInputs() throws {
    func app(_ queue: any WorkQueue, _ clock: VirtualClock) -> UserActionApp {
      UserActionApp { _ in
        var first = WorkRequest(work: "first", worker: EchoingWorker(clock: clock))
        first.inputData = ["n": .int(7)]
        try? queue.beginWith(first).then(WorkRequest(work: "second", worker: SevenOrFail())).enqueue()
      }
    }
    struct SevenOrFail: BackgroundWorker {
      func doWork(_ context: WorkContext) async -> WorkResult {
        context.inputData["n"] == .int(7) ? .success : .failure
      }
    }
    system.launchApp { app($0, $0.clock) }
    system.userAction("sync")
    system.advance(by: .seconds(60))
    #expect(
      system.trace.events.map(handWrittenLine(for:)).contains("0.2 work.result work=second:1 attempt=0 outcome=success")
    )
    let replay = Replayer.replay(system.trace, timing: .exact) { app($0, $0.clock) }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(replay.trace.events == system.trace.events)
  }
}

extension WorkRequest {
  /// The request with `input` as its input data.
  fileprivate func with(input: WorkData) -> WorkRequest {
    var request = self
    request.inputData = input
    return request
  }
}

/// WorkInfo as a stream of changes (androidx `WorkManager.getWorkInfoByIdFlow`, whose
/// `CoroutineWorkerTest.testProgressUpdates` collects it): the value when watched, then
/// each state and progress a step leaves.
@Suite struct WorkInfoChangesTests {
  @Test func aWatchSeesEachStateAndProgress() throws {
    struct Steps: BackgroundWorker {
      let clock: VirtualClock
      func doWork(_ context: WorkContext) async throws -> WorkResult {
        try await clock.sleep(for: .seconds(10))
        await context.setProgress(["done": .int(50)])
        try await clock.sleep(for: .seconds(10))
        return .success(["done": .int(100)])
      }
    }
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    let id = WorkRequestID(high: 0xF, low: 1)
    let before = system.watchWorkInfo(id: id)
    try system.enqueue(WorkRequest(work: "w", id: id, worker: Steps(clock: system.clock)), policy: nil)
    system.advance(to: TraceTime(seconds: 60))
    let values = before.values
    // Not there yet; enqueued; running (attempt 1); its progress; succeeded with its output.
    #expect(values.map { $0?.state } == [nil, .enqueued, .running, .running, .succeeded])
    #expect(values.map { $0?.runAttemptCount } == [nil, 0, 1, 1, 1])
    #expect(values.map { $0?.progress } == [nil, .empty, .empty, ["done": .int(50)], .empty])
    #expect(values.last??.outputData == ["done": .int(100)])
  }
}
