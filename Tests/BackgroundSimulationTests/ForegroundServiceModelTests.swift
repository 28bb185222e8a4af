import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import Synchronization
import Testing

/// The lines of a trace from its first `fgs.*` event or `app.terminate` on, and its
/// `work.*` events: what the foreground-service model decided.
private func serviceLines(_ trace: RecordedTrace) -> [String] {
  trace.events.map(handWrittenLine(for:)).filter {
    $0.contains(" fgs.") || $0.contains(" app.terminate") || $0.contains(" work.")
  }
}

/// A service that calls `startForeground` with `type` after `delay` (never, when `nil`),
/// and stops itself in `onTimeout` when `stopsOnTimeout`.
private final class TestService: ForegroundService {
  let async: AsyncContext
  let type: ForegroundServiceType?
  let delay: Duration?
  let stopsOnTimeout: Bool
  let refusals = Mutex<[ForegroundServiceRefusal]>([])

  init(
    _ system: SimulatedSystem, type: ForegroundServiceType?, delay: Duration? = .zero, stopsOnTimeout: Bool = true
  ) {
    self.async = AsyncContext(simulation: system.scheduler)
    self.type = type
    self.delay = delay
    self.stopsOnTimeout = stopsOnTimeout
  }

  func onStartCommand(_ control: ForegroundServiceControl) {
    guard let delay else { return }
    let (async, type) = (async, type)
    async.run { [self] in
      if delay > .zero { try? await async.sleep(delay) }
      do throws(ForegroundServiceError) {
        try control.startForeground(type: type)
      } catch {
        refusals.withLock { $0.append(error.reason) }
      }
    }
  }

  func onTimeout(_ control: ForegroundServiceControl, type: ForegroundServiceType) {
    if stopsOnTimeout { control.stopSelf() }
  }
}

private func android(_ release: Int? = nil) -> SimulationConfiguration {
  var configuration = SimulationConfiguration(platform: .android)
  if let release { configuration.androidRelease = AndroidRelease(release) }
  return configuration
}

/// Android's foreground services in the simulation, each rule against the AOSP file and
/// constant it follows (docs/platform-model.md, "Foreground services").
@Suite struct ForegroundServiceModelTests {
  /// AOSP ActivityManagerConstants.java: DEFAULT_SERVICE_START_FOREGROUND_TIMEOUT_MS =
  /// 30 * 1000 and DEFAULT_SERVICE_START_FOREGROUND_ANR_DELAY_MS = 10 * 1000: a service
  /// that never calls startForeground is stopped at 30 s and the app gets its ANR at 40 s.
  @Test func aServiceNeverPromotedGetsTheAppAnANRFortySecondsLaterOnCurrentReleases() throws {
    let system = SimulatedSystem(seed: 1, configuration: android())
    system.launch { _ in }
    try system.startForegroundService("sync", TestService(system, type: .dataSync, delay: nil))
    system.advance(by: .seconds(60))
    #expect(serviceLines(system.trace) == ["0 fgs.start service=sync", "40 app.terminate reason=anr"])
    #expect(TraceChecker.check(system.trace).map(\.rule) == [.fgsNotPromoted])
  }

  /// AOSP ActiveServices.java (Android 9-12): SERVICE_START_FOREGROUND_TIMEOUT = 10*1000,
  /// "before we ANR + stop it": the ANR comes at 10 s.
  @Test func onAndroid12TheANRComesAtTenSeconds() throws {
    let system = SimulatedSystem(seed: 1, configuration: android(12))
    system.launch { _ in }
    try system.startForegroundService("sync", TestService(system, type: .dataSync, delay: nil))
    system.advance(by: .seconds(60))
    #expect(serviceLines(system.trace) == ["0 fgs.start service=sync", "10 app.terminate reason=anr"])
    #expect(system.trace.meta["android"] == "12")
  }

  /// A service that calls startForeground in time runs on, and one that stops before it
  /// ever did crashes the app (ActiveServices: SERVICE_FOREGROUND_CRASH_MSG,
  /// "Context.startForegroundService() did not then call Service.startForeground()").
  @Test func aServiceStoppedBeforeStartForegroundCrashesTheApp() throws {
    let system = SimulatedSystem(seed: 1, configuration: android())
    system.launch { _ in }
    try system.startForegroundService("sync", TestService(system, type: .dataSync, delay: .seconds(2)))
    try system.startForegroundService("late", TestService(system, type: .dataSync, delay: nil))
    system.advance(by: .seconds(1))
    system.stopService("late")
    system.advance(by: .seconds(5))
    #expect(
      serviceLines(system.trace) == [
        "0 fgs.start service=sync", "0 fgs.start service=late", "1 fgs.stop service=late",
        "1 app.terminate reason=crash",
      ])
    #expect(
      system.crashReports == ["Context.startForegroundService() did not then call Service.startForeground(): late"])
  }

  /// Android 12 (ActiveServices, ForegroundServiceStartNotAllowedException): no start from
  /// the background, except within DEFAULT_FG_TO_BG_FGS_GRACE_DURATION (5 s) after the
  /// app left the foreground; Android 11 allows it.
  @Test func aStartFromTheBackgroundIsRefusedFromAndroid12OutsideTheGrace() throws {
    let system = SimulatedSystem(seed: 1, configuration: android(12))
    system.launch { _ in }
    system.moveToBackground()
    system.advance(by: .seconds(4))
    try system.startForegroundService("early", TestService(system, type: .dataSync))
    system.advance(by: .seconds(2))
    #expect(throws: ForegroundServiceError(.background, service: "late")) {
      try system.startForegroundService("late", TestService(system, type: .dataSync))
    }
    #expect(
      serviceLines(system.trace) == [
        "4 fgs.start service=early", "4 fgs.foreground service=early type=dataSync", "6 fgs.start service=late",
        "6 fgs.refuse service=late reason=background",
      ])

    let older = SimulatedSystem(seed: 1, configuration: android(11))
    older.launch { _ in }
    older.moveToBackground()
    older.advance(by: .seconds(60))
    try older.startForegroundService("late", TestService(older, type: .dataSync))
    older.advance(by: .seconds(1))
    #expect(serviceLines(older.trace).last == "60 fgs.foreground service=late type=dataSync")
  }

  /// Android's "Exemptions from background start restrictions": an app holding
  /// SYSTEM_ALERT_WINDOW may start a foreground service from the background; from
  /// Android 15 only with a visible overlay window, which the model does not have.
  @Test func aStandingExemptionAllowsAStartFromTheBackground() throws {
    for (release, allowed) in [(14, true), (15, false)] {
      var configuration = android(release)
      configuration.backgroundStartExemptions = [.systemAlertWindow]
      let system = SimulatedSystem(seed: 1, configuration: configuration)
      system.launch { _ in }
      system.moveToBackground()
      system.advance(by: .seconds(60))
      if allowed {
        try system.startForegroundService("sync", TestService(system, type: .dataSync))
      } else {
        #expect(throws: ForegroundServiceError(.background, service: "sync")) {
          try system.startForegroundService("sync", TestService(system, type: .dataSync))
        }
      }
      system.advance(by: .seconds(1))
      #expect(system.trace.meta["fgs-exempt"] == "system-alert-window")
      #expect(TraceChecker.check(system.trace).map(\.rule) == (allowed ? [] : [.fgsStartedInBackground]))
    }
  }

  /// Android 14 (MissingForegroundServiceTypeException, "Starting FGS without a type"):
  /// startForeground needs a type; Android 13 takes none.
  @Test func startForegroundWithoutATypeIsRefusedFromAndroid14() throws {
    let system = SimulatedSystem(seed: 1, configuration: android(14))
    system.launch { _ in }
    let service = TestService(system, type: nil)
    try system.startForegroundService("player", service)
    system.advance(by: .seconds(1))
    #expect(service.refusals.withLock { $0 } == [.noType])
    #expect(
      serviceLines(system.trace).suffix(2) == [
        "0 fgs.foreground service=player", "0 fgs.refuse service=player reason=no-type",
      ])

    let older = SimulatedSystem(seed: 1, configuration: android(13))
    older.launch { _ in }
    let untyped = TestService(older, type: nil)
    try older.startForegroundService("player", untyped)
    older.advance(by: .seconds(1))
    #expect(untyped.refusals.withLock { $0 }.isEmpty)
  }

  /// Android 15: ActivityManagerConstants.DEFAULT_DATA_SYNC_FGS_TIMEOUT_DURATION = 6 hours
  /// in 24, then Service.onTimeout; a service that does not stop within
  /// DEFAULT_FGS_CRASH_EXTRA_WAIT_DURATION (10 s) crashes the app
  /// (ForegroundServiceDidNotStopInTimeException).
  @Test func aDataSyncServiceGetsSixHoursThenOnTimeoutThenACrashTenSecondsLater() throws {
    let system = SimulatedSystem(seed: 1, configuration: android(15))
    system.launch { _ in }
    try system.startForegroundService(
      "sync", TestService(system, type: .dataSync, stopsOnTimeout: false))
    system.advance(by: .seconds(7 * 3600))
    #expect(
      serviceLines(system.trace) == [
        "0 fgs.start service=sync", "0 fgs.foreground service=sync type=dataSync",
        "21600 fgs.timeout service=sync type=dataSync", "21610 app.terminate reason=crash",
      ])
    #expect(TraceChecker.check(system.trace).map(\.rule) == [.fgsTimeoutIgnored])
    #expect(
      system.crashReports == [
        "ForegroundServiceDidNotStopInTimeException: sync did not stop within the time after onTimeout"
      ])
  }

  /// A service that stops in onTimeout runs to its timeout cleanly; a restart of the type
  /// with its 6 hours spent is refused ("Time limit already exhausted for foreground
  /// service type dataSync"), until the user brings the app to the foreground, which
  /// resets the time (Android's foreground-service timeout documentation).
  /// The app is in the background (a standing exemption lets it start the service
  /// there): a TOP app's time is reset at startForeground (ActiveServices: "or if the app
  /// is currently in the TOP state").
  @Test func aRestartAfterTheBudgetIsSpentIsRefusedUntilTheAppComesToTheForeground() throws {
    var configuration = android(15)
    configuration.backgroundStartExemptions = [.batteryUnrestricted]
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launch { _ in }
    try system.startForegroundService("sync", TestService(system, type: .dataSync))
    system.moveToBackground()
    system.advance(by: .seconds(6 * 3600 + 60))
    let again = TestService(system, type: .dataSync)
    try system.startForegroundService("sync", again)
    system.advance(by: .seconds(1))
    #expect(again.refusals.withLock { $0 } == [.exhausted])
    system.stopService("sync")
    system.moveToForeground()
    let afterForeground = TestService(system, type: .dataSync)
    try system.startForegroundService("sync", afterForeground)
    system.advance(by: .seconds(1))
    #expect(afterForeground.refusals.withLock { $0 }.isEmpty)
    #expect(
      serviceLines(system.trace).prefix(6) == [
        "0 fgs.start service=sync", "0 fgs.foreground service=sync type=dataSync",
        "21600 fgs.timeout service=sync type=dataSync", "21600 fgs.stop service=sync",
        "21660 fgs.start service=sync", "21660 fgs.foreground service=sync type=dataSync",
      ])
    #expect(serviceLines(system.trace)[6] == "21660 fgs.refuse service=sync reason=exhausted")
  }

  /// AOSP ActiveServices.setServiceForegroundInnerLocked resets a type's time at
  /// startForeground "if the app is currently in the TOP state": an app that spent its
  /// dataSync time while on top and starts the service again, still on top, is allowed,
  /// not refused ("Time limit already exhausted").
  @Test func aStartForegroundWhileOnTopResetsTheTypesTime() throws {
    let system = SimulatedSystem(seed: 1, configuration: android(15))
    system.launch { _ in }
    try system.startForegroundService("sync", TestService(system, type: .dataSync))
    system.advance(by: .seconds(6 * 3600 + 60))
    let again = TestService(system, type: .dataSync)
    try system.startForegroundService("sync", again)
    system.advance(by: .seconds(60))
    #expect(again.refusals.withLock { $0 }.isEmpty)
    #expect(
      serviceLines(system.trace) == [
        "0 fgs.start service=sync", "0 fgs.foreground service=sync type=dataSync",
        "21600 fgs.timeout service=sync type=dataSync", "21600 fgs.stop service=sync",
        "21660 fgs.start service=sync", "21660 fgs.foreground service=sync type=dataSync",
      ])
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  /// A refused startForeground still settles what startForegroundService owed: AOSP
  /// ActiveServices.setServiceForegroundInnerLocked clears `r.fgRequired` and calls
  /// `mServiceFGAnrTimer.cancel(r)` before it throws "Time limit already exhausted for
  /// foreground service type". So the refused service gets the app no ANR at the
  /// deadline, and stopping it later is no SERVICE_FOREGROUND_CRASH_MSG crash.
  @Test func aServiceRefusedForItsSpentTimeOwesNoStartForeground() throws {
    for stops in [false, true] {
      var configuration = android(15)
      configuration.backgroundStartExemptions = [.batteryUnrestricted]
      let system = SimulatedSystem(seed: 1, configuration: configuration)
      system.launch { _ in }
      try system.startForegroundService("sync", TestService(system, type: .dataSync))
      system.moveToBackground()
      system.advance(by: .seconds(6 * 3600 + 60))
      try system.startForegroundService("sync", TestService(system, type: .dataSync))
      system.advance(by: .seconds(60))
      if stops { system.stopService("sync") }
      system.advance(by: .seconds(60))
      #expect(
        serviceLines(system.trace).dropFirst(4) == [
          "21660 fgs.start service=sync", "21660 fgs.foreground service=sync type=dataSync",
          "21660 fgs.refuse service=sync reason=exhausted",
        ] + (stops ? ["21720 fgs.stop service=sync"] : []), "stops: \(stops)")
      #expect(system.crashReports.isEmpty, "stops: \(stops)")
      #expect(TraceChecker.check(system.trace).map(\.rule) == [.fgsBudgetExhausted], "stops: \(stops)")
    }
  }

  /// Android 14: ActivityManagerConstants.DEFAULT_SHORT_FGS_TIMEOUT_DURATION = 3 * 60_000;
  /// a short service still running DEFAULT_SHORT_FGS_ANR_EXTRA_WAIT_DURATION (10 s) after
  /// its onTimeout gets the app an ANR.
  @Test func aShortServiceGetsThreeMinutesThenAnANRTenSecondsAfterOnTimeout() throws {
    let system = SimulatedSystem(seed: 1, configuration: android())
    system.launch { _ in }
    try system.startForegroundService(
      "short", TestService(system, type: .shortService, stopsOnTimeout: false))
    system.advance(by: .seconds(600))
    #expect(
      serviceLines(system.trace) == [
        "0 fgs.start service=short", "0 fgs.foreground service=short type=shortService",
        "180 fgs.timeout service=short type=shortService", "190 app.terminate reason=anr",
      ])
  }

  /// androidx Processor.stopWork: "Ignored stopWork. WorkerWrapper … is in foreground":
  /// a worker that called setForeground is not stopped at its job time limit (here 20
  /// minutes: on Android 16 a WorkManager job gets what is left of the active bucket's
  /// quota, even started on top, `JobRuntimeLimitTests`); one that did not is stopped
  /// there.
  @Test func setForegroundLiftsTheJobTimeLimit() {
    struct LongUpload: BackgroundWorker {
      let clock: VirtualClock
      let goesForeground: Bool
      func doWork(_ context: WorkContext) async -> WorkResult {
        if goesForeground { try? await context.setForeground(ForegroundInfo(type: .dataSync)) }
        do { try await clock.sleep(for: .seconds(3600)) } catch { return .retry }
        return .success
      }
    }
    for goesForeground in [true, false] {
      let system = SimulatedSystem(seed: 1, configuration: android())
      system.launch { _ in }
      try! system.enqueue(
        WorkRequest(work: "upload", worker: LongUpload(clock: system.clock, goesForeground: goesForeground)),
        policy: nil)
      system.advance(by: .seconds(3700))
      let lines = serviceLines(system.trace)
      if goesForeground {
        #expect(
          lines == [
            "0 work.enqueue work=upload", "0.1 work.start work=upload attempt=0",
            "0.1 work.foreground work=upload attempt=0", "3600.1 work.result work=upload attempt=0 outcome=success",
          ])
      } else {
        #expect(
          lines.prefix(3) == [
            "0 work.enqueue work=upload", "0.1 work.start work=upload attempt=0",
            "1200.1 work.stop work=upload attempt=0 reason=timeout",
          ])
      }
    }
  }

  /// Android 15: a worker promoted with setForeground runs as a dataSync foreground
  /// service and draws on its 6 hours; when they are spent, androidx
  /// SystemForegroundDispatcher.onTimeout ("Foreground service timed out") stops it
  /// with STOP_REASON_FOREGROUND_SERVICE_TIMEOUT; its next attempt cannot go foreground:
  /// SystemForegroundService's startForeground throws "Time limit already exhausted",
  /// which it catches ("Unable to start foreground service"), recorded as `work.refuse
  /// reason=exhausted`, and JobScheduler stops it
  /// at its job time limit: 30 minutes, as the app is on the power allowlist and so in
  /// the exempted bucket (`JobRuntimeLimitTests`). The app is in the background (with
  /// that standing exemption, so the worker may go foreground there): on top,
  /// ActiveServices would reset the time at the next startForeground.
  @Test func aPromotedWorkerDrawsOnTheDataSyncBudget() throws {
    struct Endless: BackgroundWorker {
      let clock: VirtualClock
      func doWork(_ context: WorkContext) async -> WorkResult {
        try? await context.setForeground(ForegroundInfo(type: .dataSync))
        do { try await clock.sleep(for: .seconds(8 * 3600)) } catch { return .retry }
        return .success
      }
    }
    var configuration = android(15)
    configuration.backgroundStartExemptions = [.batteryUnrestricted]
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launch { _ in }
    system.moveToBackground()
    try system.enqueue(WorkRequest(work: "upload", worker: Endless(clock: system.clock)), policy: nil)
    system.advance(by: .seconds(6 * 3600 + 1900))
    #expect(
      serviceLines(system.trace) == [
        "0 work.enqueue work=upload", "0.1 work.start work=upload attempt=0",
        "0.1 work.foreground work=upload attempt=0",
        "21600.1 work.stop work=upload attempt=0 reason=foreground-timeout",
        "21600.2 work.start work=upload attempt=1", "21600.2 work.foreground work=upload attempt=1",
        "21600.2 work.refuse work=upload attempt=1 reason=exhausted",
        "23400.2 work.stop work=upload attempt=1 reason=timeout", "23400.3 work.start work=upload attempt=2",
        "23400.3 work.foreground work=upload attempt=2", "23400.3 work.refuse work=upload attempt=2 reason=exhausted",
      ])
    #expect(Set(TraceChecker.check(system.trace).map(\.rule)) == [.workForegroundRefused])
  }
}

/// A worker's `setForeground` held to the foreground-service rules of the service
/// WorkManager starts for it (androidx `Processor.startForeground`,
/// `SystemForegroundService`, `SystemForegroundDispatcher`).
@Suite struct WorkerForegroundModelTests {
  /// Calls `setForeground(info)` `after` into its run, records whether it threw, then
  /// works 20 minutes.
  final class Promoting: BackgroundWorker, @unchecked Sendable {
    let clock: VirtualClock
    let info: ForegroundInfo
    let after: Duration
    let refusals = Mutex<[ForegroundServiceRefusal]>([])
    init(clock: VirtualClock, info: ForegroundInfo = ForegroundInfo(type: .dataSync), after: Duration = .zero) {
      self.clock = clock
      self.info = info
      self.after = after
    }
    func doWork(_ context: WorkContext) async -> WorkResult {
      do {
        if after > .zero { try await clock.sleep(for: after) }
        do throws(ForegroundServiceError) {
          try await context.setForeground(info)
        } catch {
          refusals.withLock { $0.append(error.reason) }
        }
        try await clock.sleep(for: .seconds(1200))
      } catch {
        return .retry
      }
      return .success
    }
  }

  /// Runs `worker` as work `upload` enqueued at 0 with the app sent to the background at
  /// 1 s, for `span`, on `configuration`.
  static func run(
    _ configuration: SimulationConfiguration, span: Duration = .seconds(700),
    worker: (SimulatedSystem) -> Promoting
  ) -> (SimulatedSystem, Promoting) {
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launch { _ in }
    let promoting = worker(system)
    try! system.enqueue(WorkRequest(work: "upload", worker: promoting), policy: nil)
    system.advance(by: .seconds(1))
    system.moveToBackground()
    system.advance(by: span)
    return (system, promoting)
  }

  /// androidx WorkForegroundUpdater: "This will fail when the process is subject to
  /// foreground service restrictions. Propagate the exception to the caller."; WorkManager
  /// 2.7.0-alpha04 release notes: setForegroundAsync "will throw the
  /// ForegroundServiceStartNotAllowedException". A worker promoting itself a minute after
  /// the user left the app, on Android 12+, is refused (`work.refuse reason=background`,
  /// a throw) and stays a job, stopped at its job time limit. Android 11 lets it.
  /// Inside a temporary allowlist window (a high-priority FCM message at 55 s, 10 s,
  /// REASON_PUSH_MESSAGING) the service WorkManager starts for the worker may start from
  /// the background: the worker's setForeground at 60.1 s is allowed, and it runs past
  /// its job time limit as a foreground service.
  @Test func setForegroundInsideAnAllowlistWindowIsAllowed() throws {
    let system = SimulatedSystem(seed: 1, configuration: android(14))
    system.launch { _ in }
    let worker = Promoting(clock: system.clock, after: .seconds(60))
    try system.enqueue(WorkRequest(work: "upload", worker: worker), policy: nil)
    system.advance(by: .seconds(1))
    system.moveToBackground()
    system.advance(by: .seconds(54))
    system.deliverHighPriorityMessage()
    system.advance(by: .seconds(1400))
    #expect(worker.refusals.withLock { $0 }.isEmpty)
    #expect(
      serviceLines(system.trace) == [
        "0 work.enqueue work=upload", "0.1 work.start work=upload attempt=0",
        "60.1 work.foreground work=upload attempt=0", "1260.1 work.result work=upload attempt=0 outcome=success",
      ])
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  @Test func setForegroundFromTheBackgroundThrowsOnAndroid12AndLater() {
    let (system, worker) = Self.run(android(12), span: .seconds(640)) {
      Promoting(clock: $0.clock, after: .seconds(60))
    }
    #expect(worker.refusals.withLock { $0 } == [.background])
    #expect(
      serviceLines(system.trace) == [
        "0 work.enqueue work=upload", "0.1 work.start work=upload attempt=0",
        "60.1 work.foreground work=upload attempt=0", "60.1 work.refuse work=upload attempt=0 reason=background",
        "600.1 work.stop work=upload attempt=0 reason=timeout", "600.2 work.start work=upload attempt=1",
      ])
    #expect(TraceChecker.check(system.trace).map(\.rule) == [.workForegroundRefused])

    let (older, promoted) = Self.run(android(11)) { Promoting(clock: $0.clock, after: .seconds(60)) }
    #expect(promoted.refusals.withLock { $0 }.isEmpty)
    #expect(!serviceLines(older.trace).contains { $0.contains("work.stop") || $0.contains("work.refuse") })
  }

  /// The same call in the first 5 s after the user left the app is within
  /// DEFAULT_FG_TO_BG_FGS_GRACE_DURATION, and with a standing exemption (a companion
  /// device: REQUEST_COMPANION_START_FOREGROUND_SERVICES_FROM_BACKGROUND, Android's
  /// "Exemptions from background start restrictions") it is allowed at any time; the
  /// exemption is recorded as `meta fgs-exempt=`, which the checker reads.
  @Test func theGraceAndAStandingExemptionAllowIt() {
    let (inGrace, early) = Self.run(android(16)) { Promoting(clock: $0.clock, after: .seconds(4)) }
    #expect(early.refusals.withLock { $0 }.isEmpty)
    #expect(TraceChecker.check(inGrace.trace).isEmpty)

    var exempt = android(16)
    exempt.backgroundStartExemptions = [.companionDevice]
    let (system, worker) = Self.run(exempt) { Promoting(clock: $0.clock, after: .seconds(60)) }
    #expect(worker.refusals.withLock { $0 }.isEmpty)
    #expect(system.trace.meta["fgs-exempt"] == "companion-device")
    #expect(TraceChecker.check(system.trace).isEmpty)

    var both = android(16)
    both.backgroundStartExemptions = [.companionDevice, .batteryUnrestricted]
    let trace = SimulatedSystem(seed: 1, configuration: both).trace
    #expect(trace.meta["fgs-exempt"] == "battery-unrestricted+companion-device")
    #expect(
      try! RecordedTrace(text: trace.text).meta.backgroundStartExemptions == [.companionDevice, .batteryUnrestricted])
  }

  /// androidx SystemForegroundService.Api31Impl.startForeground catches only
  /// ForegroundServiceStartNotAllowedException; without a type on Android 14+
  /// startForeground throws MissingForegroundServiceTypeException, uncaught on the main
  /// thread: the app crashes. Android 13 takes an untyped service.
  @Test func setForegroundWithoutATypeCrashesTheAppOnAndroid14() {
    let (system, worker) = Self.run(android(14)) { Promoting(clock: $0.clock, info: ForegroundInfo(type: nil)) }
    #expect(!worker.refusals.withLock { $0 }.contains(.noType))  // the call itself returned
    #expect(
      Array(serviceLines(system.trace).prefix(5)) == [
        "0 work.enqueue work=upload", "0.1 work.start work=upload attempt=0",
        "0.1 work.foreground work=upload attempt=0", "0.1 work.refuse work=upload attempt=0 reason=no-type",
        "0.1 app.terminate reason=crash",
      ])
    #expect(system.crashReports.first?.hasPrefix("MissingForegroundServiceTypeException") == true)

    let (older, _) = Self.run(android(13)) { Promoting(clock: $0.clock, info: ForegroundInfo(type: nil)) }
    #expect(!serviceLines(older.trace).contains { $0.contains("work.refuse") || $0.contains("app.terminate") })
  }

  /// androidx SystemForegroundDispatcher.onTimeout stops the works whose type timed out
  /// (STOP_REASON_FOREGROUND_SERVICE_TIMEOUT) and stops the service: a worker promoted
  /// as a shortService (Android 14+, DEFAULT_SHORT_FGS_TIMEOUT_DURATION = 3 minutes) is
  /// stopped after 3 minutes.
  @Test func aShortServiceWorkerIsStoppedAfterThreeMinutes() {
    let (system, _) = Self.run(android(16), span: .seconds(300)) {
      Promoting(clock: $0.clock, info: ForegroundInfo(type: .shortService))
    }
    #expect(
      serviceLines(system.trace).prefix(4) == [
        "0 work.enqueue work=upload", "0.1 work.start work=upload attempt=0",
        "0.1 work.foreground work=upload attempt=0", "180.1 work.stop work=upload attempt=0 reason=foreground-timeout",
      ])
  }

  /// A replay answers a worker's setForeground as the recording did: the refusal from
  /// the background throws again, and the replay takes the same path.
  @Test func aRefusedSetForegroundReplaysAlike() {
    func app(_ queue: any WorkQueue, _ clock: VirtualClock) -> UserActionApp {
      UserActionApp { _ in
        try! queue.enqueue(
          WorkRequest(work: "upload", worker: Promoting(clock: clock, after: .seconds(60))), policy: nil)
      }
    }
    let system = SimulatedSystem(seed: 1, configuration: android(12))
    system.launchApp { app($0, $0.clock) }
    system.userAction("upload")
    system.advance(by: .seconds(1))
    system.moveToBackground()
    system.advance(by: .seconds(700))
    #expect(serviceLines(system.trace).contains("60.1 work.refuse work=upload attempt=0 reason=background"))
    let replay = Replayer.replay(system.trace, timing: .exact) { app($0, $0.clock) }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(replay.trace.events == system.trace.events)
  }
}
