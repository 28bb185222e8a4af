#if canImport(UIKit) && !os(watchOS)
  public import UIKit

  /// `UIApplication` as a ``BackgroundTaskHost``: the real platform behind the
  /// protocol, for apps that wrap it in ``TracingBackgroundTaskHost``.
  ///
  /// A thin adapter, compiled only where UIKit exists and not tested on Linux, so
  /// nothing else in the package depends on it. UIKit calls it on the main thread.
  public final class UIKitBackgroundTaskHost: BackgroundTaskHost {
    private let application: UIApplication

    /// Adapts `application` (`UIApplication.shared` by default).
    @MainActor
    public init(application: UIApplication = .shared) {
      self.application = application
    }

    /// Calls `UIApplication.beginBackgroundTask(withName:expirationHandler:)`; call it on
    /// the main thread.
    ///
    /// - Parameters:
    ///   - taskName: the name UIKit shows in its console messages.
    ///   - handler: run by UIKit shortly before the background time runs out.
    /// - Returns: UIKit's identifier, or ``BackgroundTaskID/invalid`` when UIKit refuses.
    public func beginBackgroundTask(
      withName taskName: String?, expirationHandler handler: (() -> Void)?
    ) -> BackgroundTaskID {
      MainActor.assumeIsolated {
        let identifier = application.beginBackgroundTask(withName: taskName, expirationHandler: handler)
        return identifier == .invalid ? .invalid : BackgroundTaskID(rawValue: identifier.rawValue)
      }
    }

    /// Calls `UIApplication.endBackgroundTask(_:)` with the matching identifier; call it on
    /// the main thread.
    public func endBackgroundTask(_ identifier: BackgroundTaskID) {
      MainActor.assumeIsolated {
        application.endBackgroundTask(
          identifier == .invalid ? .invalid : UIBackgroundTaskIdentifier(rawValue: identifier.rawValue))
      }
    }

    /// `UIApplication.backgroundTimeRemaining`; read it on the main thread.
    public var backgroundTimeRemaining: Double {
      MainActor.assumeIsolated { application.backgroundTimeRemaining }
    }
  }
#endif
