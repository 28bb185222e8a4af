/// What an app does when the system moves it through its life: the
/// `UIApplicationDelegate` callbacks.
///
/// The simulation calls these as the test drives the app, and the replayer calls them
/// at the recorded `app.launch`, `app.state` and `app.terminate` events, at the same
/// points UIKit does (docs/platform-model.md#processes):
///
/// - launch in the foreground: `didFinishLaunching`, then `active` and `didBecomeActive`;
/// - leaving: `inactive` and `willResignActive`, then `background` and `didEnterBackground`;
/// - returning: `inactive` and `willEnterForeground`, then `active` and `didBecomeActive`;
/// - the user quitting a running (not suspended) app: `willTerminate`, then `app.terminate`.
///
/// Every method has an empty default.
public protocol BackgroundAppDelegate: AnyObject {
  /// `application(_:didFinishLaunchingWithOptions:)`: register launch handlers here.
  func didFinishLaunching()
  /// `applicationDidBecomeActive(_:)`: the app is in the foreground and active.
  func didBecomeActive()
  /// `applicationWillResignActive(_:)`: the app is about to leave the active state.
  func willResignActive()
  /// `applicationDidEnterBackground(_:)`.
  func didEnterBackground()
  /// `applicationWillEnterForeground(_:)`: called as the app leaves the background,
  /// while it is `inactive`, always followed by ``didBecomeActive()``.
  func willEnterForeground()
  /// `applicationWillTerminate(_:)`: the user quit the app while it was running; not
  /// called for a suspended app or a kill (the watchdog's is a SIGKILL).
  func willTerminate()
  /// The user did something that starts background work (tapped "Sync"). Recorded
  /// as `mark label=user:<action>`, so a replay performs it again at the same time.
  func perform(userAction action: String)
  /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`: the
  /// system woke or launched the app for the background session `identifier`. Recreate
  /// the session (``BackgroundTransfers``) and call `completionHandler` once its events
  /// are delivered (``BackgroundSessionDelegate/sessionDidFinishEvents(session:)``).
  func handleEvents(forBackgroundSession identifier: String, completionHandler: @escaping @Sendable () -> Void)
  /// Android: the system delivered something that put the app on its temporary
  /// allowlist (`app.allowlist`) and runs the app's code for it — `onMessageReceived`
  /// for a high-priority FCM message, the receiver of an exact alarm, the `PendingIntent`
  /// of a tapped notification. A foreground service may be started from here.
  func handleAllowlistedDelivery(_ reason: TemporaryAllowlistReason)
  /// Android: the alarm `name` went off (``AlarmScheduling``), and its receiver's
  /// `onReceive` runs: the app's process was started for it if none ran.
  func handleAlarm(_ name: String)
}

extension BackgroundAppDelegate {
  /// Does nothing: an app with no launch handlers need not implement it.
  public func didFinishLaunching() {}
  /// Does nothing.
  public func didBecomeActive() {}
  /// Does nothing.
  public func willResignActive() {}
  /// Does nothing: an app that starts no work on entering the background need not
  /// implement it.
  public func didEnterBackground() {}
  /// Does nothing.
  public func willTerminate() {}
  /// Does nothing: an app with nothing to do on returning to the foreground need not
  /// implement it.
  public func willEnterForeground() {}
  /// Ignores the action: an app with no user actions need not implement it.
  public func perform(userAction action: String) {}
  /// Does nothing, and never calls the handler, as an app delegate without the method:
  /// an app that uses background sessions implements it.
  public func handleEvents(
    forBackgroundSession identifier: String, completionHandler: @escaping @Sendable () -> Void
  ) {}
  /// Does nothing: an app that receives no such delivery need not implement it.
  public func handleAllowlistedDelivery(_ reason: TemporaryAllowlistReason) {}
  /// Does nothing: an app that sets no alarms need not implement it.
  public func handleAlarm(_ name: String) {}
}

/// The `mark` label prefix that records a user action (`mark label=user:sync`).
public let userActionMarkPrefix = "user:"

/// Nondeterministic inputs (a network outcome, a file size, a random choice), recorded
/// as `input` events so a replay hands back the same values at the same times.
public protocol RecordedInputs: Sendable {
  /// The value of an input: recording runs `operation` and records its result when it
  /// completes; replaying does not run it, and resumes at the recorded time with the
  /// recorded value.
  ///
  /// - Parameters:
  ///   - key: what the input is (`upload.result`); a replay matches keys in order.
  ///   - operation: the real (or simulated) operation.
  func value(for key: String, _ operation: @escaping @Sendable () async -> String) async -> String

  /// The value of an input the app needs at once, without waiting: a generated name
  /// (`UUID().uuidString` in a task name), a random choice, a date. Recording runs
  /// `make` and records its result now; replaying does not run it and returns the next
  /// recorded value for `key` (or runs `make` past the recorded ones).
  ///
  /// ```swift
  /// let name = inputs.valueNow(for: "task.name") { "Upload-\(UUID().uuidString)" }
  /// let id = host.beginBackgroundTask(withName: name, expirationHandler: nil)
  /// ```
  ///
  /// - Parameters:
  ///   - key: what the input is; a replay matches keys in order.
  ///   - make: produces the value.
  func valueNow(for key: String, _ make: () -> String) -> String
}

/// Records inputs into a recorder at the time each operation completes.
public struct RecordingInputs: RecordedInputs {
  /// Where `input` events go.
  public let recorder: TraceRecorder

  /// Records into `recorder`.
  public init(recorder: TraceRecorder) {
    self.recorder = recorder
  }

  /// Runs `operation` and records its result as `input` at the time it completes.
  ///
  /// - Parameters:
  ///   - key: what the input is, recorded as `key=`.
  ///   - operation: the real (or simulated) operation.
  /// - Returns: the operation's result, unchanged.
  public func value(for key: String, _ operation: @escaping @Sendable () async -> String) async -> String {
    let value = await operation()
    recorder.record(.input(key: key, value: value))
    return value
  }

  /// Runs `make` and records its result as `input` now.
  ///
  /// - Parameters:
  ///   - key: what the input is, recorded as `key=`.
  ///   - make: produces the value.
  /// - Returns: `make`'s result, unchanged.
  public func valueNow(for key: String, _ make: () -> String) -> String {
    let value = make()
    recorder.record(.input(key: key, value: value))
    return value
  }
}
