/// The test-only shim of `BGTaskScheduler`: exactly the API the adapters in
/// Sources/BackgroundTrace/Apple use, with Apple's signatures, backed by a controllable
/// fake (the controls are in BGTaskScheduler+Fake.swift).
///
/// Each declaration cites BackgroundTasks.framework/Headers/BGTaskScheduler.h of the
/// iPhoneOS 26.0 SDK ("BGTaskScheduler.h, iOS 26.0 SDK" below), with the availability,
/// nullability and concurrency annotations the header has; where the header has none
/// (no `NS_SWIFT_SENDABLE`, no `NS_SWIFT_UI_ACTOR`) the Swift import has none either.
/// On Linux `@available(iOS …)` is not enforced: the adapters guard the iOS 26 API with
/// `#available` themselves (SDKShimDeclarationTests reads them for it).
///
/// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler
/// (BGTaskScheduler.h, iOS 26.0 SDK: `BG_EXTERN API_AVAILABLE(ios(13.0), tvos(13.0))
/// API_UNAVAILABLE(macos) API_UNAVAILABLE(watchos) @interface BGTaskScheduler : NSObject`;
/// the shim is not an `NSObject`).
@available(iOS 13.0, tvOS 13.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
open class BGTaskScheduler {
  struct Registration {
    var queue: DispatchQueue?
    var launchHandler: (BGTask) -> Void
  }

  var registrations: [String: Registration] = [:]
  var pending: [BGTaskRequest] = []
  /// Fake: when set, `register` refuses identifiers not in it.
  public var permittedIdentifiers: Set<String>?
  /// Fake: when set, the next `submit` throws this code and clears it.
  public var nextSubmitError: BGTaskScheduler.Error.Code?

  nonisolated(unsafe) private static let sharedScheduler = BGTaskScheduler()

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/shared
  /// (BGTaskScheduler.h, iOS 26.0 SDK: `@property (class, readonly, strong) __kindof
  /// BGTaskScheduler *sharedScheduler`; in Swift `class var shared: BGTaskScheduler { get }`).
  open class var shared: BGTaskScheduler { sharedScheduler }

  /// Fake: a fresh scheduler, so each test has its own (not BackgroundTasks API:
  /// BGTaskScheduler.h declares `- (instancetype)init NS_UNAVAILABLE`).
  public init() {}

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/register(fortaskwithidentifier:using:launchhandler:)
  /// (`func register(forTaskWithIdentifier identifier: String, using queue:
  /// dispatch_queue_t?, launchHandler: @escaping (BGTask) -> Void) -> Bool`; in Swift
  /// `dispatch_queue_t` is `DispatchQueue`).
  ///
  /// BGTaskScheduler.h, iOS 26.0 SDK: `- (BOOL)registerForTaskWithIdentifier:(NSString
  /// *)identifier usingQueue:(nullable dispatch_queue_t)queue launchHandler:(void
  /// (^)(__kindof BGTask *task))launchHandler NS_EXTENSION_UNAVAILABLE("Only the host
  /// application may register launch handlers")`: the queue is optional, the handler
  /// neither `@Sendable` nor main-actor (no annotation on the block); Swift imports every
  /// Objective-C method's result as discardable.
  ///
  /// Fake: `false` for an identifier outside ``permittedIdentifiers``; a second
  /// registration replaces the first (iOS raises an exception instead).
  @available(iOSApplicationExtension, unavailable, message: "Only the host application may register launch handlers")
  @available(tvOSApplicationExtension, unavailable, message: "Only the host application may register launch handlers")
  @discardableResult
  open func register(
    forTaskWithIdentifier identifier: String, using queue: DispatchQueue?,
    launchHandler: @escaping (BGTask) -> Void
  ) -> Bool {
    guard permittedIdentifiers?.contains(identifier) ?? true else { return false }
    registrations[identifier] = Registration(queue: queue, launchHandler: launchHandler)
    return true
  }

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/submit(_:)
  /// (`func submit(_ taskRequest: BGTaskRequest) throws`; BGTaskScheduler.h, iOS 26.0
  /// SDK: `- (BOOL)submitTaskRequest:(BGTaskRequest *)taskRequest error:(NSError *
  /// _Nullable *)error`, which Swift imports as throwing. The iOS 27 SDK's header
  /// deprecates it, `API_DEPRECATED(…, ios(13.0, 27.0))`, for `- submitTaskRequest:
  /// completionHandler:` (`NS_SWIFT_ASYNC_NAME(submitTaskRequest(_:))`, iOS 27), which
  /// the shim leaves out: the Swift 6.3 toolchain's SDK is iOS 26's).
  ///
  /// Fake: throws ``nextSubmitError`` once when set; otherwise keeps the request, replacing
  /// a pending one with the same identifier.
  open func submit(_ taskRequest: BGTaskRequest) throws {
    if let code = nextSubmitError {
      nextSubmitError = nil
      throw BGTaskScheduler.Error(code)
    }
    pending.removeAll { $0.identifier == taskRequest.identifier }
    pending.append(taskRequest)
  }

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/getpendingtaskrequests(completionhandler:)
  /// (BGTaskScheduler.h, iOS 26.0 SDK: `- (void)getPendingTaskRequestsWithCompletionHandler:(void
  /// (^)(NSArray<BGTaskRequest *> *taskRequests))completionHandler`; nonnull array, the
  /// block not `@Sendable`; "The handler may execute on a background thread", and "The
  /// objects passed in the array are copies of the existing requests").
  ///
  /// Fake: calls `completionHandler` before returning, with copies of the pending
  /// requests in submission order.
  open func getPendingTaskRequests(completionHandler: @escaping ([BGTaskRequest]) -> Void) {
    completionHandler(pending.map { $0.copy() })
  }

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/pendingtaskrequests()
  /// (`func pendingTaskRequests() async -> [BGTaskRequest]`: Swift's async import of
  /// BGTaskScheduler.h's `getPendingTaskRequestsWithCompletionHandler:`, iOS 26.0 SDK).
  ///
  /// Fake: copies of the pending requests, as the completion handler gets them.
  open func pendingTaskRequests() async -> [BGTaskRequest] {
    pending.map { $0.copy() }
  }

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/supportedresources
  /// (BGTaskScheduler.h, iOS 26.0 SDK: `@property (class, readonly)
  /// BGContinuedProcessingTaskRequestResources supportedResources API_AVAILABLE(ios(26.0))
  /// API_UNAVAILABLE(macos, tvos, visionos, watchos, macCatalyst)`).
  ///
  /// Fake: what ``fakeSupportedResources`` says (none by default).
  @available(iOS 26.0, *)
  @available(tvOS, unavailable)
  @available(visionOS, unavailable)
  @available(macCatalyst, unavailable)
  open class var supportedResources: BGContinuedProcessingTaskRequest.Resources { fakeSupportedResources }

  /// Fake: what ``supportedResources`` answers (not BackgroundTasks API).
  nonisolated(unsafe) public static var fakeSupportedResources: BGContinuedProcessingTaskRequest.Resources = []

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/cancel(taskrequestwithidentifier:)
  /// (`func cancel(taskRequestWithIdentifier identifier: String)`; BGTaskScheduler.h,
  /// iOS 26.0 SDK: `- (void)cancelTaskRequestWithIdentifier:(NSString *)identifier`).
  open func cancel(taskRequestWithIdentifier identifier: String) {
    pending.removeAll { $0.identifier == identifier }
  }

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/cancelalltaskrequests()
  /// (`func cancelAllTaskRequests()`; BGTaskScheduler.h, iOS 26.0 SDK: `- (void)cancelAllTaskRequests`).
  open func cancelAllTaskRequests() {
    pending.removeAll()
  }
}

@available(*, unavailable, message: "Apple does not declare BGTaskScheduler Sendable")
extension BGTaskScheduler: Sendable {}
