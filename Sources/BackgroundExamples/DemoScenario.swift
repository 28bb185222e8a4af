package import BackgroundSimulation
package import BackgroundTrace

/// The scenario `bgtrace demo` runs: the sample app launched, used, sent to the
/// background with a save that outlasts the budget, and left there for a night while
/// refreshes and a retrying sync run. Its one deliberate bug is the seed's `DocumentManager`
/// ending `.invalid` after its expiration handler already ended the task.
package enum DemoScenario: Sendable {
  /// The scenario's app on a platform (the simulation, or a replay's).
  package static func app(
    on platform: some BackgroundTaskHost & TaskScheduling & WorkQueue, scheduler: VirtualTimeScheduler,
    fixed: Bool = false
  ) -> SampleApp {
    SampleApp(
      host: platform, scheduler: platform, work: platform, context: AsyncContext(simulation: scheduler),
      guardsInvalidID: fixed)
  }

  /// Runs the scenario and returns the system with its trace.
  ///
  /// - Parameters:
  ///   - seed: the simulation's seed.
  ///   - fixed: runs the app with the `DocumentManager` bug fixed.
  package static func run(seed: UInt64 = 2026, fixed: Bool = false) -> SimulatedSystem {
    // The default, realistic launch policy: the hourly refresh launches 15 min to 8 h
    // after its earliest date, with 5 to 30 s to run.
    let system = SimulatedSystem(seed: seed, meta: ["app": "sample"])
    system.launchApp { system in Self.app(on: system, scheduler: system.scheduler, fixed: fixed) }
    system.advance(by: .seconds(2))
    system.userAction("sync")
    system.userAction("flush-logs")
    system.advance(by: .seconds(10))
    system.moveToBackground()
    system.advance(by: .seconds(600))
    // A night in the background: past the first refresh's latest launch (1 h + 8 h).
    system.advance(by: .seconds(10 * 3600))
    return system
  }
}
