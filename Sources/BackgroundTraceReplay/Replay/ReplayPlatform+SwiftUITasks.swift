import BackgroundSimulation
public import BackgroundTrace

/// SwiftUI-style async actions in a replay: ``TaskScheduling/backgroundTask(_:action:)``'s
/// are registered as any launch handler, started at the recorded `sched.launch`,
/// cancelled at the recorded `sched.expire`, and their completion recorded as the app's
/// action; ``BackgroundTransfers/backgroundTask(_:action:)``'s run at the recorded
/// `net.wake` of a session they match (`Replayer`).
extension ReplayPlatform {
  /// The replayed process's executor, read at each recorded launch.
  public var actionExecutor: (any TaskExecutor)? { scheduler.executor }

  /// Keeps `action` for this process's recorded wakes of the sessions `task` matches:
  /// at such a `net.wake` it runs on the replay's executor instead of the app delegate's
  /// `handleEvents`, and `net.handler` is recorded when it returns.
  public func backgroundTask<Request: Sendable>(
    _ task: SwiftUIURLSessionTask<Request>, action: @escaping @Sendable (Request) async -> Void
  ) {
    sessionActions.add(task, action)
  }
}
