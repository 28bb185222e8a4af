import AppleAdapters
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceReplay
import Foundation
import Testing
import UIKit

/// A trace recorded in a "real" app — UIKit's adapters (here over the SDK shim), the
/// tracing wrapper, the lifecycle tracer, `RecordingInputs` and `recordUserAction`, all on
/// the real `ContinuousClock`, with no simulator — replays against the same app code
/// (docs/guides/replaying.md, "Replaying a trace from a real app").
@MainActor
@Suite struct RealAppReplayTests {
  /// App code as it would ship: saves a note when the user taps Save (inside a
  /// background task, the server's answer read through `inputs`) and flushes a log when
  /// the app goes to the background.
  final class NotesApp: BackgroundAppDelegate, @unchecked Sendable {
    let host: any BackgroundTaskHost
    let context: AsyncContext
    let inputs: any RecordedInputs
    let network: @Sendable () async -> String
    /// Called when a save finished, with the server's answer.
    var onSaved: (String) -> Void = { _ in }

    init(
      host: any BackgroundTaskHost, context: AsyncContext, inputs: any RecordedInputs,
      network: @escaping @Sendable () async -> String
    ) {
      self.host = host
      self.context = context
      self.inputs = inputs
      self.network = network
    }

    func perform(userAction action: String) {
      guard action == "save" else { return }
      let id = host.beginBackgroundTask(withName: "SaveNote", expirationHandler: nil)
      let (inputs, network, host) = (inputs, network, host)
      context.run { [self] in
        let answer = await inputs.value(for: "save.response") { await network() }
        host.endBackgroundTask(id)
        onSaved(answer)
      }
    }

    func didEnterBackground() {
      let id = host.beginBackgroundTask(withName: "FlushLog", expirationHandler: nil)
      host.endBackgroundTask(id)
    }
  }

  @Test func aTraceRecordedOnRealTimeReplaysAgainstTheSameCode() async throws {
    // Recording, as the app runs on a device.
    let application = UIApplication()
    let center = NotificationCenter()
    let recorder = TraceRecorder()  // ContinuousClock: real time
    recorder.record(.appLaunch)  // what TraceRecorder.fromEnvironment() does at start-up
    _ = UIKitLifecycleTracer(recorder: recorder, center: center)
    let host = TracingBackgroundTaskHost(base: UIKitBackgroundTaskHost(application: application), recorder: recorder)
    let app = NotesApp(
      host: host, context: AsyncContext(executor: nil, clock: ContinuousClock()),
      inputs: RecordingInputs(recorder: recorder)
    ) { "201 Created" }
    app.didFinishLaunching()
    application.move(to: .inactive, postingOn: center)
    application.move(to: .active, postingOn: center)
    app.didBecomeActive()
    let answer = await withCheckedContinuation { (saved: CheckedContinuation<String, Never>) in
      app.onSaved = { saved.resume(returning: $0) }
      recorder.recordUserAction("save")  // the Save button's action
      app.perform(userAction: "save")
    }
    #expect(answer == "201 Created")
    application.move(to: .background, postingOn: center)
    app.willResignActive()
    app.didEnterBackground()
    let recorded = recorder.trace
    #expect(
      recorded.events.map { TextTraceWriter.line(for: TraceEvent(time: .zero, $0.kind)) } == [
        "0 app.launch",
        "0 app.state to=inactive",
        "0 app.state to=active",
        "0 mark label=user:save",
        "0 task.begin id=1 name=SaveNote",
        "0 input key=save.response value=\"201 Created\"",
        "0 task.end id=1",
        "0 app.state to=inactive",
        "0 app.state to=background",
        "0 task.begin id=2 name=FlushLog",
        "0 task.end id=2",
      ])

    // Replaying on a laptop: the same code, the network never called.
    var saved: [String] = []
    let result = Replayer.replay(recorded) { platform in
      let replayed = NotesApp(
        host: platform, context: AsyncContext(simulation: platform.scheduler), inputs: platform.inputs
      ) { "not called in a replay" }
      replayed.onSaved = { saved.append($0) }
      return replayed
    }
    #expect(result.divergence == nil, "\(String(describing: result.divergence))")
    #expect(result.unapplied.isEmpty)
    #expect(saved == ["201 Created"])
    #expect(result.trace.events.map(\.kind) == recorded.events.map(\.kind))
    #expect(result.findings.isEmpty)
  }
}
