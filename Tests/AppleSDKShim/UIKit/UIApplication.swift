import Synchronization

/// The test-only shim of `UIApplication`: exactly the background-task and lifecycle API
/// the adapters in Sources/BackgroundTrace/Apple use, with Apple's signatures, backed by
/// a controllable fake (the controls are in UIApplication+Fake.swift).
///
/// Each declaration cites UIKit.framework/Headers/UIApplication.h ("UIApplication.h"
/// below) as the newest public copy found has it: an iOS 17-or-later SDK's (it deprecates
/// `applicationIconBadgeNumber` at `ios(2.0, 17.0)` and marks the background-task
/// methods `NS_SWIFT_NONISOLATED`), with the Swift declarations Apple's documentation
/// gives for the current SDK.
///
/// Apple: https://developer.apple.com/documentation/uikit/uiapplication
/// (`@MainActor class UIApplication : UIResponder`; UIApplication.h:
/// `UIKIT_EXTERN API_AVAILABLE(ios(2.0)) NS_SWIFT_UI_ACTOR @interface UIApplication :
/// UIResponder`; the shim has no `UIResponder`).
@available(iOS 2.0, tvOS 9.0, *)
@available(watchOS, unavailable)
@MainActor
open class UIApplication {
  /// The fake's state, guarded so the nonisolated methods work from any thread.
  struct FakeState {
    var nextIdentifier = 1
    var open: [Int: (@MainActor @Sendable () -> Void)?] = [:]
    var names: [Int: String?] = [:]
    var ended: [Int] = []
    var refuses = false
    var timeRemaining: TimeInterval = .greatestFiniteMagnitude
    var applicationState: State = .active
    var backgroundRefreshStatus = UIBackgroundRefreshStatus.available
  }

  let fake = Mutex(FakeState())

  private static let sharedApplication = UIApplication()

  /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/shared
  /// (`class var shared: UIApplication { get }`; UIApplication.h: `@property(class,
  /// nonatomic, readonly) UIApplication *sharedApplication NS_EXTENSION_UNAVAILABLE_IOS(…)`).
  public class var shared: UIApplication { sharedApplication }

  /// Fake: a fresh application, so each test has its own (UIKit's comes from `UIResponder`).
  public nonisolated init() {}

  /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/beginbackgroundtask(withname:expirationhandler:)
  /// (`nonisolated func beginBackgroundTask(withName taskName: String?, expirationHandler
  /// handler: (@MainActor @Sendable () -> Void)? = nil) -> UIBackgroundTaskIdentifier`;
  /// UIApplication.h: `- (UIBackgroundTaskIdentifier)beginBackgroundTaskWithName:(nullable
  /// NSString *)taskName expirationHandler:(void(^ __nullable NS_SWIFT_UI_ACTOR)(void))handler
  /// API_AVAILABLE(ios(7.0)) NS_REQUIRES_SUPER NS_SWIFT_NONISOLATED`).
  ///
  /// Fake: returns the next identifier (1, 2, …) and keeps the handler until the task
  /// ends or expires; `.invalid` while ``refusesBackgroundTasks`` is set.
  @available(iOS 7.0, *)
  public nonisolated func beginBackgroundTask(
    withName taskName: String?, expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
  ) -> UIBackgroundTaskIdentifier {
    fake.withLock { fake in
      guard !fake.refuses else { return .invalid }
      let identifier = fake.nextIdentifier
      fake.nextIdentifier += 1
      fake.open[identifier] = .some(handler)
      fake.names[identifier] = .some(taskName)
      return UIBackgroundTaskIdentifier(rawValue: identifier)
    }
  }

  /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/beginbackgroundtask(expirationhandler:)
  /// (`nonisolated func beginBackgroundTask(expirationHandler handler: (@MainActor @Sendable
  /// () -> Void)? = nil) -> UIBackgroundTaskIdentifier`; UIApplication.h:
  /// `- (UIBackgroundTaskIdentifier)beginBackgroundTaskWithExpirationHandler:(void(^
  /// __nullable NS_SWIFT_UI_ACTOR)(void))handler API_AVAILABLE(ios(4.0)) NS_REQUIRES_SUPER
  /// NS_SWIFT_NONISOLATED`).
  public nonisolated func beginBackgroundTask(
    expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
  ) -> UIBackgroundTaskIdentifier {
    beginBackgroundTask(withName: nil, expirationHandler: handler)
  }

  /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/endbackgroundtask(_:)
  /// (`nonisolated func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier)`; "can
  /// be safely called on a non-main thread"; UIApplication.h: `- (void)endBackgroundTask:
  /// (UIBackgroundTaskIdentifier)identifier API_AVAILABLE(ios(4.0)) NS_REQUIRES_SUPER
  /// NS_SWIFT_NONISOLATED`).
  ///
  /// Fake: closes the task and notes the call in ``endedBackgroundTaskIdentifiers``.
  public nonisolated func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {
    fake.withLock { fake in
      fake.open[identifier.rawValue] = nil
      fake.ended.append(identifier.rawValue)
    }
  }

  /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/backgroundtimeremaining
  /// (`nonisolated var backgroundTimeRemaining: TimeInterval { get }`; UIApplication.h:
  /// `@property(nonatomic,readonly) NSTimeInterval backgroundTimeRemaining
  /// API_AVAILABLE(ios(4.0)) NS_SWIFT_NONISOLATED`).
  public nonisolated var backgroundTimeRemaining: TimeInterval {
    fake.withLock { $0.timeRemaining }
  }

  /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/applicationstate
  /// (`var applicationState: UIApplication.State { get }`, main actor; UIApplication.h:
  /// `@property(nonatomic,readonly) UIApplicationState applicationState
  /// API_AVAILABLE(ios(4.0))`, not nonisolated).
  public var applicationState: UIApplication.State {
    fake.withLock { $0.applicationState }
  }

  /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/backgroundrefreshstatus
  /// (UIApplication.h: `@property (nonatomic, readonly) UIBackgroundRefreshStatus
  /// backgroundRefreshStatus API_AVAILABLE(ios(7.0), tvos(11.0))`, not nonisolated; in
  /// Swift `var backgroundRefreshStatus: UIBackgroundRefreshStatus { get }`, main actor;
  /// "Observe UIApplicationBackgroundRefreshStatusDidChangeNotification to be notified of
  /// changes").
  ///
  /// Fake: what ``setBackgroundRefreshStatus(_:)`` set, `.available` at first.
  @available(iOS 7.0, tvOS 11.0, *)
  public var backgroundRefreshStatus: UIBackgroundRefreshStatus {
    fake.withLock { $0.backgroundRefreshStatus }
  }

  /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/state
  /// (`enum State`: `active`, `inactive`, `background`; Int raw values 0, 1, 2;
  /// UIApplication.h: `typedef NS_ENUM(NSInteger, UIApplicationState) {…}
  /// API_AVAILABLE(ios(4.0))`).
  public enum State: Int, Sendable, Hashable {
    /// The app is running in the foreground and currently receiving events.
    case active
    /// The app is running in the foreground but isn't receiving events.
    case inactive
    /// The app is running in the background.
    case background
  }
}

extension UIApplication {
  // Apple declares each as `nonisolated class let …: NSNotification.Name`; Swift code
  // cannot declare a `class let`, so the shim's are `static let` (read the same way).

  /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/didenterbackgroundnotification
  /// (UIApplication.h: `UIKIT_EXTERN NSNotificationName const UIApplicationDidEnterBackgroundNotification API_AVAILABLE(ios(4.0))`).
  public nonisolated static let didEnterBackgroundNotification = NSNotification.Name(
    "UIApplicationDidEnterBackgroundNotification")

  /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/willenterforegroundnotification
  /// (UIApplication.h: `UIKIT_EXTERN NSNotificationName const UIApplicationWillEnterForegroundNotification API_AVAILABLE(ios(4.0))`).
  public nonisolated static let willEnterForegroundNotification = NSNotification.Name(
    "UIApplicationWillEnterForegroundNotification")

  /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/didbecomeactivenotification
  /// (UIApplication.h: `UIKIT_EXTERN NSNotificationName const UIApplicationDidBecomeActiveNotification`).
  public nonisolated static let didBecomeActiveNotification = NSNotification.Name(
    "UIApplicationDidBecomeActiveNotification")

  /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/willresignactivenotification
  /// (UIApplication.h: `UIKIT_EXTERN NSNotificationName const UIApplicationWillResignActiveNotification`).
  public nonisolated static let willResignActiveNotification = NSNotification.Name(
    "UIApplicationWillResignActiveNotification")

  /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/willterminatenotification
  /// (UIApplication.h: `UIKIT_EXTERN NSNotificationName const UIApplicationWillTerminateNotification`).
  public nonisolated static let willTerminateNotification = NSNotification.Name(
    "UIApplicationWillTerminateNotification")

  /// Apple: https://developer.apple.com/documentation/uikit/uiapplication/backgroundrefreshstatusdidchangenotification
  /// (UIApplication.h: `UIKIT_EXTERN NSNotificationName const
  /// UIApplicationBackgroundRefreshStatusDidChangeNotification API_AVAILABLE(ios(7.0),
  /// tvos(11.0))`): posted when ``backgroundRefreshStatus`` changes.
  @available(iOS 7.0, tvOS 11.0, *)
  public nonisolated static let backgroundRefreshStatusDidChangeNotification = NSNotification.Name(
    "UIApplicationBackgroundRefreshStatusDidChangeNotification")
}

/// Apple: https://developer.apple.com/documentation/uikit/uibackgroundrefreshstatus
/// (UIApplication.h: `typedef NS_ENUM(NSInteger, UIBackgroundRefreshStatus) {…}
/// API_AVAILABLE(ios(7.0), tvos(11.0))`: `…Restricted`, `…Denied`, `…Available`, raw
/// values 0, 1, 2; an `NS_ENUM`, so a switch over it needs `@unknown default`).
@available(iOS 7.0, tvOS 11.0, *)
public enum UIBackgroundRefreshStatus: Int, Sendable, Hashable {
  /// Background updates are unavailable and the user cannot enable them again.
  case restricted
  /// The user explicitly disabled background behavior for this app or for the whole system.
  case denied
  /// Background updates are available for the app.
  case available
}
