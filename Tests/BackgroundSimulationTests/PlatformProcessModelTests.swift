import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceTesting
import Testing

/// What keeps an app's process running, per platform (docs/platform-model.md,
/// "Processes"): an iPhone app runs in the background only for a UIKit task or a
/// scheduler run, and its in-process work queue runs only while it runs; an Android
/// app's process is started and kept by WorkManager, and work cut off by the process's
/// death runs again. Each test names its source.
@Suite struct PlatformProcessModelTests {
  /// The event lines of `trace` that contain any of `parts`.
  private func lines(_ trace: RecordedTrace, _ parts: String...) -> [String] {
    trace.events.map(handWrittenLine(for:)).filter { line in parts.contains { line.contains($0) } }
  }

  /// A sync whose uploads take `upload` and succeed from attempt `succeedsFrom` on.
  private func worker(_ system: SimulatedSystem, upload: Duration, succeedsFrom: Int = 0) -> DataSyncWorker {
    DataSyncWorker(context: AsyncContext(simulation: system.scheduler), uploadDuration: upload) { $0 >= succeedsFrom }
  }

  // MARK: iOS

  /// Apple Developer Forums, "iOS Background Execution Limits" (thread 685525): nothing
  /// but a background task or a scheduler launch keeps an iOS app running in the
  /// background. A worker of an in-process queue is suspended with the app, 3 s after it
  /// leaves, and finishes only when the user opens the app again.
  @Test func anInProcessWorkerDoesNotKeepAnIOSAppRunning() throws {
    let system = SimulatedSystem(seed: 1)
    system.launch { _ in }
    try system.enqueue(worker(system, upload: .seconds(60)).request(work: "sync-1"), policy: nil)
    system.advance(by: .seconds(1))
    system.moveToBackground()
    system.advance(by: .seconds(99))
    system.moveToForeground()
    system.advance(by: .seconds(10))
    #expect(
      lines(system.trace, "work.", "app.state to=suspended", "app.state to=active") == [
        "0 app.state to=active",
        "0 work.enqueue work=sync-1 name=DataSyncWorker limit=3 needs=network",
        "0.1 work.start work=sync-1 attempt=0",
        "4 app.state to=suspended",
        // The 60 s upload was due at 60.1 s; the app could not run it until it was
        // opened (it resumes as the app becomes inactive, before it is active).
        "100 work.result work=sync-1 attempt=0 outcome=success",
        "100 app.state to=active",
      ])
    #expect(system.trace.meta["platform"] == "ios")
  }

  /// The same source: a retry that comes due while the app is suspended neither wakes
  /// nor launches it; it starts when the app runs again.
  @Test func inProcessWorkDueWhileTheAppIsSuspendedWaitsForIt() throws {
    let system = SimulatedSystem(seed: 1)
    system.launch { _ in }
    try system.enqueue(worker(system, upload: .seconds(2), succeedsFrom: 1).request(work: "sync-1"), policy: nil)
    system.advance(by: .seconds(5))
    system.moveToBackground()
    system.advance(by: .seconds(495))
    system.moveToForeground()
    system.advance(by: .seconds(10))
    #expect(
      lines(system.trace, "work.start", "work.result", "app.launch", "app.state to=background") == [
        "0 app.launch",
        "0.1 work.start work=sync-1 attempt=0",
        "2.1 work.result work=sync-1 attempt=0 outcome=retry",
        "5 app.state to=background",
        // Due at 2.1 + 30 + 0.1 = 32.2 s, while the app was suspended (from 8 s).
        "500 work.start work=sync-1 attempt=1",
        "502 work.result work=sync-1 attempt=1 outcome=success",
      ])
  }

  /// The same source: a suspended app runs no code, so its in-process queue notices a
  /// lost network only when the app runs again — then it stops the worker.
  @Test func anIOSQueueNoticesALostConstraintOnlyWhenTheAppRuns() throws {
    let system = SimulatedSystem(seed: 1)
    system.launch { _ in }
    try system.enqueue(worker(system, upload: .seconds(200)).request(work: "sync-1"), policy: nil)
    system.advance(by: .seconds(1))
    system.moveToBackground()
    system.advance(by: .seconds(49))
    system.setEnvironment(network: false)
    system.advance(by: .seconds(50))
    system.moveToForeground()
    system.advance(by: .seconds(10))
    #expect(
      lines(system.trace, "work.", "env.set", "app.state to=suspended", "app.state to=active") == [
        "0 app.state to=active",
        "0 work.enqueue work=sync-1 name=DataSyncWorker limit=3 needs=network",
        "0.1 work.start work=sync-1 attempt=0",
        "4 app.state to=suspended",
        "50 env.set network=offline",
        "100 app.state to=active",
        "100 work.stop work=sync-1 attempt=0 reason=constraint",
        // Its backoff ran from the enqueue (0 + 30 s): due again, held by the network.
        "100 work.wait work=sync-1 reasons=network",
      ])
  }

  // MARK: Android

  /// androidx `ForceStopRunnable` and `WorkerWrapper`: WorkManager (through
  /// JobScheduler) starts the app's process to run work, and a running worker keeps it
  /// alive. Killed during attempt 1, the work runs again as attempt 2 — the count of
  /// the killed start kept — once `lastEnqueueTime` (the retry at 22.1 s) plus the
  /// backoff of attempt 2 (60 s) has passed (`WorkSpec.calculateNextRunTime`).
  @Test func aKilledAndroidProcessIsStartedAgainToRunItsWorkAfterItsBackoff() {
    let trace = AndroidSyncScenario.run().trace
    #expect(trace.meta["platform"] == "android")
    #expect(
      lines(trace, "work.", "app.").filter { !$0.contains("enqueue") } == [
        "0 app.launch",
        "0 app.state to=active",
        "2.1 work.start work=sync-1 attempt=0",
        "5 app.state to=inactive",
        "5 app.state to=background",
        // The worker kept the process running: frozen 10 s after its result (Android
        // 14+'s cached-apps freezer, AOSP CachedAppOptimizer DEFAULT_FREEZER_DEBOUNCE_TIMEOUT).
        "22.1 work.result work=sync-1 attempt=0 outcome=retry",
        "32.1 app.state to=suspended",
        // 22.1 + 30 + 0.1: WorkManager wakes the process for attempt 1.
        "52.2 app.state to=background",
        "52.2 work.start work=sync-1 attempt=1",
        "62.2 app.terminate reason=memory",
        "62.2 work.stop work=sync-1 attempt=1 reason=terminated",
        // max(62.2, 22.1 + 60) + 0.1: a new process, started in the background.
        "82.2 app.launch",
        "82.2 app.state to=background",
        "82.2 work.start work=sync-1 attempt=2",
        "102.2 work.result work=sync-1 attempt=2 outcome=success",
        "112.2 app.state to=suspended",
      ])
    #expect(TraceChecker.check(trace).isEmpty)
    expectTrace(
      trace, matchesGolden: "sync-process-killed", checks: ExampleTrace.clean, directory: ExampleTrace.androidGoldens)
  }

  /// Android has no UIKit background tasks and no BGTaskScheduler: a begin is refused
  /// with `.invalid` (recorded `id=0`), a registration is refused (`ok=false`) and a
  /// submit fails with `unavailable` — a test that runs iOS code on the Android model
  /// sees it in the trace at once.
  @Test func androidHasNoUIKitTasksAndNoBGTaskScheduler() throws {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    var registered = true
    system.launch { system in
      registered = system.register(forTaskWithIdentifier: "refresh", using: nil) { _ in }
    }
    #expect(!registered)
    #expect(system.beginBackgroundTask(withName: "Save", expirationHandler: nil) == .invalid)
    #expect(throws: TaskSchedulerError(.unavailable)) { try system.submit(.refresh("refresh")) }
    #expect(
      lines(system.trace, "task.", "sched.") == [
        "0 sched.register ident=refresh ok=false",
        "0 task.begin id=0 name=Save",
        "0 sched.submit ident=refresh type=refresh",
        "0 sched.reject ident=refresh error=unavailable",
      ])
  }
}
