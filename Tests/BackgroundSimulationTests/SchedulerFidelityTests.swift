import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// BGTaskScheduler as strictly as Apple documents it (docs/platform-model.md): what a
/// device does that the first model let pass.
@Suite struct SchedulerFidelityTests {
  /// Registers `refresh` at launch (unless `registers` is false) and handles launches
  /// with `handle`.
  final class RefreshApp: BackgroundAppDelegate {
    let scheduler: any TaskScheduling
    let registers: Bool
    let handle: (any ScheduledTask) -> Void
    init(scheduler: any TaskScheduling, registers: Bool = true, handle: @escaping (any ScheduledTask) -> Void) {
      self.scheduler = scheduler
      self.registers = registers
      self.handle = handle
    }
    func didFinishLaunching() {
      guard registers else { return }
      scheduler.register(forTaskWithIdentifier: "refresh", using: nil, launchHandler: handle)
    }
  }

  private func system(configuration: SimulationConfiguration = SimulationConfiguration(), faults: FaultPlan = .none)
    -> SimulatedSystem
  {
    var configuration = configuration
    configuration.launchPolicy = .immediate
    return SimulatedSystem(seed: 9, configuration: configuration, faults: faults)
  }

  private func submitRefresh(_ system: SimulatedSystem) throws {
    try system.submit(TaskRequest(identifier: "refresh", type: .refresh, earliestBeginDelay: .seconds(100)))
  }

  /// Apple, `setTaskCompleted(success:)`: not calling it "may result in the system
  /// killing your app". The model kills it 1 s after the expiration handler ran.
  @Test func anExpiredRunNeverCompletedGetsTheAppKilled() throws {
    let system = system()
    system.launchApp { RefreshApp(scheduler: $0) { task in task.expirationHandler = {} } }
    try submitRefresh(system)
    system.moveToBackground()
    system.advance(by: .seconds(200))
    #expect(
      system.trace.text.split(separator: "\n").suffix(3) == [
        "100 sched.launch ident=refresh run=1", "130 sched.expire run=1", "131 app.terminate reason=watchdog",
      ])
  }

  /// The lenient reading stays available, for tests that want it.
  @Test func theKillCanBeTurnedOff() throws {
    var configuration = SimulationConfiguration()
    configuration.uncompletedRunKill = nil
    let system = system(configuration: configuration)
    system.launchApp { RefreshApp(scheduler: $0) { task in task.expirationHandler = {} } }
    try submitRefresh(system)
    system.moveToBackground()
    system.advance(by: .seconds(200))
    #expect(system.trace.events(.appTerminate).isEmpty)
  }

  /// Apple, `register(forTaskWithIdentifier:using:launchHandler:)`: a launch with no
  /// handler registered raises "No launch handler registered for task with identifier",
  /// and the app dies. Here the process that submitted registered; the one launched for
  /// the request does not.
  @Test func aLaunchWithNoHandlerCrashesTheApp() throws {
    let system = system()
    var processes = 0
    system.launchApp { scheduler in
      processes += 1
      return RefreshApp(scheduler: scheduler, registers: processes == 1) { _ in }
    }
    try submitRefresh(system)
    system.terminate(reason: "memory")
    system.advance(by: .seconds(200))
    #expect(
      system.trace.text.split(separator: "\n").suffix(3) == [
        "100 app.state to=background", "100 sched.launch ident=refresh run=1", "100 app.terminate reason=crash",
      ])
    #expect(system.crashReports == ["No launch handler registered for task with identifier refresh"])
    #expect(system.trace.findings().map(\.rule).contains(.schedUnregistered))
  }

  /// Apple Developer Forums, "iOS Background Execution Limits": iOS launches no
  /// background tasks for an app the user force-quit until the user opens it again.
  @Test func aForceQuitAppGetsNoLaunchesUntilTheUserOpensIt() throws {
    let system = system()
    system.launchApp { RefreshApp(scheduler: $0) { task in task.setTaskCompleted(success: true) } }
    try submitRefresh(system)
    system.terminate(reason: "user")  // swiped away in the app switcher
    system.advance(by: .seconds(500))
    #expect(system.trace.events(.schedLaunch).isEmpty)
    system.relaunch()  // the user opens it
    system.moveToBackground()
    system.advance(by: .seconds(10))
    #expect(system.trace.events(.schedLaunch).map(\.time) == [TraceTime(seconds: 500)])
  }

  /// The debugger commands developers use on a device, as methods.
  @Test func simulateLaunchAndExpirationLikeTheDebuggerCommands() throws {
    let system = system()
    var expired = 0
    system.launchApp {
      RefreshApp(scheduler: $0) { task in
        task.expirationHandler = {
          expired += 1; task.setTaskCompleted(success: false)
        }
      }
    }
    try submitRefresh(system)
    #expect(system.simulateLaunch(forTaskWithIdentifier: "refresh"))  // at 0, not 100
    #expect(!system.simulateLaunch(forTaskWithIdentifier: "refresh"))  // no longer pending
    system.advance(by: .seconds(5))
    #expect(system.simulateExpiration(forTaskWithIdentifier: "refresh"))
    #expect(!system.simulateExpiration(forTaskWithIdentifier: "refresh"))  // completed
    system.advance(by: .seconds(60))
    #expect(expired == 1)
    #expect(
      system.trace.text.split(separator: "\n").filter { $0.contains("sched.") }.suffix(3) == [
        "0 sched.launch ident=refresh run=1", "5 sched.expire run=1", "5 sched.complete run=1 success=false",
      ])
  }

  /// Devices often cut refresh runs to a few seconds: a fault gives each run a shorter
  /// runtime.
  @Test func aShortRuntimeFaultExpiresRunsEarly() throws {
    var faults = FaultPlan()
    faults.schedulerRuntime = .seconds(4) ... .seconds(4)
    let system = system(faults: faults)
    system.launchApp {
      RefreshApp(scheduler: $0) { task in task.expirationHandler = { task.setTaskCompleted(success: false) } }
    }
    try submitRefresh(system)
    system.moveToBackground()
    system.advance(by: .seconds(200))
    #expect(system.trace.events(.schedExpire).map(\.time) == [TraceTime(seconds: 104)])
  }
}
