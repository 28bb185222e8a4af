import AppleAdapters
import BackgroundTasks
import BackgroundTrace
import SwiftUI
import Synchronization
import Testing

/// A scene with a refresh action, as a SwiftUI app writes it.
private struct RefreshScene: Scene {
  let identifier: String
  let runs: SwiftUIRunRecorder?
  let action: @Sendable () async -> Void

  var body: some Scene {
    self.backgroundTask(.appRefresh(identifier), recordingWith: runs, action: action)
  }
}

/// The SwiftUI adapter (`Scene.backgroundTask(_:recordingWith:action:)`) against the
/// SwiftUI shim's fake, which runs a kept action as SwiftUI does at a launch.
@Suite struct SwiftUIBackgroundTasksTests {
  /// SwiftUI's modifier gets the action; each launch is recorded as a run that completes
  /// (`success=true`) when the action returns, and the registration once, however often
  /// the scene's body is built.
  @Test func aSceneActionsRunsAreRecorded() async {
    let recorder = TraceRecorder(clock: StoppedClock())
    let tracing = TracingTaskScheduler(base: BackgroundTasksScheduler(scheduler: BGTaskScheduler()), recorder: recorder)
    let scene = RefreshScene(identifier: "com.example.swiftui-refresh", runs: tracing.swiftUIRuns) {}
    _ = scene.body
    _ = scene.body
    #expect(await FakeBackgroundTasks.launch("com.example.swiftui-refresh"))
    #expect(await FakeBackgroundTasks.launch("com.example.swiftui-refresh"))
    #expect(
      recorder.trace.text == """
        bgtrace 1
        0 sched.register ident=com.example.swiftui-refresh
        0 sched.launch ident=com.example.swiftui-refresh run=1
        0 sched.complete run=1 success=true
        0 sched.launch ident=com.example.swiftui-refresh run=2
        0 sched.complete run=2 success=true

        """)
  }

  /// With no recorder the modifier is SwiftUI's alone: the action still runs.
  @Test func withoutARecorderTheActionRuns() async {
    let ran = Ran()
    _ = RefreshScene(identifier: "com.example.swiftui-untraced", runs: nil) { ran.mark() }.body
    #expect(await FakeBackgroundTasks.launch("com.example.swiftui-untraced"))
    #expect(ran.count == 1)
  }
}

private final class Ran: Sendable {
  private let value = Mutex(0)
  func mark() { value.withLock { $0 += 1 } }
  var count: Int { value.withLock { $0 } }
}
