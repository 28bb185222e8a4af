import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceTesting
import Testing

/// A 45-minute upload as a WorkManager worker, with and without `setForeground`. The
/// user taps "Upload" at 1 s and leaves the app at 5 s. The device is the current
/// release, Android 16, and the app in the active bucket: a WorkManager job, started on
/// top or not, may run what is left of the bucket's 20 minutes an hour
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

  /// Without it JobScheduler stops the attempt at its job time limit, 20 minutes
  /// (`work.stop reason=timeout`); charged from 5 s, when the user left, the run spent
  /// 1196.1 s of the active bucket's 20 minutes an hour: the next attempt waits for the
  /// quota (`work.wait reasons=quota`) until enough of that run has aged out of the hour
  /// to leave the 30-second buffer, at 3631.1 s, past the end: the upload never
  /// finishes.
  @Test func withoutItEveryAttemptIsStoppedAtItsJobTimeLimit() {
    let trace = Self.run(goesForeground: false)
    #expect(ExampleTrace.findings(in: trace).isEmpty)
    #expect(
      ExampleTrace.lines(" work.", in: trace) == [
        "1 work.enqueue work=upload name=LongUploadWorker needs=network", "1.1 work.start work=upload attempt=0",
        "1201.1 work.stop work=upload attempt=0 reason=timeout", "1201.1 work.wait work=upload reasons=quota",
      ])
    #expect(!ExampleTrace.lines(" work.result", in: trace).contains { $0.contains("success") })
    expectTrace(trace, matchesGolden: "long-upload-stopped-as-a-job", directory: ExampleTrace.androidGoldens)
  }

  /// With the network down at the tap the run starts when it returns, a minute after
  /// the user left: on Android 12+ the worker's `setForeground` from the background is
  /// refused (androidx `WorkForegroundUpdater`: "This will fail when the process is
  /// subject to foreground service restrictions"; `work.refuse reason=background`), so it
  /// runs as a job, started in the background: it gets the active bucket's 20 minutes and
  /// is stopped at 1260 s; the next attempt waits for the quota's 30-second buffer, back
  /// at 3690 s (the run at 60–1260 s ages out of the hour), and is refused again:
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
        "1260 work.stop work=upload attempt=0 reason=timeout", "1260 work.wait work=upload reasons=quota",
        "3690 work.start work=upload attempt=1", "3690 work.foreground work=upload attempt=1",
        "3690 work.refuse work=upload attempt=1 reason=background",
      ])
    #expect(TraceChecker.check(trace).map(\.rule) == [.workForegroundRefused, .workForegroundRefused])
    expectTrace(
      trace, matchesGolden: "long-upload-refused-in-background", checks: .all(except: [.workForegroundRefused]),
      directory: ExampleTrace.androidGoldens)
  }
}
