/// A ``BackgroundTaskHost`` that forwards to a base host (UIKit, or the simulation)
/// and records every call and every expiration into a ``TraceRecorder``.
///
/// ```swift
/// let host = TracingBackgroundTaskHost(base: UIKitBackgroundTaskHost(), recorder: recorder)
/// let id = host.beginBackgroundTask(withName: "SaveDocument") { … }   // task.begin
/// ```
public final class TracingBackgroundTaskHost: BackgroundTaskHost, Sendable {
  /// The host that does the work.
  public let base: any BackgroundTaskHost
  /// Where events go.
  public let recorder: TraceRecorder

  /// Wraps `base`, recording into `recorder`.
  public init(base: any BackgroundTaskHost, recorder: TraceRecorder) {
    self.base = base
    self.recorder = recorder
  }

  /// Forwards to the base host and records `task.begin` with the id it returns, wrapping
  /// the handler so that `task.expire` is recorded before it runs.
  ///
  /// - Parameters:
  ///   - taskName: the task's name, recorded as `name=`.
  ///   - handler: the app's expiration handler.
  /// - Returns: the base host's id (recorded as `id=0` when ``BackgroundTaskID/invalid``).
  public func beginBackgroundTask(
    withName taskName: String?, expirationHandler handler: (@MainActor @Sendable () -> Void)?
  ) -> BackgroundTaskID {
    // The id is known only after `begin` returns; the handler runs later, so it reads it then.
    let box = IdentifierBox()
    let recorder = self.recorder
    let id = base.beginBackgroundTask(withName: taskName) {
      recorder.record(.taskExpire(id: box.id.rawValue))
      handler?()
    }
    box.id = id
    recorder.record(.taskBegin(id: id.rawValue, name: taskName))
    return id
  }

  /// Records `task.end` and forwards to the base host.
  public func endBackgroundTask(_ identifier: BackgroundTaskID) {
    recorder.record(.taskEnd(id: identifier.rawValue))
    base.endBackgroundTask(identifier)
  }

  /// The base host's value, recorded as `input key=system.backgroundTimeRemaining` so a
  /// replay gives the app the same answer.
  public var backgroundTimeRemaining: Double {
    let remaining = base.backgroundTimeRemaining
    recorder.record(RecordedAnswer.backgroundTimeRemainingRead(remaining))
    return remaining
  }
}

/// Holds a task id for an expiration handler created before the id exists.
private final class IdentifierBox: @unchecked Sendable {
  var id = BackgroundTaskID.invalid
}
