import BackgroundTrace

/// SwiftUI-style async actions (``TaskScheduling/backgroundTask(_:action:)``) in a
/// replay: registered as any launch handler, started at the recorded `sched.launch`,
/// cancelled at the recorded `sched.expire`, and their completion recorded as the app's
/// action.
extension ReplayPlatform {
  /// The replayed process's executor, read at each recorded launch.
  public var actionExecutor: (any TaskExecutor)? { scheduler.executor }
}
