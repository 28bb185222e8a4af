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
/// run expires at L + 30 s (the refresh runtime), and the user opens the app at 4000 s.
@Suite struct RefreshExampleTests {
  /// Runs the scenario and returns the system, the delegate and the launch time L.
  static func run(
    fetchTaking duration: Duration = .seconds(5), resubmits: Bool = true, completes: Bool = true
  ) throws -> (SimulatedSystem, RefreshAppDelegate, TraceTime) {
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
    system.advance(to: TraceTime(seconds: 4000))
    system.moveToForeground()
    let launch = try #require(
      system.trace.events.first {
        if case .schedLaunch = $0.kind { true } else { false }
      })
    // The request's earliest date is a lower bound; the seeded delay is at most 60 s.
    #expect(launch.time >= TraceTime(.seconds(3600)) && launch.time <= TraceTime(.seconds(3660)))
    return (system, delegate, launch.time)
  }

  /// `time` plus `seconds`, as the trace writes it.
  static func at(_ time: TraceTime, plus seconds: UInt64) -> String {
    time.adding(nanoseconds: seconds * 1_000_000_000).description
  }

  /// The fetch returns within the runtime: one submit at launch, one in the handler, one complete.
  @Test func aFetchWithinTheRuntimeIsClean() throws {
    let (system, delegate, launch) = try Self.run()
    let trace = system.trace

    #expect(ExampleTrace.findings(in: trace).isEmpty)
    #expect(
      ExampleTrace.lines(" sched.", in: trace) == [
        "0 sched.register ident=com.example.refresh",
        "0 sched.submit ident=com.example.refresh type=refresh earliest=3600",
        "\(launch) sched.launch ident=com.example.refresh run=1",
        "\(launch) sched.submit ident=com.example.refresh type=refresh earliest=\(Self.at(launch, plus: 3600))",
        "\(Self.at(launch, plus: 5)) sched.complete run=1 success=true",
      ])
    #expect(delegate.fetches == 1)
    expectTrace(
      trace, matchesGolden: "refresh-fetch-within-runtime", directory: ExampleTrace.goldenDirectory)
  }

  /// The seed as written: a fetch longer than the runtime makes the expiration handler
  /// complete the run (unsuccessfully) and the app is suspended 3 s later, so the fetch
  /// returns only when the user opens the app at 4000 s, and completes the run again.
  @Test func aFetchOutlastingTheRuntimeCompletesTwice() throws {
    let (system, delegate, launch) = try Self.run(fetchTaking: .seconds(45))
    let trace = system.trace

    #expect(
      ExampleTrace.lines(" sched.complete ", in: trace) == [
        "\(Self.at(launch, plus: 30)) sched.complete run=1 success=false",
        "4000 sched.complete run=1 success=true",
      ])
    #expect(ExampleTrace.lines(" sched.expire ", in: trace) == ["\(Self.at(launch, plus: 30)) sched.expire run=1"])
    #expect(
      ExampleTrace.findings(in: trace) == [
        "sched-double-complete @ 4000 sched.complete run=1 success=true"
      ])
    #expect(delegate.fetches == 1)
    expectTrace(
      trace, matchesGolden: "refresh-fetch-outlasts-runtime",
      checks: .all(except: [.schedDoubleComplete]), directory: ExampleTrace.goldenDirectory)
  }

  /// A handler that forgets to submit the next refresh: no further refresh will run.
  @Test func aHandlerThatDoesNotResubmitIsWarned() throws {
    let (system, _, launch) = try Self.run(resubmits: false)
    let trace = system.trace

    #expect(ExampleTrace.lines(" sched.submit ", in: trace).count == 1)
    #expect(
      ExampleTrace.findings(in: trace) == [
        "sched-refresh-not-rescheduled @ \(Self.at(launch, plus: 5)) sched.complete run=1 success=true"
      ])
    #expect(ExampleTrace.severities(in: trace) == [.warning])
    expectTrace(
      trace, matchesGolden: "refresh-not-resubmitted",
      checks: .all(except: [.schedRefreshNotRescheduled]), directory: ExampleTrace.goldenDirectory)
  }

  /// A handler that never completes: the run expires at L + 30 s and is still not
  /// completed 1 s later, so the system kills the app (Apple, `setTaskCompleted(success:)`:
  /// not calling it "may result in the system killing your app"; the model takes the
  /// strict reading, docs/platform-model.md). The checker reports the run at the kill.
  @Test func aHandlerThatNeverCompletesIsReported() throws {
    let (system, delegate, launch) = try Self.run(completes: false)
    let trace = system.trace

    #expect(ExampleTrace.lines(" sched.complete ", in: trace).isEmpty)
    #expect(ExampleTrace.lines(" sched.expire ", in: trace) == ["\(Self.at(launch, plus: 30)) sched.expire run=1"])
    #expect(ExampleTrace.lines(" app.", in: trace).last == "\(Self.at(launch, plus: 31)) app.terminate reason=watchdog")
    #expect(
      ExampleTrace.findings(in: trace) == [
        "sched-not-completed @ \(Self.at(launch, plus: 31)) app.terminate reason=watchdog"
      ])
    #expect(
      ExampleTrace.messages(in: trace).first?.hasSuffix(
        "expired at \(Self.at(launch, plus: 30))s) was not completed before the app terminated") == true)
    #expect(delegate.fetches == 1)
    expectTrace(
      trace, matchesGolden: "refresh-not-completed",
      checks: .all(except: [.schedNotCompleted]), directory: ExampleTrace.goldenDirectory)
  }
}
