import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import BackgroundTraceTesting
import Synchronization
import Testing

/// SwiftUI's `.backgroundTask(.urlSession(_:))` on the simulation and in a replay
/// (``BackgroundTransfers/backgroundTask(_:action:)``; docs/platform-model.md, "SwiftUI's
/// backgroundTask"): the action runs when the system wakes the app for the session
/// (`net.wake`), and SwiftUI calls the wake's completion handler (`net.handler`) when it
/// returns. Apple, `backgroundTask(_:action:)`
/// (https://developer.apple.com/documentation/swiftui/scene/backgroundtask(_:action:)):
/// "The system considers the task completed when the action closure that you provide
/// returns", and "If the action closure has not returned when the task runs out of time
/// to complete, the system cancels the task". The app: Dulcet's downloads
/// (legitimate-apps/dulcet @569f3fd, `apple/DulcetAppleShared/DulcetCoreDownloads.swift`),
/// ``SwiftUIDownloadsApp``.
@Suite struct SwiftUIURLSessionModelTests {
  static let session = SwiftUIDownloadsApp.sessionIdentifier

  /// A system where the download takes exactly a minute; the user starts it, then leaves
  /// the app at 1 s (suspended at 4 s), and iOS reclaims it at 10 s, so the download's end
  /// launches it in the background.
  static func run(_ version: SwiftUIDownloadsApp.Version, seed: UInt64 = 1) -> SimulatedSystem {
    var configuration = SimulationConfiguration()
    configuration.transferDuration = .seconds(60)...(.seconds(60))
    let system = SimulatedSystem(seed: seed, configuration: configuration)
    system.launchApp { SwiftUIDownloadsApp(transfers: $0, version: version) }
    system.userAction("download")
    system.advance(by: .seconds(1))
    system.moveToBackground()
    system.advance(by: .seconds(9))
    system.terminate(reason: "memory")
    system.advance(by: .seconds(110))
    return system
  }

  /// The lines of the wake, from the launch for it on.
  static func wakeLines(_ trace: RecordedTrace) -> [String] {
    trace.events.filter { $0.time >= TraceTime(seconds: 60) }.map(TextTraceWriter.line(for:))
  }

  /// The action that only recreates the session returns at once: SwiftUI calls the
  /// completion handler at the wake, before the download's result and
  /// `urlSessionDidFinishEvents` arrive, and the checker says so (`net-handler-early`).
  /// Here the events still come before the app is suspended 3 s later; with slower
  /// events they would not.
  @Test func anActionThatReturnsAtOnceCallsTheHandlerEarly() {
    let trace = Self.run(.returnsAtOnce).trace
    #expect(
      Self.wakeLines(trace) == [
        "60 app.launch",
        "60 app.state to=background",
        "60 net.wake session=\(Self.session)",
        "60 net.create session=\(Self.session)",
        "60 net.handler session=\(Self.session)",
        "60.61 net.finish session=\(Self.session) task=1 outcome=success",
        "61.381 net.events-done session=\(Self.session)",
        "63 app.state to=suspended",
      ])
    #expect(ExampleTrace.findings(in: trace) == ["net-handler-early @ 60 net.handler session=\(Self.session)"])
    expectTrace(
      trace, matchesGolden: "swiftui-urlsession-returns-at-once", checks: .all(except: [.netHandlerEarly]),
      directory: ExampleTrace.iosGoldens)
  }

  /// Dulcet's action waits for `urlSessionDidFinishEvents`: the handler follows the
  /// session's events, the app is suspended 3 s after it, and the trace is clean.
  @Test func anActionThatWaitsForTheEventsCallsTheHandlerAfterThem() {
    let trace = Self.run(.waitsForEvents).trace
    #expect(
      Self.wakeLines(trace) == [
        "60 app.launch",
        "60 app.state to=background",
        "60 net.wake session=\(Self.session)",
        "60 net.create session=\(Self.session)",
        "60.61 net.finish session=\(Self.session) task=1 outcome=success",
        "61.381 net.events-done session=\(Self.session)",
        "61.381 net.handler session=\(Self.session)",
        "64.381 app.state to=suspended",
      ])
    #expect(ExampleTrace.findings(in: trace).isEmpty)
    expectTrace(trace, matchesGolden: "swiftui-urlsession-waits-for-events", directory: ExampleTrace.iosGoldens)
  }

  /// Replaying the early recording: the same code replays it exactly; Dulcet's waiting
  /// action takes the same actions in the same order, but its handler comes after the
  /// events, where `.exact` timing shows it departs, and its replay's trace is clean.
  @Test func aReplayRunsTheActionAtTheRecordedWake() {
    let recording = Self.run(.returnsAtOnce).trace
    let same = Replayer.replay(recording, timing: .exact) {
      SwiftUIDownloadsApp(transfers: $0, version: .returnsAtOnce)
    }
    #expect(same.divergence == nil, "\(String(describing: same.divergence))")
    #expect(same.trace.text == recording.text)
    let fixed = Replayer.replay(recording, timing: .exact) {
      SwiftUIDownloadsApp(transfers: $0, version: .waitsForEvents)
    }
    #expect(fixed.divergence?.expected == "60 net.handler session=\(Self.session)")
    #expect(fixed.divergence?.actual == "61.381 net.handler session=\(Self.session)")
    #expect(fixed.findings.isEmpty, "\(fixed.findings)")
  }

  /// An app whose action waits longer than the wake's background time, with a virtual
  /// sleep; `.urlSession(matching:)` hands it the session's identifier.
  final class SlowApp: BackgroundAppDelegate, BackgroundSessionDelegate, @unchecked Sendable {
    let transfers: any BackgroundTransfers
    let context: AsyncContext
    let seen = Mutex<[String]>([])

    init(transfers: any BackgroundTransfers, context: AsyncContext) {
      self.transfers = transfers
      self.context = context
    }

    func didFinishLaunching() {
      let sleep = context.sleep
      transfers.backgroundTask(.urlSession(matching: { $0.hasPrefix("com.example.") })) { [self] identifier in
        seen.withLock { $0.append(identifier) }
        _ = transfers.session(identifier: identifier, discretionary: false, delegate: self)
        do {
          try await sleep(.seconds(600))
          seen.withLock { $0.append("slept") }
        } catch {
          seen.withLock { $0.append("cancelled") }
        }
      }
    }

    func perform(userAction action: String) {
      _ = transfers.session(identifier: "com.example.sync", discretionary: false, delegate: self)
        .startTransfer(.download("https://example.com/feed"))
    }

    func transferDidComplete(session: String, task: Int, outcome: TransferOutcome) {}
    func sessionDidFinishEvents(session: String) {}
  }

  /// ``SlowApp`` starts a download that takes a minute and the user leaves at once: the
  /// wake at 60 s runs its action, which sleeps past the wake's 30 s.
  static func slowAppRun() -> SimulatedSystem {
    var configuration = SimulationConfiguration()
    configuration.transferDuration = .seconds(60)...(.seconds(60))
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launchApp { SlowApp(transfers: $0, context: AsyncContext(simulation: $0.scheduler)) }
    system.userAction("sync")
    system.moveToBackground()
    system.advance(by: .seconds(200))
    return system
  }

  /// The wake's background time (30 s) runs out before the action returns: SwiftUI's
  /// task is cancelled, the action's sleep throws, and its return calls the handler at
  /// that instant, as the app is suspended.
  @Test func theWakesTimeRunningOutCancelsTheAction() throws {
    let system = Self.slowAppRun()
    let app = try #require(system.app(as: SlowApp.self))
    #expect(app.seen.withLock { $0 } == ["com.example.sync", "cancelled"])
    let handler = try #require(system.trace.events.first { $0.kind == .netHandler(session: "com.example.sync") })
    let wake = try #require(system.trace.events.first { $0.kind == .netWake(session: "com.example.sync") })
    #expect(handler.time == wake.time + TraceInterval(seconds: 30))
  }

  /// Replaying a wake whose time ran out: the recording's suspension at the wake's end
  /// is where SwiftUI cancelled the action, so the replay cancels the action still
  /// running there, and its return records the handler before the suspension, as
  /// recorded. Left running, the replayed action would sleep on and the handler never
  /// come.
  @Test func aReplayCancelsTheActionAtTheSuspensionThatEndsItsWake() throws {
    let system = Self.slowAppRun()
    let recording = system.trace
    #expect(
      recording.events.suffix(3).map(TextTraceWriter.line(for:)) == [
        "61.381 net.events-done session=com.example.sync",
        "90 net.handler session=com.example.sync",
        "90 app.state to=suspended",
      ])
    let made = Mutex<SlowApp?>(nil)
    let replay = Replayer.replay(recording, timing: .exact) {
      let app = SlowApp(transfers: $0, context: AsyncContext(simulation: $0.scheduler))
      made.withLock { $0 = app }
      return app
    }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(replay.trace.text == recording.text)
    let app = try #require(made.withLock { $0 })
    #expect(app.seen.withLock { $0 } == ["com.example.sync", "cancelled"])
  }

  /// Through the tracing wrapper (on a device over `URLSessionTransfers`; here over the
  /// simulation), each run of the action is recorded as a wake: `net.wake` when it starts
  /// and `net.handler` when it returns, around what the session's delegate gets.
  @Test func theTracingWrapperRecordsEachRunAsAWake() {
    var configuration = SimulationConfiguration()
    configuration.transferDuration = .seconds(60)...(.seconds(60))
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    let recorder = TraceRecorder()
    system.launchApp {
      SwiftUIDownloadsApp(transfers: TracingBackgroundTransfers(base: $0, recorder: recorder), version: .waitsForEvents)
    }
    system.userAction("download")
    system.moveToBackground()
    system.advance(by: .seconds(10))
    system.terminate(reason: "memory")
    system.advance(by: .seconds(110))
    let session = Self.session
    #expect(
      recorder.trace.events.map(\.kind) == [
        .netCreate(session: session), .netSubmit(session: session, task: 1, kind: .download, discretionary: nil),
        .netWake(session: session), .netCreate(session: session),
        .netFinish(session: session, task: 1, outcome: .success), .netEventsDone(session: session),
        .netHandler(session: session),
      ])
  }
}
