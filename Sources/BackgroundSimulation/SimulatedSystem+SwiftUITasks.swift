public import BackgroundTrace

/// SwiftUI-style async actions on the simulated system (docs/platform-model.md,
/// "SwiftUI's backgroundTask"): ``TaskScheduling/backgroundTask(_:action:)``'s
/// registration, launch, expiration and completion are the scheduler's own;
/// ``BackgroundTransfers/backgroundTask(_:action:)``'s actions run at a session's wake
/// (`SimulatedSystem+TransferEvents.swift`).
extension SimulatedSystem {
  /// The current process's executor, read at each launch: an action runs on the virtual
  /// clock as the app's other async code does, waits while the app is suspended and
  /// never resumes once the process has died. Its expiration cancels it at the virtual
  /// instant of `sched.expire`.
  public var actionExecutor: (any TaskExecutor)? { scheduler.executor }

  /// Keeps `action` for this process's wakes of the sessions `task` matches: at such a
  /// wake it runs on ``actionExecutor`` instead of the app delegate's `handleEvents`,
  /// and its return calls the wake's completion handler (`net.handler`); the wake's
  /// background time running out cancels it.
  public func backgroundTask<Request: Sendable>(
    _ task: SwiftUIURLSessionTask<Request>, action: @escaping @Sendable (Request) async -> Void
  ) {
    sessionActions.add(task, action)
  }
}
