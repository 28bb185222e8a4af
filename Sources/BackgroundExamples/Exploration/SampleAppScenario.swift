import BackgroundSimulation
import BackgroundTrace
package import BackgroundTraceReplay

/// The sample app (``SampleApp``: the seed's DocumentManager, refresh AppDelegate and
/// DataSyncWorker) with the timing of ``DemoScenario`` drawn instead of scripted (docs/guides/exploration.md).
///
/// Drawn from the run's choices: how long the document save takes (1–60 s), how many
/// sync attempts fail (0–3), up to three user actions (`sync` or `flush-logs`) after
/// pauses of 0–20 s, when the user leaves (after 0–20 s), whether and when they come
/// back (0–600 s), the scheduler's launch delays and runtimes for the refresh (the
/// realistic ``LaunchPolicy``), and the network and
/// power changes and memory kills of ``ScenarioEnvironment``. The fixed app guards the
/// DocumentManager's end against `.invalid`, and does not start a second `flush-logs`
/// while one runs: the named-task overwrite that exploring this scenario found.
package enum SampleAppScenario: Sendable {
  /// The scenario; `fixed` guards `endBackgroundTask` against `.invalid`.
  package static func scenario(fixed: Bool) -> ExplorationScenario {
    ExplorationScenario(
      fixed ? "sample-app-fixed" : "sample-app",
      summary: fixed
        ? "the sample app with the DocumentManager fixed (explores clean)"
        : "the sample app whose document save sometimes outlasts the budget"
    ) { run in
      let choices = run.choices
      let system = run.makeSystem(configuration: SimulationConfiguration(), meta: ["app": "sample"])
      ScenarioEnvironment.draw(choices, on: system, within: .seconds(900))
      let saveDuration = choices.duration(in: .seconds(1) ... .seconds(60))
      let syncFailures = choices.int(in: 0...3)
      system.launchApp { system in
        let app = DemoScenario.app(on: system, scheduler: system.scheduler, fixed: fixed)
        app.saveDuration = saveDuration
        app.syncFailures = syncFailures
        app.skipsOverlappingQuickTasks = fixed
        return app
      }
      for _ in 0..<choices.int(in: 0...3) {
        system.advance(by: choices.duration(in: .zero ... .seconds(20)))
        system.userAction(choices.int(in: 0...1) == 0 ? "sync" : "flush-logs")
      }
      system.advance(by: choices.duration(in: .zero ... .seconds(20)))
      system.moveToBackground()
      if choices.chance(percent: 50) {
        system.advance(by: choices.duration(in: .zero ... .seconds(600)))
        system.moveToForeground()
      }
      // Past the first refresh's latest launch under the realistic launch policy
      // (1 h + 8 h), so no run is cut off.
      system.advance(by: .seconds(9 * 3_600))
      system.advance(by: .seconds(600))
    }
  }
}
