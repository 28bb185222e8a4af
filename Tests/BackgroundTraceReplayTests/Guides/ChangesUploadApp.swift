import BackgroundTrace

// docs/guides/replaying.md's app, as the guide shows it (the snippet test checks that
// the guide's text is this file's).

/// Uploads the user's changes when the app goes to the background, inside a UIKit
/// background task. The upload's answer is a recorded input, so a replay hands it back
/// at the recorded time instead of calling the network.
final class ChangesUploadApp: BackgroundAppDelegate, @unchecked Sendable {
  private let host: any BackgroundTaskHost
  private let context: AsyncContext
  private let inputs: any RecordedInputs
  private let upload: @Sendable () async -> String
  private var taskID = BackgroundTaskID.invalid
  private(set) var cutShort = 0

  init(
    host: any BackgroundTaskHost, context: AsyncContext, inputs: any RecordedInputs,
    upload: @escaping @Sendable () async -> String
  ) {
    self.host = host
    self.context = context
    self.inputs = inputs
    self.upload = upload
  }

  func didEnterBackground() {
    taskID = host.beginBackgroundTask(withName: "UploadChanges") { [self] in
      cutShort += 1  // the bug: the task stays open
    }
    let inputs = inputs
    let upload = upload
    context.run { [self] in
      _ = await inputs.value(for: "upload.result", upload)
      endTask()
    }
  }

  private func endTask() {
    guard taskID != .invalid else { return }
    host.endBackgroundTask(taskID)
    taskID = .invalid
  }
}

/// The app after the fix: the expiration handler ends the task (the guide's third step
/// shows the changed handler).
final class FixedChangesUploadApp: BackgroundAppDelegate, @unchecked Sendable {
  private let host: any BackgroundTaskHost
  private let context: AsyncContext
  private let inputs: any RecordedInputs
  private let upload: @Sendable () async -> String
  private var taskID = BackgroundTaskID.invalid

  init(
    host: any BackgroundTaskHost, context: AsyncContext, inputs: any RecordedInputs,
    upload: @escaping @Sendable () async -> String
  ) {
    self.host = host
    self.context = context
    self.inputs = inputs
    self.upload = upload
  }

  func didEnterBackground() {
    taskID = host.beginBackgroundTask(withName: "UploadChanges") { [self] in
      endTask()  // the fix: out of time, end the task
    }
    let inputs = inputs
    let upload = upload
    context.run { [self] in
      _ = await inputs.value(for: "upload.result", upload)
      endTask()
    }
  }

  private func endTask() {
    guard taskID != .invalid else { return }
    host.endBackgroundTask(taskID)
    taskID = .invalid
  }
}
