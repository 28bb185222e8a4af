/// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtask
/// (`class BGTask`, abstract; the shim is not an `NSObject`).
open class BGTask {
  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtask/identifier
  /// (`var identifier: String { get }`).
  public let identifier: String

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtask/expirationhandler
  /// (`var expirationHandler: (() -> Void)? { get set }`; set to `nil` after it runs).
  public var expirationHandler: (() -> Void)?

  /// Fake: every `setTaskCompleted(success:)` argument, in call order (not BackgroundTasks API).
  public private(set) var completions: [Bool] = []

  init(identifier: String) {
    self.identifier = identifier
  }

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtask/settaskcompleted(success:)
  /// (`func setTaskCompleted(success: Bool)`).
  public func setTaskCompleted(success: Bool) {
    completions.append(success)
  }

  /// Fake: runs the expiration handler as the system does shortly before the task's time
  /// runs out, then clears it; with none set, marks the task complete and unsuccessful
  /// (not BackgroundTasks API).
  public func expire() {
    guard let handler = expirationHandler else {
      completions.append(false)
      return
    }
    handler()
    expirationHandler = nil
  }
}

@available(*, unavailable, message: "Apple does not declare BGTask Sendable")
extension BGTask: Sendable {}

/// Apple: https://developer.apple.com/documentation/backgroundtasks/bgapprefreshtask
/// (`class BGAppRefreshTask : BGTask`).
public final class BGAppRefreshTask: BGTask {}

/// Apple: https://developer.apple.com/documentation/backgroundtasks/bgprocessingtask
/// (`class BGProcessingTask : BGTask`).
public final class BGProcessingTask: BGTask {}
