import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceReplay
import Testing

/// What UIKit calls on an app it launches straight into the background for a scheduler
/// launch (docs/platform-model.md, "Background launch"). Apple, "About the background
/// execution sequence" (developer.apple.com/documentation/uikit/about-the-background-execution-sequence):
/// "The system launches the app and follows the initialization sequence … UIKit calls
/// the app delegate's applicationDidEnterBackground(_:) method. UIKit delivers the event
/// that caused the launch." Observed on devices, no `applicationDidEnterBackground` comes
/// (Open Radar 14295449, iOS 7: "applicationDidEnterBackground:,
/// applicationWillEnterForeground:, and applicationDidBecomeActive: were not called"),
/// and iOS 26.1's UIKitCore launch path, `-[UIApplication
/// _runWithMainScene:transitionContext:completion:]`, calls the launch delegates and
/// `_stopDeactivatingForReason:` but not `_applicationDidEnterBackground`. The model
/// follows Apple's page by default and the devices with
/// `SimulationConfiguration.launchEntersBackground = false`.
@Suite struct BackgroundLaunchCallbackTests {
  final class Log: @unchecked Sendable {
    var entries: [String] = []
  }

  /// Registers a refresh at launch and submits it when the user opens the app; its
  /// handler completes at once.
  final class RefreshApp: BackgroundAppDelegate {
    let scheduler: any TaskScheduling
    let log: Log

    init(scheduler: any TaskScheduling, log: Log) {
      self.scheduler = scheduler
      self.log = log
    }

    func didFinishLaunching() {
      log.entries.append("didFinishLaunching")
      _ = scheduler.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { [log] task in
        log.entries.append("launch handler")
        task.setTaskCompleted(success: true)
      }
    }
    func didBecomeActive() {
      log.entries.append("didBecomeActive")
      try? scheduler.submit(.refresh("com.example.refresh", earliestBeginDelay: .seconds(600)))
    }
    func willResignActive() { log.entries.append("willResignActive") }
    func didEnterBackground() { log.entries.append("didEnterBackground") }
    func willEnterForeground() { log.entries.append("willEnterForeground") }
  }

  /// The user opens the app, leaves it, and it is killed while suspended; the refresh
  /// launches it into the background; later the user opens it again.
  static func run(_ configuration: SimulationConfiguration, log: Log) -> SimulatedSystem {
    let system = SimulatedSystem(seed: 5, configuration: configuration)
    system.launchApp { RefreshApp(scheduler: $0, log: log) }
    system.moveToBackground()
    system.advance(by: .seconds(60))
    system.terminate(reason: "memory")
    log.entries.append("-- killed")
    system.advance(by: .seconds(48 * 3600))
    log.entries.append("-- opened")
    system.moveToForeground()
    return system
  }

  @Test func aBackgroundLaunchEntersTheBackgroundAsApplesPageSays() {
    let log = Log()
    let system = Self.run(SimulationConfiguration(), log: log)
    #expect(
      log.entries == [
        "didFinishLaunching", "didBecomeActive", "willResignActive", "didEnterBackground", "-- killed",
        "didFinishLaunching", "didEnterBackground", "launch handler", "-- opened",
        "willEnterForeground", "didBecomeActive",
      ])
    #expect(system.trace.meta["launch-enters-background"] == nil)
  }

  @Test func withoutItTheLaunchGoesStraightToTheHandler() {
    let log = Log()
    var configuration = SimulationConfiguration()
    configuration.launchEntersBackground = false
    let system = Self.run(configuration, log: log)
    // A background launch calls no didEnterBackground; a user's leaving still does, and
    // opening the app later does not launch it again.
    #expect(
      log.entries == [
        "didFinishLaunching", "didBecomeActive", "willResignActive", "didEnterBackground", "-- killed",
        "didFinishLaunching", "launch handler", "-- opened",
        "willEnterForeground", "didBecomeActive",
      ])
    #expect(system.trace.meta["launch-enters-background"] == "false")
  }

  /// A replay reads the setting from the trace and calls what the recording's run called.
  @Test(arguments: [true, false]) func theReplayCallsWhatTheRunCalled(entersBackground: Bool) {
    let recordedLog = Log()
    var configuration = SimulationConfiguration()
    configuration.launchEntersBackground = entersBackground
    let recorded = Self.run(configuration, log: recordedLog).trace
    let log = Log()
    let result = Replayer.replay(recorded, timing: .exact) { RefreshApp(scheduler: $0, log: log) }
    #expect(result.divergence == nil, "\(String(describing: result.divergence))")
    #expect(log.entries == recordedLog.entries.filter { !$0.hasPrefix("--") })
  }

  /// The setting is read like every other: a value other than true or false is refused.
  @Test func aMalformedSettingIsRefused() {
    #expect(TraceMetadata.problem(key: "launch-enters-background", value: "no") != nil)
    #expect(TraceMetadata.problem(key: "launch-enters-background", value: "false") == nil)
  }
}
