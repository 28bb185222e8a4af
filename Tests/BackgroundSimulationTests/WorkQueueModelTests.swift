import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceReplay
import Synchronization
import Testing

/// The canonical lines of a trace's `work.*` events.
private func workLines(_ trace: RecordedTrace) -> [String] {
  trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") }
}

/// The `work.start` events of a trace: (time, attempt).
private func starts(_ trace: RecordedTrace) -> [(time: TraceTime, attempt: Int)] {
  trace.events.compactMap { event in
    if case .workStart(_, let attempt) = event.kind { (event.time, attempt) } else { nil }
  }
}

/// What workers saw, in order.
private final class Runs: Sendable {
  private let entries = Mutex<[String]>([])
  func append(_ entry: String) { entries.withLock { $0.append(entry) } }
  var all: [String] { entries.withLock { $0 } }
}

/// Records "label:runAttemptCount", works for `duration(attempt)` of virtual time, then
/// returns `result(attempt)`; a stop (cancellation) ends it early.
private struct RecordingWorker: BackgroundWorker {
  var label = "worker"
  let clock: VirtualClock
  let runs: Runs
  var duration: @Sendable (Int) -> Duration = { _ in .seconds(60) }
  var result: @Sendable (Int) -> WorkResult = { _ in .success }

  func doWork(_ context: WorkContext) async -> WorkResult {
    runs.append("\(label):\(context.runAttemptCount)")
    do { try await clock.sleep(for: duration(context.runAttemptCount)) } catch { return .failure }
    return result(context.runAttemptCount)
  }
}

/// WorkManager on the Android platform model, against docs/platform-model.md "WorkManager".
@Suite struct WorkQueueModelTests {
  @Test func runAttemptCountIsZeroOnTheFirstRunAndGrowsByOneOnEachStart() throws {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    let runs = Runs()
    let worker = RecordingWorker(
      clock: system.clock, runs: runs, duration: { _ in .seconds(1) }, result: { $0 < 2 ? .retry : .success })
    try system.enqueue(WorkRequest(work: "sync", retryLimit: 2, worker: worker), policy: nil)
    system.advance(by: .seconds(3600))
    #expect(runs.all == ["worker:0", "worker:1", "worker:2"])
    // Dispatch 0.1 s; 1 s runs; exponential 30 s, 60 s after each return:
    // start 0.1, return 1.1; start 1.1 + 30 + 0.1 = 31.2, return 32.2;
    // start 32.2 + 60 + 0.1 = 92.3, return 93.3.
    #expect(
      workLines(system.trace) == [
        "0 work.enqueue work=sync limit=2",
        "0.1 work.start work=sync attempt=0",
        "1.1 work.result work=sync attempt=0 outcome=retry",
        "31.2 work.start work=sync attempt=1",
        "32.2 work.result work=sync attempt=1 outcome=retry",
        "92.3 work.start work=sync attempt=2",
        "93.3 work.result work=sync attempt=2 outcome=success",
      ])
  }

  /// On Android 13, where every job has 10 minutes (`JobRuntimeLimitTests`).
  @Test func aWorkerStillRunningAfterTenMinutesIsStoppedAndRunsAgainWithTheNextAttempt() throws {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(13)
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    let runs = Runs()
    let worker = RecordingWorker(
      clock: system.clock, runs: runs, duration: { $0 == 0 ? .seconds(3600) : .seconds(1) })
    try system.enqueue(WorkRequest(work: "sync", worker: worker), policy: nil)
    system.advance(by: .seconds(7200))
    #expect(runs.all == ["worker:0", "worker:1"])
    // Started at 0.1; workTimeout 600 s: stopped at 600.1. The stopped attempt's own
    // result is never recorded. A stop waits for no backoff: the next attempt is
    // dispatched 0.1 s later (600.2) and returns 1 s after that.
    #expect(
      workLines(system.trace) == [
        "0 work.enqueue work=sync",
        "0.1 work.start work=sync attempt=0",
        "600.1 work.stop work=sync attempt=0 reason=timeout",
        "600.2 work.start work=sync attempt=1",
        "601.2 work.result work=sync attempt=1 outcome=success",
      ])
  }

  @Test func networkWorkWaitsWhileOfflineAndIsStoppedWhenTheNetworkDrops() throws {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.networkAvailable = false
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    let runs = Runs()
    let worker = RecordingWorker(clock: system.clock, runs: runs)
    try system.enqueue(WorkRequest(work: "upload", requiresNetwork: true, worker: worker), policy: nil)
    system.advance(by: .seconds(3600))
    #expect(starts(system.trace).isEmpty)

    system.setEnvironment(network: true)
    system.advance(by: .seconds(1))
    // Online at 3600: the waiting work starts at that instant. (docs/platform-model.md says a
    // work starts 100 ms after it may, `workDispatchDelay`; the model applies that delay
    // after an enqueue, a backoff or a stop, not when a constraint comes back.)
    #expect(starts(system.trace).map(\.time) == [TraceTime(seconds: 3600)])
    system.advance(to: TraceTime(milliseconds: 3_610_000))
    system.setEnvironment(network: false)  // mid-run: 10 s into a 60 s upload
    system.advance(by: .seconds(3600))
    #expect(starts(system.trace).count == 1)  // offline again: waits

    system.setEnvironment(network: true)  // at 3610 + 3600 = 7210
    system.advance(by: .seconds(3600))
    #expect(runs.all == ["worker:0", "worker:1"])
    #expect(
      workLines(system.trace) == [
        "0 work.enqueue work=upload needs=network",
        // Due at once, held by the network (JobScheduler PENDING_JOB_REASON_CONSTRAINT_CONNECTIVITY).
        "0 work.wait work=upload reasons=network",
        "3600 work.start work=upload attempt=0",
        "3610 work.stop work=upload attempt=0 reason=constraint",
        // Its backoff ran from the enqueue (0 + 30 s), so it is due again at once.
        "3610 work.wait work=upload reasons=network",
        "7210 work.start work=upload attempt=1",
        "7270 work.result work=upload attempt=1 outcome=success",
      ])
  }

  /// Enqueues unique work `sync` (worker `first`, which returns `firstResult`), then
  /// 10 s later enqueues `sync` again (worker `second`) with `policy`, and lets an hour pass.
  fileprivate static func enqueueTwice(
    policy: ExistingWorkPolicy, firstResult: WorkResult = .success
  ) -> (system: SimulatedSystem, runs: Runs) {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    let runs = Runs()
    let first = RecordingWorker(label: "first", clock: system.clock, runs: runs, result: { _ in firstResult })
    try! system.enqueue(WorkRequest(work: "sync", worker: first), policy: nil)
    system.advance(by: .seconds(10))
    try! system.enqueue(
      WorkRequest(work: "sync", worker: RecordingWorker(label: "second", clock: system.clock, runs: runs)),
      policy: policy)
    system.advance(by: .seconds(3600))
    return (system, runs)
  }

  @Test func keepIgnoresASecondEnqueueOfUnfinishedWork() throws {
    let (system, runs) = Self.enqueueTwice(policy: .keep)
    #expect(runs.all == ["first:0"])
    // 0.1 + 60 = 60.1.
    #expect(
      workLines(system.trace) == [
        "0 work.enqueue work=sync",
        "0.1 work.start work=sync attempt=0",
        "10 work.enqueue work=sync policy=keep",
        "60.1 work.result work=sync attempt=0 outcome=success",
      ])
    // Finished work is not kept: a later `keep` enqueue runs.
    try system.enqueue(
      WorkRequest(work: "sync", worker: RecordingWorker(label: "third", clock: system.clock, runs: runs)), policy: .keep
    )
    system.advance(by: .seconds(3600))
    #expect(runs.all == ["first:0", "third:0"])
  }

  @Test
  func workAppendedToFailedWorkFailsToo() {
    let (system, runs) = Self.enqueueTwice(policy: .append, firstResult: .failure)
    #expect(runs.all == ["first:0"])
    #expect(starts(system.trace).count == 1)
  }

  /// androidx: a work queued behind one that then fails is failed with it
  /// (`WorkerWrapper` fails a work's dependents), whatever the policy it was queued with.
  @Test func appendOrReplaceQueuedBehindWorkThatThenFailsNeverRuns() {
    let (system, runs) = Self.enqueueTwice(policy: .appendOrReplace, firstResult: .failure)
    #expect(runs.all == ["first:0"])
    #expect(starts(system.trace).count == 1)
  }

  /// androidx `ExistingWorkPolicy.APPEND_OR_REPLACE`: "If there are failed or cancelled
  /// prerequisites, these prerequisites are dropped and the newly-specified work is the
  /// start of a new sequence" — at enqueue time. `APPEND` onto them is inserted already
  /// failed (`EnqueueRunnable`): it never runs.
  @Test func afterAFailureAppendOrReplaceStartsAfreshAndAppendNeverRuns() {
    for (policy, expected) in [(ExistingWorkPolicy.appendOrReplace, ["first:0", "later:0"]), (.append, ["first:0"])] {
      let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
      let runs = Runs()
      let first = RecordingWorker(label: "first", clock: system.clock, runs: runs, result: { _ in .failure })
      try! system.enqueue(WorkRequest(work: "sync", worker: first), policy: nil)
      system.advance(by: .seconds(100))  // failed at 60.1
      try! system.enqueue(
        WorkRequest(work: "sync", worker: RecordingWorker(label: "later", clock: system.clock, runs: runs)),
        policy: policy)
      system.advance(by: .seconds(3600))
      #expect(runs.all == expected, "\(policy)")
    }
  }

  /// androidx chains a second pending APPEND behind the first; neither overwrites the other.
  @Test func twoPendingAppendsRunInOrder() throws {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    let runs = Runs()
    try! system.enqueue(
      WorkRequest(work: "sync", worker: RecordingWorker(label: "first", clock: system.clock, runs: runs)), policy: nil)
    system.advance(by: .seconds(10))
    for label in ["second", "third"] {
      try! system.enqueue(
        WorkRequest(work: "sync", worker: RecordingWorker(label: label, clock: system.clock, runs: runs)),
        policy: .append)
    }
    system.advance(by: .seconds(3600))
    #expect(runs.all == ["first:0", "second:0", "third:0"])
    // Each starts 0.1 s after the one before returned: 0.1, 60.2, 120.3.
    #expect(starts(system.trace).map(\.time) == [0.1, 60.2, 120.3].map { TraceTime(seconds: $0) })
  }

  /// androidx `WorkerWrapper.resetWorkerStatus` keeps `lastEnqueueTime` after a stop,
  /// and `WorkSpec.calculateNextRunTime` holds the next attempt until
  /// lastEnqueueTime + backoff(runAttemptCount): a worker stopped early (its network
  /// lost) does not restart the moment the network returns.
  @Test func aStoppedWorkerRestartsOnlyAfterItsBackoff() throws {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    let runs = Runs()
    try system.enqueue(
      WorkRequest(
        work: "sync", requiresNetwork: true, worker: RecordingWorker(label: "sync", clock: system.clock, runs: runs)),
      policy: nil)
    system.advance(by: .seconds(5))
    system.setEnvironment(network: false)  // stops attempt 0 at 5
    system.advance(by: .seconds(5))
    system.setEnvironment(network: true)  // at 10: attempt 1 waits until 0 + 30 s
    system.advance(by: .seconds(100))
    #expect(runs.all == ["sync:0", "sync:1"])
    #expect(starts(system.trace).map(\.time) == [TraceTime(seconds: 0.1), TraceTime(seconds: 30.1)])
  }

  @Test func replaceStopsTheRunningWorkAndStartsTheNewOneAfresh() {
    let (system, runs) = Self.enqueueTwice(policy: .replace)
    #expect(runs.all == ["first:0", "second:0"])
    // REPLACE stops the running attempt as cancelled by the app (androidx
    // CancelWorkRunnable); the new work is dispatched 0.1 s later at attempt 0 and runs
    // 60 s. Only the new work's result is recorded.
    #expect(
      workLines(system.trace) == [
        "0 work.enqueue work=sync",
        "0.1 work.start work=sync attempt=0",
        "10 work.enqueue work=sync policy=replace",
        "10 work.stop work=sync attempt=0 reason=cancelled",
        "10.1 work.start work=sync attempt=0",
        "70.1 work.result work=sync attempt=0 outcome=success",
      ])
  }

  @Test func appendRunsTheNewWorkAfterTheRunningOneFinishes() {
    let (system, runs) = Self.enqueueTwice(policy: .append)
    #expect(runs.all == ["first:0", "second:0"])
    // The second is dispatched 0.1 s after the first returned, at attempt 0; nothing is stopped.
    #expect(
      workLines(system.trace) == [
        "0 work.enqueue work=sync",
        "0.1 work.start work=sync attempt=0",
        "10 work.enqueue work=sync policy=append",
        "60.1 work.result work=sync attempt=0 outcome=success",
        "60.2 work.start work=sync attempt=0",
        "120.2 work.result work=sync attempt=0 outcome=success",
      ])
  }

  @Test func cancellingWorkRecordsItAndStopsTheRunningAttempt() throws {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    let runs = Runs()
    try system.enqueue(WorkRequest(work: "sync", worker: RecordingWorker(clock: system.clock, runs: runs)), policy: nil)
    system.advance(by: .seconds(10))
    system.cancel(work: "sync")
    system.advance(by: .seconds(86_400))
    #expect(runs.all == ["worker:0"])
    #expect(
      workLines(system.trace) == [
        "0 work.enqueue work=sync",
        "0.1 work.start work=sync attempt=0",
        "10 work.cancel work=sync",
        "10 work.stop work=sync attempt=0 reason=cancelled",
      ])
  }

  @Test func periodicWorkRunsAgainAfterItsPeriodWithTheAttemptCountReset() throws {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.workDispatchDelay = .zero
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    let runs = Runs()
    let worker = RetryOnceWorker(inner: RecordingWorker(clock: system.clock, runs: runs, duration: { _ in .zero }))
    try system.enqueue(WorkRequest(work: "feed", period: .seconds(900), worker: worker), policy: nil)
    system.advance(to: TraceTime(seconds: 2800))
    // Start 0 → retry; exponential 30 s: attempt 1 at 30 → success; next period from
    // the return: 30 + 900 = 930 (attempt back to 0), then 1830, 2730.
    #expect(
      starts(system.trace).map { "\($0.time) attempt=\($0.attempt)" } == [
        "0 attempt=0", "30 attempt=1", "930 attempt=0", "1830 attempt=0", "2730 attempt=0",
      ])
    #expect(runs.all == ["worker:0", "worker:1", "worker:0", "worker:0", "worker:0"])
  }

  @Test func aPeriodShorterThanFifteenMinutesIsRaisedToFifteenMinutes() throws {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.workDispatchDelay = .zero
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    let worker = RecordingWorker(clock: system.clock, runs: Runs(), duration: { _ in .zero })
    try system.enqueue(WorkRequest(work: "feed", period: .seconds(300), worker: worker), policy: nil)
    system.advance(to: TraceTime(seconds: 2000))
    // A 5-minute period runs every 15 min: 0, 900, 1800 (not 300, 600, …).
    #expect(starts(system.trace).map(\.time) == [0, 900, 1800].map { TraceTime(seconds: $0) })
  }

  /// androidx `WorkSpec.calculateNextRunTime`: "With flex, the first run does not run
  /// immediately, but instead respects the first interval duration" — it comes
  /// interval − flex after the enqueue; later periods follow the previous run by the
  /// interval. A flex under 5 minutes is raised to 5 (`PeriodicWorkRequest.MIN_PERIODIC_FLEX_MILLIS`).
  @Test(arguments: [
    (flex: 600.0, first: 3000.0), (flex: 60.0, first: 3300.0), (flex: 7200.0, first: 0.0),
  ])
  func periodicWorkWithAFlexRunsFirstInTheLastFlexOfItsPeriod(flex: Double, first: Double) {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.workDispatchDelay = .zero
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    let worker = RecordingWorker(clock: system.clock, runs: Runs(), duration: { _ in .zero })
    try! system.enqueue(
      WorkRequest(work: "feed", period: .seconds(3600), flex: .seconds(flex), worker: worker), policy: nil)
    system.advance(to: TraceTime(seconds: first + 3600))
    // A one-hour period with a 10-minute flex: first at 3600 − 600 = 3000, then 6600. A
    // flex of 1 minute counts as 5 (3600 − 300); a flex beyond the period is the period.
    #expect(starts(system.trace).map(\.time) == [first, first + 3600].map { TraceTime(seconds: $0) })
    // The trace records the flex the app asked for.
    #expect(
      workLines(system.trace).first == "0 work.enqueue work=feed period=3600 flex=\(TraceInterval(seconds: flex))")
  }
}

/// Returns `.retry` from its first call only, then whatever `inner` returns.
private struct RetryOnceWorker: BackgroundWorker {
  let inner: RecordingWorker
  private let called = Flag()

  init(inner: RecordingWorker) { self.inner = inner }

  func doWork(_ context: WorkContext) async -> WorkResult {
    let result = await inner.doWork(context)
    return called.testAndSet() ? result : .retry
  }
}

/// A flag set once, safely from any thread.
private final class Flag: Sendable {
  private let value = Atomic<Bool>(false)
  /// Sets the flag; returns whether it was already set.
  func testAndSet() -> Bool { value.exchange(true, ordering: .relaxed) }

  /// WorkManager's `enqueue(WorkRequest)`: work without a unique name runs side by side
  /// with others of the same tag; ids `TAG:N` keep the trace the same in every run and
  /// in a replay.
  @Test func nonUniqueWorkRunsSideBySideAndReplays() {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    let runs = Runs()
    final class UploadsApp: BackgroundAppDelegate {
      let queue: any WorkQueue
      let make: () -> WorkRequest
      init(queue: any WorkQueue, make: @escaping () -> WorkRequest) {
        self.queue = queue
        self.make = make
      }
      func perform(userAction action: String) { try! queue.enqueue(make()) }
    }
    system.launchApp { system in
      UploadsApp(queue: system) {
        WorkRequest(work: "upload", worker: RecordingWorker(label: "upload", clock: system.clock, runs: runs))
      }
    }
    system.userAction("photo")
    system.userAction("photo")
    system.advance(by: .seconds(100))
    #expect(
      workLines(system.trace) == [
        "0 work.enqueue work=upload:1",
        "0 work.enqueue work=upload:2",
        "0.1 work.start work=upload:1 attempt=0",
        "0.1 work.start work=upload:2 attempt=0",
        "60.1 work.result work=upload:1 attempt=0 outcome=success",
        "60.1 work.result work=upload:2 attempt=0 outcome=success",
      ])
    let replay = Replayer.replay(system.trace, timing: .exact) { platform in
      UploadsApp(queue: platform) {
        WorkRequest(work: "upload", worker: RecordingWorker(label: "replayed", clock: platform.clock, runs: runs))
      }
    }
    #expect(replay.divergence == nil)
    #expect(replay.trace.events == system.trace.events)
  }
}
