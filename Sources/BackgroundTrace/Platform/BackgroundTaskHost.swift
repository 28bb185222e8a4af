/// The identifier `beginBackgroundTask` returns (`UIBackgroundTaskIdentifier`).
public struct BackgroundTaskID: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The system refused to start a task: background running is not possible.
  public static let invalid = BackgroundTaskID(rawValue: 0)

  /// The raw identifier: positive and increasing within a process, 0 for ``invalid``.
  public var rawValue: Int

  /// Creates an identifier.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// The raw id, or `.invalid` for ``invalid``.
  public var description: String { self == .invalid ? ".invalid" : "\(rawValue)" }
}

/// The UIKit background-task API (`UIApplication`), so app code depends on this
/// protocol instead of UIKit and runs against a real app, the tracing wrapper or the
/// simulation alike.
public protocol BackgroundTaskHost: AnyObject, Sendable {
  /// Asks for background running time; returns ``BackgroundTaskID/invalid`` when it is
  /// not possible. The system calls `handler` shortly before the time runs out, on the
  /// main thread; the app must end the task then.
  ///
  /// `handler` is main-actor isolated and sendable, as UIKit declares it
  /// (`UIApplication.beginBackgroundTask(withName:expirationHandler:)`, iOS 26 SDK:
  /// `(@MainActor @Sendable () -> Void)?`), so that a handler UIKit refuses is refused
  /// here too: one that captures a non-sendable value, or mutates a local variable.
  func beginBackgroundTask(
    withName taskName: String?, expirationHandler handler: (@MainActor @Sendable () -> Void)?
  ) -> BackgroundTaskID

  /// Ends a task. Ending an unknown or already ended id is harmless to the app (a
  /// console warning) but a bug `bgtrace check` reports.
  func endBackgroundTask(_ identifier: BackgroundTaskID)

  /// Seconds of background time left; `Double.greatestFiniteMagnitude` in the foreground.
  var backgroundTimeRemaining: Double { get }
}

extension BackgroundTaskHost {
  /// Asks for background running time without a name.
  public func beginBackgroundTask(expirationHandler handler: (@MainActor @Sendable () -> Void)?) -> BackgroundTaskID {
    beginBackgroundTask(withName: nil, expirationHandler: handler)
  }
}
