package import BackgroundTrace

/// An app that uploads pending changes when it goes to the background, inside a UIKit
/// background task: the flaky-failure example. Whether the upload finishes within the
/// 30 s budget depends on the network, so a test of it passes or fails by timing.
///
/// The bug (with `endsTaskOnExpiration` off): the expiration handler only flags the
/// upload as cancelled and leaves the task open, so when an upload outlasts the budget
/// the watchdog kills the app. The fix ends the task in the handler.
package final class UploadApp: BackgroundAppDelegate, @unchecked Sendable {
  private let host: any BackgroundTaskHost
  private let context: AsyncContext
  private let inputs: any RecordedInputs
  private let upload: @Sendable () async -> String
  /// Whether the expiration handler ends the task (the fix).
  package let endsTaskOnExpiration: Bool
  private var taskID = BackgroundTaskID.invalid
  /// Uploads that finished, and uploads cut short by the expiration.
  package private(set) var finished = 0, cutShort = 0

  /// Creates the app.
  ///
  /// - Parameters:
  ///   - upload: the network upload; its result is a recorded input, so a replay
  ///     finishes it at the recorded time with the recorded outcome.
  package init(
    host: any BackgroundTaskHost, context: AsyncContext, inputs: any RecordedInputs,
    endsTaskOnExpiration: Bool = false, upload: @escaping @Sendable () async -> String
  ) {
    self.host = host
    self.context = context
    self.inputs = inputs
    self.endsTaskOnExpiration = endsTaskOnExpiration
    self.upload = upload
  }

  /// Begins the `UploadChanges` task and uploads; the task ends when the upload finishes,
  /// and in the expiration handler only with `endsTaskOnExpiration` (the fix).
  package func didEnterBackground() {
    taskID = host.beginBackgroundTask(withName: "UploadChanges") { [self] in
      cutShort += 1
      if endsTaskOnExpiration { endTask() }
    }
    let inputs = self.inputs
    let upload = self.upload
    context.run { [self] in
      let outcome = await inputs.value(for: "upload.result", upload)
      if outcome == "ok" { finished += 1 }
      endTask()
    }
  }

  private func endTask() {
    guard taskID != .invalid else { return }
    host.endBackgroundTask(taskID)
    taskID = .invalid
  }
}
