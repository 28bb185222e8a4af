import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceTesting
import Testing

/// The seed's Android `DataSyncWorker` (articles 000, 002, 003, 004): it uploads
/// analytics and, when the upload fails, returns
/// `if (runAttemptCount < 3) Result.retry() else Result.failure()`. Its request
/// declares that limit (`limit=3`) so the checker can hold it to it.
///
/// The app is launched and kept open; it enqueues the work at 1 s. Every upload takes
/// 2 s and fails. Each start comes 100 ms (the dispatch delay) after the work becomes
/// eligible: at once for attempt 0, then after the exponential backoff of 30 s, 60 s
/// and 120 s counted from the previous attempt's result.
@Suite struct DataSyncWorkerExampleTests {
  /// Launches the app, enqueues `sync-1` at 1 s with uploads that always fail, and runs
  /// until nothing is left or `limit` has passed.
  static func run(checksAttemptLimit: Bool, limit: Duration = .seconds(86_400)) -> SimulatedSystem {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    let worker = DataSyncWorker(
      context: AsyncContext(simulation: system.scheduler), checksAttemptLimit: checksAttemptLimit
    ) { _ in false }
    system.launchApp { system in
      UserActionApp { if $0 == "sync" { try! system.enqueue(worker.request(work: "sync-1"), policy: nil) } }
    }
    system.advance(by: .seconds(1))
    system.userAction("sync")
    system.runUntilIdle(for: limit)
    return system
  }

  /// With the seed's check: retries at attempts 0, 1 and 2, then fails at attempt 3,
  /// with every start exactly when the backoff allows (plus the dispatch delay).
  @Test func theAttemptLimitCheckRetriesThreeTimesThenFails() {
    let trace = Self.run(checksAttemptLimit: true).trace

    #expect(ExampleTrace.findings(in: trace).isEmpty)
    #expect(
      ExampleTrace.lines(" work.", in: trace) == [
        "1 work.enqueue work=sync-1 name=DataSyncWorker limit=3 needs=network",
        // Attempt 0 starts at 1 + 0.1.
        "1.1 work.start work=sync-1 attempt=0",
        "3.1 work.result work=sync-1 attempt=0 outcome=retry",
        // 3.1 + 30 × 2^0 + 0.1.
        "33.2 work.start work=sync-1 attempt=1",
        "35.2 work.result work=sync-1 attempt=1 outcome=retry",
        // 35.2 + 30 × 2^1 + 0.1.
        "95.3 work.start work=sync-1 attempt=2",
        "97.3 work.result work=sync-1 attempt=2 outcome=retry",
        // 97.3 + 30 × 2^2 + 0.1.
        "217.4 work.start work=sync-1 attempt=3",
        "219.4 work.result work=sync-1 attempt=3 outcome=failure",
      ])
    // Nothing is scheduled after the failure: the trace ends with it.
    #expect(
      trace.events.last.map(handWrittenLine(for:)) == "219.4 work.result work=sync-1 attempt=3 outcome=failure")
    expectTrace(
      trace, matchesGolden: "data-sync-retries-then-fails", directory: ExampleTrace.androidGoldens)
  }

  /// Without the check the worker retries forever, with the backoff doubling up to the
  /// 5 h cap; the checker reports the retry at attempt 3 (the limit) once, not every
  /// later attempt. Two hours of virtual time show attempts 0 to 7.
  @Test func withoutTheCheckTheWorkRetriesPastItsLimit() {
    let trace = Self.run(checksAttemptLimit: false, limit: .seconds(7200)).trace

    #expect(
      ExampleTrace.findings(in: trace) == ["work-retry-limit @ 219.4 work.result work=sync-1 attempt=3 outcome=retry"])
    #expect(
      ExampleTrace.lines(" work.start ", in: trace) == [
        "1.1 work.start work=sync-1 attempt=0",
        "33.2 work.start work=sync-1 attempt=1",
        "95.3 work.start work=sync-1 attempt=2",
        "217.4 work.start work=sync-1 attempt=3",
        // 219.4 + 240 + 0.1, then 480, 960 and 1920 s after each result.
        "459.5 work.start work=sync-1 attempt=4",
        "941.6 work.start work=sync-1 attempt=5",
        "1903.7 work.start work=sync-1 attempt=6",
        "3825.8 work.start work=sync-1 attempt=7",
      ])
    #expect(ExampleTrace.lines(" work.result ", in: trace).allSatisfy { $0.hasSuffix("outcome=retry") })
    #expect(ExampleTrace.messages(in: trace).first?.contains("attempt 3 must be its last") == true)
    expectTrace(
      trace, matchesGolden: "data-sync-retries-forever", checks: .all(except: [.workRetryLimit]),
      directory: ExampleTrace.androidGoldens)
  }

  /// An upload that succeeds on the second attempt ends the work with one retry.
  @Test func anUploadThatRecoversSucceedsAfterOneRetry() throws {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    let worker = DataSyncWorker(context: AsyncContext(simulation: system.scheduler)) { attempt in attempt >= 1 }
    system.launch { _ in }
    try system.enqueue(worker.request(work: "sync-1"), policy: nil)
    system.runUntilIdle()

    #expect(ExampleTrace.findings(in: system.trace).isEmpty)
    #expect(
      ExampleTrace.lines(" work.result ", in: system.trace) == [
        "2.1 work.result work=sync-1 attempt=0 outcome=retry",
        "34.2 work.result work=sync-1 attempt=1 outcome=success",
      ])
  }
}
