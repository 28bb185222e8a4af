public import BackgroundTrace

/// Uploads the user's unsaved draft when the app goes to the background, inside a
/// UIKit background task, the way most apps write it: begin, upload, end; the
/// expiration handler ends the task if the upload is still running.
public final class DraftUploader: @unchecked Sendable {
  private let host: any BackgroundTaskHost
  private let context: AsyncContext
  private var taskID = BackgroundTaskID.invalid
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
    let sleep = context.sleep
    appDidEnterBackground { try await sleep(duration) }
  }

  /// Called from `sceneDidEnterBackground`: runs `upload` inside a background task.
  public func appDidEnterBackground(upload: @escaping @Sendable () async throws -> Void) {
    taskID = host.beginBackgroundTask(withName: "UploadDraft") { [self] in
      finish()
    }
    context.run { [self] in
      do {
        try await upload()
        uploaded += 1
      } catch {
        // The upload failed; the draft stays for the next try.
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
