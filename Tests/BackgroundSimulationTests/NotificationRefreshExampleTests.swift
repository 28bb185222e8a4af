import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import BackgroundTraceTesting
import Testing

/// Nostur's SwiftUI `.backgroundTask(.appRefresh("com.nostur.app-refresh"))` action
/// (``NotificationRefreshApp``): the two bugs of SwiftUI-style actions as the app's own
/// history has them, and the fix.
///
/// The app launches at 0 s (SwiftUI registers the identifier), is left at 10 s and
/// submits a refresh 60 s out (earliest 70 s), and is suspended at 13 s. Seed 3 draws
/// the launch delay 4065.264 s (of 15 min – 8 h, the realistic policy), so the run
/// launches at L = 70 + 4065.264 = 4135.264, and its runtime, 22.508 s (of 5–30 s);
/// the tests that cut the runtime give it 6 s with a fault plan (`schedulerRuntime`).
/// The action first submits the next refresh 180 s out (earliest 4315.264; its launch,
/// drawn next, falls after the end). The relays answer 8 s after they are asked. The
/// user opens the app at 20000 s.
@Suite struct NotificationRefreshExampleTests {
  /// Runs the scenario with `version`'s `checkForNotifications()`.
  static func run(_ version: NotificationRefreshApp.Version, runtime: Duration? = nil) -> SimulatedSystem {
    var faults = FaultPlan()
    faults.schedulerRuntime = runtime.map { $0...$0 }
    let system = SimulatedSystem(seed: 3, faults: faults)
    system.launchApp { app(on: $0, version: version) }
    system.advance(by: .seconds(10))
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 20000))
    system.moveToForeground()
    return system
  }

  /// The app on any platform: the simulation, or a replay.
  static func app(
    on platform: any TaskScheduling, context: AsyncContext, inputs: any RecordedInputs,
    version: NotificationRefreshApp.Version
  ) -> NotificationRefreshApp {
    NotificationRefreshApp(
      scheduler: platform, context: context, inputs: inputs, relayQuery: .seconds(8), version: version)
  }

  static func app(on system: SimulatedSystem, version: NotificationRefreshApp.Version) -> NotificationRefreshApp {
    app(on: system, context: AsyncContext(simulation: system.scheduler), inputs: system.inputs, version: version)
  }

  /// Every line up to the launch and the action's first step.
  static let untilTheLaunch = [
    "0 app.launch",
    "0 sched.register ident=com.nostur.app-refresh",
    "0 app.state to=active",
    "10 app.state to=inactive",
    "10 app.state to=background",
    "10 sched.submit ident=com.nostur.app-refresh type=refresh earliest=70",
    "13 app.state to=suspended",
    // Due at its earliest date; the realistic policy launches it later.
    "70 sched.wait ident=com.nostur.app-refresh reasons=scheduler",
    "4135.264 app.state to=background",
    "4135.264 sched.launch ident=com.nostur.app-refresh run=1",
    "4135.264 sched.submit ident=com.nostur.app-refresh type=refresh earliest=4315.264",
  ]

  static func story(_ trace: RecordedTrace) -> [String] {
    trace.events.map(TextTraceWriter.line(for:))
  }

  /// Bug 1, commit 046c21d: `checkForNotifications()` hands the query to a background
  /// context and returns, so the action returns at the launch and SwiftUI completes the
  /// run then (`success=true`); the app is suspended 3 s later with the query's sleep
  /// frozen. The relays' answer comes only when the user opens the app at 20000 s — as
  /// it becomes inactive — so no notification was shown in the background. The checker
  /// sees a launched run, a resubmit and a completion: nothing to report. Only the
  /// answer's place in the trace, after the run and the suspension, shows the bug (the
  /// `notification-refresh` exploration asserts it).
  @Test func anActionThatReturnsAtOnceCompletesTheRunWithItsWorkFrozen() {
    let system = Self.run(.returnsAtOnce)
    let trace = system.trace
    #expect(
      Self.story(trace)
        == Self.untilTheLaunch + [
          "4135.264 sched.complete run=1 success=true",
          "4138.264 app.state to=suspended",
          "4315.264 sched.wait ident=com.nostur.app-refresh reasons=scheduler",
          "20000 app.state to=inactive",
          // Still due, now also held by the foreground.
          "20000 sched.wait ident=com.nostur.app-refresh reasons=foreground+scheduler",
          "20000 input key=relays.mentions value=2",
          "20000 app.state to=active",
        ])
    #expect(ExampleTrace.findings(in: trace).isEmpty)
    #expect(system.app(as: NotificationRefreshApp.self)?.notifications == 1)
    expectTrace(trace, matchesGolden: "swiftui-refresh-returns-at-once", directory: ExampleTrace.iosGoldens)
  }

  /// Bug 2, commit a965eba: the action awaits a continuation that a task of its own
  /// resumes, and the expiration's cancellation does not reach that task. With a 6 s
  /// runtime the run expires at L + 6 = 4141.264 (`sched.expire`: SwiftUI cancels the
  /// action's task), the action is still waiting for the relays (8 s), and 1 s later
  /// iOS kills the app as for any run not completed after its expiration
  /// (`uncompletedRunKill`, Apple: not completing "may result in the system killing your
  /// app"; the strict reading). The relays' answer never comes and the user opens no
  /// running app at 20000 s. The checker reports the run at the kill.
  @Test func anActionThatIgnoresCancellationIsKilledAtTheDeadline() {
    let system = Self.run(.ignoresCancellation, runtime: .seconds(6))
    let trace = system.trace
    #expect(
      Self.story(trace)
        == Self.untilTheLaunch + [
          "4141.264 sched.expire run=1",
          "4142.264 app.terminate reason=watchdog",
          "4315.264 sched.wait ident=com.nostur.app-refresh reasons=scheduler",
        ])
    #expect(
      ExampleTrace.messages(in: trace) == [
        "run 1 (com.nostur.app-refresh, launched at 4135.264s, expired at 4141.264s) was not completed before the app terminated"
      ])
    #expect(ExampleTrace.findings(in: trace) == ["sched-not-completed @ 4142.264 app.terminate reason=watchdog"])
    expectTrace(
      trace, matchesGolden: "swiftui-refresh-ignores-cancellation", checks: .all(except: [.schedNotCompleted]),
      directory: ExampleTrace.iosGoldens)
  }

  /// The fix, with the same 6 s runtime: the expiration at 4141.264 cancels the action's
  /// task, its virtual sleep throws at once, the query answers `cancelled`, the action
  /// returns and SwiftUI completes the run at that instant; suspended 3 s later.
  @Test func theFixedActionStopsAtTheExpiration() {
    let system = Self.run(.fixed, runtime: .seconds(6))
    let trace = system.trace
    #expect(
      Self.story(trace)
        == Self.untilTheLaunch + [
          "4141.264 sched.expire run=1",
          "4141.264 input key=relays.mentions value=cancelled",
          "4141.264 sched.complete run=1 success=true",
          "4144.264 app.state to=suspended",
          "4315.264 sched.wait ident=com.nostur.app-refresh reasons=scheduler",
          "20000 app.state to=inactive",
          // Still due, now also held by the foreground.
          "20000 sched.wait ident=com.nostur.app-refresh reasons=foreground+scheduler",
          "20000 app.state to=active",
        ])
    #expect(ExampleTrace.findings(in: trace).isEmpty)
    #expect(system.app(as: NotificationRefreshApp.self)?.notifications == 0)
    expectTrace(trace, matchesGolden: "swiftui-refresh-fixed-cancelled", directory: ExampleTrace.iosGoldens)
  }

  /// The fix with the full 22.508 s runtime: the relays answer at L + 8 = 4143.264, in
  /// the run, which completes then; suspended 3 s later.
  @Test func theFixedActionAwaitsTheAnswer() {
    let system = Self.run(.fixed)
    #expect(
      Self.story(system.trace)
        == Self.untilTheLaunch + [
          "4143.264 input key=relays.mentions value=2",
          "4143.264 sched.complete run=1 success=true",
          "4146.264 app.state to=suspended",
          "4315.264 sched.wait ident=com.nostur.app-refresh reasons=scheduler",
          "20000 app.state to=inactive",
          // Still due, now also held by the foreground.
          "20000 sched.wait ident=com.nostur.app-refresh reasons=foreground+scheduler",
          "20000 app.state to=active",
        ])
    #expect(ExampleTrace.findings(in: system.trace).isEmpty)
  }
}

extension NotificationRefreshExampleTests {
  /// The app in a replay of its golden.
  static func app(on platform: ReplayPlatform, version: NotificationRefreshApp.Version) -> NotificationRefreshApp {
    app(on: platform, context: AsyncContext(simulation: platform.scheduler), inputs: platform.inputs, version: version)
  }
}
