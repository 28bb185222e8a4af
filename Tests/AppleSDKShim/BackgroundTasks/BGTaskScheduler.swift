/// The test-only shim of `BGTaskScheduler`: exactly the API the adapters in
/// Sources/BackgroundTrace/Apple use, with Apple's signatures, backed by a controllable
/// fake (the controls are in BGTaskScheduler+Fake.swift).
///
/// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler
/// (`class BGTaskScheduler`; the shim is not an `NSObject`).
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
  /// (`class var shared: BGTaskScheduler { get }`).
  open class var shared: BGTaskScheduler { sharedScheduler }

  /// A fresh fake scheduler, so each test has its own (not BackgroundTasks API).
  public init() {}

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/register(fortaskwithidentifier:using:launchhandler:)
  /// (`func register(forTaskWithIdentifier identifier: String, using queue:
  /// dispatch_queue_t?, launchHandler: @escaping (BGTask) -> Void) -> Bool`; in Swift
  /// `dispatch_queue_t` is `DispatchQueue`).
  ///
  /// BackgroundTasks/BGTaskScheduler.h: `- (BOOL)registerForTaskWithIdentifier:(NSString
  /// *)identifier usingQueue:(nullable dispatch_queue_t)queue launchHandler:(void
  /// (^)(__kindof BGTask *task))launchHandler`; Swift imports every Objective-C method's
  /// result as discardable.
  ///
  /// Fake: `false` for an identifier outside ``permittedIdentifiers``; a second
  /// registration replaces the first (iOS raises an exception instead).
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
  /// (`func submit(_ taskRequest: BGTaskRequest) throws`).
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
  /// (BGTaskScheduler.h: `- (void)getPendingTaskRequestsWithCompletionHandler:(void
  /// (^)(NSArray<BGTaskRequest *> *taskRequests))completionHandler`; "The handler may
  /// execute on a background thread").
  ///
  /// Fake: calls `completionHandler` before returning, with the pending requests in
  /// submission order.
  open func getPendingTaskRequests(completionHandler: @escaping ([BGTaskRequest]) -> Void) {
    completionHandler(pending)
  }

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/pendingtaskrequests()
  /// (`func pendingTaskRequests() async -> [BGTaskRequest]`: Swift's async import of
  /// `getPendingTaskRequestsWithCompletionHandler:`).
  open func pendingTaskRequests() async -> [BGTaskRequest] {
    pending
  }

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/supportedresources
  /// (BGTaskScheduler.h: `@property (class, readonly) BGContinuedProcessingTaskRequestResources
  /// supportedResources`, iOS 26).
  ///
  /// Fake: what ``fakeSupportedResources`` says (none by default).
  open class var supportedResources: BGContinuedProcessingTaskRequest.Resources { fakeSupportedResources }

  /// Fake: what ``supportedResources`` answers (not BackgroundTasks API).
  nonisolated(unsafe) public static var fakeSupportedResources: BGContinuedProcessingTaskRequest.Resources = []

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/cancel(taskrequestwithidentifier:)
  /// (`func cancel(taskRequestWithIdentifier identifier: String)`).
  open func cancel(taskRequestWithIdentifier identifier: String) {
    pending.removeAll { $0.identifier == identifier }
  }

  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/cancelalltaskrequests()
  /// (`func cancelAllTaskRequests()`).
  open func cancelAllTaskRequests() {
    pending.removeAll()
  }
}

@available(*, unavailable, message: "Apple does not declare BGTaskScheduler Sendable")
extension BGTaskScheduler: Sendable {}
