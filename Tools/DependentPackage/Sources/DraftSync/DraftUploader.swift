public import BackgroundTrace

/// Uploads the user's unsaved draft when the app goes to the background, inside a
/// UIKit background task, the way most apps write it: begin, upload, end; the
/// expiration handler cancels the upload and ends the task.
public final class DraftUploader: @unchecked Sendable {
  private let host: any BackgroundTaskHost
  private let context: AsyncContext
  private var taskID = BackgroundTaskID.invalid
  private var upload: Task<Void, Never>?
  /// How many uploads finished.
  public private(set) var uploaded = 0

  /// Creates an uploader on `host` (UIKit's, the tracing wrapper or the simulation),
  /// running its async work in `context`.
  public init(host: any BackgroundTaskHost, context: AsyncContext) {
    self.host = host
    self.context = context
  }

  /// Called from `sceneDidEnterBackground`: uploads the draft, taking `duration`.
  public func appDidEnterBackground(uploadTaking duration: Duration) {
    taskID = host.beginBackgroundTask(withName: "UploadDraft") { [self] in
      upload?.cancel()
      finish()
    }
    let sleep = context.sleep
    context.run { [self] in
      do {
        try await sleep(duration)
        uploaded += 1
      } catch {
        // Cancelled by the expiration handler.
      }
      finish()
    }
  }

  private func finish() {
    guard taskID != .invalid else { return }
    host.endBackgroundTask(taskID)
    taskID = .invalid
  }
}
