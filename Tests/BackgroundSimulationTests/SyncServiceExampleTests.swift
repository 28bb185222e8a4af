import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceTesting
import Testing

/// The seed's Android `SyncService` (article 000), ported as written: `onStartCommand`
/// calls `startForeground(NOTIFICATION_ID, notification)`, with no type, then syncs on
/// a thread for 20 s and stops itself.
///
/// The app is launched and kept open; the user taps "Sync" at 1 s and leaves the app at
/// 5 s. On the current release the untyped `startForeground` throws and the app
/// crashes; on Android 13 it runs, the service keeping the process running in the
/// background until it stops at 21 s; the fix passes `dataSync`.
@Suite struct SyncServiceExampleTests {
  /// The app of the goldens, on a platform (the simulation, or a replay's, where the
  /// crash is the recording's decision and `uncaught` does nothing).
  static func app(
    on services: any ForegroundServices, scheduler: VirtualTimeScheduler, type: ForegroundServiceType?,
    uncaught: @escaping @Sendable (ForegroundServiceError) -> Void = { _ in }
  ) -> any BackgroundAppDelegate {
    SyncServiceApp(services: services, uncaught: uncaught) {
      SyncService(
        type: type, syncDuration: .seconds(20), context: AsyncContext(simulation: scheduler), uncaught: uncaught)
    }
  }

  static func run(release: AndroidRelease = .current, type: ForegroundServiceType?) -> RecordedTrace {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = release
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launchApp { system in
      app(on: system, scheduler: system.scheduler, type: type) { _ in system.terminate(reason: "crash") }
    }
    system.advance(by: .seconds(1))
    system.userAction("sync")
    system.advance(by: .seconds(4))
    system.moveToBackground()
    system.runUntilIdle(for: .seconds(600))
    return system.trace
  }

  /// The seed as written on the current release: the untyped `startForeground` throws
  /// `MissingForegroundServiceTypeException` inside `onStartCommand`, and the app
  /// crashes at once.
  @Test func asWrittenTheUntypedStartForegroundCrashesTheApp() {
    let trace = Self.run(type: nil)
    #expect(ExampleTrace.findings(in: trace) == ["fgs-untyped @ 1 fgs.foreground service=SyncService"])
    #expect(
      ExampleTrace.lines(" ", in: trace) == [
        "0 app.launch", "0 app.state to=active", "1 mark label=user:sync", "1 fgs.start service=SyncService",
        "1 fgs.foreground service=SyncService", "1 fgs.refuse service=SyncService reason=no-type",
        "1 app.terminate reason=crash",
      ])
    expectTrace(
      trace, matchesGolden: "sync-service-untyped-crashes", checks: .all(except: [.fgsUntyped]),
      directory: ExampleTrace.androidGoldens)
  }

  /// The same code on Android 13, which takes no type: the service goes foreground at
  /// once, keeps the process running after the user leaves, and stops when the sync is
  /// done. Android 13's cached-apps freezer waits 10 minutes (AOSP CachedAppOptimizer
  /// `DEFAULT_FREEZER_DEBOUNCE_TIMEOUT = 600_000`), longer than the run goes on.
  @Test func onAndroid13TheSeedRunsAndStopsWhenTheSyncIsDone() {
    let trace = Self.run(release: AndroidRelease(13), type: nil)
    #expect(ExampleTrace.findings(in: trace).isEmpty)
    #expect(trace.meta["android"] == "13")
    #expect(
      ExampleTrace.lines(" ", in: trace) == [
        "0 app.launch", "0 app.state to=active", "1 mark label=user:sync", "1 fgs.start service=SyncService",
        "1 fgs.foreground service=SyncService", "5 app.state to=inactive", "5 app.state to=background",
        "21 fgs.stop service=SyncService",
      ])
    expectTrace(trace, matchesGolden: "sync-service-android-13", directory: ExampleTrace.androidGoldens)
  }

  /// The fix passes `dataSync`: it runs on the current release as on Android 13.
  @Test func theFixPassesDataSyncAndRunsOnTheCurrentRelease() {
    let trace = Self.run(type: .dataSync)
    #expect(ExampleTrace.findings(in: trace).isEmpty)
    #expect(
      ExampleTrace.lines(" fgs.", in: trace) == [
        "1 fgs.start service=SyncService", "1 fgs.foreground service=SyncService type=dataSync",
        "21 fgs.stop service=SyncService",
      ])
    expectTrace(trace, matchesGolden: "sync-service-typed", directory: ExampleTrace.androidGoldens)
  }
}
