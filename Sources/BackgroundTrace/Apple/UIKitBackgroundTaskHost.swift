// Off Apple platforms UIKit is only the test shim (Tests/AppleSDKShim), which the
// AppleAdapters check target compiles this file against with APPLE_SDK_SHIM set; other
// modules of the package may find the shim's module on the search path, so they skip it.
#if canImport(UIKit) && !os(watchOS) && (canImport(Darwin) || APPLE_SDK_SHIM)
  public import UIKit
  #if APPLE_SDK_SHIM
    public import BackgroundTrace
  #endif

  /// `UIApplication` as a ``BackgroundTaskHost``: the real platform behind the
  /// protocol, for apps that wrap it in ``TracingBackgroundTaskHost``.
  ///
  /// A thin adapter, compiled only where UIKit exists (and on Linux against the SDK shim
  /// in Tests/AppleSDKShim), so nothing else in the package depends on it. Like the
  /// `UIApplication` methods it calls, its methods may be called from any thread.
  public final class UIKitBackgroundTaskHost: BackgroundTaskHost, Sendable {
    private let application: UIApplication

    /// Adapts `application` (`UIApplication.shared` by default; reading `shared` needs
    /// the main actor).
    @MainActor
    public init(application: UIApplication = .shared) {
      self.application = application
    }

    /// Calls `UIApplication.beginBackgroundTask(withName:expirationHandler:)`, which UIKit
    /// allows from any thread; UIKit runs the handler on the main thread.
    ///
    /// - Parameters:
    ///   - taskName: the name UIKit shows in its console messages.
    ///   - handler: run by UIKit shortly before the background time runs out.
    /// - Returns: UIKit's identifier, or ``BackgroundTaskID/invalid`` when UIKit refuses.
    public func beginBackgroundTask(
      withName taskName: String?, expirationHandler handler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskID {
      let identifier = application.beginBackgroundTask(withName: taskName, expirationHandler: handler)
      return identifier == .invalid ? .invalid : BackgroundTaskID(rawValue: identifier.rawValue)
    }

    /// Calls `UIApplication.endBackgroundTask(_:)` with the matching identifier, from any
    /// thread.
    public func endBackgroundTask(_ identifier: BackgroundTaskID) {
      application.endBackgroundTask(
        identifier == .invalid ? .invalid : UIBackgroundTaskIdentifier(rawValue: identifier.rawValue))
    }

    /// `UIApplication.backgroundTimeRemaining`, from any thread.
    public var backgroundTimeRemaining: Double { application.backgroundTimeRemaining }

    /// Reads `UIApplication.backgroundRefreshStatus` and records it in `recorder` as
    /// `input key=system.backgroundRefreshStatus value=available|denied|restricted`, so the
    /// trace says whether Background App Refresh was on.
    ///
    /// With it off (`denied`) or `restricted`, `BGTaskScheduler` refuses app-refresh
    /// submissions with `BGTaskSchedulerErrorCodeUnavailable` (Apple:
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/code/unavailable;
    /// docs/platform-model.md, "Submit errors"); the simulation models the same refusal with
    /// `SimulationConfiguration.backgroundRefreshEnabled`. Call it at launch and on
    /// `UIApplication.backgroundRefreshStatusDidChangeNotification`.
    ///
    /// - Parameter recorder: the trace to record the status in.
    /// - Returns: the status's word, as recorded.
    @MainActor
    @discardableResult
    public func recordBackgroundRefreshStatus(in recorder: TraceRecorder) -> String {
      let word: String
      switch application.backgroundRefreshStatus {
      case .available: word = "available"
      case .denied: word = "denied"
      case .restricted: word = "restricted"
      @unknown default: word = "unknown"
      }
      recorder.record(.input(key: RecordedAnswer.backgroundRefreshStatus, value: word))
      return word
    }
  }
#endif
