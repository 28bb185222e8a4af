package import BackgroundTrace

/// The seed's `BackgroundTaskManager`: named background tasks, each ended once by
/// name, with the remaining background time read at each start.
package final class BackgroundTaskManager: @unchecked Sendable {
  private let host: any BackgroundTaskHost
  private var tasks: [String: BackgroundTaskID] = [:]
  /// `backgroundTimeRemaining` at each start, for tests.
  package private(set) var remainingAtStart: [Double] = []

  /// Creates the manager.
  package init(host: any BackgroundTaskHost) {
    self.host = host
  }

  /// Starts a named task; `expiration` runs if its time runs out, then the task ends.
  ///
  /// The seed takes `expiration: @escaping () -> Void` and calls it from UIKit's
  /// handler; against the iOS 26 SDK in Swift 6 that does not compile ("sending
  /// 'expiration' risks causing data races": UIKit's handler is `@MainActor @Sendable`),
  /// so it takes what UIKit's handler may call.
  package func startTask(name: String, expiration: @escaping @MainActor @Sendable () -> Void = {}) {
    remainingAtStart.append(host.backgroundTimeRemaining)
    let task = host.beginBackgroundTask(withName: name) { [weak self] in
      expiration()
      self?.endTask(name: name)
    }
    tasks[name] = task
  }

  /// Ends the named task, once.
  package func endTask(name: String) {
    guard let task = tasks.removeValue(forKey: name), task != .invalid else { return }
    host.endBackgroundTask(task)
  }
}
