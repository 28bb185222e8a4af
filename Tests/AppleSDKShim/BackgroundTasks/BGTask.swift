/// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtask
/// (BackgroundTasks.framework/Headers/BGTask.h, iOS 26.0 SDK: `BG_EXTERN
/// API_AVAILABLE(ios(13.0), tvos(13.0)) API_UNAVAILABLE(macos) API_UNAVAILABLE(watchos)
/// @interface BGTask : NSObject`, abstract; the shim is not an `NSObject`).
@available(iOS 13.0, tvOS 13.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
open class BGTask {
  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtask/identifier
  /// (BGTask.h, iOS 26.0 SDK: `@property (copy, readonly) NSString *identifier`; in
  /// Swift `var identifier: String { get }`).
  public let identifier: String

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtask/expirationhandler
  /// (BGTask.h, iOS 26.0 SDK: `@property (nullable, strong) void (^expirationHandler)(void)`;
  /// in Swift `var expirationHandler: (() -> Void)? { get set }`, neither `@Sendable` nor
  /// main-actor: "This property is cleared after it is called by the system or when
  /// ``BGTask/setTaskCompletedWithSuccess:`` is called").
  public var expirationHandler: (() -> Void)?

  /// Fake: every `setTaskCompleted(success:)` argument, in call order (not BackgroundTasks API).
  public private(set) var completions: [Bool] = []

  // BGTask.h: `- (instancetype)init NS_UNAVAILABLE`: the system makes the tasks.
  init(identifier: String) {
    self.identifier = identifier
  }

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtask/settaskcompleted(success:)
  /// (BGTask.h, iOS 26.0 SDK: `- (void)setTaskCompletedWithSuccess:(BOOL)success`; in
  /// Swift `func setTaskCompleted(success: Bool)`).
  ///
  /// Fake: notes the call and clears ``expirationHandler``, as the header says.
  public func setTaskCompleted(success: Bool) {
    completions.append(success)
    expirationHandler = nil
  }

  /// Fake: runs the expiration handler as the system does shortly before the task's time
  /// runs out, clearing it first as iOS 26.1's `-[BGTask _callExpirationHandlerWithReason:]`
  /// does; with none set, marks the task complete and unsuccessful ("Not setting an
  /// expiration handler results in the system marking your task as complete and
  /// unsuccessful", BGTask.h); a task already completed does not expire (not
  /// BackgroundTasks API).
  public func expire() {
    guard completions.isEmpty else { return }
    guard let handler = expirationHandler else {
      completions.append(false)
      return
    }
    expirationHandler = nil
    handler()
  }
}

@available(*, unavailable, message: "Apple does not declare BGTask Sendable")
extension BGTask: Sendable {}

/// Apple: https://developer.apple.com/documentation/backgroundtasks/bgapprefreshtask
/// (BGTask.h, iOS 26.0 SDK: `BG_EXTERN API_AVAILABLE(ios(13.0), tvos(13.0))
/// API_UNAVAILABLE(macos) API_UNAVAILABLE(watchos) @interface BGAppRefreshTask : BGTask`).
@available(iOS 13.0, tvOS 13.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
public final class BGAppRefreshTask: BGTask {}

/// Apple: https://developer.apple.com/documentation/backgroundtasks/bgprocessingtask
/// (BGTask.h, iOS 26.0 SDK: `BG_EXTERN API_AVAILABLE(ios(13.0), tvos(13.0))
/// API_UNAVAILABLE(macos) API_UNAVAILABLE(watchos) @interface BGProcessingTask : BGTask`;
/// open: `BGHealthResearchTask` subclasses it).
@available(iOS 13.0, tvOS 13.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
open class BGProcessingTask: BGTask {}

/// Apple: https://developer.apple.com/documentation/backgroundtasks/bghealthresearchtask
/// (BGTask.h, iOS 26.0 SDK: `BG_EXTERN API_AVAILABLE(ios(17.0)) API_UNAVAILABLE(macos,
/// tvos) API_UNAVAILABLE(watchos) @interface BGHealthResearchTask : BGProcessingTask`):
/// what a `BGHealthResearchTaskRequest` launches.
@available(iOS 17.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public final class BGHealthResearchTask: BGProcessingTask {}

/// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtask
/// (BGTask.h, iOS 26.0 SDK: `BG_EXTERN API_AVAILABLE(ios(26.0)) API_UNAVAILABLE(macos,
/// tvos, visionos, macCatalyst) API_UNAVAILABLE(watchos) @interface
/// BGContinuedProcessingTask : BGTask<NSProgressReporting>`).
@available(iOS 26.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(visionOS, unavailable)
@available(macCatalyst, unavailable)
@available(watchOS, unavailable)
public final class BGContinuedProcessingTask: BGTask {
  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtask/title
  /// (BGTask.h, iOS 26.0 SDK: `@property (copy, readonly) NSString *title`).
  public private(set) var title: String

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtask/subtitle
  /// (BGTask.h, iOS 26.0 SDK: `@property (copy, readonly) NSString *subtitle`).
  public private(set) var subtitle: String

  /// Apple: https://developer.apple.com/documentation/foundation/progressreporting/progress
  /// (BGTask.h, iOS 26.0 SDK: `BGContinuedProcessingTask : BGTask<NSProgressReporting>`;
  /// Foundation's NSProgress.h: `@protocol NSProgressReporting <NSObject> @property
  /// (readonly) NSProgress *progress`; the iOS 26.1
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
  /// (BGTask.h, iOS 26.0 SDK: `- (void)updateTitle:(NSString *)title subtitle:(NSString
  /// *)subtitle`, both nonnull).
  public func updateTitle(_ title: String, subtitle: String) {
    self.title = title
    self.subtitle = subtitle
  }
}
