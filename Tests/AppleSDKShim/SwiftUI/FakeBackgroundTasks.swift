import Synchronization

/// The fake's controls: not SwiftUI API. SwiftUI keeps a scene's background-task actions
/// and runs the matching ones when the system launches the app for a task; tests do the
/// same.
public enum FakeBackgroundTasks: Sendable {
  /// What the system launched the app for.
  public enum Launch: Sendable, Hashable {
    /// A `BGAppRefreshTask` of this identifier.
    case appRefresh(String)
    /// The events of the background `URLSession` of this identifier
    /// (`handleEventsForBackgroundURLSession`).
    case urlSession(String)
  }

  private struct Kept: Sendable {
    var matches: @Sendable (Launch) -> Bool
    var run: @Sendable (Launch) async -> Void
  }

  private static let actions = Mutex<[String: Kept]>([:])
  private static let keys = Atomic<Int>(0)

  /// A key no kind has had.
  static func nextKey() -> Int { keys.add(1, ordering: .relaxed).newValue }

  static func keep(
    _ key: String, _ matches: @escaping @Sendable (Launch) -> Bool,
    _ run: @escaping @Sendable (Launch) async -> Void
  ) {
    actions.withLock { $0[key] = Kept(matches: matches, run: run) }
  }

  /// Runs the actions kept for `launch`, one after the other, as SwiftUI does when the
  /// system launches the app for it, and returns when they have returned (when SwiftUI
  /// completes the task, or calls the session's completion handler).
  ///
  /// - Returns: `false` when no scene kept an action for `launch`.
  @discardableResult
  public static func launch(_ launch: Launch) async -> Bool {
    let matching = actions.withLock { actions in
      actions.keys.sorted().compactMap { actions[$0] }.filter { $0.matches(launch) }
    }
    for kept in matching { await kept.run(launch) }
    return !matching.isEmpty
  }

  /// Runs the actions kept for the app-refresh task `identifier` (``launch(_:)`` with
  /// ``Launch/appRefresh(_:)``).
  @discardableResult
  public static func launch(_ identifier: String) async -> Bool {
    await launch(.appRefresh(identifier))
  }
}
