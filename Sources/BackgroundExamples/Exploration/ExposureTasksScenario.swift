import BackgroundSimulation
import BackgroundTrace
package import BackgroundTraceReplay

/// The NHS COVID-19 app's background task aggregator (``ExposureTasksApp``) with its
/// timing drawn (docs/guides/exploration.md): the user leaves after 0–30 s and puts the
/// phone on its charger 0–4 h later; the jobs of a run take 30 s to 6 min; the system
/// launches the processing task as devices do (``LaunchPolicy/realistic``: an idle
/// device on power, 3 min a run) over two days, and the world of
/// ``ScenarioEnvironment`` may take the network away or kill the suspended app.
///
/// Only jobs longer than the run's 3 min make the expiration handler run; as written it
/// never completes the run, and iOS kills the app (`sched-not-completed`). The fixed app
/// completes the run unsuccessfully there.
package enum ExposureTasksScenario: Sendable {
  /// The scenario; `fixed` completes the run in its expiration handler.
  package static func scenario(fixed: Bool) -> ExplorationScenario {
    ExplorationScenario(
      fixed ? "exposure-tasks-fixed" : "exposure-tasks",
      summary: fixed
        ? "a processing task whose expiration handler completes the run (explores clean)"
        : "a processing task whose expiration handler cancels and reschedules but never completes the run"
    ) { run in
      let choices = run.choices
      let system = run.makeSystem(meta: ["app": "exposure-tasks"])
      ScenarioEnvironment.draw(choices, on: system, within: .seconds(180))
      let jobDuration = choices.duration(in: .seconds(30) ... .seconds(360))
      system.launchApp {
        ExposureTasksApp(
          scheduler: $0, context: AsyncContext(simulation: $0.scheduler), jobDuration: jobDuration,
          version: fixed ? .fixed : .asWritten)
      }
      system.advance(by: choices.duration(in: .zero ... .seconds(30)))
      system.moveToBackground()
      system.advance(by: choices.duration(in: .zero ... .seconds(4 * 3600)))
      system.setEnvironment(charging: true)
      system.advance(by: .seconds(48 * 3600))
      // The user opens the app: a processing run still going expires (the device is no
      // longer idle), so the trace does not end inside a run.
      system.moveToForeground()
      system.advance(by: .seconds(60))
    }
  }
}
