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

/// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtask
/// (BackgroundTasks/BGTask.h: `@interface BGContinuedProcessingTask : BGTask <NSProgressReporting>`,
/// iOS 26).
public final class BGContinuedProcessingTask: BGTask {
  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtask/title
  /// (BGTask.h: `@property (readonly, copy) NSString *title`).
  public private(set) var title: String

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtask/subtitle
  /// (BGTask.h: `@property (readonly, copy) NSString *subtitle`).
  public private(set) var subtitle: String

  /// Apple: https://developer.apple.com/documentation/foundation/progressreporting/progress
  /// (`NSProgressReporting`: `@property (readonly) NSProgress *progress`; the iOS 26.1
  /// framework makes it in `_initWithIdentifier:activity:` and observes its
  /// `fractionCompleted`).
  public let progress = Progress(totalUnitCount: 0)

  /// Fake: a task launched for `identifier` with the request's title and subtitle (not
  /// BackgroundTasks API).
  public init(identifier: String, title: String, subtitle: String) {
    self.title = title
    self.subtitle = subtitle
    super.init(identifier: identifier)
  }

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtask/updatetitle(_:subtitle:)
  /// (BGTask.h: `- (void)updateTitle:(NSString *)title subtitle:(NSString *)subtitle`).
  public func updateTitle(_ title: String, subtitle: String) {
    self.title = title
    self.subtitle = subtitle
  }
}
