import Synchronization

/// SwiftUI-style async actions through the tracing wrapper: the default
/// ``TaskScheduling/backgroundTask(_:action:)`` registers through
/// ``TracingTaskScheduler/register(forTaskWithIdentifier:using:registeredFrom:launchHandler:)``,
/// so its registration, launches, expirations and completions are recorded as any
/// handler's; and ``swiftUIRuns`` records the runs SwiftUI itself launches for a scene's
/// `.backgroundTask(_:action:)`.
extension TracingTaskScheduler {
  /// The base scheduler's executor for actions.
  public var actionExecutor: (any TaskExecutor)? { base.actionExecutor }

  /// Records the runs SwiftUI launches for a scene's `.backgroundTask(_:action:)` into
  /// this wrapper's recorder, numbered with its other launches.
  public var swiftUIRuns: SwiftUIRunRecorder { SwiftUIRunRecorder(recorder: recorder, launches: launches) }
}

/// Records what SwiftUI does with a scene's `.backgroundTask(_:action:)` (the SwiftUI
/// adapter's `backgroundTask(_:recordingWith:action:)`): its registration, and each run
/// it launches, expires and completes. Made by ``TracingTaskScheduler/swiftUIRuns``.
public struct SwiftUIRunRecorder: Sendable {
  let recorder: TraceRecorder
  let launches: LaunchNumbers

  /// Records `sched.register` for an identifier SwiftUI registers itself, once per
  /// identifier however often the scene is built. SwiftUI does not say whether
  /// BGTaskScheduler accepted it, so the registration is recorded as accepted; a refused
  /// one shows as the submits' `sched.reject error=notPermitted`.
  ///
  /// - Parameter task: the task kind SwiftUI registered.
  public func recordRegistration(_ task: SwiftUIBackgroundTask) {
    let first = launches.swiftUIRegistrations.withLock { $0.insert(task.identifier).inserted }
    if first { recorder.record(.schedRegister(identifier: task.identifier, ok: nil)) }
  }

  /// Runs `action` as a run SwiftUI launched for `task`: records `sched.launch`,
  /// `sched.expire` when the system cancels the task because its time ran out, and
  /// `sched.complete success=true` when the action returns, which is when SwiftUI
  /// completes the run.
  ///
  /// - Parameters:
  ///   - task: the task kind SwiftUI launched.
  ///   - action: the app's action.
  public func recordRun(of task: SwiftUIBackgroundTask, _ action: @Sendable () async -> Void) async {
    let run = launches.next()
    let recorder = self.recorder
    recorder.record(.schedLaunch(identifier: task.identifier, run: run))
    await withTaskCancellationHandler {
      await action()
    } onCancel: {
      recorder.record(.schedExpire(run: run))
    }
    recorder.record(.schedComplete(run: run, success: true))
  }
}

/// A tracing wrapper's launch numbers, and the identifiers whose SwiftUI registration it
/// recorded.
final class LaunchNumbers: Sendable {
  private let last = Atomic<Int>(0)
  let swiftUIRegistrations = Mutex<Set<String>>([])

  /// The next launch's number, from 1.
  func next() -> Int { last.add(1, ordering: .relaxed).newValue }
}
