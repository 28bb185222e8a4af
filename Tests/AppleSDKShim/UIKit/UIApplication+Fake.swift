import Synchronization

/// The fake's controls: not UIKit API. Tests drive the shim's `UIApplication` with them
/// the way the system would (expire a task, refuse background time, change state).
extension UIApplication {
  /// The tasks begun and not yet ended or expired, in the order they began.
  public nonisolated var openBackgroundTaskIdentifiers: [UIBackgroundTaskIdentifier] {
    fake.withLock { $0.open.keys.sorted().map { UIBackgroundTaskIdentifier(rawValue: $0) } }
  }

  /// Every identifier passed to `endBackgroundTask(_:)`, in call order (unknown ones too).
  public nonisolated var endedBackgroundTaskIdentifiers: [UIBackgroundTaskIdentifier] {
    fake.withLock { $0.ended.map { UIBackgroundTaskIdentifier(rawValue: $0) } }
  }

  /// The name a task began with.
  public nonisolated func name(of identifier: UIBackgroundTaskIdentifier) -> String? {
    fake.withLock { $0.names[identifier.rawValue] ?? nil }
  }

  /// When set, `beginBackgroundTask` returns `.invalid` (background running not possible).
  public nonisolated var refusesBackgroundTasks: Bool {
    get { fake.withLock { $0.refuses } }
    set { fake.withLock { $0.refuses = newValue } }
  }

  /// Sets what `backgroundRefreshStatus` reads.
  public nonisolated func setBackgroundRefreshStatus(_ status: UIBackgroundRefreshStatus) {
    fake.withLock { $0.backgroundRefreshStatus = status }
  }

  /// Sets what `backgroundTimeRemaining` reads.
  public nonisolated func setBackgroundTimeRemaining(_ seconds: TimeInterval) {
    fake.withLock { $0.timeRemaining = seconds }
  }

  /// Runs the open task's expiration handler on the main actor, as UIKit does shortly
  /// before the background time runs out; the task stays open until the app ends it.
  ///
  /// - Returns: `false` when no such task is open.
  @discardableResult
  public func expireBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) -> Bool {
    guard let handler = fake.withLock({ $0.open[identifier.rawValue] }) else { return false }
    handler?()
    return true
  }

  /// Moves to `state`, posting on `center` what UIKit posts on the way: into the
  /// background `willResignActive` then `didEnterBackground`; back `willEnterForeground`
  /// then `didBecomeActive`; from active to inactive `willResignActive` only.
  public func move(to state: State, postingOn center: NotificationCenter = .default) {
    let from = fake.withLock { fake in
      defer { fake.applicationState = state }
      return fake.applicationState
    }
    let names: [NSNotification.Name] =
      switch (from, state) {
      case (.active, .background): [Self.willResignActiveNotification, Self.didEnterBackgroundNotification]
      case (.inactive, .background): [Self.didEnterBackgroundNotification]
      case (.background, .active): [Self.willEnterForegroundNotification, Self.didBecomeActiveNotification]
      case (.background, .inactive): [Self.willEnterForegroundNotification]
      case (.inactive, .active): [Self.didBecomeActiveNotification]
      case (.active, .inactive): [Self.willResignActiveNotification]
      default: []
      }
    for name in names { center.post(name: name, object: self) }
  }

  /// Posts `willTerminateNotification` on `center`, as UIKit does before the app ends.
  public func terminate(postingOn center: NotificationCenter = .default) {
    center.post(name: Self.willTerminateNotification, object: self)
  }
}
