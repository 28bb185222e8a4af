public import BackgroundSimulation
import BackgroundTrace

/// The scenario `bgtrace demo` runs: the sample app launched, used, sent to the
/// background with a save that outlasts the budget, and left there while a refresh
/// and a retrying sync run. Its one deliberate bug is the seed's `DocumentManager`
/// ending `.invalid` after its expiration handler already ended the task.
public enum DemoScenario {
  /// Runs the scenario and returns the system with its trace.
  ///
  /// - Parameters:
  ///   - seed: the simulation's seed.
  ///   - fixed: runs the app with the `DocumentManager` bug fixed.
  public static func run(seed: UInt64 = 2026, fixed: Bool = false) -> SimulatedSystem {
    var configuration = SimulationConfiguration()
    configuration.launchDelay = .seconds(0) ... .seconds(120)
    let system = SimulatedSystem(seed: seed, configuration: configuration, meta: ["app": "sample"])
    let context = AsyncContext(simulation: system.scheduler)
    let app = SampleApp(host: system, scheduler: system, work: system, context: context, guardsInvalidID: fixed)
    system.launch { _ in app.didFinishLaunching() }
    system.advance(by: .seconds(2))
    app.sync(failures: 2)
    app.quickTask(named: "FlushLogs", taking: .milliseconds(800))
    system.advance(by: .seconds(10))
    system.moveToBackground()
    app.didEnterBackground(saveDuration: .seconds(45))
    system.advance(by: .seconds(600))
    system.advance(by: .seconds(3600))
    return system
  }
}
