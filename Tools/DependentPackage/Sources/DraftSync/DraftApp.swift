public import BackgroundTrace

/// The app's delegate: when the user leaves, it uploads the draft over the network,
/// reading the network's answer through `inputs`, so a recorded run replays with the
/// same answer at the same time.
public final class DraftApp: BackgroundAppDelegate {
  /// The uploader, for tests to look at.
  public let uploader: DraftUploader
  private let inputs: any RecordedInputs
  private let network: @Sendable () async -> String

  /// Creates the app on a platform (UIKit's adapters, the simulation or a replay).
  ///
  /// - Parameters:
  ///   - host: the background-task API.
  ///   - context: where async work runs.
  ///   - inputs: records (or, in a replay, answers) the network's result.
  ///   - network: uploads the draft and returns the server's answer.
  public init(
    host: any BackgroundTaskHost, context: AsyncContext, inputs: any RecordedInputs,
    network: @escaping @Sendable () async -> String
  ) {
    uploader = DraftUploader(host: host, context: context)
    self.inputs = inputs
    self.network = network
  }

  /// Uploads the draft inside a background task.
  public func didEnterBackground() {
    let inputs = inputs
    let network = network
    uploader.appDidEnterBackground {
      _ = await inputs.value(for: "upload.response") { await network() }
    }
  }
}
