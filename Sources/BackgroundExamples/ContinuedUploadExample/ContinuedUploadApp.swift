package import BackgroundTrace

/// The app around ``ContinuedUploader``: the user's action `upload:<name>:<chunk
/// seconds>,…` (as `SimulatedSystem.userAction` records it, so a replay performs it
/// again) starts an upload of that name with chunks of those durations.
package final class ContinuedUploadApp: BackgroundAppDelegate {
  /// The uploader the actions drive.
  package let uploader: ContinuedUploader

  /// Creates the app on `scheduler`, its async code run by `context`.
  package init(scheduler: any TaskScheduling, context: AsyncContext, fixed: Bool) {
    uploader = ContinuedUploader(scheduler: scheduler, context: context, bundleId: Self.bundleId, fixed: fixed)
  }

  /// The app's bundle identifier; its Info.plist permits `<bundle>.upload.*`.
  package static let bundleId = "com.example.ccviewer"

  /// `upload:<name>:<seconds>,<seconds>…`: uploads `name` in chunks of those durations.
  package func perform(userAction action: String) {
    let parts = action.split(separator: ":")
    guard parts.count == 3, parts[0] == "upload" else { return }
    let chunks = parts[2].split(separator: ",").compactMap { Int($0) }.map { Duration.seconds($0) }
    uploader.upload(uploadname: String(parts[1]), chunks: chunks)
  }
}
