#if canImport(UIKit) && !os(watchOS)
  public import UIKit

  /// Records the app's life (`app.state`, `app.terminate`) from UIKit's notifications,
  /// so a traced app needs no calls in its delegate.
  ///
  /// Compiled only where UIKit exists; not tested on Linux.
  public final class UIKitLifecycleTracer {
    private var observers: [any NSObjectProtocol] = []

    /// Starts observing `center` and recording into `recorder`.
    public init(recorder: TraceRecorder, center: NotificationCenter = .default) {
      let states: [(Notification.Name, AppState)] = [
        (UIApplication.didBecomeActiveNotification, .active),
        (UIApplication.willResignActiveNotification, .inactive),
        (UIApplication.didEnterBackgroundNotification, .background),
      ]
      for (name, state) in states {
        observers.append(
          center.addObserver(forName: name, object: nil, queue: nil) { _ in recorder.record(.appState(to: state)) })
      }
      observers.append(
        center.addObserver(forName: UIApplication.willTerminateNotification, object: nil, queue: nil) { _ in
          recorder.record(.appTerminate(reason: "user"))
          try? recorder.flush()
        })
    }

    deinit {
      for observer in observers { NotificationCenter.default.removeObserver(observer) }
    }
  }
#endif
