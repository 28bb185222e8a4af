import BackgroundSimulation
import BackgroundTrace
package import BackgroundTraceReplay

/// The public background-upload sample (``BackgroundTransferExample``) explored
/// (docs/guides/exploration.md): the gallery shows one to three cats,
/// each downloaded and, once downloaded, queued for upload; the user taps Upload on up
/// to two cats, 0–30 s apart, and leaves 0–30 s later. The transfers take what the
/// system's take (``SimulationConfiguration/transferDuration``), and the world of
/// ``ScenarioEnvironment`` may take the network or power away or kill the suspended
/// app for memory. Only a wake of one session while the other's events are still being
/// delivered makes the sample call the wrong handler and leave one owed
/// (`net-handler-not-called`); the fixed app hands each handler to its own session.
package enum BackgroundTransferScenario: Sendable {
  /// The scenario; `fixed` routes the handler by session.
  package static func scenario(fixed: Bool) -> ExplorationScenario {
    ExplorationScenario(
      fixed ? "background-transfer-fixed" : "background-transfer",
      summary: fixed
        ? "a background downloader and uploader, each handed its own session's handler (explores clean)"
        : "a background downloader and uploader both handed every wake's handler, so overlapping wakes call the wrong one"
    ) { run in
      let choices = run.choices
      let system = run.makeSystem(meta: ["app": "background-transfer"])
      ScenarioEnvironment.draw(choices, on: system, within: .seconds(180))
      let album = Array(BackgroundTransferExample.album.prefix(choices.int(in: 1...3)))
      system.launchApp {
        BackgroundTransferExample.AppDelegate(
          transfers: $0, mainQueue: AsyncContext(simulation: $0.scheduler), routesHandlerBySession: fixed,
          album: album)
      }
      for _ in 0..<choices.int(in: 0...2) {
        system.advance(by: choices.duration(in: .zero ... .seconds(30)))
        system.userAction("upload:" + album[choices.int(in: 0...(album.count - 1))].id)
      }
      system.advance(by: choices.duration(in: .zero ... .seconds(30)))
      system.moveToBackground()
      system.advance(by: .seconds(900))
    }
  }
}
