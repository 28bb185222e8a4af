import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceTesting
import Testing

/// A 45-minute upload as a WorkManager worker, with and without `setForeground`. The
/// user taps "Upload" at 1 s and leaves the app at 5 s. The device is the current
/// release, and the app in the active bucket: a job may run 30 minutes
/// (`JobRuntimeLimitTests`).
@Suite struct LongUploadWorkerExampleTests {
  static func app(on platform: some WorkQueue, scheduler: VirtualTimeScheduler, goesForeground: Bool)
    -> any BackgroundAppDelegate
  {
    let worker = LongUploadWorker(context: AsyncContext(simulation: scheduler), goesForeground: goesForeground)
    return UserActionApp { if $0 == "upload" { try! platform.enqueue(worker.request(work: "upload"), policy: nil) } }
  }

  static func run(goesForeground: Bool) -> RecordedTrace {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    system.launchApp { app(on: $0, scheduler: $0.scheduler, goesForeground: goesForeground) }
    system.advance(by: .seconds(1))
    system.userAction("upload")
    system.advance(by: .seconds(4))
    system.moveToBackground()
    system.advance(by: .seconds(3600))
    return system.trace
  }

  /// With `setForeground` the worker runs its 45 minutes and succeeds (androidx
  /// `Processor.stopWork`: "Ignored stopWork. WorkerWrapper … is in foreground").
  @Test func withSetForegroundTheUploadFinishes() {
    let trace = Self.run(goesForeground: true)
    #expect(ExampleTrace.findings(in: trace).isEmpty)
    #expect(
      ExampleTrace.lines(" work.", in: trace) == [
        "1 work.enqueue work=upload name=LongUploadWorker needs=network", "1.1 work.start work=upload attempt=0",
        "1.1 work.foreground work=upload attempt=0", "2701.1 work.result work=upload attempt=0 outcome=success",
      ])
    expectTrace(trace, matchesGolden: "long-upload-foreground", directory: ExampleTrace.androidGoldens)
  }

  /// Without it JobScheduler stops each attempt at its job time limit, 30 minutes
  /// (`work.stop reason=timeout`), and WorkManager starts the next once its backoff
  /// allows: counted from the enqueue at 1 s, which a stop keeps (androidx
  /// `WorkSpec.calculateNextRunTime`, 30 s × 2^(n−1)), each backoff is already past, so
  /// each starts 0.1 s (the dispatch delay) after the stop: the upload never finishes.
  @Test func withoutItEveryAttemptIsStoppedAtItsJobTimeLimit() {
    let trace = Self.run(goesForeground: false)
    #expect(ExampleTrace.findings(in: trace).isEmpty)
    #expect(
      ExampleTrace.lines(" work.", in: trace) == [
        "1 work.enqueue work=upload name=LongUploadWorker needs=network", "1.1 work.start work=upload attempt=0",
        "1801.1 work.stop work=upload attempt=0 reason=timeout", "1801.2 work.start work=upload attempt=1",
        "3601.2 work.stop work=upload attempt=1 reason=timeout", "3601.3 work.start work=upload attempt=2",
      ])
    #expect(!ExampleTrace.lines(" work.result", in: trace).contains { $0.contains("success") })
    expectTrace(trace, matchesGolden: "long-upload-stopped-as-a-job", directory: ExampleTrace.androidGoldens)
  }

  /// With the network down at the tap the run starts when it returns, a minute after
  /// the user left: on Android 12+ the worker's `setForeground` from the background is
  /// refused (androidx `WorkForegroundUpdater`: "This will fail when the process is
  /// subject to foreground service restrictions"; `work.refuse reason=background`), so it
  /// runs as a job and is stopped at its job time limit (30 minutes), every attempt:
  /// `work-foreground-refused` at each `work.foreground`.
  @Test func fromTheBackgroundSetForegroundIsRefused() {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.networkAvailable = false
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launchApp { Self.app(on: $0, scheduler: $0.scheduler, goesForeground: true) }
    system.advance(by: .seconds(1))
    system.userAction("upload")
    system.advance(by: .seconds(4))
    system.moveToBackground()
    system.advance(by: .seconds(55))
    system.setEnvironment(network: true)
    system.advance(by: .seconds(3640))
    let trace = system.trace
    #expect(
      ExampleTrace.lines(" work.", in: trace) == [
        "1 work.enqueue work=upload name=LongUploadWorker needs=network",
        "1 work.wait work=upload reasons=network",  // offline until 60
        "60 work.start work=upload attempt=0",
        "60 work.foreground work=upload attempt=0", "60 work.refuse work=upload attempt=0 reason=background",
        "1860 work.stop work=upload attempt=0 reason=timeout", "1860.1 work.start work=upload attempt=1",
        "1860.1 work.foreground work=upload attempt=1", "1860.1 work.refuse work=upload attempt=1 reason=background",
        "3660.1 work.stop work=upload attempt=1 reason=timeout", "3660.2 work.start work=upload attempt=2",
        "3660.2 work.foreground work=upload attempt=2", "3660.2 work.refuse work=upload attempt=2 reason=background",
      ])
    #expect(
      TraceChecker.check(trace).map(\.rule) == [.workForegroundRefused, .workForegroundRefused, .workForegroundRefused])
    expectTrace(
      trace, matchesGolden: "long-upload-refused-in-background", checks: .all(except: [.workForegroundRefused]),
      directory: ExampleTrace.androidGoldens)
  }
}
