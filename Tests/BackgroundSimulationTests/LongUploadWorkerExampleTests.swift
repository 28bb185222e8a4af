import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceTesting
import Testing

/// A 25-minute upload as a WorkManager worker, with and without `setForeground`. The
/// user taps "Upload" at 1 s and leaves the app at 5 s.
@Suite struct LongUploadWorkerExampleTests {
  static func app(on platform: some WorkQueue, scheduler: VirtualTimeScheduler, goesForeground: Bool)
    -> any BackgroundAppDelegate
  {
    let worker = LongUploadWorker(context: AsyncContext(simulation: scheduler), goesForeground: goesForeground)
    return UserActionApp { if $0 == "upload" { platform.enqueue(worker.request(work: "upload"), policy: nil) } }
  }

  static func run(goesForeground: Bool) -> Trace {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    system.launchApp { app(on: $0, scheduler: $0.scheduler, goesForeground: goesForeground) }
    system.advance(by: .seconds(1))
    system.userAction("upload")
    system.advance(by: .seconds(4))
    system.moveToBackground()
    system.advance(by: .seconds(3600))
    return system.trace
  }

  /// With `setForeground` the worker runs its 25 minutes and succeeds (androidx
  /// `Processor.stopWork`: "Ignored stopWork. WorkerWrapper … is in foreground").
  @Test func withSetForegroundTheUploadFinishes() {
    let trace = Self.run(goesForeground: true)
    #expect(ExampleTrace.findings(in: trace).isEmpty)
    #expect(
      ExampleTrace.lines(" work.", in: trace) == [
        "1 work.enqueue work=upload name=LongUploadWorker", "1.1 work.start work=upload attempt=0",
        "1.1 work.foreground work=upload attempt=0", "1501.1 work.result work=upload attempt=0 outcome=success",
      ])
    expectTrace(trace, matchesGolden: "long-upload-foreground", directory: ExampleTrace.androidGoldens)
  }

  /// Without it WorkManager stops each attempt at ten minutes (`work.stop
  /// reason=timeout`) and starts the next once its backoff allows: counted from the
  /// enqueue at 1 s, which a stop keeps (androidx `WorkSpec.calculateNextRunTime`,
  /// 30 s × 2^(n−1)), every backoff up to attempt 6's 961 s is already past, so each
  /// starts 0.1 s (the dispatch delay) after the stop: the upload never finishes.
  @Test func withoutItEveryAttemptIsStoppedAtTenMinutes() {
    let trace = Self.run(goesForeground: false)
    #expect(ExampleTrace.findings(in: trace).isEmpty)
    #expect(
      ExampleTrace.lines(" work.", in: trace) == [
        "1 work.enqueue work=upload name=LongUploadWorker", "1.1 work.start work=upload attempt=0",
        "601.1 work.stop work=upload attempt=0 reason=timeout", "601.2 work.start work=upload attempt=1",
        "1201.2 work.stop work=upload attempt=1 reason=timeout", "1201.3 work.start work=upload attempt=2",
        "1801.3 work.stop work=upload attempt=2 reason=timeout", "1801.4 work.start work=upload attempt=3",
        "2401.4 work.stop work=upload attempt=3 reason=timeout", "2401.5 work.start work=upload attempt=4",
        "3001.5 work.stop work=upload attempt=4 reason=timeout", "3001.6 work.start work=upload attempt=5",
        "3601.6 work.stop work=upload attempt=5 reason=timeout", "3601.7 work.start work=upload attempt=6",
      ])
    #expect(!ExampleTrace.lines(" work.result", in: trace).contains { $0.contains("success") })
    expectTrace(trace, matchesGolden: "long-upload-stopped-at-ten-minutes", directory: ExampleTrace.androidGoldens)
  }
}
