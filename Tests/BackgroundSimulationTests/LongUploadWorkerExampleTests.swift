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

  /// With `setForeground` the worker runs its 25 minutes and succeeds (androidx
  /// `Processor.stopWork`: "Ignored stopWork. WorkerWrapper … is in foreground").
  @Test func withSetForegroundTheUploadFinishes() {
    let trace = Self.run(goesForeground: true)
    #expect(ExampleTrace.findings(in: trace).isEmpty)
    #expect(
      ExampleTrace.lines(" work.", in: trace) == [
        "1 work.enqueue work=upload name=LongUploadWorker needs=network", "1.1 work.start work=upload attempt=0",
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
        "1 work.enqueue work=upload name=LongUploadWorker needs=network", "1.1 work.start work=upload attempt=0",
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

  /// With the network down at the tap the run starts when it returns, a minute after
  /// the user left: on Android 12+ the worker's `setForeground` from the background is
  /// refused (androidx `WorkForegroundUpdater`: "This will fail when the process is
  /// subject to foreground service restrictions"; `work.refuse reason=background`), so it
  /// runs as a job and is stopped at ten minutes, every attempt: `work-foreground-refused`
  /// at each `work.foreground`.
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
    system.advance(by: .seconds(1250))
    let trace = system.trace
    #expect(
      ExampleTrace.lines(" work.", in: trace) == [
        "1 work.enqueue work=upload name=LongUploadWorker needs=network",
        "1 work.wait work=upload reasons=network",  // offline until 60
        "60 work.start work=upload attempt=0",
        "60 work.foreground work=upload attempt=0", "60 work.refuse work=upload attempt=0 reason=background",
        "660 work.stop work=upload attempt=0 reason=timeout", "660.1 work.start work=upload attempt=1",
        "660.1 work.foreground work=upload attempt=1", "660.1 work.refuse work=upload attempt=1 reason=background",
        "1260.1 work.stop work=upload attempt=1 reason=timeout", "1260.2 work.start work=upload attempt=2",
        "1260.2 work.foreground work=upload attempt=2", "1260.2 work.refuse work=upload attempt=2 reason=background",
      ])
    #expect(
      TraceChecker.check(trace).map(\.rule) == [.workForegroundRefused, .workForegroundRefused, .workForegroundRefused])
    expectTrace(
      trace, matchesGolden: "long-upload-refused-in-background", checks: .all(except: [.workForegroundRefused]),
      directory: ExampleTrace.androidGoldens)
  }
}
