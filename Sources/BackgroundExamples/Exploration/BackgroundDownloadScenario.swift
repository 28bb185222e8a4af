import BackgroundSimulation
import BackgroundTrace
package import BackgroundTraceReplay

/// The public background-download sample (``DownloadAppDelegate``) with its bug made
/// timing-dependent (docs/guides/exploration.md): the user starts the
/// download, watches for 0–30 s and leaves; the download takes what the system's
/// transfers take (``SimulationConfiguration/transferDuration``), and the world of
/// ``ScenarioEnvironment`` may take the network away or kill the suspended app for
/// memory. Only a kill before the download ends makes the background launch that never
/// creates the session (`net-not-recreated`); the fixed app creates it at launch.
package enum BackgroundDownloadScenario: Sendable {
  /// The scenario; `fixed` creates the session at launch.
  package static func scenario(fixed: Bool) -> ExplorationScenario {
    ExplorationScenario(
      fixed ? "background-download-fixed" : "background-download",
      summary: fixed
        ? "a background download whose session is made at launch (explores clean)"
        : "a background download whose session only the view makes, so a background launch never recreates it"
    ) { run in
      let choices = run.choices
      let system = run.makeSystem(meta: ["app": "background-download"])
      ScenarioEnvironment.draw(choices, on: system, within: .seconds(180))
      system.launchApp { DownloadAppDelegate(transfers: $0, createsSessionAtLaunch: fixed) }
      system.advance(by: choices.duration(in: .zero ... .seconds(30)))
      system.moveToBackground()
      system.advance(by: .seconds(600))
    }
  }
}
