import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceTesting
import Testing

/// The NHS COVID-19 app's background task aggregator (``ExposureTasksApp``;
/// ukhsa-collaboration/covid-19-app-ios-ag-public, `BackgroundTaskAggregator.swift`,
/// © 2020 NHSX): its launch-time `getPendingTaskRequests` check, its processing run, and
/// its expiration handler that cancels the jobs and reschedules but never completes the
/// run (Apple, `setTaskCompleted(success:)`: not calling it "may result in the system
/// killing your app").
///
/// The app launches at 0 s: it registers, asks for its pending requests (none) once
/// launched and submits a processing request two hours out (earliest 7200 s). The user
/// leaves at 10 s (suspended at 13 s) and puts the phone on its charger at 3600 s
/// (processing runs wait for an idle device on power). Seed 3 draws the launch delay
/// 20402.113 s (of 15 min – 48 h, the realistic policy), so the run launches at
/// 27602.113, and processing runs get 180 s. The jobs take 240 s, so the run expires at
/// 27782.113, where the handler submits the next request two hours out. The user opens
/// the app at 30000 s: a new process if the first was killed, whose pending check finds
/// that request and submits nothing.
@Suite struct ExposureTasksExampleTests {
  static func run(_ version: ExposureTasksApp.Version) -> SimulatedSystem {
    let system = SimulatedSystem(seed: 3)
    system.launchApp { app(on: $0, context: AsyncContext(simulation: $0.scheduler), version: version) }
    system.advance(by: .seconds(10))
    system.moveToBackground()
    // On the charger for the night: processing runs wait for an idle device on power.
    system.advance(to: TraceTime(seconds: 3600))
    system.setEnvironment(network: true, charging: true)
    system.advance(to: TraceTime(seconds: 30000))
    // The user taps the app's icon: a new process if the first one was killed.
    if system.state == nil { system.relaunch() } else { system.moveToForeground() }
    system.advance(by: .seconds(10))
    return system
  }

  /// The app on any platform: the simulation, or a replay.
  static func app(
    on scheduler: any TaskScheduling, context: AsyncContext, version: ExposureTasksApp.Version
  ) -> ExposureTasksApp {
    ExposureTasksApp(scheduler: scheduler, context: context, jobDuration: .seconds(240), version: version)
  }

  static let identifier = ExposureTasksApp.identifier

  static var untilTheExpiration: [String] {
    [
      "0 app.launch",
      "0 sched.register ident=\(identifier)",
      "0 app.state to=active",
      "0 sched.submit ident=\(identifier) type=processing earliest=7200 network=true",
      "10 app.state to=inactive",
      "10 app.state to=background",
      "13 app.state to=suspended",
      "3600 env.set charging=true",
      // Due at its earliest date, on power (the device idle) with the network: only the
      // system's chosen time holds it.
      "7200 sched.wait ident=\(identifier) reasons=scheduler",
      "27602.113 app.state to=background",
      "27602.113 sched.launch ident=\(identifier) run=1",
      "27782.113 sched.expire run=1",
      // The handler reschedules: two hours from the expiration.
      "27782.113 sched.submit ident=\(identifier) type=processing earliest=34982.113 network=true",
    ]
  }

  /// As written: the run is never completed, so a second after the expiration iOS kills
  /// the app (`sched-not-completed`). The user's launch at 30000 s finds the request the
  /// handler submitted pending and submits nothing.
  @Test func theExpirationHandlerThatNeverCompletesGetsTheAppKilled() throws {
    let system = Self.run(.asWritten)
    let trace = system.trace
    #expect(
      trace.events.map(TextTraceWriter.line(for:))
        == Self.untilTheExpiration + [
          "27783.113 app.terminate reason=watchdog",
          "30000 app.launch",
          "30000 sched.register ident=\(Self.identifier)",
          "30000 app.state to=active",
        ])
    #expect(ExampleTrace.findings(in: trace) == ["sched-not-completed @ 27783.113 app.terminate reason=watchdog"])
    let app = try #require(system.app(as: ExposureTasksApp.self))
    #expect(app.pendingChecks == [true])
    expectTrace(
      trace, matchesGolden: "exposure-tasks-never-completed", checks: .all(except: [.schedNotCompleted]),
      directory: ExampleTrace.iosGoldens)
  }

  /// Fixed: the expiration handler completes the run unsuccessfully; the app is
  /// suspended 3 s later, and the user's return at 30000 s wakes the same process, which
  /// checks nothing (it checks at launch only).
  @Test func completingInTheExpirationHandlerIsClean() throws {
    let system = Self.run(.fixed)
    let trace = system.trace
    #expect(
      trace.events.map(TextTraceWriter.line(for:))
        == Self.untilTheExpiration + [
          "27782.113 sched.complete run=1 success=false",
          "27785.113 app.state to=suspended",
          "30000 app.state to=inactive",
          "30000 app.state to=active",
        ])
    #expect(ExampleTrace.findings(in: trace).isEmpty)
    let app = try #require(system.app(as: ExposureTasksApp.self))
    #expect(app.pendingChecks == [false])
    expectTrace(
      trace, matchesGolden: "exposure-tasks-fixed", checks: ExampleTrace.clean, directory: ExampleTrace.iosGoldens)
  }
}
