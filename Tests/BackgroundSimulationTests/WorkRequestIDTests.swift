import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import Testing

private func id(_ number: UInt64) -> WorkRequestID { WorkRequestID(high: 0xC, low: number) }

/// A request's own id in the trace (`work.enqueue request=`, androidx
/// `WorkRequest.getId()`; docs/events.md, "Work requests"): what the simulation gives
/// and records, what a replay gives, and what the checker does with an update that
/// names a queued request.
@Suite struct WorkRequestIDTests {
  private static let android = SimulationConfiguration(platform: .android)

  private static func requestIDs(_ trace: RecordedTrace) -> [WorkRequestID?] {
    trace.events.compactMap { if case .workEnqueue(let enqueue) = $0.kind { enqueue.request } else { nil } }
  }

  /// The id each enqueue records is the one `workInfo(id:)` reads back, for unique work
  /// and for work enqueued without a name alike.
  @Test func theTraceRecordsTheIDWorkInfoReads() throws {
    let system = SimulatedSystem(seed: 1, configuration: Self.android)
    try system.enqueue(WorkRequest(work: "sync", worker: TimedWorker(clock: system.clock)), policy: .keep)
    let upload = try system.enqueue(WorkRequest(work: "upload", worker: TimedWorker(clock: system.clock)))
    let recorded = Self.requestIDs(system.trace)
    let sync = try #require(system.workInfos(forUniqueWork: "sync").first)
    let uploadInfo = try #require(system.workInfos(forUniqueWork: upload).first)
    #expect(recorded == [sync.id, uploadInfo.id])
    #expect(sync.id != uploadInfo.id)
  }

  /// Ids come from the seed and the order of the enqueues, never from a random source:
  /// the same seed gives the same ids, another seed others.
  @Test func theIDsFollowTheSeedAndTheOrderOfEnqueues() throws {
    func ids(seed: UInt64) throws -> [WorkRequestID?] {
      let system = SimulatedSystem(seed: seed, configuration: Self.android)
      for work in ["a", "b", "c"] {
        try system.enqueue(WorkRequest(work: work, worker: TimedWorker(clock: system.clock)), policy: nil)
      }
      return Self.requestIDs(system.trace)
    }
    let first = try ids(seed: 1)
    #expect(Set(first.compactMap { $0 }).count == 3)
    #expect(try ids(seed: 1) == first)
    #expect(try ids(seed: 2) != first)
  }

  /// A request the app gave an id is recorded with it.
  @Test func anIDTheAppGivesIsTheOneRecorded() throws {
    let system = SimulatedSystem(seed: 1, configuration: Self.android)
    try system.enqueue(WorkRequest(work: "sync", id: id(7), worker: TimedWorker(clock: system.clock)), policy: nil)
    #expect(
      system.trace.events.map(TextTraceWriter.line(for:)).contains(
        "0 work.enqueue work=sync request=00000000-0000-000c-0000-000000000007"))
  }

  /// androidx `WorkerUpdater.enqueueUniquelyNamedPeriodic`: UPDATE applies the new
  /// request's settings to the current one, copied with the current one's id
  /// (`workSpec.copy(id = current.id)`); the trace says which request it updated.
  @Test func anUpdateRecordsTheIDOfTheRequestItUpdates() throws {
    let system = SimulatedSystem(seed: 1, configuration: Self.android)
    let first = WorkRequest(
      work: "feed", period: .seconds(900), requiresCharging: true, id: id(1), worker: TimedWorker(clock: system.clock))
    try system.enqueue(first, policy: .keep)
    var second = first
    second.id = id(2)
    second.period = .seconds(1800)
    try system.enqueue(second, policy: .update)
    #expect(
      system.trace.events.map(TextTraceWriter.line(for:)).filter { $0.contains("work.enqueue") } == [
        "0 work.enqueue work=feed period=900 policy=keep needs=charging request=00000000-0000-000c-0000-000000000001",
        "0 work.enqueue work=feed period=1800 policy=update needs=charging request=00000000-0000-000c-0000-000000000001",
      ])
    #expect(system.workInfo(id: id(1))?.generation == 1)
    #expect(system.workInfo(id: id(2)) == nil)
  }

  /// A replay gives each request the id the recording gave it, so the replay's trace is
  /// the recording's, ids and all.
  @Test func aReplayGivesTheRecordedIDs() throws {
    func app(_ queue: any WorkQueue, _ clock: VirtualClock) -> UserActionApp {
      UserActionApp { action in
        try? queue.enqueue(WorkRequest(work: action, worker: TimedWorker(clock: clock, duration: .seconds(5))))
      }
    }
    let system = SimulatedSystem(seed: 3, configuration: Self.android)
    system.launchApp { app($0, $0.clock) }
    system.userAction("sync")
    system.userAction("sync")
    system.advance(by: .seconds(60))
    #expect(Self.requestIDs(system.trace).count == 2)
    let replay = Replayer.replay(system.trace, timing: .exact) { app($0, $0.clock) }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(replay.trace.events == system.trace.events)
  }

  /// androidx `WorkerUpdater.updateWorkImpl` updates the request with the id it is
  /// given, also one appended behind running work: the simulation records the update
  /// with that id, and the checker holds the queued request, once released, to its new
  /// retry limit (3), not to the one it was enqueued with (1), and leaves the running
  /// request's alone.
  @Test func anUpdateOfAQueuedRequestAppliesToIt() throws {
    let system = SimulatedSystem(seed: 1, configuration: Self.android)
    let running = WorkRequest(
      work: "sync", id: id(1), worker: TimedWorker(clock: system.clock, duration: .seconds(100)))
    try system.enqueue(running, policy: nil)
    var queued = WorkRequest(
      work: "sync", retryLimit: 1, id: id(2), worker: RetryingWorker(retries: 3))
    try system.enqueue(queued, policy: .append)
    queued.retryLimit = 3
    #expect(try system.updateWork(queued) == .appliedImmediately)
    system.advance(by: .seconds(3600))
    let lines = system.trace.events.map(TextTraceWriter.line(for:)).filter { $0.contains(" work.") }
    #expect(
      Array(lines.prefix(3)) == [
        "0 work.enqueue work=sync request=00000000-0000-000c-0000-000000000001",
        "0 work.enqueue work=sync limit=1 policy=append request=00000000-0000-000c-0000-000000000002",
        "0 work.enqueue work=sync limit=3 policy=update request=00000000-0000-000c-0000-000000000002",
      ])
    // Released at 100.1 s, started 0.1 s later; attempts 0, 1 and 2 retry (backoff 30,
    // 60 and 120 s, each start 0.1 s after it): 100.2, 130.3, 190.4; attempt 3 succeeds.
    #expect(lines.last == "310.5 work.result work=sync attempt=3 outcome=success")
    #expect(TraceChecker.check(system.trace).map(\.rule) == [])
  }
}

/// Returns `retry` on its first `retries` attempts, then `success`.
private struct RetryingWorker: BackgroundWorker {
  let retries: Int
  func doWork(_ context: WorkContext) async -> WorkResult {
    context.runAttemptCount < retries ? .retry : .success
  }
}
