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

/// A scene with a URL-session action, as a SwiftUI app writes it.
private struct DownloadsScene<Request: Sendable>: Scene {
  let task: SwiftUIURLSessionTask<Request>
  let wakes: SwiftUIWakeRecorder?
  let action: @Sendable (Request) async -> Void

  var body: some Scene {
    self.backgroundTask(task, recordingWith: wakes, action: action)
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

extension SwiftUIBackgroundTasksTests {
  /// SwiftUI's `.urlSession(_:)`: SwiftUI runs the action when the system hands the app
  /// the session's events, and calls the completion handler when it returns; the
  /// adapter records that as `net.wake` and `net.handler`. An action that returns at
  /// once records the handler at once, before any `net.events-done`: what the checker
  /// reports as `net-handler-early` (SwiftUIURLSessionModelTests has the whole run).
  @Test func aSessionActionsWakesAreRecorded() async {
    let recorder = TraceRecorder(clock: StoppedClock())
    let tracing = TracingBackgroundTransfers(base: URLSessionTransfers(), recorder: recorder)
    let ran = Ran()
    _ =
      DownloadsScene(task: .urlSession("com.example.swiftui-downloads"), wakes: tracing.swiftUIWakes) {
        ran.mark()
      }.body
    #expect(await FakeBackgroundTasks.launch(.urlSession("com.example.swiftui-downloads")))
    #expect(!(await FakeBackgroundTasks.launch(.urlSession("com.example.other-session"))))
    #expect(ran.count == 1)
    #expect(
      recorder.trace.text == """
        bgtrace 1
        0 net.wake session=com.example.swiftui-downloads
        0 net.handler session=com.example.swiftui-downloads

        """)
  }

  /// `.urlSession(matching:)` hands the action the session's identifier, and takes only
  /// the sessions its predicate accepts.
  @Test func aMatchingActionGetsTheSessionsIdentifier() async {
    let seen = Seen()
    _ =
      DownloadsScene(task: .urlSession(matching: { $0.hasPrefix("com.example.matching.") }), wakes: nil) {
        seen.add($0)
      }.body
    #expect(await FakeBackgroundTasks.launch(.urlSession("com.example.matching.a")))
    #expect(!(await FakeBackgroundTasks.launch(.urlSession("com.example.unmatched"))))
    #expect(seen.values == ["com.example.matching.a"])
  }

  /// Without SwiftUI, `URLSessionTransfers` keeps the actions for a UIKit delegate's
  /// `handleEventsForBackgroundURLSession`, which calls the completion handler when they
  /// return; a session no action matches is left to the caller.
  @Test func urlSessionTransfersRunTheActionsForADelegate() async {
    let transfers = URLSessionTransfers()
    let seen = Seen()
    transfers.backgroundTask(.urlSession) { seen.add($0) }
    let handled = Ran()
    await withCheckedContinuation { continuation in
      #expect(
        transfers.handleEvents(forBackgroundSession: "com.example.any") {
          handled.mark()
          continuation.resume()
        })
    }
    #expect(seen.values == ["com.example.any"] && handled.count == 1)
    #expect(!URLSessionTransfers().handleEvents(forBackgroundSession: "com.example.any") {})
  }
}

private final class Seen: Sendable {
  private let value = Mutex<[String]>([])
  func add(_ identifier: String) { value.withLock { $0.append(identifier) } }
  var values: [String] { value.withLock { $0 } }
}

private final class Ran: Sendable {
  private let value = Mutex(0)
  func mark() { value.withLock { $0 += 1 } }
  var count: Int { value.withLock { $0 } }
}
