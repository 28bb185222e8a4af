import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceTesting
import Testing

/// The seed's `AppDelegate` for BGTaskScheduler (articles 000, 002, 003, 004): it
/// registers the refresh handler at launch and submits a refresh an hour out; the
/// handler resubmits, sets an expiration handler that completes unsuccessfully, and
/// completes when the fetch returns.
///
/// The app is launched and submits at 0 s, is left at 10 s (suspended at 13 s), the
/// system launches the refresh after 3600 s plus a seeded delay (run 1, at time L), the
/// run expires at L + R (its seeded runtime), and the user opens the app at 8000 s. The
/// simulation's default, realistic launch policy draws the delay from 15 min to 8 h
/// (Apple, *Starting and Terminating Tasks During Development*: "can be many hours")
/// and the runtime from 5 to 30 s (refresh runs are often cut to a few seconds).
@Suite struct RefreshExampleTests {
  /// Runs the scenario and returns the system and the delegate.
  static func run(
    fetchTaking duration: Duration = .seconds(5), resubmits: Bool = true, completes: Bool = true
  ) -> (SimulatedSystem, RefreshAppDelegate) {
    let system = SimulatedSystem(seed: 3)
    let delegate = RefreshAppDelegate(
      scheduler: system, context: AsyncContext(simulation: system.scheduler), fetchDuration: duration,
      resubmits: resubmits, completes: completes)
    let didFinishLaunching: (SimulatedSystem) -> Void = { _ in
      delegate.didFinishLaunching()
      delegate.scheduleAppRefresh()
    }
    system.launch(didFinishLaunching)
    system.advance(by: .seconds(10))
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 8000))
    system.moveToForeground()
    return (system, delegate)
  }

  /// The lines every run shares up to the launch: a foreground launch registers and
  /// submits in the launch code, then is active; left at 10 s (inactive, then
  /// background), suspended 3 s later with nothing running. Seed 3 draws a launch delay
  /// of 4065.264 s (of 15 min – 8 h), so L = 7665.264, and a runtime R of 22.508 s (of
  /// 5–30 s); the launch wakes the suspended app.
  static let untilTheLaunch = [
    "0 app.launch",
    "0 sched.register ident=com.example.refresh",
    "0 sched.submit ident=com.example.refresh type=refresh earliest=3600",
    "0 app.state to=active",
    "10 app.state to=inactive",
    "10 app.state to=background",
    "13 app.state to=suspended",
    // Due at its earliest date; the realistic policy launches it hours later.
    "3600 sched.wait ident=com.example.refresh reasons=scheduler",
    "7665.264 app.state to=background",
    "7665.264 sched.launch ident=com.example.refresh run=1",
  ]

  /// Every event line: these traces hold only `app.` and `sched.` events, and both carry the story.
  static func story(_ trace: RecordedTrace) -> [String] {
    trace.events.map(TextTraceWriter.line(for:))
  }

  /// The fetch returns within the runtime: one submit at launch, one in the handler, one
  /// complete at L + 5 s; suspended 3 s after the run completes; the user opens the app
  /// at 8000 s (inactive, then active).
  @Test func aFetchWithinTheRuntimeIsClean() throws {
    let (system, delegate) = Self.run()
    let trace = system.trace

    #expect(ExampleTrace.findings(in: trace).isEmpty)
    #expect(
      Self.story(trace)
        == Self.untilTheLaunch + [
          "7665.264 sched.submit ident=com.example.refresh type=refresh earliest=11265.264",
          "7670.264 sched.complete run=1 success=true",
          "7673.264 app.state to=suspended",
          "8000 app.state to=inactive",
          "8000 app.state to=active",
        ])
    #expect(delegate.fetches == 1)
    expectTrace(
      trace, matchesGolden: "refresh-fetch-within-runtime", directory: ExampleTrace.iosGoldens)
  }

  /// The seed as written: a fetch longer than the runtime makes the expiration handler
  /// complete the run (unsuccessfully) at L + R and the app is suspended 3 s later, so
  /// the fetch returns only when the user opens the app at 8000 s — as the app becomes
  /// inactive, before it is active — and completes the run again.
  @Test func aFetchOutlastingTheRuntimeCompletesTwice() throws {
    let (system, delegate) = Self.run(fetchTaking: .seconds(45))
    let trace = system.trace

    #expect(
      Self.story(trace)
        == Self.untilTheLaunch + [
          "7665.264 sched.submit ident=com.example.refresh type=refresh earliest=11265.264",
          "7687.772 sched.expire run=1",
          "7687.772 sched.complete run=1 success=false",
          "7690.772 app.state to=suspended",
          "8000 app.state to=inactive",
          "8000 sched.complete run=1 success=true",
          "8000 app.state to=active",
        ])
    #expect(
      ExampleTrace.findings(in: trace) == [
        "sched-double-complete @ 8000 sched.complete run=1 success=true"
      ])
    #expect(delegate.fetches == 1)
    expectTrace(
      trace, matchesGolden: "refresh-fetch-outlasts-runtime",
      checks: .all(except: [.schedDoubleComplete]), directory: ExampleTrace.iosGoldens)
  }

  /// A handler that forgets to submit the next refresh: no further refresh will run.
  @Test func aHandlerThatDoesNotResubmitIsWarned() throws {
    let (system, _) = Self.run(resubmits: false)
    let trace = system.trace

    #expect(
      Self.story(trace)
        == Self.untilTheLaunch + [
          "7670.264 sched.complete run=1 success=true",
          "7673.264 app.state to=suspended",
          "8000 app.state to=inactive",
          "8000 app.state to=active",
        ])
    #expect(
      ExampleTrace.findings(in: trace) == [
        "sched-refresh-not-rescheduled @ 7670.264 sched.complete run=1 success=true"
      ])
    #expect(ExampleTrace.severities(in: trace) == [.warning])
    expectTrace(
      trace, matchesGolden: "refresh-not-resubmitted",
      checks: .all(except: [.schedRefreshNotRescheduled]), directory: ExampleTrace.iosGoldens)
  }

  /// A handler that never completes: the run expires at L + R and is still not
  /// completed 1 s later, so the system kills the app (Apple, `setTaskCompleted(success:)`:
  /// not calling it "may result in the system killing your app"; the model takes the
  /// strict reading). The app is not running when the user would open it at 8000 s, so
  /// nothing follows the kill. The checker reports the run at the kill.
  @Test func aHandlerThatNeverCompletesIsReported() throws {
    let (system, delegate) = Self.run(completes: false)
    let trace = system.trace

    #expect(
      Self.story(trace)
        == Self.untilTheLaunch + [
          "7665.264 sched.submit ident=com.example.refresh type=refresh earliest=11265.264",
          "7687.772 sched.expire run=1",
          "7688.772 app.terminate reason=watchdog",
        ])
    #expect(
      ExampleTrace.findings(in: trace) == [
        "sched-not-completed @ 7688.772 app.terminate reason=watchdog"
      ])
    #expect(
      ExampleTrace.messages(in: trace) == [
        "run 1 (com.example.refresh, launched at 7665.264s, expired at 7687.772s) was not completed before the app terminated"
      ])
    #expect(delegate.fetches == 1)
    expectTrace(
      trace, matchesGolden: "refresh-not-completed",
      checks: .all(except: [.schedNotCompleted]), directory: ExampleTrace.iosGoldens)
  }
}
