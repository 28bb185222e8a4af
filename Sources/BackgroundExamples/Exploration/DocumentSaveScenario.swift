import BackgroundSimulation
import BackgroundTrace
package import BackgroundTraceReplay

/// The seed's `DocumentManager` with its bug made timing-dependent (docs/guides/exploration.md): the app saves its document when it enters the
/// background, and the save only sometimes outlasts the budget.
///
/// Drawn from the run's choices: how long the user stays in the app (0–10 s), whether
/// iOS ends background time early and by how much (up to 10 s), how long the save takes
/// (1–40 s), when the user comes back (after 0–120 s, or never), and the network and
/// power changes and memory kills of ``ScenarioEnvironment``. When the save outlasts the expiration and the
/// user comes back, the finished save ends `.invalid` after the expiration handler
/// ended the task (`task-unknown-end`); the fixed manager guards the end.
package enum DocumentSaveScenario: Sendable {
  /// The scenario; `fixed` guards `endBackgroundTask` against `.invalid`.
  package static func scenario(fixed: Bool) -> ExplorationScenario {
    ExplorationScenario(
      fixed ? "document-save-fixed" : "document-save",
      summary: fixed
        ? "the guarded DocumentManager saving on entering the background (explores clean)"
        : "the DocumentManager save that sometimes outlasts the budget and then ends .invalid"
    ) { run in
      let choices = run.choices
      var faults = FaultPlan()
      if choices.chance(percent: 25) { faults.earlyExpiration = choices.duration(in: .zero ... .seconds(10)) }
      let system = run.makeSystem(faults: faults, meta: ["app": "documents"])
      ScenarioEnvironment.draw(choices, on: system, within: .seconds(180))
      let documents = DocumentManager(
        host: system, context: AsyncContext(simulation: system.scheduler), guardsInvalidID: fixed)
      let saveDuration = choices.duration(in: .seconds(1) ... .seconds(40))
      system.launchApp { _ in
        let app = ScenarioApp()
        app.enteredBackground = { documents.save(taking: saveDuration) }
        return app
      }
      system.advance(by: choices.duration(in: .zero ... .seconds(10)))
      system.moveToBackground()
      if choices.chance(percent: 80) {
        system.advance(by: choices.duration(in: .zero ... .seconds(120)))
        system.moveToForeground()
      }
      system.advance(by: .seconds(60))
    }
  }
}
