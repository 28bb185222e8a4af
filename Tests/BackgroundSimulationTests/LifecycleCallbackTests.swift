import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceReplay
import Testing

/// The simulation and the replay call the app's lifecycle callbacks at the points UIKit
/// does (Apple, "applicationWillEnterForeground(_:)": called "as part of the transition
/// from the background to the active state", "invariably followed by a call to
/// applicationDidBecomeActive"; "applicationWillTerminate(_:)": not called when the app
/// is suspended). Both call willEnterForeground between `app.state to=inactive` and
/// `app.state to=active`, so what it does is recorded at that point.
@Suite struct LifecycleCallbackTests {
  /// What one app instance heard, in order, with the state the trace had recorded.
  final class Log: @unchecked Sendable {
    var entries: [String] = []
  }

  /// Begins a task on entering the background and ends it in willEnterForeground.
  final class CallbackApp: BackgroundAppDelegate {
    let host: any BackgroundTaskHost
    let log: Log
    var task = BackgroundTaskID.invalid

    init(host: any BackgroundTaskHost, log: Log) {
      self.host = host
      self.log = log
    }

    func didFinishLaunching() { log.entries.append("didFinishLaunching") }
    func didBecomeActive() { log.entries.append("didBecomeActive") }
    func willResignActive() { log.entries.append("willResignActive") }
    func didEnterBackground() {
      log.entries.append("didEnterBackground")
      task = host.beginBackgroundTask(withName: "Flush", expirationHandler: nil)
    }
    func willEnterForeground() {
      log.entries.append("willEnterForeground")
      host.endBackgroundTask(task)
    }
    func willTerminate() { log.entries.append("willTerminate") }
  }

  static let expectedCallbacks = [
    "didFinishLaunching", "didBecomeActive",
    "willResignActive", "didEnterBackground",
    "willEnterForeground", "didBecomeActive",
    "willTerminate",
  ]

  static let expectedTrace = """
    bgtrace 1
    meta platform=ios seed=3 budget=30
    0 app.launch
    0 app.state to=active
    5 app.state to=inactive
    5 app.state to=background
    5 task.begin id=1 name=Flush
    15 app.state to=inactive
    15 task.end id=1
    15 app.state to=active
    20 app.terminate reason=user

    """

  @Test func simulationCallsThemWhereUIKitDoes() {
    let log = Log()
    let system = SimulatedSystem(seed: 3)
    system.launchApp { CallbackApp(host: $0, log: log) }
    system.advance(by: .seconds(5))
    system.moveToBackground()
    system.advance(by: .seconds(10))
    system.moveToForeground()
    system.advance(by: .seconds(5))
    system.terminate(reason: "user")
    #expect(log.entries == Self.expectedCallbacks)
    #expect(system.trace.text == Self.expectedTrace)
  }

  @Test func replayCallsThemAtTheSamePoints() throws {
    let recorded = try RecordedTrace(text: Self.expectedTrace)
    let log = Log()
    let result = Replayer.replay(recorded, timing: .exact) { CallbackApp(host: $0, log: log) }
    #expect(result.divergence == nil, "\(String(describing: result.divergence))")
    #expect(log.entries == Self.expectedCallbacks)
    #expect(result.trace.text == Self.expectedTrace)
  }

  /// Listens only for willTerminate; opens no task, so it is suspended in the background.
  final class QuitListener: BackgroundAppDelegate {
    let log: Log
    init(log: Log) { self.log = log }
    func willTerminate() { log.entries.append("willTerminate") }
  }

  @Test func onlyARunningAppIsToldItTerminates() {
    let log = Log()
    let system = SimulatedSystem(seed: 3)
    system.launchApp { _ in QuitListener(log: log) }
    system.moveToBackground()
    system.advance(by: .seconds(60))
    #expect(system.state == .suspended)
    system.terminate(reason: "user")
    #expect(log.entries.isEmpty)

    system.launchApp { _ in QuitListener(log: log) }
    system.terminate(reason: "user")
    #expect(log.entries == ["willTerminate"])
  }

  @Test func theTestReachesTheRunningProcesssApp() {
    let log = Log()
    let system = SimulatedSystem(seed: 3)
    system.launchApp { CallbackApp(host: $0, log: log) }
    let first = system.app(as: CallbackApp.self)
    #expect(first != nil)
    #expect(system.app(as: QuitListener.self) == nil)  // not that type
    system.terminate(reason: "user")
    #expect(system.app(as: CallbackApp.self) == nil)
    system.launchApp { CallbackApp(host: $0, log: log) }
    let second = system.app(as: CallbackApp.self)
    #expect(second != nil && second !== first)  // a new process, a new delegate
  }
}
