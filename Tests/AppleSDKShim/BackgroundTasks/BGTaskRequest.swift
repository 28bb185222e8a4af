/// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskrequest
/// (BackgroundTasks.framework/Headers/BGTaskRequest.h, iOS 26.0 SDK: `BG_EXTERN
/// API_AVAILABLE(ios(13.0), tvos(13.0)) API_UNAVAILABLE(macos) API_UNAVAILABLE(watchos)
/// @interface BGTaskRequest : NSObject <NSCopying>`, abstract; the shim is not an
/// `NSObject`, and its copies are the fake's own).
@available(iOS 13.0, tvOS 13.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
open class BGTaskRequest {
  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskrequest/identifier
  /// (BGTaskRequest.h, iOS 26.0 SDK: `@property (readonly, copy) NSString *identifier`;
  /// in Swift `var identifier: String { get }`).
  public let identifier: String

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskrequest/earliestbegindate
  /// (BGTaskRequest.h, iOS 26.0 SDK: `@property (copy, nullable) NSDate
  /// *earliestBeginDate`; in Swift `var earliestBeginDate: Date? { get set }`; "Specify
  /// `nil` for no start delay").
  public var earliestBeginDate: Date?

  // BGTaskRequest.h: `- (instancetype)init NS_UNAVAILABLE`: requests are made through a
  // subclass.
  init(identifier: String) {
    self.identifier = identifier
  }

  /// Fake: a copy, as `NSCopying`'s `copy()` makes one (what
  /// `getPendingTaskRequests(completionHandler:)` hands out).
  func copy() -> BGTaskRequest {
    let copy = makeCopy()
    copy.earliestBeginDate = earliestBeginDate
    return copy
  }

  /// Fake: a new request of the same class and identifier with the subclass's own
  /// properties.
  func makeCopy() -> BGTaskRequest {
    BGTaskRequest(identifier: identifier)
  }
}

@available(*, unavailable, message: "Apple does not declare BGTaskRequest Sendable")
extension BGTaskRequest: Sendable {}

/// Apple: https://developer.apple.com/documentation/backgroundtasks/bgapprefreshtaskrequest
/// (BGTaskRequest.h, iOS 26.0 SDK: `BG_EXTERN API_AVAILABLE(ios(13.0), tvos(13.0))
/// API_UNAVAILABLE(macos) API_UNAVAILABLE(watchos) @interface BGAppRefreshTaskRequest :
/// BGTaskRequest`).
@available(iOS 13.0, tvOS 13.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
public final class BGAppRefreshTaskRequest: BGTaskRequest {
  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgapprefreshtaskrequest/init(identifier:)
  /// (BGTaskRequest.h, iOS 26.0 SDK: `- (instancetype)initWithIdentifier:(NSString
  /// *)identifier`; in Swift `init(identifier: String)`).
  public override init(identifier: String) {
    super.init(identifier: identifier)
  }

  override func makeCopy() -> BGTaskRequest {
    BGAppRefreshTaskRequest(identifier: identifier)
  }
}

/// Apple: https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest
/// (BGTaskRequest.h, iOS 26.0 SDK: `BG_EXTERN API_AVAILABLE(ios(13.0), tvos(13.0))
/// API_UNAVAILABLE(macos) API_UNAVAILABLE(watchos) @interface BGProcessingTaskRequest :
/// BGTaskRequest`; open: the same header declares `@interface BGHealthResearchTaskRequest
/// : BGProcessingTaskRequest`).
@available(iOS 13.0, tvOS 13.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
open class BGProcessingTaskRequest: BGTaskRequest {
  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest/requiresnetworkconnectivity
  /// (BGTaskRequest.h, iOS 26.0 SDK: `@property (assign) BOOL requiresNetworkConnectivity`;
  /// "The default value is `NO`").
  open var requiresNetworkConnectivity = false

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest/requiresexternalpower
  /// (BGTaskRequest.h, iOS 26.0 SDK: `@property (assign) BOOL requiresExternalPower`; "The
  /// default value is `NO`").
  open var requiresExternalPower = false

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest/init(identifier:)
  /// (BGTaskRequest.h, iOS 26.0 SDK: `- (instancetype)initWithIdentifier:(NSString
  /// *)identifier`).
  public override init(identifier: String) {
    super.init(identifier: identifier)
  }

  override func makeCopy() -> BGTaskRequest {
    let copy = BGProcessingTaskRequest(identifier: identifier)
    copy.requiresNetworkConnectivity = requiresNetworkConnectivity
    copy.requiresExternalPower = requiresExternalPower
    return copy
  }
}

/// Apple: https://developer.apple.com/documentation/backgroundtasks/bghealthresearchtaskrequest
/// (BGTaskRequest.h, iOS 26.0 SDK: `BG_EXTERN API_AVAILABLE(ios(17.0), tvos(17.0))
/// API_UNAVAILABLE(macos) API_UNAVAILABLE(watchos) @interface BGHealthResearchTaskRequest :
/// BGProcessingTaskRequest`; in Swift `class BGHealthResearchTaskRequest :
/// BGProcessingTaskRequest`).
@available(iOS 17.0, tvOS 17.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
public final class BGHealthResearchTaskRequest: BGProcessingTaskRequest {
  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bghealthresearchtaskrequest/protectiontypeofrequireddata
  /// (BGTaskRequest.h: `@property NSFileProtectionType protectionTypeOfRequiredData`; in Swift
  /// `var protectionTypeOfRequiredData: FileProtectionType { get set }`; "defaults to
  /// `NSFileProtectionCompleteUntilFirstUserAuthentication`").
  public var protectionTypeOfRequiredData = FileProtectionType.completeUntilFirstUserAuthentication

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest/init(identifier:)
  /// (inherited `init(identifier: String)`: BGTaskRequest.h, iOS 26.0 SDK, declares no
  /// initializer of its own for `BGHealthResearchTaskRequest`).
  public override init(identifier: String) {
    super.init(identifier: identifier)
  }

  override func makeCopy() -> BGTaskRequest {
    let copy = BGHealthResearchTaskRequest(identifier: identifier)
    copy.requiresNetworkConnectivity = requiresNetworkConnectivity
    copy.requiresExternalPower = requiresExternalPower
    copy.protectionTypeOfRequiredData = protectionTypeOfRequiredData
    return copy
  }
}

/// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtaskrequest
/// (BGTaskRequest.h, iOS 26.0 SDK: `BG_EXTERN API_AVAILABLE(ios(26.0)) API_UNAVAILABLE(macos,
/// tvos, visionos, macCatalyst) API_UNAVAILABLE(watchos) @interface
/// BGContinuedProcessingTaskRequest : BGTaskRequest`). Its initializer's documentation:
/// "``BGTaskRequest/earliestBeginDate`` will be outright ignored by the scheduler in favor
/// of `NSDate.now`".
@available(iOS 26.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(visionOS, unavailable)
@available(macCatalyst, unavailable)
@available(watchOS, unavailable)
public final class BGContinuedProcessingTaskRequest: BGTaskRequest {
  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtaskrequest/title
  /// (BGTaskRequest.h, iOS 26.0 SDK: `@property (copy, nonnull) NSString *title`).
  public var title: String

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtaskrequest/subtitle
  /// (BGTaskRequest.h, iOS 26.0 SDK: `@property (copy, nonnull) NSString *subtitle`).
  public var subtitle: String

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtaskrequest/strategy
  /// (BGTaskRequest.h, iOS 26.0 SDK: `@property (nonatomic)
  /// BGContinuedProcessingTaskRequestSubmissionStrategy strategy`, "Defaults to
  /// …SubmissionStrategyQueue"; the iOS 26.1 framework's initializer sets `_strategy = 1`).
  public var strategy: SubmissionStrategy = .queue

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtaskrequest/requiredresources
  /// (BGTaskRequest.h, iOS 26.0 SDK: `@property (nonatomic)
  /// BGContinuedProcessingTaskRequestResources requiredResources`, "Defaults to
  /// …ResourcesDefault", which is `[]`).
  public var requiredResources: Resources = []

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtaskrequest/init(identifier:title:subtitle:)
  /// (BGTaskRequest.h, iOS 26.0 SDK: `- (instancetype)initWithIdentifier:(NSString
  /// *)identifier title:(NSString *)title subtitle:(NSString *)subtitle`, all nonnull).
  public init(identifier: String, title: String, subtitle: String) {
    self.title = title
    self.subtitle = subtitle
    super.init(identifier: identifier)
  }

  override func makeCopy() -> BGTaskRequest {
    let copy = BGContinuedProcessingTaskRequest(identifier: identifier, title: title, subtitle: subtitle)
    copy.strategy = strategy
    copy.requiredResources = requiredResources
    return copy
  }

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtaskrequest/submissionstrategy
  /// (BGTaskRequest.h, iOS 26.0 SDK: `typedef NS_ENUM(NSInteger,
  /// BGContinuedProcessingTaskRequestSubmissionStrategy)`,
  /// `NS_SWIFT_NAME(BGContinuedProcessingTaskRequest.SubmissionStrategy)`: `…Fail` (0),
  /// `…Queue` (1); an `NS_ENUM`, so not frozen: a switch over it needs `@unknown default`).
  public enum SubmissionStrategy: Int, Hashable, Sendable {
    /// Fail the submission when the system cannot run the task at once.
    case fail = 0
    /// Queue the task to run as soon as possible.
    case queue = 1
  }

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtaskrequest/resources
  /// (BGTaskRequest.h, iOS 26.0 SDK: `typedef NS_OPTIONS(NSInteger, BGContinuedProcessingTaskRequestResources)`,
  /// `NS_SWIFT_NAME(BGContinuedProcessingTaskRequest.Resources)`; `…ResourcesDefault = 0`
  /// has no Swift name, so the default is `[]`).
  public struct Resources: OptionSet, Hashable, Sendable {
    /// The raw bits (BGTaskRequest.h, iOS 26.0 SDK: `NS_OPTIONS(NSInteger, …)`, so `Int`).
    public var rawValue: Int

    /// Creates a set from its raw bits, as Swift imports every `NS_OPTIONS` (BGTaskRequest.h).
    public init(rawValue: Int) {
      self.rawValue = rawValue
    }

    /// BGTaskRequest.h, iOS 26.0 SDK: `BGContinuedProcessingTaskRequestResourcesGPU
    /// NS_SWIFT_NAME(gpu) = (1 << 0)`; "Applications must have the
    /// `com.apple.developer.background-tasks.continued-processing.gpu` entitlement".
    public static let gpu = Resources(rawValue: 1 << 0)
  }
}
