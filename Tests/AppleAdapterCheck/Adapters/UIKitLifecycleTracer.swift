// Off Apple platforms UIKit is only the test shim (Tests/AppleSDKShim), which the
// AppleAdapters check target compiles this file against with APPLE_SDK_SHIM set; other
// modules of the package may find the shim's module on the search path, so they skip it.
#if canImport(UIKit) && !os(watchOS) && (canImport(Darwin) || APPLE_SDK_SHIM)
  public import UIKit
  #if APPLE_SDK_SHIM
    public import BackgroundTrace
  #endif

  /// Records the app's life (`app.state`, `app.terminate`) from UIKit's notifications,
  /// so a traced app needs no calls in its delegate.
  ///
  /// The recorder keeps the tracer: it records for as long as the recorder lives, even
  /// when the caller drops it at once.
  ///
  /// ```swift
  /// if let recorder { _ = UIKitLifecycleTracer(recorder: recorder) }
  /// ```
  ///
  /// `didBecomeActive` records `to=active`, `willResignActive` and `willEnterForeground`
  /// `to=inactive`, `didEnterBackground` `to=background`, and `willTerminate`
  /// `app.terminate reason=user` followed by a flush.
  public final class UIKitLifecycleTracer: @unchecked Sendable {
    // Constants, only read by deinit: safe to share, though the observer tokens are not
    // declared Sendable.
    private let center: NotificationCenter
    private let observers: [any NSObjectProtocol]

    /// Starts observing `center` and recording into `recorder`, which keeps the tracer
    /// alive from then on.
    ///
    /// - Parameters:
    ///   - recorder: where the events go; it holds the tracer until it is released.
    ///   - center: where UIKit posts its notifications (`.default`).
    public init(recorder: TraceRecorder, center: NotificationCenter = .default) {
      self.center = center
      let states: [(Notification.Name, AppLifecycleState)] = [
        (UIApplication.didBecomeActiveNotification, .active),
        (UIApplication.willResignActiveNotification, .inactive),
        (UIApplication.willEnterForegroundNotification, .inactive),
        (UIApplication.didEnterBackgroundNotification, .background),
      ]
      // The observers hold the recorder weakly: the recorder holds the tracer.
      var observers: [any NSObjectProtocol] = []
      for (name, state) in states {
        observers.append(
          center.addObserver(forName: name, object: nil, queue: nil) { [weak recorder] _ in
            recorder?.record(.appState(to: state))
          })
      }
      observers.append(
        center.addObserver(forName: UIApplication.willTerminateNotification, object: nil, queue: nil) {
          [weak recorder] _ in
          recorder?.record(.appTerminate(reason: "user"))
          try? recorder?.flush()
        })
      self.observers = observers
      recorder.keepAlive(self)
    }

    deinit {
      for observer in observers { center.removeObserver(observer) }
    }
  }
#endif
