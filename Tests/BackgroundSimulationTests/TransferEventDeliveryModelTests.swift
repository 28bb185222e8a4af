import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// How a woken app's events arrive in the simulation (docs/platform-model.md,
/// "Background URLSession transfers"): one by one on the virtual clock after
/// `handleEventsForBackgroundURLSession`, so another session's wake or the user can
/// come in between, and the wake also reaches an app still running in the background.
@Suite struct TransferEventDeliveryModelTests {
  /// An app with two sessions, `a` and `b`, made at launch; `start:a` and `start:b`
  /// start an upload in one; each wake's handler is kept under its session's
  /// identifier and called in that session's `urlSessionDidFinishEvents`.
  final class TwoSessionApp: BackgroundAppDelegate, BackgroundSessionDelegate, @unchecked Sendable {
    let transfers: any BackgroundTransfers
    var sessions: [String: any BackgroundSession] = [:]
    var handlers: [String: @Sendable () -> Void] = [:]

    init(transfers: any BackgroundTransfers) { self.transfers = transfers }

    func didFinishLaunching() {
      for identifier in ["a", "b"] {
        sessions[identifier] = transfers.session(identifier: identifier, discretionary: false, delegate: self)
      }
    }

    func perform(userAction action: String) {
      guard action.hasPrefix("start:"), let session = sessions[String(action.dropFirst(6))] else { return }
      _ = session.startTransfer(.upload(file: "/tmp/photo.jpg", to: "https://example.com/photos"))
    }

    func handleEvents(forBackgroundSession identifier: String, completionHandler: @escaping @Sendable () -> Void) {
      handlers[identifier] = completionHandler
    }

    func transferDidComplete(session: String, task: Int, outcome: TransferOutcome) {}

    func sessionDidFinishEvents(session: String) {
      handlers.removeValue(forKey: session)?()
    }
  }

  /// A system where every transfer takes exactly a minute, so the test's timing alone
  /// says when each ends.
  static func system(seed: UInt64 = 1) -> SimulatedSystem {
    var configuration = SimulationConfiguration()
    configuration.transferDuration = .seconds(60)...(.seconds(60))
    let system = SimulatedSystem(seed: seed, configuration: configuration)
    system.launchApp { TwoSessionApp(transfers: $0) }
    return system
  }

  /// The trace's lines from `time` on.
  static func lines(of trace: RecordedTrace, from time: TraceTime) -> [String] {
    trace.events.filter { $0.time >= time }.map(TextTraceWriter.line(for:))
  }

  @Test func aSecondSessionsWakeComesWhileTheFirstSessionsEventsAreDelivered() throws {
    let system = Self.system()
    system.userAction("start:a")
    system.advance(by: .milliseconds(50))
    system.userAction("start:b")
    system.moveToBackground()
    system.advance(by: .seconds(120))
    let lines = Self.lines(of: system.trace, from: TraceTime(seconds: 60))
    // a ends at 60 s with the app suspended: the wake resumes it. b ends 50 ms later, while
    // a's events (each 0.1–1 s after the one before) are still coming: the app runs in the
    // background and holds b, and is woken for it too.
    #expect(
      Array(lines.prefix(3)) == ["60 app.state to=background", "60 net.wake session=a", "60.05 net.wake session=b"])
    let finishA = try #require(
      system.trace.events.first { $0.kind == .netFinish(session: "a", task: 1, outcome: .success) })
    let doneA = try #require(system.trace.events.first { $0.kind == .netEventsDone(session: "a") })
    #expect(finishA.time >= TraceTime(seconds: 60.1) && finishA.time <= TraceTime(seconds: 61))
    #expect(doneA.time >= finishA.time + TraceInterval(.milliseconds(100)))
    // Each session's handler, kept under its identifier, is called for its own events.
    #expect(TraceChecker.check(system.trace).isEmpty)
    #expect(lines.filter { $0.contains("net.handler") }.count == 2)
    #expect(lines.last?.hasSuffix("app.state to=suspended") == true)
  }

  @Test func theLastTransferWakesAnAppStillRunningInTheBackground() throws {
    let system = Self.system()
    system.userAction("start:a")
    system.advance(by: .seconds(58))
    system.moveToBackground()  // suspended at 61 s, unless something keeps it running
    system.advance(by: .seconds(60))
    let lines = Self.lines(of: system.trace, from: TraceTime(seconds: 58))
    // No resume: the app still runs at 60 s, and the wake keeps it running until its
    // handler is called; then it is suspended 3 s later.
    try #require(lines.count == 7)
    #expect(
      Array(lines.prefix(3)) == ["58 app.state to=inactive", "58 app.state to=background", "60 net.wake session=a"])
    #expect(lines[3].hasSuffix(" net.finish session=a task=1 outcome=success"))
    // The handler is called as the events end, and the app is suspended 3 s after it.
    let handler = try #require(Double(lines[5].prefix { $0 != " " }))
    #expect(lines[4] == "\(TraceTime(seconds: handler)) net.events-done session=a")
    #expect(lines[5].hasSuffix(" net.handler session=a"))
    #expect(lines[6] == "\(TraceTime(seconds: handler + 3)) app.state to=suspended")
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  @Test func theUserOpeningTheAppDuringAWakeGetsTheRestOfItsEvents() throws {
    let system = Self.system()
    system.userAction("start:a")
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 60.05))
    system.moveToForeground()
    system.advance(by: .seconds(60))
    let lines = Self.lines(of: system.trace, from: TraceTime(seconds: 60))
    #expect(
      Array(lines.prefix(4)) == [
        "60 app.state to=background", "60 net.wake session=a", "60.05 app.state to=inactive",
        "60.05 app.state to=active",
      ])
    let rest = Array(lines.dropFirst(4)).map { $0.split(separator: " ", maxSplits: 1)[1] }
    #expect(
      rest == ["net.finish session=a task=1 outcome=success", "net.events-done session=a", "net.handler session=a"])
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  @Test func anEarlierWakesBackgroundTimeDoesNotEndALaterWakeOfTheSameSession() {
    var configuration = SimulationConfiguration()
    configuration.transferDuration = .milliseconds(29_500)...(.milliseconds(29_500))
    // Without the resume rate limiter, which would hold the second upload 60 s after the
    // first wake (ResumeRateLimiterTests): the second wake must come within the first's
    // background time.
    configuration.transferResumeDelay = nil
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launchApp { TwoSessionApp(transfers: $0) }
    system.setEnvironment(charging: true)  // so the upload started in the background runs
    system.userAction("start:a")
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 29.95))
    system.userAction("start:a")  // app code in the first wake (29.5 s) starts another upload
    system.advance(by: .seconds(120))
    // It ends at 59.45 s, 50 ms before the first wake's background time would end: the
    // second wake's events still come, and its handler is called.
    let wakes = system.trace.events.filter { $0.kind == .netWake(session: "a") }.map(\.time)
    #expect(wakes == [TraceTime(seconds: 29.5), TraceTime(seconds: 59.45)])
    #expect(system.trace.events.filter { $0.kind == .netHandler(session: "a") }.count == 2)
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  @Test func theSameSeedDeliversAtTheSameTimesAndAnotherSeedAtOthers() {
    func run(_ seed: UInt64) -> RecordedTrace {
      let system = Self.system(seed: seed)
      system.userAction("start:a")
      system.moveToBackground()
      system.advance(by: .seconds(120))
      return system.trace
    }
    #expect(run(7).events == run(7).events)
    #expect(run(7).events != run(8).events, "each event's delay is drawn from the seed")
  }
}
