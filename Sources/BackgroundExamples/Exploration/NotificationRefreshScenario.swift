import BackgroundSimulation
import BackgroundTrace
package import BackgroundTraceReplay

/// Nostur's SwiftUI background refresh (``NotificationRefreshApp``) with its timing
/// drawn (docs/guides/exploration.md): the user leaves after 0–30 s,
/// the relays take 0.5–20 s to answer, the system launches refreshes as devices do
/// (``LaunchPolicy/realistic``) over twelve hours, after which the user opens the app,
/// and the world of
/// ``ScenarioEnvironment`` may change the network or kill the suspended app.
///
/// The buggy app's action returns before the relays answer (commit 046c21d's
/// `checkForNotifications()`), so SwiftUI completes the run at once and the app is
/// suspended 3 s later with the check unfinished. The trace is clean to the checker — a
/// completed run is all it sees — so the scenario asserts what the user expects: every
/// refresh's relay check finishes (answered, timed out or cancelled) before the app is
/// suspended or ends. The fixed app awaits the check in the action, which the
/// expiration cancels.
package enum NotificationRefreshScenario: Sendable {
  /// The scenario; `fixed` awaits the relay check in the action.
  package static func scenario(fixed: Bool) -> ExplorationScenario {
    ExplorationScenario(
      fixed ? "notification-refresh-fixed" : "notification-refresh",
      summary: fixed
        ? "a SwiftUI refresh action that awaits its relay check (explores clean)"
        : "a SwiftUI refresh action that returns before its relay check, which the suspended app never finishes"
    ) { run in
      let choices = run.choices
      let system = run.makeSystem(meta: ["app": "notification-refresh"])
      ScenarioEnvironment.draw(choices, on: system, within: .seconds(180))
      let relayQuery = choices.duration(in: .milliseconds(500) ... .seconds(20))
      system.launchApp {
        NotificationRefreshApp(
          scheduler: $0, context: AsyncContext(simulation: $0.scheduler), inputs: $0.inputs, relayQuery: relayQuery,
          version: fixed ? .fixed : .returnsAtOnce)
      }
      system.advance(by: choices.duration(in: .zero ... .seconds(30)))
      system.moveToBackground()
      system.advance(by: .seconds(12 * 3600))
      // The user opens the app: no refresh launches in the foreground, and one still
      // running ends within its runtime, so the trace does not end inside a run.
      system.moveToForeground()
      system.advance(by: .seconds(60))
      let unfinished = unfinishedCheck(in: system.trace)
      run.expect(
        unfinished == nil, "refresh run \(unfinished ?? 0) suspended or ended before its relay check finished")
    }
  }

  /// The first refresh run whose relay check (`input key=relays.mentions`) had not
  /// finished when the app was next suspended or ended; `nil` when every check finished
  /// in time (a run still going when the trace ends is not judged).
  static func unfinishedCheck(in trace: RecordedTrace) -> Int? {
    var waiting: [Int] = []
    for event in trace.events {
      switch event.kind {
      case .schedLaunch(_, let run): waiting.append(run)
      case .input(let key, _) where key == NotificationRefreshApp.answerKey:
        if !waiting.isEmpty { waiting.removeFirst() }
      case .appState(to: .suspended), .appTerminate:
        if let first = waiting.first { return first }
      default: break
      }
    }
    return nil
  }
}
