import BackgroundSimulation
import BackgroundTrace

/// The world around an exploration scenario's app, drawn from the run's choices (docs/guides/exploration.md): network and power changes, and the system
/// killing the app for memory while it is suspended, as iOS does. None is a bug of the
/// app's own, so a fixed app explores clean under them; shrinking drops them.
enum ScenarioEnvironment {
  /// Draws up to four network or power changes in the first `span` of the run and up
  /// to one memory kill of the suspended app, and schedules them on `system`.
  static func draw(_ choices: Choices, on system: SimulatedSystem, within span: Duration) {
    var network = true
    var charging = false
    var times: [(at: Duration, change: Int)] = []
    for _ in 0..<choices.int(in: 0...4) {
      times.append((at: choices.duration(in: .zero...span), change: choices.int(in: 0...1)))
    }
    for (at, change) in times.sorted(by: { $0.at < $1.at }) {
      if change == 0 { network.toggle() } else { charging.toggle() }
      let settings = (network: network, charging: charging)
      _ = system.scheduler.schedule(at: TraceTime(at)) {
        system.setEnvironment(network: settings.network, charging: settings.charging)
      }
    }
    if choices.chance(percent: 20) {
      _ = system.scheduler.schedule(at: TraceTime(choices.duration(in: .seconds(1)...span))) {
        if system.state == .suspended { system.terminate(reason: "memory") }
      }
    }
  }
}
