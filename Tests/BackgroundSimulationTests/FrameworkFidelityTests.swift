import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Dispatch
import Testing

/// The canonical text lines of a trace's events (no header, no meta).
private func eventLines(_ trace: RecordedTrace) -> [String] {
  trace.events.map(TextTraceWriter.line(for:))
}

/// A system whose scheduler launches at the earliest date and gives full runtimes.
private func system(configuration: SimulationConfiguration = SimulationConfiguration(), faults: FaultPlan = .none)
  -> SimulatedSystem
{
  var configuration = configuration
  configuration.launchPolicy = .immediate
  return SimulatedSystem(seed: 3, configuration: configuration, faults: faults)
}

/// What the app's handlers did, in order, and the tasks it keeps while it works on them.
private final class AppLog {
  var steps: [String] = []
  var tasks: [any ScheduledTask] = []
}

/// Registers `handler` for `identifier` from nonisolated code.
private func registerNonisolated(
  _ identifier: String, on system: SimulatedSystem, handler: @escaping (any ScheduledTask) -> Void
) {
  system.register(forTaskWithIdentifier: identifier, using: nil, launchHandler: handler)
}

/// BGTaskScheduler and UIKit as the decompiled iOS 26.1 frameworks have them, in the
/// public restore dump EthanArbuckle/iPhone18-3_26.1_23B85_Restore (paths below are in
/// it): each test names the code it follows.
@Suite struct FrameworkFidelityTests {
  /// System/Library/Frameworks/BackgroundTasks.framework/BackgroundTasks/BGTaskScheduler.mm,
  /// `_handleSubmissionWithoutRegistrationForTaskRequest:error:`: a submit for a permitted
  /// identifier with no registered handler raises "No launch handler registered for task
  /// with identifier %@"; the app dies in the call, and its code after it never runs.
  @Test func submittingWithNoHandlerRegisteredCrashesTheApp() {
    let system = system()
    system.launch { _ in }
    #expect(throws: Never.self) { try system.submit(.refresh("refresh")) }
    // What the dead process's code would still do reaches neither the system nor the trace.
    _ = system.beginBackgroundTask(withName: "after", expirationHandler: nil)
    #expect(
      eventLines(system.trace) == [
        "0 app.launch", "0 app.state to=active", "0 sched.submit ident=refresh type=refresh",
        "0 app.terminate reason=crash",
      ])
    #expect(system.crashReports == ["No launch handler registered for task with identifier refresh"])
    #expect(system.pendingTaskRequests().isEmpty)
  }

  /// The same method: an identifier that is not permitted gets `notPermitted` (code 3,
  /// "%{public}@ is not advertised in the application's Info.plist"), not the crash.
  @Test func submittingANotPermittedIdentifierWithNoHandlerIsRejected() {
    var configuration = SimulationConfiguration()
    configuration.permittedIdentifiers = ["com.example.refresh"]
    let system = system(configuration: configuration)
    system.launch { _ in }
    #expect(throws: TaskSchedulerError(.notPermitted)) { try system.submit(.refresh("com.example.other")) }
    #expect(eventLines(system.trace).last == "0 sched.reject ident=com.example.other error=notPermitted")
    #expect(system.crashReports.isEmpty)
  }

  /// BGTaskScheduler.mm, `_simulateLaunchForTaskWithIdentifier:`: "Task with identifier
  /// %{public}@ is already running" while a run of it runs, and "No task request with
  /// identifier %{public}@ has been scheduled" without a pending request.
  @Test func simulateLaunchRefusesWhileARunOfTheIdentifierRuns() throws {
    let system = system()
    let log = AppLog()
    system.launch { system in registerNonisolated("refresh", on: system) { log.tasks.append($0) } }
    #expect(!system.simulateLaunch(forTaskWithIdentifier: "refresh"))  // nothing scheduled
    try system.submit(.refresh("refresh", earliestBeginDelay: .seconds(100)))
    #expect(system.simulateLaunch(forTaskWithIdentifier: "refresh"))
    try system.submit(.refresh("refresh", earliestBeginDelay: .seconds(100)))
    #expect(!system.simulateLaunch(forTaskWithIdentifier: "refresh"))  // run 1 still runs
    #expect(system.trace.events(.schedLaunch).count == 1)
    log.tasks[0].setTaskCompleted(success: true)
    #expect(system.simulateLaunch(forTaskWithIdentifier: "refresh"))
    #expect(
      eventLines(system.trace).filter { $0.contains("sched.launch") } == [
        "0 sched.launch ident=refresh run=1", "0 sched.launch ident=refresh run=2",
      ])
  }

  /// BGTaskScheduler.mm, `_simulateExpirationForTaskWithIdentifier:`: only a task with no
  /// scheduler activity behind it, a simulated launch, is expired ("Task with identifier
  /// %{public}@ is not currently being simulated"); with no expiration handler it logs
  /// "No expiration handler for task: %{public}@" and leaves the task running.
  @Test func simulateExpirationWorksOnlyOnASimulatedLaunchWithAHandler() throws {
    let system = system()
    let log = AppLog()
    system.launch { system in
      registerNonisolated("real", on: system) { task in
        log.tasks.append(task)
        task.expirationHandler = { log.steps.append("real expired") }
      }
      registerNonisolated("bare", on: system) { log.tasks.append($0) }
    }
    try system.submit(.refresh("real", earliestBeginDelay: .seconds(10)))
    system.moveToBackground()
    system.advance(by: .seconds(11))  // launched by the scheduler at 10
    #expect(!system.simulateExpiration(forTaskWithIdentifier: "real"))
    try system.submit(.processing("bare"))
    #expect(system.simulateLaunch(forTaskWithIdentifier: "bare"))
    #expect(!system.simulateExpiration(forTaskWithIdentifier: "bare"))  // no expiration handler
    #expect(log.steps.isEmpty)
    #expect(
      eventLines(system.trace).filter { $0.contains("sched.") && !$0.contains("register") } == [
        "0 sched.submit ident=real type=refresh earliest=10", "10 sched.launch ident=real run=1",
        "11 sched.submit ident=bare type=processing", "11 sched.launch ident=bare run=2",
      ])
    // Not completed: the run still keeps the app awake.
    system.advance(by: .seconds(5))
    #expect(system.state == .background)
  }

  /// BGTaskScheduler.mm, `_callExpirationHandlersForActivities:shouldQueue:` and
  /// `_handleAppLaunch`: an expiration that comes before the app finished launching is
  /// queued and delivered right after the launch handlers ran. As a fault, the run
  /// starts and expires at one instant.
  @Test func anExpirationDuringLaunchIsDeliveredRightAfterTheLaunchHandler() throws {
    var faults = FaultPlan()
    faults.expirationAtLaunchPercent = 100
    let system = system(faults: faults)
    let log = AppLog()
    system.launch { system in
      registerNonisolated("refresh", on: system) { task in
        log.steps.append("launch")
        task.expirationHandler = {
          log.steps.append("expire")
          task.setTaskCompleted(success: false)
        }
      }
    }
    try system.submit(.refresh("refresh", earliestBeginDelay: .seconds(100)))
    system.moveToBackground()
    system.advance(by: .seconds(200))
    #expect(log.steps == ["launch", "expire"])
    #expect(
      eventLines(system.trace).filter { $0.hasPrefix("100 sched.") } == [
        "100 sched.launch ident=refresh run=1", "100 sched.expire run=1", "100 sched.complete run=1 success=false",
      ])
  }

  /// BGTaskScheduler.mm, `_queueForRegistration:`: with `using: nil` the handler runs on
  /// `dispatch_queue_create("com.apple.BGTaskScheduler (<identifier>)", …)`, a serial
  /// background queue; a main-actor closure called there fails Swift's isolation check
  /// (`_dispatch_assert_queue_fail`) and the app dies at the launch.
  @MainActor @Test func aMainActorHandlerOnTheDefaultQueueCrashesAtLaunch() throws {
    let system = system()
    system.launch { system in
      // Written in main-actor code and not @Sendable: the handler is main-actor code.
      system.register(forTaskWithIdentifier: "refresh", using: nil) { $0.setTaskCompleted(success: true) }
    }
    try system.submit(.refresh("refresh", earliestBeginDelay: .seconds(100)))
    system.moveToBackground()
    system.advance(by: .seconds(200))
    #expect(
      eventLines(system.trace).suffix(2) == ["100 sched.launch ident=refresh run=1", "100 app.terminate reason=crash"])
    #expect(
      system.crashReports == [
        "The launch handler for refresh is main-actor code, but BGTaskScheduler runs it on the queue "
          + "com.apple.BGTaskScheduler (refresh): Swift's isolation check traps (_dispatch_assert_queue_fail). "
          + "Register it with `using: .main`, or make the handler nonisolated."
      ])
  }

  /// The same method: a queue the app passes is the handler's queue, so `using: .main`
  /// runs a main-actor handler where it belongs, as does a nonisolated handler on any queue.
  @MainActor @Test func aMainActorHandlerOnTheMainQueueOrANonisolatedOneRuns() throws {
    let system = system()
    system.launch { system in
      system.register(forTaskWithIdentifier: "main", using: .main) { $0.setTaskCompleted(success: true) }
      registerNonisolated("other", on: system) { $0.setTaskCompleted(success: true) }
    }
    try system.submit(.refresh("main", earliestBeginDelay: .seconds(100)))
    try system.submit(.processing("other", earliestBeginDelay: .seconds(100)))
    system.moveToBackground()
    system.advance(by: .seconds(200))
    #expect(system.trace.events(.schedComplete).count == 2)
    #expect(system.crashReports.isEmpty)
  }

  /// System/Library/Frameworks/BackgroundTasks.framework/BackgroundTasks/_BGTaskIdentifierRegistry.mm:
  /// `isPermissibleFullyComposedIdentifier:` refuses more than 128 units ("Identifier is
  /// too long, must be less than 128 characters: %@" for a plist entry), and
  /// `isIdentifierValidContinuedProcessingWildcardNotation:` accepts `<bundle>.<context>.*`
  /// entries, which permit the identifiers composed under them but not themselves.
  @Test func identifiersOver128UnitsAreRefusedAndWildcardsPermitTheirComposedIdentifiers() {
    let long = "com.example.app." + String(repeating: "x", count: 113)  // 129 units
    var configuration = SimulationConfiguration()
    configuration.bundleIdentifier = "com.example.app"
    configuration.permittedIdentifiers = [
      long, "com.example.app.refresh", "com.example.app.export.*", "org.other.export.*", "com.example.app.a.*.b.*",
    ]
    let system = system(configuration: configuration)
    #expect(!system.isPermitted(long))
    #expect(system.isPermitted("com.example.app.refresh"))
    #expect(system.isPermitted("com.example.app.export.7F3A"))
    #expect(!system.isPermitted("com.example.app.export.*"))  // the wildcard itself
    #expect(!system.isPermitted("com.example.app.export."))  // its base
    #expect(!system.isPermitted("org.other.export.1"))  // not under the bundle identifier
    #expect(!system.isPermitted("com.example.app.a.1"))  // two wildcards: not valid
    system.launch { system in
      registerNonisolated(long, on: system) { _ in }
      registerNonisolated("com.example.app.export.7F3A", on: system) { _ in }
    }
    #expect(
      eventLines(system.trace).filter { $0.contains("sched.register") } == [
        "0 sched.register ident=\(long) ok=false", "0 sched.register ident=com.example.app.export.7F3A",
      ])
    // Without a list every identifier is permitted, but not one over 128 units.
    let open = SimulatedSystem(seed: 3)
    #expect(open.isPermitted("anything"))
    #expect(!open.isPermitted(long))
  }

  /// System/Library/Frameworks/BackgroundTasks.framework/BackgroundTasks/BGTask.mm,
  /// `_callExpirationHandlerWithReason:`: the handler is read and set to `nil` before it
  /// is called (Apple, `expirationHandler`: "The manager sets the value
  /// `expirationHandler` to `nil` after the handler completes").
  @Test func theExpirationHandlerIsClearedBeforeItIsCalled() throws {
    let system = system()
    let log = AppLog()
    system.launch { system in
      registerNonisolated("refresh", on: system) { task in
        task.expirationHandler = {
          log.steps.append(task.expirationHandler == nil ? "cleared" : "still set")
          task.setTaskCompleted(success: false)
        }
      }
    }
    try system.submit(.refresh("refresh", earliestBeginDelay: .seconds(100)))
    system.moveToBackground()
    system.advance(by: .seconds(200))
    #expect(log.steps == ["cleared"])
  }

  /// BGTask.mm, `dealloc`: "Task %{public}@ dealloc'd without completing. This is a
  /// programmer error." BGTaskScheduler keeps running tasks in a strong-to-weak map
  /// table, so a task the app let go of gets no expiration handler call and can never
  /// complete: the app is killed as for an expired run left uncompleted.
  @Test func aTaskReleasedWithoutCompletingNeverCompletesAndTheAppIsKilled() throws {
    let system = system()
    system.launch { system in registerNonisolated("refresh", on: system) { _ in } }
    try system.submit(.refresh("refresh", earliestBeginDelay: .seconds(100)))
    system.moveToBackground()
    system.advance(by: .seconds(200))
    #expect(
      eventLines(system.trace).suffix(3) == [
        "100 sched.launch ident=refresh run=1", "130 sched.expire run=1", "131 app.terminate reason=watchdog",
      ])
    #expect(system.trace.findings().map(\.rule).contains(.schedNotCompleted))
  }

  /// Apple, `beginBackgroundTask(withName:expirationHandler:)`: UIKit may fail to get
  /// the background assertion and call the expiration handler at once. A fault, off by
  /// default: the handler runs right after the call returned the identifier.
  @Test func aBackgroundTaskWhoseAssertionFailsExpiresAtOnce() {
    var faults = FaultPlan()
    faults.backgroundTaskAssertionFailurePercent = 100
    let system = system(faults: faults)
    system.launch { system in
      nonisolated(unsafe) var id = BackgroundTaskID.invalid  // read by UIKit's handler on the main thread
      id = system.beginBackgroundTask(withName: "upload") { system.endBackgroundTask(id) }
    }
    #expect(
      eventLines(system.trace) == [
        "0 app.launch", "0 task.begin id=1 name=upload", "0 app.state to=active", "0 task.expire id=1",
        "0 task.end id=1",
      ])
  }
}
