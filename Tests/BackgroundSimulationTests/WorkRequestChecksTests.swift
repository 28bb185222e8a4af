import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Synchronization
import Testing

/// A worker that keeps its `WorkContext`, so that the test can call `setForeground` on it
/// after the attempt ended, and works for `duration`.
private final class KeepingWorker: BackgroundWorker, @unchecked Sendable {
  let clock: VirtualClock
  let duration: Duration
  let context = Mutex<WorkContext?>(nil)
  init(clock: VirtualClock, duration: Duration = .zero) {
    self.clock = clock
    self.duration = duration
  }
  func doWork(_ context: WorkContext) async -> WorkResult {
    self.context.withLock { $0 = context }
    if duration > .zero {
      do { try await clock.sleep(for: duration) } catch { return .retry }
    }
    return .success
  }
}

/// The work events of `trace`, as text lines.
private func workLines(_ trace: RecordedTrace) -> [String] {
  trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") }
}

/// WorkManager's checks when a request is built (androidx `WorkRequest.Builder.build()`,
/// `PeriodicWorkRequest.Builder.buildInternal()`), and when a worker calls
/// `setForeground` (androidx `WorkForegroundUpdater`), each following the androidx test
/// it names.
@Suite struct WorkRequestChecksTests {
  private static let android = SimulationConfiguration(platform: .android)

  /// androidx `WorkRequestTest.periodicWorkRequest_expedited_throwsException`:
  /// `PeriodicWorkRequest.Builder.buildInternal()` throws "PeriodicWorkRequests cannot be
  /// expedited": nothing is enqueued, recorded or run.
  @Test func periodicWorkRequestExpeditedThrowsException() {
    let system = SimulatedSystem(seed: 1, configuration: Self.android)
    let request = WorkRequest(
      work: "sync", period: .seconds(15 * 60), expedited: .runAsRegular, worker: KeepingWorker(clock: system.clock))
    #expect(throws: WorkRequestError(.expeditedPeriodic, work: "sync")) {
      try system.enqueue(request, policy: .keep)
    }
    system.advance(by: .seconds(3600))
    #expect(workLines(system.trace).isEmpty)
  }

  /// androidx `WorkRequest.Builder.build()`: an expedited request that requires charging
  /// throws "Expedited jobs only support network and storage constraints": nothing is
  /// enqueued or run.
  @Test func expeditedRequestRequiringChargingThrowsException() {
    let system = SimulatedSystem(seed: 1, configuration: Self.android)
    let request = WorkRequest(
      work: "upload", requiresCharging: true, expedited: .drop, worker: KeepingWorker(clock: system.clock))
    #expect(throws: WorkRequestError(.expeditedConstraints, work: "upload")) {
      try system.enqueue(request, policy: nil)
    }
    system.advance(by: .seconds(3600))
    #expect(workLines(system.trace).isEmpty)
    let error = WorkRequestError(.expeditedConstraints, work: "upload")
    #expect(error.kind == .invalidWorkRequest)
    #expect(
      error.description
        == "IllegalArgumentException: Expedited jobs only support network and storage constraints (work upload)")
  }

  /// The near miss: androidx lets expedited work require a network ("network and storage
  /// constraints"); it is enqueued and runs.
  @Test func expeditedRequestRequiringANetworkRuns() throws {
    let system = SimulatedSystem(seed: 1, configuration: Self.android)
    let request = WorkRequest(
      work: "upload", requiresNetwork: true, expedited: .drop, worker: KeepingWorker(clock: system.clock))
    try system.enqueue(request, policy: nil)
    system.advance(by: .seconds(1))
    #expect(
      workLines(system.trace) == [
        "0 work.enqueue work=upload expedited=drop needs=network", "0.1 work.start work=upload attempt=0",
        "0.1 work.result work=upload attempt=0 outcome=success",
      ])
  }

  /// `build()` calls `buildInternal()` first: an expedited periodic request that also
  /// requires charging fails the periodic check.
  @Test func thePeriodicCheckComesBeforeTheConstraintCheck() {
    let request = WorkRequest(
      work: "sync", period: .seconds(3600), requiresCharging: true, expedited: .runAsRegular,
      worker: KeepingWorker(clock: SimulatedSystem(seed: 1).clock))
    #expect(throws: WorkRequestError(.expeditedPeriodic, work: "sync")) { try request.validate() }
  }

  /// A request enqueued without a unique name that fails a check uses up no id: the next
  /// one is still `sync:1`.
  @Test func aRefusedRequestUsesUpNoID() throws {
    let system = SimulatedSystem(seed: 1, configuration: Self.android)
    let worker = KeepingWorker(clock: system.clock)
    #expect(throws: WorkRequestError.self) {
      try system.enqueue(WorkRequest(work: "sync", period: .seconds(3600), expedited: .drop, worker: worker))
    }
    #expect(try system.enqueue(WorkRequest(work: "sync", worker: worker)) == "sync:1")
  }

  /// The tracing wrapper makes the same checks before it records anything, so a refused
  /// request leaves no `work.enqueue` in the app's trace.
  @Test func theTracingWrapperRecordsNothingForARefusedRequest() {
    let system = SimulatedSystem(seed: 1, configuration: Self.android)
    let recorder = TraceRecorder(clock: system.clock)
    let queue = TracingWorkQueue(base: system, recorder: recorder)
    #expect(throws: WorkRequestError(.expeditedConstraints, work: "upload")) {
      try queue.enqueue(
        WorkRequest(
          work: "upload", requiresCharging: true, expedited: .runAsRegular, worker: KeepingWorker(clock: system.clock)),
        policy: nil)
    }
    #expect(recorder.trace.events.isEmpty)
  }

  /// androidx `WorkForegroundUpdaterTest.setForeground_whenWorkFinished`: a
  /// `setForeground` after the worker returned throws `IllegalStateException` ("Calls to
  /// setForegroundAsync() must complete before a ListenableWorker signals completion of
  /// work"): the call is `work.foreground`, refused `not-running`, it throws, and the
  /// checker reports it.
  @Test func setForegroundWhenWorkFinished() async throws {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    system.launch { _ in }
    let worker = KeepingWorker(clock: system.clock)
    try system.enqueue(WorkRequest(work: "upload", worker: worker), policy: nil)
    system.advance(by: .seconds(5))
    let context = try #require(worker.context.withLock { $0 })
    await #expect(throws: ForegroundServiceError(.notRunning, service: "upload")) {
      try await context.setForeground(ForegroundInfo(type: .dataSync))
    }
    #expect(
      workLines(system.trace) == [
        "0 work.enqueue work=upload", "0.1 work.start work=upload attempt=0",
        "0.1 work.result work=upload attempt=0 outcome=success", "5 work.foreground work=upload attempt=0",
        "5 work.refuse work=upload attempt=0 reason=not-running",
      ])
    let findings = TraceChecker.check(system.trace)
    #expect(findings.map(\.rule) == [.workForegroundRefused])
    #expect(
      findings.first?.message
        == "work upload attempt 0 was refused the foreground: the attempt had already ended: WorkForegroundUpdater "
        + "throws IllegalStateException (\"Calls to setForegroundAsync() must complete before a ListenableWorker "
        + "signals completion of work\")")
  }

  /// androidx `WorkForegroundUpdaterTest.setForeground_whenWorkReplaced`: the replaced
  /// request's worker calls `setForeground` late; WorkManager finds no running WorkSpec
  /// for its id and throws. The simulation finds the attempt by its request, not by the
  /// unique name, so the replacement is not promoted: it stays a job and is stopped at
  /// its job time limit, what is left of the active bucket's 20 minutes on Android 16,
  /// the app on top or not (`JobRuntimeLimitTests`).
  @Test func setForegroundWhenWorkReplaced() async throws {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    system.launch { _ in }
    let replaced = KeepingWorker(clock: system.clock, duration: .seconds(1200))
    try system.enqueue(WorkRequest(work: "upload", worker: replaced), policy: nil)
    system.advance(by: .seconds(10))
    try system.enqueue(
      WorkRequest(work: "upload", worker: KeepingWorker(clock: system.clock, duration: .seconds(3600))),
      policy: .replace)
    system.advance(by: .seconds(10))
    let context = try #require(replaced.context.withLock { $0 })
    await #expect(throws: ForegroundServiceError(.notRunning, service: "upload")) {
      try await context.setForeground(ForegroundInfo(type: .dataSync))
    }
    system.advance(by: .seconds(1190) + .milliseconds(150))  // to 1210.15 s, past the replacement's 20 minutes
    #expect(
      workLines(system.trace) == [
        "0 work.enqueue work=upload", "0.1 work.start work=upload attempt=0",
        "10 work.enqueue work=upload policy=replace",
        "10 work.stop work=upload attempt=0 reason=cancelled", "10.1 work.start work=upload attempt=0",
        "20 work.foreground work=upload attempt=0", "20 work.refuse work=upload attempt=0 reason=not-running",
        "1210.1 work.stop work=upload attempt=0 reason=timeout",
      ])
  }
}
