import BackgroundSimulation
import BackgroundTrace
package import BackgroundTraceReplay

/// The seed's `sendCriticalData` with its bug made timing-dependent (docs/guides/exploration.md): the user sends one to three times, and the sends only
/// sometimes overlap.
///
/// Drawn from the run's choices: how many sends (1–3), the pause before each (0–20 s)
/// and how long its request takes (1–10 s), and when the user leaves the app (after
/// 0–30 s, or never), with the network and power changes and memory kills of
/// ``ScenarioEnvironment``. When a send starts before the previous one finished, the stored
/// id is overwritten: the first task leaks and a completion ends `.invalid`. The fixed
/// sender keeps one id per send.
package enum CriticalSendScenario: Sendable {
  /// The scenario; `fixed` keeps one task id per send.
  package static func scenario(fixed: Bool) -> ExplorationScenario {
    scenario(
      name: fixed ? "critical-send-fixed" : "critical-send",
      summary: fixed
        ? "sendCriticalData keeping one task id per send (explores clean)"
        : "sendCriticalData whose sends sometimes overlap and overwrite the stored task id",
      fixed: fixed, pause: .zero ... .seconds(20), request: .seconds(1) ... .seconds(10))
  }

  /// The scenario with other timing: the pause before each send and the request's
  /// duration are drawn from `pause` and `request`.
  package static func scenario(
    name: String, summary: String = "", fixed: Bool, pause: ClosedRange<Duration>, request: ClosedRange<Duration>
  ) -> ExplorationScenario {
    ExplorationScenario(name, summary: summary) { run in
      let choices = run.choices
      let system = run.makeSystem(meta: ["app": "critical-send"])
      ScenarioEnvironment.draw(choices, on: system, within: .seconds(180))
      let sender = CriticalDataSender(
        host: system, context: AsyncContext(simulation: system.scheduler), keepsOneIDPerSend: fixed)
      var requests: [Duration] = []
      system.launchApp { _ in
        let app = ScenarioApp()
        app.performed = { _ in sender.sendCriticalData(taking: requests.removeFirst()) }
        return app
      }
      for _ in 0..<choices.int(in: 1...3) {
        system.advance(by: choices.duration(in: pause))
        requests.append(choices.duration(in: request))
        system.userAction("send")
      }
      if choices.chance(percent: 50) {
        system.advance(by: choices.duration(in: .zero ... .seconds(30)))
        system.moveToBackground()
      }
      system.advance(by: .seconds(120))
    }
  }
}
