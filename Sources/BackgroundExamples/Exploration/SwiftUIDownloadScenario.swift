import BackgroundSimulation
import BackgroundTrace
package import BackgroundTraceReplay

/// Dulcet's SwiftUI background downloads (``SwiftUIDownloadsApp``) with their timing
/// drawn (docs/guides/exploration.md): the user starts one to eight downloads in the
/// background session, 0–10 s apart, and leaves 0–30 s after the last; the downloads
/// take what the system's transfers take (``SimulationConfiguration/transferDuration``),
/// each result reaches a woken app 0.1–1 s after the one before
/// (``SimulationConfiguration/transferEventDelay``), and the world of
/// ``ScenarioEnvironment`` may take the network away or kill the suspended app.
///
/// The buggy action only recreates the session and returns, so SwiftUI calls the wake's
/// completion handler at once and iOS suspends the app 3 s later: with enough downloads
/// their results are still on their way, and the app learns of them only when it next
/// runs. The checker warns of the early handler (`net-handler-early`) on every wake;
/// the scenario asserts what the user expects: every download's result reaches the app
/// in the wake that its end caused, before the app is suspended or ends. The fixed
/// action (Dulcet's, commit 569f3fd) waits for `urlSessionDidFinishEvents`.
package enum SwiftUIDownloadScenario: Sendable {
  /// The scenario; `fixed` waits for the session's events in the action.
  package static func scenario(fixed: Bool) -> ExplorationScenario {
    ExplorationScenario(
      fixed ? "swiftui-download-fixed" : "swiftui-download",
      summary: fixed
        ? "a SwiftUI .urlSession action that waits for its session's events (explores clean)"
        : "a SwiftUI .urlSession action that returns at once, so the app is suspended before its downloads' results arrive"
    ) { run in
      let choices = run.choices
      let system = run.makeSystem(meta: ["app": "swiftui-download"])
      ScenarioEnvironment.draw(choices, on: system, within: .seconds(180))
      system.launchApp { SwiftUIDownloadsApp(transfers: $0, version: fixed ? .waitsForEvents : .returnsAtOnce) }
      for index in 0..<choices.int(in: 1...8) {
        if index > 0 { system.advance(by: choices.duration(in: .zero ... .seconds(10))) }
        system.userAction("download")
      }
      system.advance(by: choices.duration(in: .zero ... .seconds(30)))
      system.moveToBackground()
      system.advance(by: .seconds(900))
      let undelivered = undeliveredResult(in: system.trace)
      run.expect(
        undelivered == nil,
        "download task \(undelivered ?? 0)'s result had not reached the app when it was suspended after its wake")
    }
  }

  /// The first transfer of a woken session whose result (`net.finish`) had not been
  /// delivered when the app was next suspended or ended: iOS wakes the app only once
  /// all of a session's transfers are done, so every one not yet finished then is owed
  /// to that wake. `nil` when every wake got all its results.
  static func undeliveredResult(in trace: RecordedTrace) -> Int? {
    var pending: [String: [Int]] = [:]
    var woken: Set<String> = []
    for event in trace.events {
      switch event.kind {
      case .netSubmit(let session, let task, _, _): pending[session, default: []].append(task)
      case .netFinish(let session, let task, _): pending[session]?.removeAll { $0 == task }
      case .netWake(let session): woken.insert(session)
      case .appState(to: .suspended), .appTerminate:
        for session in woken.sorted() {
          if let first = pending[session]?.first { return first }
        }
        woken.removeAll()
      default: break
      }
    }
    return nil
  }
}
