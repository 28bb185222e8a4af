package import BackgroundTrace

/// The seed article's `DocumentManager` (UIKit background tasks): saving a large
/// document when the app goes to the background, with the expiration handler saving
/// progress.
///
/// The seed's bug, kept when `resetsInvalidID` is off: the expiration handler ends the
/// task and resets the stored id to `.invalid`, and when the save finishes later it
/// ends `.invalid` again (`task.end id=0`, which iOS only logs).
package final class DocumentManager: @unchecked Sendable {
  private let host: any BackgroundTaskHost
  private let context: AsyncContext
  private var backgroundTaskID = BackgroundTaskID.invalid
  /// Whether `endBackgroundTask` guards against `.invalid` (the fix).
  package let guardsInvalidID: Bool
  /// Progress saves the expiration handler made.
  package private(set) var progressSaves = 0
  /// Completed saves.
  package private(set) var completedSaves = 0

  /// Creates the manager.
  package init(host: any BackgroundTaskHost, context: AsyncContext, guardsInvalidID: Bool = false) {
    self.host = host
    self.context = context
    self.guardsInvalidID = guardsInvalidID
  }

  /// Saves a document that takes `duration` to write, asking for background time.
  package func save(named name: String = "SaveDocument", taking duration: Duration) {
    backgroundTaskID = host.beginBackgroundTask(withName: name) { [self] in
      progressSaves += 1
      endBackgroundTask()
    }
    context.run { [self] in
      try? await context.sleep(duration)
      completedSaves += 1
      endBackgroundTask()
    }
  }

  private func endBackgroundTask() {
    if guardsInvalidID && backgroundTaskID == .invalid { return }
    host.endBackgroundTask(backgroundTaskID)
    backgroundTaskID = .invalid
  }
}
