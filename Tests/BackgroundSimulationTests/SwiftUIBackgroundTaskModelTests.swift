import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// ``TaskScheduling/backgroundTask(_:action:)``, SwiftUI's `Scene.backgroundTask(_:action:)`
/// (https://developer.apple.com/documentation/swiftui/scene/backgroundtask(_:action:)),
/// in the simulation and through the tracing wrapper. The two bugs of such actions are
/// `NotificationRefreshExampleTests`.
@Suite struct SwiftUIBackgroundTaskModelTests {
  /// An app with one refresh action that submits when it goes to the background.
  final class RefreshApp: BackgroundAppDelegate, @unchecked Sendable {
    let scheduler: any TaskScheduling
    var actions = 0

    init(_ scheduler: any TaskScheduling) {
      self.scheduler = scheduler
    }

    func didFinishLaunching() {
      scheduler.backgroundTask(.appRefresh("com.example.refresh")) { [self] in
        actions += 1
        try? scheduler.submit(.refresh("com.example.refresh", earliestBeginDelay: .seconds(900)))
      }
    }

    func didEnterBackground() { try? scheduler.submit(.refresh("com.example.refresh")) }
  }

  /// An app whose processing action cleans its cache each night.
  final class CleanupApp: BackgroundAppDelegate, @unchecked Sendable {
    let scheduler: any TaskScheduling
    var actions = 0

    init(_ scheduler: any TaskScheduling) {
      self.scheduler = scheduler
    }

    func didFinishLaunching() {
      scheduler.backgroundTask(.processingTask("com.example.cleanup")) { [self] in actions += 1 }
    }

    func didEnterBackground() {
      try? scheduler.submit(.processing("com.example.cleanup", requiresExternalPower: true))
    }
  }

  /// iOS 27's `processingTask(_:)`: the action runs when the processing request is
  /// launched — here once the device is on power, as the request asks — and the run
  /// completes when the action returns ("The system considers the task completed when
  /// the action closure that you provide returns").
  @Test func aProcessingActionRunsOnPowerAndCompletesOnReturn() {
    var configuration = SimulationConfiguration()
    configuration.launchPolicy = .immediate
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launchApp { CleanupApp($0) }
    system.moveToBackground()
    system.advance(by: .seconds(600))
    #expect(system.app(as: CleanupApp.self)?.actions == 0, "not on power yet")
    system.setEnvironment(charging: true)
    system.advance(by: .seconds(600))
    #expect(system.app(as: CleanupApp.self)?.actions == 1)
    let lines = system.trace.events.map(TextTraceWriter.line(for:))
    #expect(lines.contains("600 sched.launch ident=com.example.cleanup run=1"))
    #expect(lines.contains("600 sched.complete run=1 success=true"))
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  /// SwiftUI registers the identifier and returns `YES` whatever BGTaskScheduler said
  /// (iOS 26.1 SwiftUI, `BGTaskSchedulerProxy registerForTaskWithIdentifier:launchHandler:`
  /// returns 1 after `registerForTaskWithIdentifier:usingQueue:0 launchHandler:`), so an
  /// identifier missing from `BGTaskSchedulerPermittedIdentifiers` fails silently: the
  /// registration is refused ("Registration rejected; … is not advertised in the
  /// application's Info.plist"), the app's `try?` submit is rejected `notPermitted`, and
  /// the action never runs. The checker names the submit: `sched-unregistered`.
  @Test func anIdentifierNotPermittedFailsSilentlyAndTheCheckerSaysSo() {
    var configuration = SimulationConfiguration()
    configuration.permittedIdentifiers = ["com.example.other"]
    configuration.launchPolicy = .immediate
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launchApp { RefreshApp($0) }
    system.moveToBackground()
    system.advance(by: .seconds(3600))
    #expect(
      system.trace.events.map(TextTraceWriter.line(for:)) == [
        "0 app.launch",
        "0 sched.register ident=com.example.refresh ok=false",
        "0 app.state to=active",
        "0 app.state to=inactive",
        "0 app.state to=background",
        "0 sched.submit ident=com.example.refresh type=refresh",
        "0 sched.reject ident=com.example.refresh error=notPermitted",
        "3 app.state to=suspended",
      ])
    #expect(
      TraceChecker.check(system.trace).map(\.message) == [
        "sched.submit for com.example.refresh, which has no successful sched.register in this process (launched at 0s)"
      ])
    #expect(system.crashReports.isEmpty)
  }

  /// SwiftUI registers with `usingQueue:0` and its own, nonisolated launch handler: an
  /// action written in main-actor code (a scene's body) does not trap on
  /// BGTaskScheduler's queue, as a main-actor launch handler does.
  @MainActor @Test func anActionRegisteredFromTheMainActorDoesNotTrap() {
    var configuration = SimulationConfiguration()
    configuration.launchPolicy = .immediate
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    let app = RefreshApp(system)
    system.launch { _ in app.didFinishLaunching() }
    try? system.submit(.refresh("com.example.refresh"))
    system.moveToBackground()
    system.advance(by: .seconds(1))
    #expect(system.crashReports.isEmpty)
    #expect(app.actions == 1)
    #expect(system.trace.events(.schedComplete).map(\.kind) == [.schedComplete(run: 1, success: true)])
  }

  /// Through ``TracingTaskScheduler`` the action's registration, launch and completion
  /// are recorded as any launch handler's (`sched.complete success=true` when the action
  /// returns), and the action runs on the base's ``TaskScheduling/actionExecutor``. With
  /// `.immediate` the refresh launches as the app leaves at 0 s.
  @Test func theTracingWrapperRecordsTheActionsRun() {
    var configuration = SimulationConfiguration()
    configuration.launchPolicy = .immediate
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    let recorder = TraceRecorder(clock: system.clock)
    let traced = TracingTaskScheduler(base: system, recorder: recorder)
    #expect(traced.actionExecutor === system.scheduler.executor)
    system.launchApp { _ in RefreshApp(traced) }
    system.moveToBackground()
    system.advance(by: .seconds(1))
    #expect(
      recorder.trace.events.map(TextTraceWriter.line(for:)) == [
        "0 sched.register ident=com.example.refresh",
        "0 sched.submit ident=com.example.refresh type=refresh",
        "0 sched.launch ident=com.example.refresh run=1",
        "0 sched.submit ident=com.example.refresh type=refresh earliest=900",
        "0 sched.complete run=1 success=true",
      ])
  }

  /// The SwiftUI adapter's recording of a run SwiftUI launched: `sched.launch`, then
  /// `sched.expire` when the task is cancelled (the system's expiration), then
  /// `sched.complete success=true` when the action returns; its registration once per
  /// identifier however often the scene is built.
  @Test func aRunSwiftUILaunchedIsRecordedWithItsCancellation() async {
    let system = SimulatedSystem(seed: 1)
    let recorder = TraceRecorder(clock: system.clock)
    let traced = TracingTaskScheduler(base: system, recorder: recorder)
    let runs = traced.swiftUIRuns
    runs.recordRegistration(.appRefresh("com.example.refresh"))
    runs.recordRegistration(.appRefresh("com.example.refresh"))
    await runs.recordRun(of: .appRefresh("com.example.refresh")) {}
    let cancelled = Task {
      await runs.recordRun(of: .appRefresh("com.example.refresh")) {
        withUnsafeCurrentTask { $0?.cancel() }
      }
    }
    await cancelled.value
    #expect(
      recorder.trace.events.map(TextTraceWriter.line(for:)) == [
        "0 sched.register ident=com.example.refresh",
        "0 sched.launch ident=com.example.refresh run=1",
        "0 sched.complete run=1 success=true",
        "0 sched.launch ident=com.example.refresh run=2",
        "0 sched.expire run=2",
        "0 sched.complete run=2 success=true",
      ])
  }
}
