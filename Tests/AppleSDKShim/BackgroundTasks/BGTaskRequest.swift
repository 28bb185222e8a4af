/// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskrequest
/// (`class BGTaskRequest`, abstract; the shim is not an `NSObject`).
open class BGTaskRequest {
  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskrequest/identifier
  /// (`var identifier: String { get }`).
  public let identifier: String

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskrequest/earliestbegindate
  /// (`var earliestBeginDate: Date? { get set }`; `nil` for no start delay).
  public var earliestBeginDate: Date?

  // Apple's `init()` is unavailable: requests are made through a subclass.
  init(identifier: String) {
    self.identifier = identifier
  }
}

@available(*, unavailable, message: "Apple does not declare BGTaskRequest Sendable")
extension BGTaskRequest: Sendable {}

/// Apple: https://developer.apple.com/documentation/backgroundtasks/bgapprefreshtaskrequest
/// (`class BGAppRefreshTaskRequest : BGTaskRequest`).
public final class BGAppRefreshTaskRequest: BGTaskRequest {
  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgapprefreshtaskrequest/init(identifier:)
  /// (`init(identifier: String)`).
  public override init(identifier: String) {
    super.init(identifier: identifier)
  }
}

/// Apple: https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest
/// (`class BGProcessingTaskRequest : BGTaskRequest`; open: BackgroundTasks/BGTaskRequest.h
/// declares `@interface BGHealthResearchTaskRequest : BGProcessingTaskRequest`).
open class BGProcessingTaskRequest: BGTaskRequest {
  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest/requiresnetworkconnectivity
  /// (`var requiresNetworkConnectivity: Bool { get set }`; `false` by default).
  open var requiresNetworkConnectivity = false

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest/requiresexternalpower
  /// (`var requiresExternalPower: Bool { get set }`; `false` by default).
  open var requiresExternalPower = false

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest/init(identifier:)
  /// (`init(identifier: String)`).
  public override init(identifier: String) {
    super.init(identifier: identifier)
  }
}

/// Apple: https://developer.apple.com/documentation/backgroundtasks/bghealthresearchtaskrequest
/// (BackgroundTasks/BGTaskRequest.h: `@interface BGHealthResearchTaskRequest :
/// BGProcessingTaskRequest`, iOS 17; in Swift `class BGHealthResearchTaskRequest :
/// BGProcessingTaskRequest`).
public final class BGHealthResearchTaskRequest: BGProcessingTaskRequest {
  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bghealthresearchtaskrequest/protectiontypeofrequireddata
  /// (BGTaskRequest.h: `@property NSFileProtectionType protectionTypeOfRequiredData`; in Swift
  /// `var protectionTypeOfRequiredData: FileProtectionType { get set }`; "defaults to
  /// `NSFileProtectionCompleteUntilFirstUserAuthentication`").
  public var protectionTypeOfRequiredData = FileProtectionType.completeUntilFirstUserAuthentication

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest/init(identifier:)
  /// (inherited `init(identifier: String)`).
  public override init(identifier: String) {
    super.init(identifier: identifier)
  }
}

/// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtaskrequest
/// (BackgroundTasks/BGTaskRequest.h: `@interface BGContinuedProcessingTaskRequest :
/// BGTaskRequest`, iOS 26).
public final class BGContinuedProcessingTaskRequest: BGTaskRequest {
  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtaskrequest/title
  /// (BGTaskRequest.h: `@property (copy) NSString *title`).
  public var title: String

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtaskrequest/subtitle
  /// (BGTaskRequest.h: `@property (copy) NSString *subtitle`).
  public var subtitle: String

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtaskrequest/strategy
  /// (BGTaskRequest.h: `@property (assign) BGContinuedProcessingTaskRequestSubmissionStrategy
  /// strategy`; "The default value is `queue`", and the iOS 26.1 framework's initializer
  /// sets `_strategy = 1`).
  public var strategy: SubmissionStrategy = .queue

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtaskrequest/requiredresources
  /// (BGTaskRequest.h: `@property (assign) BGContinuedProcessingTaskRequestResources
  /// requiredResources`; the default, `…ResourcesDefault`, is `[]`).
  public var requiredResources: Resources = []

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtaskrequest/init(identifier:title:subtitle:)
  /// (BGTaskRequest.h: `- (instancetype)initWithIdentifier:(NSString *)identifier title:(NSString
  /// *)title subtitle:(NSString *)subtitle`).
  public init(identifier: String, title: String, subtitle: String) {
    self.title = title
    self.subtitle = subtitle
    super.init(identifier: identifier)
  }

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtaskrequest/submissionstrategy
  /// (BGTaskRequest.h: `typedef NS_ENUM(NSInteger, BGContinuedProcessingTaskRequestSubmissionStrategy)`,
  /// `NS_SWIFT_NAME(BGContinuedProcessingTaskRequest.SubmissionStrategy)`: `…Fail = 0`, `…Queue = 1`).
  public enum SubmissionStrategy: Int, Hashable, Sendable {
    /// Fail the submission when the system cannot run the task at once.
    case fail = 0
    /// Queue the task to run as soon as possible.
    case queue = 1
  }

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgcontinuedprocessingtaskrequest/resources
  /// (BGTaskRequest.h: `typedef NS_OPTIONS(NSInteger, BGContinuedProcessingTaskRequestResources)`,
  /// `NS_SWIFT_NAME(BGContinuedProcessingTaskRequest.Resources)`; `…ResourcesDefault = 0`
  /// has no Swift name, so the default is `[]`).
  public struct Resources: OptionSet, Hashable, Sendable {
    /// The raw bits (`NSInteger`).
    public var rawValue: Int

    /// Creates a set from its raw bits.
    public init(rawValue: Int) {
      self.rawValue = rawValue
    }

    /// BGTaskRequest.h: `BGContinuedProcessingTaskRequestResourcesGPU NS_SWIFT_NAME(gpu) = (1 << 0)`.
    public static let gpu = Resources(rawValue: 1 << 0)
  }
}
