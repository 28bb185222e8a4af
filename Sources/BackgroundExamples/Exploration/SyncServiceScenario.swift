import BackgroundSimulation
import BackgroundTrace
package import BackgroundTraceReplay

/// The seed's ``SyncService`` with a slow start under load: before
/// `startForeground` its `onStartCommand` reads its settings, which takes 0.5–12 s, so
/// the `startForeground` deadline (10 s, AOSP `SERVICE_START_FOREGROUND_TIMEOUT`) is
/// missed only sometimes (`fgs-not-promoted`). The fixed service calls `startForeground`
/// first and reads its settings after, as part of the sync.
///
/// Drawn from the run's choices: when the user taps Sync (after 0–10 s), how long the
/// settings take (0.5–12 s) and the sync (5–60 s), and when the user leaves the app
/// (after 0–30 s, or never), with the network and power changes and memory kills of
/// ``ScenarioEnvironment``. The service passes its type (`dataSync`), and the device is
/// the current release.
package enum SyncServiceScenario: Sendable {
  /// The scenario; `fixed` calls `startForeground` before the slow read.
  package static func scenario(fixed: Bool) -> ExplorationScenario {
    ExplorationScenario(
      fixed ? "sync-service-fixed" : "sync-service",
      summary: fixed
        ? "the seed's SyncService calling startForeground before its slow start (explores clean)"
        : "the seed's SyncService reading its settings before startForeground, sometimes past the deadline"
    ) { run in
      let choices = run.choices
      let system = run.makeSystem(
        configuration: SimulationConfiguration(platform: .android), meta: ["app": "sync-service"])
      ScenarioEnvironment.draw(choices, on: system, within: .seconds(180))
      let context = AsyncContext(simulation: system.scheduler)
      var starts: [(preparation: Duration, sync: Duration)] = []
      system.launchApp { system in
        SyncServiceApp(services: system, uncaught: { _ in system.terminate(reason: "crash") }) {
          let start = starts.removeFirst()
          return SyncService(
            type: .dataSync, syncDuration: fixed ? start.preparation + start.sync : start.sync,
            preparation: fixed ? .zero : start.preparation, context: context
          ) { _ in system.terminate(reason: "crash") }
        }
      }
      system.advance(by: choices.duration(in: .zero ... .seconds(10)))
      starts.append(
        (choices.duration(in: .milliseconds(500) ... .seconds(12)), choices.duration(in: .seconds(5) ... .seconds(60))))
      system.userAction("sync")
      if choices.chance(percent: 50) {
        system.advance(by: choices.duration(in: .zero ... .seconds(30)))
        system.moveToBackground()
      }
      system.advance(by: .seconds(120))
    }
  }
}
