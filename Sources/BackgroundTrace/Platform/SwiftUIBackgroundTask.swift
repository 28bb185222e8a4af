import Synchronization

/// A kind of background task that a SwiftUI-style async action handles: SwiftUI's
/// `BackgroundTask<Request, Response>` as `Scene.backgroundTask(_:action:)` takes it
/// (https://developer.apple.com/documentation/swiftui/backgroundtask), for the tasks
/// BGTaskScheduler launches.
///
/// ```swift
/// // SwiftUI:            .backgroundTask(.appRefresh("com.example.refresh")) { await refresh() }
/// scheduler.backgroundTask(.appRefresh("com.example.refresh")) { await refresh() }
/// ```
public struct SwiftUIBackgroundTask: Sendable, Hashable {
  /// The identifier, listed in `BGTaskSchedulerPermittedIdentifiers`.
  public var identifier: String
  /// The kind of request that launches it: a refresh for ``appRefresh(_:)``, a
  /// processing request for ``processingTask(_:)``.
  public var type: SchedulerRequestType

  /// Creates a task kind.
  public init(identifier: String, type: SchedulerRequestType) {
    self.identifier = identifier
    self.type = type
  }

  /// SwiftUI's `BackgroundTask.appRefresh(_:)`: "A task that updates your app's state in
  /// the background for a matching identifier"
  /// (https://developer.apple.com/documentation/swiftui/backgroundtask/apprefresh(_:)),
  /// `static func appRefresh(_ identifier: String) -> BackgroundTask<Void, Void>`.
  public static func appRefresh(_ identifier: String) -> SwiftUIBackgroundTask {
    SwiftUIBackgroundTask(identifier: identifier, type: .refresh)
  }

  /// SwiftUI's `BackgroundTask.processingTask(_:)`, new in iOS 27.0: the action runs for
  /// each launch of a `BGProcessingTaskRequest` of the identifier, and the run ends as
  /// for ``appRefresh(_:)`` (the iOS 27.0 SDK's `SwiftUI.swiftinterface`:
  /// `@available(iOS 27.0, tvOS 27.0, watchOS 27.0, *) public static func
  /// processingTask(_ identifier: String) -> BackgroundTask<Void, Void>`; Apple has no
  /// documentation page for it yet, docs/platform-model.md, "SwiftUI's backgroundTask").
  public static func processingTask(_ identifier: String) -> SwiftUIBackgroundTask {
    SwiftUIBackgroundTask(identifier: identifier, type: .processing)
  }
}

extension TaskScheduling {
  /// Runs `action` each time the system launches a task of `task`'s identifier, as
  /// SwiftUI's `Scene.backgroundTask(_:action:)` does
  /// (https://developer.apple.com/documentation/swiftui/scene/backgroundtask(_:action:)):
  ///
  /// - SwiftUI registers the identifier for the app, with BGTaskScheduler choosing the
  ///   queue (`BGTaskSchedulerProxy registerForTaskWithIdentifier:launchHandler:` in
  ///   iOS 26.1's SwiftUI passes `usingQueue:0`), and returns `YES` whatever
  ///   BGTaskScheduler answered: an identifier the app may not use fails silently —
  ///   `sched.register ok=false`, and the submits for it are rejected `notPermitted`.
  ///   So this returns nothing. Call it where registrations go, before the app finishes
  ///   launching.
  /// - "The system considers the task completed when the action closure that you
  ///   provide returns": the run completes with `setTaskCompleted(success: true)`
  ///   (`sched.complete success=true`) when `action` returns, whatever it did.
  /// - "If the action closure has not returned when the task runs out of time to
  ///   complete, the system cancels the task": the expiration (`sched.expire`) cancels
  ///   the Swift task running `action`; an action that ignores cancellation keeps the
  ///   run open past its time, and iOS kills the app as for any uncompleted run.
  ///
  /// The action runs as a task on ``actionExecutor`` (the simulation's and the replay's
  /// virtual-time executor, so an action is as deterministic as the rest of the app).
  /// Work the action starts in a task of its own and does not await is not part of the
  /// run: the run completes when the action returns, and the app is then suspended with
  /// that work unfinished.
  ///
  /// - Parameters:
  ///   - task: the kind of task and its identifier (``SwiftUIBackgroundTask/appRefresh(_:)``).
  ///   - action: the async closure run at each launch.
  public func backgroundTask(_ task: SwiftUIBackgroundTask, action: @escaping @Sendable () async -> Void) {
    register(forTaskWithIdentifier: task.identifier, using: nil, registeredFrom: nil) { [weak self] launched in
      let run = ActionRun()
      launched.expirationHandler = { run.cancel() }
      run.start(
        Task(executorPreference: self?.actionExecutor) {
          await action()
          launched.setTaskCompleted(success: true)
        })
    }
  }

  /// `nil`: on a device SwiftUI's actions run on the global concurrent executor.
  public var actionExecutor: (any TaskExecutor)? { nil }
}

/// The Swift task running one launch's action, which the launch's expiration cancels:
/// the expiration can come before the task is made (iOS delivers an expiration that
/// arrived during launch right after the handler returns) or from another thread.
private final class ActionRun: Sendable {
  private let state = Mutex<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))

  func start(_ task: Task<Void, Never>) {
    let cancelled = state.withLock { state in
      state.task = task
      return state.cancelled
    }
    if cancelled { task.cancel() }
  }

  func cancel() {
    let task = state.withLock { state in
      state.cancelled = true
      return state.task
    }
    task?.cancel()
  }
}
