import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// What an Android user does to hold back an app's work (docs/platform-model.md, "Force
/// stop and background restriction"): a force stop (`SimulatedSystem.forceStop()`) and
/// the battery usage set to "Restricted" (`setBackgroundRestricted(_:)`). Work runs
/// 0.1 s after it is due unless held; a stop's backoff runs 30 s from the enqueue.
@Suite struct UserStopTests {
  static func android(restricted: Bool = false) -> SimulatedSystem {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.backgroundRestricted = restricted
    configuration.exactAlarmsPermitted = true  // the app holds SCHEDULE_EXACT_ALARM
    return SimulatedSystem(seed: 1, configuration: configuration)
  }

  /// Enqueues the work `sync`, whose worker works `seconds` of virtual time.
  static func enqueueSync(on system: SimulatedSystem, seconds: Int64) throws {
    try system.enqueue(
      WorkRequest(work: "sync", worker: TimedWorker(clock: system.clock, duration: .seconds(seconds))), policy: nil)
  }

  /// What `bgtrace explain --why sync` says of the run.
  static func syncHistory(_ system: SimulatedSystem) -> [String] {
    RequestHistory(of: "sync", in: system.trace)?.lines ?? []
  }

  static func lines(_ system: SimulatedSystem) -> [String] {
    system.trace.events.map(handWrittenLine(for:)).filter {
      $0.contains(" work.") || $0.contains(" app.terminate") || $0.contains(" app.allowlist")
        || $0.contains(" app.launch") || $0.contains(" alarm.fire") || $0.contains(" env.set background")
    }
  }

  /// JobSchedulerService cancels a force-stopped app's jobs (`ACTION_PACKAGE_RESTARTED`:
  /// `cancelJobsForPackageAndUidLocked(…, STOP_REASON_USER, …, "app force stopped")`),
  /// and the app is in the stopped state: broadcasts go out with
  /// `FLAG_EXCLUDE_STOPPED_PACKAGES` (`BroadcastController`), so the high-priority
  /// message at 100 s starts nothing. The work waits `quit` (JobScheduler
  /// `PENDING_JOB_REASON_USER`: "the user's actions (eg. force stop …)") until the user
  /// opens the app at 200 s, when androidx `ForceStopRunnable` ("Application was
  /// force-stopped, rescheduling") schedules it again; its RUNNING attempt went back to
  /// ENQUEUED (`cleanUp`), so attempt 1 runs its 300 s to 500 s.
  @Test func aForceStoppedAppsWorkWaitsForTheUserToOpenIt() throws {
    let system = Self.android()
    system.launch { _ in }
    system.advance(to: TraceTime(seconds: 10))
    try Self.enqueueSync(on: system, seconds: 300)
    system.advance(to: TraceTime(seconds: 60))
    system.forceStop()
    system.advance(to: TraceTime(seconds: 100))
    system.deliverHighPriorityMessage()
    system.advance(to: TraceTime(seconds: 200))
    system.relaunch()
    system.advance(to: TraceTime(seconds: 600))
    #expect(
      Self.lines(system) == [
        "0 app.launch", "10 work.enqueue work=sync", "10.1 work.start work=sync attempt=0",
        "60 app.terminate reason=force-stopped", "60 work.stop work=sync attempt=0 reason=terminated",
        "60 work.wait work=sync reasons=quit", "200 app.launch", "200 work.start work=sync attempt=1",
        "500 work.result work=sync attempt=1 outcome=success",
      ])
    #expect(TraceChecker.check(system.trace).isEmpty)
    let history = Self.syncHistory(system)
    #expect(
      history.contains(
        "  60s to 200s (140s): waited: the user had stopped the app (closed it from the app switcher on iOS, "
          + "force-stopped it on Android), and nothing of it runs until they open it again."), "\(history)")
  }

  /// AlarmManagerService removes a force-stopped app's alarms (`ACTION_PACKAGE_RESTARTED`:
  /// `removeLocked(uid, …)`), and the stopped state outlives a reboot
  /// (`Settings.writePackageRestrictionsLPr` writes `stopped`): after the reboot at
  /// 300 s, `BOOT_COMPLETED` starts nothing, and the work due at 100 s still waits.
  @Test func aForceStoppedAppGetsNoAlarmAndNoBootCompleted() throws {
    let system = Self.android()
    system.launch { _ in }
    try system.setAlarm("exact", after: .seconds(100), type: .exact)
    try system.enqueue(
      WorkRequest(work: "later", initialDelay: .seconds(100), worker: TimedWorker(clock: system.clock)), policy: nil)
    system.advance(to: TraceTime(seconds: 50))
    system.forceStop()
    system.advance(to: TraceTime(seconds: 300))
    system.reboot()
    system.advance(to: TraceTime(seconds: 1000))
    #expect(
      Self.lines(system) == [
        "0 app.launch", "0 work.enqueue work=later initial=100", "50 app.terminate reason=force-stopped",
        "100 work.wait work=later reasons=quit",
      ])
    let alarm = try #require(AlarmHistory(of: "exact", in: system.trace))
    #expect(
      alarm.lines.last
        == "  50s: dropped by the force stop; it was due at 100s (AlarmManager removes a stopped app's alarms).")
  }

  /// Near miss: on iOS `forceStop()` does nothing (the app switcher's quit is
  /// `terminate(reason: "user")`), and on Android a swipe from the recents screen
  /// (`terminate(reason: "user")`) holds no work: a process that dies is started again
  /// for its work.
  @Test func nothingButAnAndroidForceStopHoldsWork() throws {
    let ios = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .ios))
    ios.launch { _ in }
    ios.forceStop()
    #expect(!ios.trace.events.contains { if case .appTerminate = $0.kind { true } else { false } })

    let system = Self.android()
    system.launch { _ in }
    try system.enqueue(
      WorkRequest(work: "later", initialDelay: .seconds(100), worker: TimedWorker(clock: system.clock)), policy: nil)
    system.terminate(reason: "user")
    system.advance(to: TraceTime(seconds: 200))
    #expect(
      Self.lines(system) == [
        "0 app.launch", "0 work.enqueue work=later initial=100", "0 app.terminate reason=user", "100.1 app.launch",
        "100.1 work.start work=later attempt=0", "100.1 work.result work=later attempt=0 outcome=success",
      ])
  }

  /// `BackgroundJobsController` keeps a job of a background-restricted app unready
  /// (`AppStateTrackerImpl.areJobsRestricted`) unless its uid is active or it is on the
  /// temporary allowlist (`mTempExemptAppIds`); a running one is stopped with
  /// `STOP_REASON_BACKGROUND_RESTRICTION` (11, `JobStatus.constraintToStopReason` with
  /// `mIsUserBgRestricted`), and one waiting has
  /// `PENDING_JOB_REASON_BACKGROUND_RESTRICTION`. The work waits from 0 s, runs while
  /// the app is on top (50–80 s) and while the message's 10 s allowlist lasts
  /// (200–210 s), and runs to its end once the user lifts the restriction at 300 s.
  @Test func aRestrictedAppsWorkRunsOnlyOnTopOrAllowlisted() throws {
    let system = Self.android(restricted: true)
    try Self.enqueueSync(on: system, seconds: 100)
    system.advance(to: TraceTime(seconds: 50))
    system.launch { _ in }
    system.advance(to: TraceTime(seconds: 80))
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 200))
    system.deliverHighPriorityMessage()
    system.advance(to: TraceTime(seconds: 300))
    system.setBackgroundRestricted(false)
    system.advance(to: TraceTime(seconds: 500))
    #expect(
      Self.lines(system) == [
        "0 env.set background-restricted=true", "0 work.enqueue work=sync",
        "0 work.wait work=sync reasons=background-restriction", "50 app.launch", "50 work.start work=sync attempt=0",
        "80 work.stop work=sync attempt=0 reason=background-restriction",
        "80 work.wait work=sync reasons=background-restriction",
        "200 app.allowlist reason=fcm-high-priority duration=10", "200 work.start work=sync attempt=1",
        "210 work.stop work=sync attempt=1 reason=background-restriction",
        "210 work.wait work=sync reasons=background-restriction", "300 env.set background-restricted=false",
        "300 work.start work=sync attempt=2", "400 work.result work=sync attempt=2 outcome=success",
      ])
    #expect(system.workInfos(forUniqueWork: "sync").first?.runAttemptCount == 3)
    // The stops and waits are the user's setting at work, not the app's mistake.
    #expect(TraceChecker.check(system.trace).isEmpty)
    let history = Self.syncHistory(system)
    #expect(
      history.contains(
        "  80s: attempt 0 stopped: the user restricted the app's background use, and the app left the foreground "
          + "(STOP_REASON_BACKGROUND_RESTRICTION)."), "\(history)")
  }

  /// A foreground service makes the uid active (`areJobsRestricted` returns false for
  /// `isUidActive` first): a restricted app playing music in the background keeps its
  /// work running after the user leaves at 10 s, until the player stops at 50 s and the
  /// work is stopped with it.
  @Test func aForegroundServiceKeepsARestrictedAppsWorkRunning() throws {
    let system = Self.android(restricted: true)
    system.launch { _ in }
    try system.startForegroundService("player", MediaPlayer())
    try Self.enqueueSync(on: system, seconds: 100)
    system.advance(to: TraceTime(seconds: 10))  // the player has called startForeground
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 50))
    system.stopService("player")
    system.advance(to: TraceTime(seconds: 200))
    #expect(
      Self.lines(system) == [
        "0 env.set background-restricted=true", "0 app.launch", "0 work.enqueue work=sync",
        "0.1 work.start work=sync attempt=0", "50 work.stop work=sync attempt=0 reason=background-restriction",
        "50 work.wait work=sync reasons=background-restriction",
      ])
  }

  /// AOSP reports a uid idle `DEFAULT_BACKGROUND_SETTLE_TIME` (60 s) after it leaves the
  /// foreground (`ActivityManagerService.idleUids`), and until then `areJobsRestricted`
  /// finds it active. The model's default settle time is none, the strict case: work
  /// started on top at 0.1 s is stopped when the user leaves at 10 s, or at 70 s with
  /// AOSP's minute; it is due again once its backoff (30 s from the enqueue) has passed.
  @Test(arguments: [(0, "10", "30"), (60, "70", "70")])
  func theRestrictionHoldsWorkOnceTheUidSettles(settle: Int, stop: String, due: String) throws {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.backgroundRestricted = true
    configuration.backgroundSettleTime = .seconds(settle)
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launch { _ in }
    try Self.enqueueSync(on: system, seconds: 100)
    system.advance(to: TraceTime(seconds: 10))
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 200))
    #expect(
      Self.lines(system) == [
        "0 env.set background-restricted=true", "0 app.launch", "0 work.enqueue work=sync",
        "0.1 work.start work=sync attempt=0", "\(stop) work.stop work=sync attempt=0 reason=background-restriction",
        "\(due) work.wait work=sync reasons=background-restriction",
      ])
  }

  /// `AppStateTrackerImpl.areJobsRestricted` returns `canRunInBatterySaver` only after
  /// the user's restriction: expedited work waits as regular work does, and an app on
  /// the power allowlist (`mPowerExemptAllAppIds`) is not held at all.
  @Test func expeditedWorkIsHeldAndThePowerAllowlistIsNot() throws {
    let system = Self.android(restricted: true)
    try system.enqueue(
      WorkRequest(work: "urgent", expedited: .runAsRegular, worker: TimedWorker(clock: system.clock)), policy: nil)
    system.advance(to: TraceTime(seconds: 100))
    #expect(
      Self.lines(system) == [
        "0 env.set background-restricted=true", "0 work.enqueue work=urgent expedited=run-as-regular",
        "0 work.wait work=urgent reasons=background-restriction",
      ])

    var configuration = SimulationConfiguration(platform: .android)
    configuration.backgroundRestricted = true
    configuration.backgroundStartExemptions = [.batteryUnrestricted]
    let allowlisted = SimulatedSystem(seed: 1, configuration: configuration)
    try allowlisted.enqueue(WorkRequest(work: "sync", worker: TimedWorker(clock: allowlisted.clock)), policy: nil)
    allowlisted.advance(to: TraceTime(seconds: 100))
    #expect(
      Self.lines(allowlisted) == [
        "0 env.set background-restricted=true", "0 work.enqueue work=sync", "0.1 app.launch",
        "0.1 work.start work=sync attempt=0", "0.1 work.result work=sync attempt=0 outcome=success",
      ])
  }

  /// `AlarmManagerService.isBackgroundRestricted` holds a restricted app's alarms while
  /// its uid is not active (`areAlarmsRestricted`), but for alarm clocks ("Don't defer
  /// alarm clocks"); `unblockAlarmsForUid` delivers them when it becomes active. The
  /// exact alarm due at 100 s goes off when the user opens the app at 400 s; the alarm
  /// clock at 150 s goes off on time, and its exact-alarm allowlist frees no alarm.
  @Test func aRestrictedAppsAlarmsWaitForItsReturnButAlarmClocks() throws {
    let system = Self.android(restricted: true)
    try system.setAlarm("exact", after: .seconds(100), type: .exact)
    try system.setAlarm("clock", after: .seconds(150), type: .alarmClock)
    system.advance(to: TraceTime(seconds: 400))
    system.launch { _ in }
    system.advance(to: TraceTime(seconds: 500))
    #expect(
      Self.lines(system).filter { $0.contains("alarm.fire") || $0.contains("app.launch") } == [
        "150 app.launch", "150 alarm.fire alarm=clock", "400 app.launch", "400 alarm.fire alarm=exact",
      ])
    #expect(
      AlarmHistory(of: "exact", in: system.trace)?.lines.dropFirst(2) == [
        "  100s to 400s (300s): held: the user had restricted the app's background use, and Android holds its "
          + "alarms, but alarm clocks, until it comes to the foreground (AlarmManagerService: isBackgroundRestricted).",
        "  400s: went off, 300s after its time.",
      ])
  }
}
