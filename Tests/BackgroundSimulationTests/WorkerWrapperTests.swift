import BackgroundSimulation
import BackgroundTrace
import Testing

/// Throws from `doWork`, as androidx's `ExceptionWorker` does.
private struct ExceptionWorker: BackgroundWorker {
  struct IllegalState: Error {}
  func doWork(_ context: WorkContext) async throws -> WorkResult { throw IllegalState() }
}

/// Never returns while it is not stopped, as a `ListenableWorker` whose future never
/// completes.
private struct NeverResolvedWorker: BackgroundWorker {
  let clock: VirtualClock
  func doWork(_ context: WorkContext) async -> WorkResult {
    try? await clock.sleep(for: .seconds(365 * 86_400))
    return .success
  }
}

/// What WorkManager's `WorkerWrapper` does with a worker that throws or never returns,
/// each test following the androidx `WorkerWrapperTest` test it names. Work starts 0.1 s
/// after it is due.
@Suite struct WorkerWrapperTests {
  private let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))

  private func workLines(of system: SimulatedSystem? = nil) -> [String] {
    (system ?? self.system).trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") }
  }

  /// androidx `WorkerWrapperTest.testException_isTreatedAsFailure`: an exception from
  /// `doWork` fails the work.
  @Test func testExceptionIsTreatedAsFailure() throws {
    try system.enqueue(WorkRequest(work: "w", worker: ExceptionWorker()), policy: nil)
    system.advance(by: .seconds(60))
    #expect(system.workInfos(forUniqueWork: "w").first?.state == .failed)
    #expect(
      workLines() == [
        "0 work.enqueue work=w", "0.1 work.start work=w attempt=0", "0.1 work.result work=w attempt=0 outcome=failure",
      ])
  }

  /// androidx `WorkerWrapper`: periodic work that fails is rescheduled for its next
  /// period, not finished ("Worker result FAILURE" for a periodic request resets it
  /// like a success): it throws every 15 minutes.
  @Test func aPeriodicWorkerThatThrowsRunsAgainNextPeriod() throws {
    try system.enqueue(WorkRequest(work: "p", period: .seconds(900), worker: ExceptionWorker()), policy: nil)
    system.advance(by: .seconds(1000))
    let info = try #require(system.workInfos(forUniqueWork: "p").first)
    #expect(info.state == .enqueued && info.nextScheduleTime == TraceTime(seconds: 1800.2))
    #expect(
      workLines() == [
        "0 work.enqueue work=p period=900", "0.1 work.start work=p attempt=0",
        "0.1 work.result work=p attempt=0 outcome=failure", "900.2 work.start work=p attempt=0",
        "900.2 work.result work=p attempt=0 outcome=failure",
      ])
  }

  /// androidx `Worker.doWork`: "a maximum of ten minutes"; a worker that never returns
  /// is stopped then (`STOP_REASON_TIMEOUT`, 3) and runs again, its backoff counted from
  /// the enqueue, so at once. On Android 13, where every job has its 10 minutes (from 14
  /// a job whose quota is free may run 30: `JobRuntimeLimitTests`).
  @Test func aWorkerThatNeverReturnsIsStoppedAtTenMinutes() throws {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(13)
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    try system.enqueue(WorkRequest(work: "w", worker: NeverResolvedWorker(clock: system.clock)), policy: nil)
    system.advance(by: .seconds(1300))
    #expect(
      workLines(of: system) == [
        "0 work.enqueue work=w", "0.1 work.start work=w attempt=0", "600.1 work.stop work=w attempt=0 reason=timeout",
        "600.2 work.start work=w attempt=1", "1200.2 work.stop work=w attempt=1 reason=timeout",
        "1200.3 work.start work=w attempt=2",
      ])
    let info = try #require(system.workInfos(forUniqueWork: "w").first)
    #expect(info.state == .running && info.runAttemptCount == 3 && info.stopReason.code == 3)
  }

  /// androidx `GreedySchedulerTimeoutTest.testWorkerTimesout`: a worker that never
  /// completes is RUNNING, then stopped at its time limit with `STOP_REASON_TIMEOUT` (3)
  /// and ENQUEUED again. androidx runs it from API 31; here on Android 13, where every
  /// job has its 10 minutes (`JobRuntimeLimitTests` for 14 on).
  @Test func testWorkerTimesout() throws {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(13)
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    let work = try system.enqueue(WorkRequest(work: "w", worker: NeverResolvedWorker(clock: system.clock)))
    system.advance(to: TraceTime(seconds: 1))
    #expect(system.workInfos(forUniqueWork: work).first?.state == .running)
    system.advance(to: TraceTime(seconds: 600.15))
    let info = try #require(system.workInfos(forUniqueWork: work).first)
    #expect(info.state == .enqueued && info.stopReason.code == 3)
  }

  /// The tracing wrapper records a thrown error as WorkManager's failure, and rethrows
  /// it to the queue it wraps.
  @Test func theTracingWrapperRecordsAThrowAsAFailure() async throws {
    let recorder = TraceRecorder(clock: system.clock)
    let queue = TracingWorkQueue(base: system, recorder: recorder)
    try queue.enqueue(WorkRequest(work: "w", worker: ExceptionWorker()), policy: nil)
    system.advance(by: .seconds(1))
    #expect(
      recorder.trace.events.map(handWrittenLine(for:)) == [
        "0 work.enqueue work=w", "0.1 work.start work=w attempt=0", "0.1 work.result work=w attempt=0 outcome=failure",
      ])
    #expect(system.workInfos(forUniqueWork: "w").first?.state == .failed)
  }
}
