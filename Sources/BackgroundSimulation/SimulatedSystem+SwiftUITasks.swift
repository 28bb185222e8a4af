import BackgroundTrace

/// SwiftUI-style async actions (``TaskScheduling/backgroundTask(_:action:)``) on the
/// simulated scheduler: their registration, launch, expiration and completion are the
/// scheduler's own (docs/platform-model.md, "SwiftUI's backgroundTask").
extension SimulatedSystem {
  /// The current process's executor, read at each launch: an action runs on the virtual
  /// clock as the app's other async code does, waits while the app is suspended and
  /// never resumes once the process has died. Its expiration cancels it at the virtual
  /// instant of `sched.expire`.
  public var actionExecutor: (any TaskExecutor)? { scheduler.executor }
}
