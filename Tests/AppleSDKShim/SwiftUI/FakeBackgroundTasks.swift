import Synchronization

/// The fake's controls: not SwiftUI API. SwiftUI keeps a scene's background-task actions
/// and runs the matching one when the system launches a task; tests do the same.
public enum FakeBackgroundTasks: Sendable {
  private static let actions = Mutex<[String: @Sendable () async -> Void]>([:])

  static func keep(_ identifier: String, _ action: @escaping @Sendable () async -> Void) {
    actions.withLock { $0[identifier] = action }
  }

  /// Runs the action kept for `identifier`, as SwiftUI does when the system launches the
  /// task, and returns when it returns (when SwiftUI completes the task).
  ///
  /// - Returns: `false` when no scene kept an action for `identifier`.
  @discardableResult
  public static func launch(_ identifier: String) async -> Bool {
    guard let action = actions.withLock({ $0[identifier] }) else { return false }
    await action()
    return true
  }
}
