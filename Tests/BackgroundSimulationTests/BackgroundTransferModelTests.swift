import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import BackgroundTraceTesting
import Testing

/// Background transfers in the simulation, as iOS runs them (Apple, "Downloading files
/// in the background"; `URLSessionConfiguration.background(withIdentifier:)`): out of
/// process, on past a suspension or a termination by the system, cancelled by a
/// force-quit, and delivered by waking the app, which must recreate the session and
/// call the completion handler.
@Suite struct BackgroundTransferModelTests {
  typealias UploadApp = BackgroundTransferReplayTests.UploadApp

  /// The kinds of the trace's `net.*` events and app lifecycle, without times.
  static func story(_ trace: RecordedTrace) -> [String] {
    trace.events.compactMap { event in
      switch event.kind {
      case .appLaunch, .appTerminate, .appState: TextTraceWriter.line(for: TraceEvent(time: .zero, event.kind))
      default:
        event.kind.tag.name.hasPrefix("net.") ? TextTraceWriter.line(for: TraceEvent(time: .zero, event.kind)) : nil
      }
    }.map { String($0.dropFirst(2)) }
  }

  /// Launches the uploader, taps upload and sends it to the background.
  static func uploadInTheBackground(callsHandler: Bool, seed: UInt64 = 1) -> SimulatedSystem {
    let system = SimulatedSystem(seed: seed)
    system.launchApp { UploadApp(transfers: $0, callsHandler: callsHandler) }
    system.userAction("upload")
    system.moveToBackground()
    return system
  }

  @Test func anUploadFinishesWhileTheAppIsSuspendedAndTheWakeDeliversIt() throws {
    let system = Self.uploadInTheBackground(callsHandler: true)
    system.runUntilIdle(for: .seconds(600))
    #expect(
      Self.story(system.trace) == [
        "app.launch", "net.create session=com.example.upload", "app.state to=active",
        "net.submit session=com.example.upload task=1 kind=upload", "app.state to=inactive",
        "app.state to=background", "app.state to=suspended", "app.state to=background",
        "net.wake session=com.example.upload", "net.finish session=com.example.upload task=1 outcome=success",
        "net.events-done session=com.example.upload", "net.handler session=com.example.upload",
        "app.state to=suspended",
      ])
    #expect(system.app(as: UploadApp.self)?.results == [1: .success])
    #expect(TraceChecker.check(system.trace).isEmpty)
    expectTrace(system.trace, matchesGolden: "background-upload", directory: ExampleTrace.iosGoldens)
    // The simulated run replays against the same app code.
    let replay = Replayer.replay(system.trace) { UploadApp(transfers: $0, callsHandler: true) }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(replay.findings.isEmpty)
  }

  @Test func anAppThatNeverCallsTheHandlerIsSuspendedWithItOwed() {
    let system = Self.uploadInTheBackground(callsHandler: false)
    system.runUntilIdle(for: .seconds(600))
    let findings = TraceChecker.check(system.trace)
    #expect(findings.map(\.rule) == [.netHandlerNotCalled])
    #expect(Self.story(system.trace).last == "app.state to=suspended", "its background time ran out")
  }

  @Test func aTransferOutlivesATerminationByTheSystemAndTheAppIsLaunchedForIt() {
    let system = Self.uploadInTheBackground(callsHandler: true)
    system.terminate(reason: "memory")
    system.runUntilIdle(for: .seconds(600))
    let story = Self.story(system.trace)
    #expect(
      Array(story.suffix(9)) == [
        "app.terminate reason=memory", "app.launch", "net.create session=com.example.upload",
        "app.state to=background", "net.wake session=com.example.upload",
        "net.finish session=com.example.upload task=1 outcome=success",
        "net.events-done session=com.example.upload", "net.handler session=com.example.upload",
        "app.state to=suspended",
      ])
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  @Test func aForceQuitCancelsTheTransferAndTheNextLaunchLearnsOfIt() {
    let system = Self.uploadInTheBackground(callsHandler: true)
    system.terminate(reason: "user")
    system.runUntilIdle(for: .seconds(600))
    #expect(!Self.story(system.trace).contains("net.wake session=com.example.upload"), "no wake after a force-quit")
    system.launchApp { UploadApp(transfers: $0, callsHandler: true) }
    system.runUntilIdle(for: .seconds(1))
    #expect(Self.story(system.trace).contains("net.finish session=com.example.upload task=1 outcome=cancelled"))
    #expect(system.app(as: UploadApp.self)?.results == [1: .cancelled])
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  @Test func aTransferWaitsForTheNetwork() {
    let system = SimulatedSystem(seed: 1)
    system.launchApp { UploadApp(transfers: $0, callsHandler: true) }
    system.setEnvironment(network: false)
    system.userAction("upload")
    system.advance(by: .seconds(3_600))
    #expect(!Self.story(system.trace).contains { $0.hasPrefix("net.finish") }, "offline: it never ran")
    system.setEnvironment(network: true)
    system.advance(by: .seconds(600))
    #expect(Self.story(system.trace).contains("net.finish session=com.example.upload task=1 outcome=success"))
  }

  @Test func faultsFailTransfersAndMakeThemTakeHours() {
    var faults = FaultPlan()
    faults.transferFailurePercent = 100
    faults.transferDuration = .seconds(3 * 3_600) ... .seconds(3 * 3_600)
    let system = SimulatedSystem(seed: 1, faults: faults)
    system.launchApp { UploadApp(transfers: $0, callsHandler: true) }
    system.userAction("upload")
    system.moveToBackground()
    system.advance(by: .seconds(3 * 3_600 - 1))
    #expect(!Self.story(system.trace).contains { $0.hasPrefix("net.finish") }, "not before three hours")
    system.advance(by: .seconds(600))
    #expect(Self.story(system.trace).contains("net.finish session=com.example.upload task=1 outcome=failed"))
    #expect(system.app(as: UploadApp.self)?.results == [1: .failed])
    #expect(TraceChecker.check(system.trace).isEmpty, "a failed transfer is the network's, not the app's bug")
  }
}
