import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceReplay
import Dispatch
import Synchronization
import Testing

/// A trace recorded through the tracing wrappers with real, thread-based timing (a
/// dispatch-queue delay standing in for the network) replays on the virtual clock with
/// the same app actions.
@Suite struct WallClockReplayTests {
  /// Records the upload app on real time: the recorder reads `ContinuousClock`, the
  /// upload completes after a 30 ms `DispatchQueue` delay on another thread.
  static func recordWithRealTiming() async -> RecordedTrace {
    let recorder = TraceRecorder()
    let (ended, signal) = AsyncStream<Void>.makeStream()
    let host = TracingBackgroundTaskHost(base: ThreadedTaskHost { signal.yield() }, recorder: recorder)
    let app = UploadApp(
      host: host, context: AsyncContext(executor: nil, clock: ContinuousClock()),
      inputs: RecordingInputs(recorder: recorder)
    ) {
      await withCheckedContinuation { continuation in
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(30)) { continuation.resume() }
      }
      return "ok"
    }
    recorder.record(.appLaunch)
    app.didFinishLaunching()
    recorder.record(.appState(to: .active))
    recorder.record(.appState(to: .inactive))
    recorder.record(.appState(to: .background))
    app.didEnterBackground()
    for await _ in ended { break }  // the upload finished and ended its task
    recorder.record(.appState(to: .suspended))
    return recorder.trace
  }

  @Test func aWallClockTraceReplaysWithTheSameActions() async throws {
    let recorded = await Self.recordWithRealTiming()
    let actions = recorded.events.filter { $0.kind.side == .app }.map(\.kind)
    #expect(actions == [.taskBegin(id: 1, name: "UploadChanges"), .taskEnd(id: 1)])
    for _ in 0..<50 {
      let result = Replayer.replay(recorded) { platform in
        UploadApp(host: platform, context: AsyncContext(simulation: platform.scheduler), inputs: platform.inputs) {
          "not called in a replay"
        }
      }
      #expect(result.divergence == nil)
      #expect(result.unapplied.isEmpty)
      #expect(result.trace.events.map(\.kind) == recorded.events.map(\.kind))
      // System decisions and the input come back at their recorded (wall-clock) times;
      // the app's own actions happen at virtual times.
      let replayedInputs = result.trace.events.filter { $0.kind.side == .system }
      #expect(replayedInputs == recorded.events.filter { $0.kind.side == .system })
    }
  }
}

/// A minimal thread-safe host with real behaviour for a short run: ids from 1, no
/// expiration (the run ends well within any budget); `onEnd` runs after each end.
final class ThreadedTaskHost: BackgroundTaskHost, Sendable {
  private let nextID = Atomic<Int>(1)
  private let onEnd: @Sendable () -> Void

  init(onEnd: @escaping @Sendable () -> Void) {
    self.onEnd = onEnd
  }

  func beginBackgroundTask(
    withName taskName: String?, expirationHandler handler: (@MainActor @Sendable () -> Void)?
  ) -> BackgroundTaskID {
    BackgroundTaskID(rawValue: nextID.add(1, ordering: .relaxed).oldValue)
  }

  func endBackgroundTask(_ identifier: BackgroundTaskID) { onEnd() }

  var backgroundTimeRemaining: Double { 30 }
}
