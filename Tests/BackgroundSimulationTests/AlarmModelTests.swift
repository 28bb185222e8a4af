import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import Testing

/// Android's `AlarmManager` in the simulation (docs/platform-model.md, "Alarms"), each
/// fact after AOSP `apex/jobscheduler/service/java/com/android/server/alarm/AlarmManagerService.java`
/// and `DeviceIdleController.java`. With the screen off, on battery and still from 0 s,
/// the default `DozePolicy` enters light Doze at 60 s and deep Doze at 3,600 s, whose
/// first maintenance window opens at 7,200 s.
@Suite struct AlarmModelTests {
  static func system(
    release: Int = 14, bucket: StandbyBucket = .active, dozing: Bool = false, allowlisted: Bool = false
  ) -> SimulatedSystem {
    var configuration = SimulationConfiguration(platform: .android)
    if allowlisted { configuration.backgroundStartExemptions = [.batteryUnrestricted] }
    configuration.androidRelease = AndroidRelease(release)
    configuration.standbyBucket = bucket
    configuration.standbyBucketFollowsUse = false
    configuration.exactAlarmsPermitted = true  // the app holds SCHEDULE_EXACT_ALARM
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    if dozing { system.setDeviceState(screenOn: false, stationary: true) }
    return system
  }

  static func fired(_ system: SimulatedSystem) -> [String] {
    system.trace.events.map(TextTraceWriter.line(for:)).filter { $0.contains(" alarm.fire") }
  }

  /// `adjustDeliveryTimeBasedOnDeviceIdle`: in deep Doze an alarm without
  /// `FLAG_ALLOW_WHILE_IDLE` or `FLAG_WAKE_FROM_IDLE` waits for `mPendingIdleUntil`, the
  /// maintenance window (7,200 s); `setExactAndAllowWhileIdle` goes off on time. Light
  /// Doze holds no alarm (`DeviceIdleController` calls `setIdleUntil` for deep idle
  /// alone): an exact alarm at 100 s goes off then. The late exact alarm is
  /// `alarm-exact-deferred`. (An alarm clock ends deep Doze before it:
  /// `anAlarmClockEndsDeepDozeTwoMinutesBefore`.)
  @Test func deepDozeHoldsAlarmsThatDoNotGoOffWhileIdle() throws {
    let system = Self.system(dozing: true)
    try system.setAlarm("light", after: .seconds(100), type: .exact)
    try system.setAlarm("exact", after: .seconds(4000), type: .exact)
    try system.setAlarm("idle", after: .seconds(4000), type: .exactAllowWhileIdle)
    system.advance(to: TraceTime(.seconds(8000)))
    #expect(
      Self.fired(system) == [
        "100 alarm.fire alarm=light", "4000 alarm.fire alarm=idle", "7200 alarm.fire alarm=exact",
      ])
    #expect(TraceChecker.check(system.trace).map(\.rule) == [.alarmExactDeferred])
  }

  /// `AlarmManagerService.adjustIdleUntilTime` moves the end of deep idle
  /// (`mPendingIdleUntil`) before the next alarm clock, by `MIN_DEVICE_IDLE_FUZZ` (2
  /// minutes, the latest of AOSP's random 2 to 15); `DeviceIdleController` then finds an
  /// alarm clock upcoming (`isUpcomingAlarmClock`) and becomes active ("alarm"), then
  /// inactive: light idle a minute on, deep idle an hour after the alarm clock. Deep
  /// idle runs 3,600 to 7,200 s, then a 5-minute window, then from 7,500 s (the alarm
  /// clock is more than 30 minutes off); the alarm clock at 12,000 s ends it at
  /// 11,880 s, and an exact alarm due at 10,000 s, held by Doze, goes off then, as a job
  /// held for Doze starts.
  @Test func anAlarmClockEndsDeepDozeTwoMinutesBefore() throws {
    let system = Self.system(dozing: true)
    try system.setAlarm("clock", after: .seconds(12000), type: .alarmClock)
    try system.setAlarm("exact", after: .seconds(10000), type: .exact)
    system.advance(to: TraceTime(.seconds(7600)))
    try system.enqueue(
      WorkRequest(work: "sync", worker: TimedWorker(clock: system.clock, duration: .seconds(30))), policy: nil)
    system.advance(to: TraceTime(.seconds(16000)))
    let lines = system.trace.events.map(handWrittenLine(for:)).filter {
      $0.contains(" env.set doze=") || $0.contains("alarm.fire") || $0.contains("work.start")
    }
    #expect(
      lines == [
        "60 env.set doze=light", "360 env.set doze=light-maintenance", "420 env.set doze=light",
        "1020 env.set doze=light-maintenance", "1080 env.set doze=light", "1980 env.set doze=light-maintenance",
        "2040 env.set doze=light", "2940 env.set doze=light-maintenance", "3000 env.set doze=light",
        "3600 env.set doze=deep", "7200 env.set doze=deep-maintenance", "7500 env.set doze=deep",
        // the alarm clock: active at 12,000 - 120 s, light idle a minute on
        "11880 env.set doze=off", "11880 alarm.fire alarm=exact", "11880 work.start work=sync attempt=0",
        "11940 env.set doze=light", "12000 alarm.fire alarm=clock",
        // light idle as from 11,880 s: 5, 10, 15 and 15 minutes with 1-minute windows between
        "12240 env.set doze=light-maintenance", "12300 env.set doze=light", "12900 env.set doze=light-maintenance",
        "12960 env.set doze=light", "13860 env.set doze=light-maintenance", "13920 env.set doze=light",
        "14820 env.set doze=light-maintenance", "14880 env.set doze=light",
        // deep idle an hour after the alarm clock
        "15600 env.set doze=deep",
      ])
  }

  /// A step into deep idle is one more time `isUpcomingAlarmClock` is asked: the end of a
  /// maintenance window with an alarm clock due within 30 minutes makes the device
  /// active, not idle. With the alarm clock at 9,000 s, the window ending at 7,500 s
  /// does: light idle from 7,560 s, and a job held for Doze runs in the first light
  /// window, 7,860 to 7,920 s.
  @Test func aMaintenanceWindowBeforeAnAlarmClockEndsDoze() throws {
    let system = Self.system(dozing: true)
    try system.setAlarm("clock", after: .seconds(9000), type: .alarmClock)
    system.advance(to: TraceTime(.seconds(7600)))
    try system.enqueue(
      WorkRequest(work: "sync", worker: TimedWorker(clock: system.clock, duration: .seconds(30))), policy: nil)
    system.advance(to: TraceTime(.seconds(8000)))
    let lines = system.trace.events.map(handWrittenLine(for:)).filter {
      $0.contains(" env.set doze=") || $0.contains("work.start")
    }
    #expect(
      Array(lines.suffix(6)) == [
        "7200 env.set doze=deep-maintenance", "7500 env.set doze=off", "7560 env.set doze=light",
        "7860 env.set doze=light-maintenance", "7860 work.start work=sync attempt=0", "7920 env.set doze=light",
      ])
  }

  /// `setWindow`: the model delivers at the window's end. From Android 12
  /// `getMinimumAllowedWindow` widens a window to at least the smaller of
  /// `DEFAULT_MIN_WINDOW` (10 minutes) and three quarters of the time to its start: 60 s
  /// asked 100 s ahead becomes 75 s (fires at 175 s), 60 s asked an hour ahead becomes
  /// 600 s (fires at 4,200 s). Android 11 keeps the windows asked: 160 s and 3,660 s.
  @Test(arguments: [(14, ["175", "4200"]), (11, ["160", "3660"])])
  func aWindowAlarmGoesOffAtItsWidenedWindowsEnd(release: Int, times: [String]) throws {
    let system = Self.system(release: release)
    system.setWindowAlarm("near", after: .seconds(100), window: .seconds(60))
    system.setWindowAlarm("far", after: .seconds(3600), window: .seconds(60))
    system.advance(to: TraceTime(.seconds(5000)))
    #expect(Self.fired(system) == ["\(times[0]) alarm.fire alarm=near", "\(times[1]) alarm.fire alarm=far"])
    #expect(
      system.trace.events.map(TextTraceWriter.line(for:)).contains(
        "0 alarm.set alarm=far at=3600 type=window window=60"))
    let history = try #require(AlarmHistory(of: "far", in: system.trace))
    if release == 14 {
      #expect(
        history.lines.contains {
          $0.contains("a setWindow alarm may go off up to the end of its 60s window, which Android 12 widens")
        })
    }
  }

  /// Android 9 delays an app's alarm until a bucket's delay after its last one went off
  /// (AOSP Pie `AlarmManagerService.adjustDeliveryTimeBasedOnStandbyBucketLocked`,
  /// `DEFAULT_APP_STANDBY_DELAYS` 6 minutes working, 2 hours rare; developer.android.com,
  /// "Power management restrictions"): the second alarm, due at 200 s, goes off 360 s
  /// after the first (460 s) in the working set, 7,200 s after it (7,300 s) in rare. Near
  /// misses: the active bucket, and Android 10's quota (10 an hour in the working set),
  /// let it go off on time.
  @Test(arguments: [
    (9, StandbyBucket.workingSet, "460"), (9, .rare, "7300"), (9, .active, "200"), (10, .workingSet, "200"),
  ])
  func androidNineDelaysAnAlarmAfterTheLast(release: Int, bucket: StandbyBucket, second: String) throws {
    let system = Self.system(release: release, bucket: bucket)
    try system.setAlarm("first", after: .seconds(100), type: .exact)
    try system.setAlarm("second", after: .seconds(200), type: .exact)
    system.advance(to: TraceTime(.seconds(8000)))
    #expect(Self.fired(system) == ["100 alarm.fire alarm=first", "\(second) alarm.fire alarm=second"])
  }

  /// Pie's `DeliveryTracker` notes only deliveries that are not exempt
  /// (`isExemptFromAppStandby`): an alarm clock going off at 100 s starts no delay, so a
  /// working-set app's exact alarm at 200 s goes off on time.
  @Test func androidNinesAlarmClockStartsNoDelay() throws {
    let system = Self.system(release: 9, bucket: .workingSet)
    try system.setAlarm("clock", after: .seconds(100), type: .alarmClock)
    try system.setAlarm("exact", after: .seconds(200), type: .exact)
    system.advance(to: TraceTime(.seconds(1000)))
    #expect(Self.fired(system) == ["100 alarm.fire alarm=clock", "200 alarm.fire alarm=exact"])
  }

  /// `explain --why` on Android 9 names the bucket's delay after the app's last alarm,
  /// not Android 10's hourly quota: the working-set app's exact alarm due at 200 s waits
  /// until 460 s, 6 minutes after the alarm at 100 s (Pie `AlarmManagerService`,
  /// `DEFAULT_APP_STANDBY_DELAYS`).
  @Test func androidNinesLateAlarmIsExplainedByTheDelay() throws {
    let system = Self.system(release: 9, bucket: .workingSet)
    try system.setAlarm("first", after: .seconds(100), type: .exact)
    try system.setAlarm("second", after: .seconds(200), type: .exact)
    system.advance(to: TraceTime(.seconds(1000)))
    let history = try #require(AlarmHistory(of: "second", in: system.trace))
    #expect(
      history.lines == [
        "alarm second",
        "  0s: set with setExact (exact), to go off at 200s.",
        "  200s to 460s (260s): held: on Android 9 the working_set standby bucket holds an alarm until a delay "
          + "after the app's last alarm, which went off at 100s (AlarmManagerService: DEFAULT_APP_STANDBY_DELAYS).",
        "  460s: went off, 260s after its time.",
      ])
  }

  /// `DeviceIdleController.isUpcomingAlarmClock`: a step into deep idle with an alarm
  /// clock due within `MIN_TIME_TO_ALARM` (30 minutes) makes the device active instead.
  /// Deep idle would start at 3,600 s; the alarm clock at 4,200 s keeps it out, and deep
  /// idle starts an hour after the alarm clock, at 7,800 s.
  @Test func noDeepDozeWithAnAlarmClockWithinHalfAnHour() throws {
    let system = Self.system(dozing: true)
    try system.setAlarm("clock", after: .seconds(4200), type: .alarmClock)
    system.advance(to: TraceTime(.seconds(8000)))
    let lines = system.trace.events.map(handWrittenLine(for:)).filter {
      $0.contains("doze=off") || $0.contains("doze=deep") || $0.contains("alarm.fire")
    }
    #expect(
      lines == [
        "3600 env.set doze=off", "4200 alarm.fire alarm=clock", "7800 env.set doze=deep",
      ])
  }

  /// `DeviceIdleController.stepIdleStateLocked` looks for an upcoming alarm clock at
  /// every step toward deep idle, the first being to `STATE_IDLE_PENDING` after
  /// `DEFAULT_INACTIVE_TIMEOUT` (30 minutes). An alarm clock at 2,000 s is due within
  /// `MIN_TIME_TO_ALARM` of that step at 1,800 s: the light-dozing device becomes active
  /// then, and deep idle starts no sooner than an hour after the alarm clock, at 5,600 s,
  /// not at 3,600 s (where the alarm clock has passed, and nothing would stop it).
  @Test func anAlarmClockNearTheStepToIdlePendingKeepsDeepDozeAway() throws {
    let system = Self.system(dozing: true)
    try system.setAlarm("clock", after: .seconds(2000), type: .alarmClock)
    system.advance(to: TraceTime(.seconds(6000)))
    let lines = system.trace.events.map(handWrittenLine(for:)).filter {
      $0.contains("doze=off") || $0.contains("doze=deep") || $0.contains("alarm.fire")
    }
    #expect(lines == ["1800 env.set doze=off", "2000 alarm.fire alarm=clock", "5600 env.set doze=deep"])
  }

  /// `WINDOW_HEURISTIC`: an inexact alarm may go off up to three quarters of its distance
  /// late (the model takes the window's end, the strict reading), from Android 12 at
  /// most an hour late; one set less than `MIN_FUZZABLE_INTERVAL` (10 s) ahead has no
  /// window; and none goes off sooner than `MIN_FUTURITY` (5 s) after it is set.
  @Test(arguments: [(14, "11600"), (11, "14000")])
  func anInexactAlarmGoesOffAtItsWindowsEnd(release: Int, far: String) throws {
    let system = Self.system(release: release)
    try system.setAlarm("soon", after: .seconds(8), type: .inexact)
    try system.setAlarm("later", after: .seconds(400), type: .inexact)
    try system.setAlarm("far", after: .seconds(8000), type: .allowWhileIdle)
    try system.setAlarm("now", after: .seconds(1), type: .exact)
    system.advance(to: TraceTime(.seconds(15_000)))
    #expect(
      Self.fired(system) == [
        "5 alarm.fire alarm=now", "8 alarm.fire alarm=soon", "700 alarm.fire alarm=later",
        "\(far) alarm.fire alarm=far",
      ])
  }

  /// In deep Doze, before Android 12 an app's allow-while-idle alarms go off at most one
  /// per `ALLOW_WHILE_IDLE_LONG_TIME` (9 minutes): the second, due 60 s after the first,
  /// waits until 4,540 s. From Android 12 exact ones have `DEFAULT_ALLOW_WHILE_IDLE_QUOTA`,
  /// 72 an hour: both go off on time.
  @Test(arguments: [(11, "4540"), (14, "4060")])
  func allowWhileIdleAlarmsHaveAnIdleQuota(release: Int, second: String) throws {
    let system = Self.system(release: release, dozing: true)
    try system.setAlarm("first", after: .seconds(4000), type: .exactAllowWhileIdle)
    try system.setAlarm("second", after: .seconds(4060), type: .exactAllowWhileIdle)
    system.advance(to: TraceTime(.seconds(5000)))
    #expect(Self.fired(system) == ["4000 alarm.fire alarm=first", "\(second) alarm.fire alarm=second"])
  }

  /// From Android 12 an inexact allow-while-idle alarm has the compat quota in deep Doze,
  /// 1 per 9 minutes (`allow_while_idle_compat_quota` in Android 12 and 13): set 8 s
  /// ahead (no window) at 3,700 and 3,710 s, the second waits until 3,708 + 540.
  @Test func inexactAllowWhileIdleAlarmsHaveTheCompatQuota() throws {
    let system = Self.system(dozing: true)
    system.advance(to: TraceTime(.seconds(3700)))
    try system.setAlarm("first", after: .seconds(8), type: .allowWhileIdle)
    system.advance(to: TraceTime(.seconds(3710)))
    try system.setAlarm("second", after: .seconds(8), type: .allowWhileIdle)
    system.advance(to: TraceTime(.seconds(5000)))
    #expect(Self.fired(system) == ["3708 alarm.fire alarm=first", "4248 alarm.fire alarm=second"])
  }

  /// `DEFAULT_APP_STANDBY_QUOTAS`: an app in the rare bucket has one alarm an hour; the
  /// second, due at 200 s, waits until the first's delivery plus the hour, 3,700 s.
  /// While charging the quota does not apply (the parole).
  @Test(arguments: [(false, "3700"), (true, "200")])
  func theStandbyBucketLimitsAlarms(charging: Bool, second: String) throws {
    let system = Self.system(bucket: .rare)
    system.setEnvironment(charging: charging)
    try system.setAlarm("first", after: .seconds(100), type: .exact)
    try system.setAlarm("second", after: .seconds(200), type: .exact)
    system.advance(to: TraceTime(.seconds(4000)))
    #expect(Self.fired(system) == ["100 alarm.fire alarm=first", "\(second) alarm.fire alarm=second"])
  }

  /// Setting an alarm's name again replaces it; a cancelled alarm, and every alarm at a
  /// reboot (`AlarmManager` keeps none across a boot), never goes off.
  @Test func aNameIsOneAlarmUntilCancelledOrRebooted() throws {
    let system = Self.system()
    try system.setAlarm("sync", after: .seconds(100), type: .exact)
    try system.setAlarm("sync", after: .seconds(300), type: .exact)
    try system.setAlarm("gone", after: .seconds(200), type: .exact)
    system.cancelAlarm("gone")
    try system.setAlarm("lost", after: .seconds(2000), type: .exact)
    system.advance(to: TraceTime(.seconds(1000)))
    system.reboot()
    system.advance(to: TraceTime(.seconds(3000)))
    #expect(Self.fired(system) == ["300 alarm.fire alarm=sync"])
  }

  /// Starts a `dataSync` service from its alarm's receiver.
  final class App: BackgroundAppDelegate {
    let services: any ForegroundServices
    init(services: any ForegroundServices) { self.services = services }
    func handleAlarm(_ name: String) {
      try? services.startForegroundService(name, BootCompletedServiceTests.Service(type: .dataSync))
    }
  }

  /// The app's process, frozen in the background, runs the receiver; from Android 12 an
  /// exact alarm's delivery allowlists the app for 10 s (`ALLOW_WHILE_IDLE_WHITELIST_DURATION`,
  /// `TEMPORARY_ALLOWLIST_TYPE_FOREGROUND_SERVICE_ALLOWED`), so its service may start; an
  /// inexact alarm's does not, and the start is refused.
  @Test(arguments: [(AlarmType.exact, "fgs.foreground"), (.inexact, "fgs.refuse")])
  func anExactAlarmsReceiverMayStartAForegroundService(type: AlarmType, outcome: String) throws {
    let system = Self.system()
    system.launchApp { App(services: $0) }
    system.moveToBackground()
    try system.setAlarm("sync", after: .seconds(8), type: type)
    system.advance(to: TraceTime(.seconds(60)))
    let lines = system.trace.events.map(TextTraceWriter.line(for:)).filter {
      $0.contains("alarm.fire") || $0.contains("fgs.")
    }
    #expect(lines.first == "8 alarm.fire alarm=sync")
    #expect(lines.dropFirst(2).first?.contains(outcome) == true, "\(lines)")
  }

  /// From Android 12 an exact alarm needs `SCHEDULE_EXACT_ALARM` or `USE_EXACT_ALARM`
  /// (AOSP `AlarmManagerService`: "Caller … needs to hold
  /// android.permission.SCHEDULE_EXACT_ALARM or android.permission.USE_EXACT_ALARM to
  /// set exact alarms"), which Android 14 no longer pre-grants to apps targeting 13
  /// (developer.android.com, "Schedule exact alarms are denied by default"): without it
  /// `setExact` throws and records nothing, while `set` needs none; Android 11 asks
  /// for none.
  @Test(arguments: [(14, false), (11, true)])
  func anExactAlarmNeedsThePermissionFromAndroid12(release: Int, set: Bool) throws {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(release)
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    var refusal: AlarmPermissionError?
    do { try system.setAlarm("exact", after: .seconds(100), type: .exact) } catch { refusal = error }
    #expect(refusal == (set ? nil : AlarmPermissionError(alarm: "exact", type: .exact)))
    try system.setAlarm("inexact", after: .seconds(100), type: .inexact)
    system.advance(to: TraceTime(.seconds(1000)))
    #expect(Self.fired(system).count == (set ? 2 : 1))
    #expect(
      AlarmPermissionError(alarm: "exact", type: .exact).description
        == "SecurityException: Caller needs to hold android.permission.SCHEDULE_EXACT_ALARM or "
        + "android.permission.USE_EXACT_ALARM to set exact alarms (alarm exact, exact)")
  }

  /// Sets the next sync from each delivery, in the process the alarm started.
  final class ChainApp: BackgroundAppDelegate {
    let alarms: any AlarmScheduling
    init(alarms: any AlarmScheduling) { self.alarms = alarms }
    func didFinishLaunching() {}
    func perform(userAction action: String) {
      try? alarms.setAlarm("sync", after: .seconds(900), type: .exact)
    }
    func handleAlarm(_ name: String) {
      try? alarms.setAlarm(name, after: .seconds(900), type: .exact)
    }
  }

  /// A run whose alarms Doze held replays alike: the replay delivers each recorded
  /// `alarm.fire`, and the app's receiver sets the same next alarm.
  @Test func alarmsReplayAlike() {
    let system = Self.system()
    system.launchApp { ChainApp(alarms: $0) }
    system.userAction("start")
    system.moveToBackground()
    system.setDeviceState(screenOn: false, stationary: true)
    system.advance(to: TraceTime(.seconds(9000)))
    #expect(Self.fired(system).count > 2)
    let replay = Replayer.replay(system.trace, timing: .exact) { ChainApp(alarms: $0) }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(replay.trace.events == system.trace.events)
  }

  /// Falls back to an inexact alarm when it may not set an exact one.
  final class FallbackApp: BackgroundAppDelegate {
    let alarms: any AlarmScheduling
    init(alarms: any AlarmScheduling) { self.alarms = alarms }
    func perform(userAction action: String) {
      do {
        try alarms.setAlarm("sync", after: .seconds(900), type: .exact)
      } catch {
        try? alarms.setAlarm("sync", after: .seconds(900), type: .inexact)
      }
    }
  }

  /// An app refused an exact alarm (the default on Android 14) falls back to an inexact
  /// one, which goes off at its window's end (900 + 675 s); its replay is refused too,
  /// as the recording sets no exact alarm, and takes the same fallback.
  @Test func aRefusedExactAlarmReplaysAlike() {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(14)
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launchApp { FallbackApp(alarms: $0) }
    system.userAction("start")
    system.advance(to: TraceTime(.seconds(2000)))
    #expect(
      system.trace.events.map(TextTraceWriter.line(for:)).filter { $0.contains("alarm.") } == [
        "0 alarm.set alarm=sync at=900 type=inexact", "1575 alarm.fire alarm=sync",
      ])
    let replay = Replayer.replay(system.trace, timing: .exact) { FallbackApp(alarms: $0) }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(replay.trace.events == system.trace.events)
  }

  /// Revoking `SCHEDULE_EXACT_ALARM` removes the app's alarms whose `windowLength` is 0
  /// (the exact alarm due at 600 s, the alarm clock at 900 s) and kills the app
  /// (`KILL_ON_SCHEDULE_EXACT_ALARM_REVOKED`, true by default); the inexact alarm, its
  /// window 300 s, still goes off at 700 s, and a later `setExact` throws. AOSP
  /// `AlarmManagerService.removeExactAlarmsOnPermissionRevoked`; developer.android.com,
  /// "Schedule alarms": "your app stops, and all future exact alarms are canceled".
  @Test func revokingTheExactAlarmPermissionRemovesExactAlarmsAndKillsTheApp() throws {
    let system = Self.system()
    system.launch { _ in }
    try system.setAlarm("exact", after: .seconds(600), type: .exact)
    try system.setAlarm("clock", after: .seconds(900), type: .alarmClock)
    try system.setAlarm("inexact", after: .seconds(400), type: .inexact)
    system.advance(to: TraceTime(.seconds(100)))
    system.revokeExactAlarmPermission()
    #expect(throws: AlarmPermissionError.self) { try system.setAlarm("again", after: .seconds(60), type: .exact) }
    system.advance(to: TraceTime(.seconds(2000)))
    let lines = system.trace.events.map(TextTraceWriter.line(for:)).filter {
      $0.contains("exact-alarm") || $0.contains("alarm.fire")
    }
    #expect(
      lines == [
        "100 env.set exact-alarm-permission=revoked", "100 app.terminate reason=exact-alarm-revoked",
        "700 alarm.fire alarm=inexact",
      ])
    let history = try #require(AlarmHistory(of: "exact", in: system.trace))
    #expect(
      history.lines.last
        == "  100s: removed: the user revoked the exact-alarm permission, and Android removes the app's exact alarms "
        + "and kills its process (AlarmManagerService: removeExactAlarmsOnPermissionRevoked); it was due at 600s.")
  }

  /// Near misses: an app on the power allowlist is exempt
  /// (`isExemptFromExactAlarmPermissionNoLock`): its alarms go off and it lives; on
  /// Android 11 there is no permission to revoke, and nothing is recorded.
  @Test(arguments: [(14, true), (11, false)])
  func aRevocationThatRemovesNothing(release: Int, allowlisted: Bool) throws {
    let system = Self.system(release: release, allowlisted: allowlisted)
    system.launch { _ in }
    try system.setAlarm("exact", after: .seconds(600), type: .exact)
    system.advance(to: TraceTime(.seconds(100)))
    system.revokeExactAlarmPermission()
    system.advance(to: TraceTime(.seconds(2000)))
    let lines = system.trace.events.map(TextTraceWriter.line(for:)).filter {
      $0.contains("exact-alarm") || $0.contains("alarm.fire")
    }
    #expect(
      lines == (allowlisted ? ["100 env.set exact-alarm-permission=revoked"] : []) + ["600 alarm.fire alarm=exact"])
  }

  /// After the revocation the relaunched app is refused its exact alarm and falls back
  /// to an inexact one (at 200 + 900 s, its window 675 s); the replay, past the
  /// recording's revocation, refuses it too.
  @Test func aRevokedPermissionReplaysAlike() {
    let system = Self.system()
    system.launchApp { FallbackApp(alarms: $0) }
    system.userAction("start")
    system.advance(to: TraceTime(.seconds(100)))
    system.revokeExactAlarmPermission()
    system.advance(to: TraceTime(.seconds(200)))
    system.relaunch()
    system.userAction("start")
    system.advance(to: TraceTime(.seconds(3000)))
    #expect(
      system.trace.events.map(TextTraceWriter.line(for:)).filter { $0.contains("alarm.") } == [
        "0 alarm.set alarm=sync at=900 type=exact", "200 alarm.set alarm=sync at=1100 type=inexact",
        "1775 alarm.fire alarm=sync",
      ])
    let replay = Replayer.replay(system.trace, timing: .exact) { FallbackApp(alarms: $0) }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(replay.trace.events == system.trace.events)
  }

  /// `setRepeating` is inexact since API 19: each occurrence goes off at the end of its
  /// window, three quarters of the interval after its time (`maxTriggerTime`, the
  /// interval as futurity, no hour's cap), and the next is asked for on the first grid:
  /// every 900 s from 900 s, going off at 1,575, 2,475 and 3,375 s. An interval under
  /// `MIN_INTERVAL` (60 s) is expanded to it: 30 s asked from 30 s goes off at 75, 135
  /// and 195 s (window 45 s). AOSP `AlarmManagerService.setImpl`, `triggerAlarmsLocked`.
  @Test func aRepeatingAlarmGoesOffEveryIntervalAtItsWindowsEnd() throws {
    let system = Self.system()
    system.setRepeatingAlarm("sync", after: .seconds(900), every: .seconds(900))
    system.setRepeatingAlarm("short", after: .seconds(30), every: .seconds(30))
    system.advance(to: TraceTime(.seconds(3500)))
    #expect(
      system.trace.events.map(TextTraceWriter.line(for:)).filter { $0.contains("alarm.set") } == [
        "0 alarm.set alarm=sync at=900 type=repeating interval=900",
        "0 alarm.set alarm=short at=30 type=repeating interval=30",
      ])
    let fired = Self.fired(system)
    #expect(fired.filter { $0.hasSuffix("=sync") } == (["1575", "2475", "3375"]).map { "\($0) alarm.fire alarm=sync" })
    #expect(
      Array(fired.filter { $0.hasSuffix("=short") }.prefix(3))
        == (["75", "135", "195"]).map { "\($0) alarm.fire alarm=short" })
    #expect(TraceChecker.check(system.trace).map(\.rule) == [.alarmRepeatClamped], "the 30 s asked for")
  }

  /// Deep Doze holds a repeating alarm like any inexact one; at each maintenance window
  /// the occurrences it missed are delivered once (AOSP counts them into
  /// `EXTRA_ALARM_COUNT`) and the next is asked for on the first grid. Every 1,200 s
  /// from 600 s: 1,500 and 2,700 s; the occurrence asked for 3,000 s falls in deep Doze
  /// (from 3,600 s) and goes off at the window at 7,200 s; the next is asked for 7,800 s
  /// (3,000 + 4 × 1,200), held to the window at 14,700 s.
  @Test func dozeHoldsARepeatingAlarmAndItsMissedOccurrencesGoOffOnce() throws {
    let system = Self.system(dozing: true)
    system.setRepeatingAlarm("sync", after: .seconds(600), every: .seconds(1200))
    system.advance(to: TraceTime(.seconds(16_000)))
    #expect(Self.fired(system) == (["1500", "2700", "7200", "14700"]).map { "\($0) alarm.fire alarm=sync" })
  }

  /// `explain --why` follows a repeating alarm from one occurrence to the next, to the
  /// trace's end: its last event, the app frozen 10 s after the receiver ran at 2,475 s.
  @Test func aRepeatingAlarmsHistory() throws {
    let system = Self.system()
    system.setRepeatingAlarm("sync", after: .seconds(900), every: .seconds(900))
    system.advance(to: TraceTime(.seconds(2500)))
    let held =
      "held: a repeating alarm may go off up to three quarters of its 900s interval after each time "
      + "(AlarmManagerService: maxTriggerTime)."
    #expect(
      AlarmHistory(of: "sync", in: system.trace)?.lines == [
        "alarm sync",
        "  0s: set with setRepeating (repeating), to go off at 900s and every 900s after.",
        "  900s to 1575s (675s): \(held)",
        "  1575s: went off, 675s after its time.",
        "  1800s to 2475s (675s): \(held)",
        "  2475s: went off, 675s after its time.",
        "  at the end (2485s): still set, due at 2700s.",
      ])
  }

  /// The app sets a repeating alarm every minute from 60 s, which goes off 15 times by
  /// 1,000 s (at 105 s, then every 60 s); its replay sets it alike, and each recorded
  /// `alarm.fire` is delivered to it.
  @Test func aRepeatingAlarmReplaysAlike() {
    let system = Self.system()
    let app = { (alarms: any AlarmScheduling) in
      UserActionApp { _ in alarms.setRepeatingAlarm("sync", after: .seconds(60), every: .seconds(60)) }
    }
    system.launchApp { app($0) }
    system.userAction("start")
    system.advance(to: TraceTime(.seconds(1000)))
    #expect(Self.fired(system).count == 15)
    #expect(Self.fired(system).last == "945 alarm.fire alarm=sync")
    let replay = Replayer.replay(system.trace, timing: .exact) { app($0) }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(replay.trace.events == system.trace.events)
  }

  /// When deep Doze ends each alarm it held is due again as its own time would find it:
  /// in the rare bucket (one alarm an hour) the first goes off at the maintenance window
  /// (7,200 s) and the second waits for the hour, by then in deep Doze again, until the
  /// next window at 14,700 s.
  @Test func heldAlarmsMeetTheBucketsQuotaWhenDozeEnds() throws {
    let system = Self.system(bucket: .rare, dozing: true)
    try system.setAlarm("first", after: .seconds(4000), type: .exact)
    try system.setAlarm("second", after: .seconds(4100), type: .exact)
    system.advance(to: TraceTime(.seconds(15_000)))
    #expect(Self.fired(system) == ["7200 alarm.fire alarm=first", "14700 alarm.fire alarm=second"])
  }

  /// An alarm the idle quota deferred (Android 11: the second allow-while-idle alarm,
  /// due at 4,060 s, held to 4,540 s) goes off as soon as Doze ends, when the user wakes
  /// the device at 4,100 s: the quota applies only in Doze.
  @Test func anAlarmTheIdleQuotaDeferredGoesOffWhenDozeEnds() throws {
    let system = Self.system(release: 11, dozing: true)
    try system.setAlarm("first", after: .seconds(4000), type: .exactAllowWhileIdle)
    try system.setAlarm("second", after: .seconds(4060), type: .exactAllowWhileIdle)
    system.advance(to: TraceTime(.seconds(4100)))
    system.setDeviceState(screenOn: true)
    system.advance(to: TraceTime(.seconds(5000)))
    #expect(Self.fired(system) == ["4000 alarm.fire alarm=first", "4100 alarm.fire alarm=second"])
  }

  /// The user opening the app wakes the device, also when the app is not running
  /// (`relaunch`): deep Doze ends at 5,000 s, and the exact alarm it held since 4,000 s
  /// goes off then.
  @Test func openingTheAppEndsDozeAndItsHold() throws {
    let system = Self.system()
    system.launch { _ in }
    system.terminate(reason: "user")
    system.setDeviceState(screenOn: false, stationary: true)  // deep Doze from 3,600 s
    try system.setAlarm("exact", after: .seconds(4000), type: .exact)
    system.advance(to: TraceTime(.seconds(5000)))
    system.relaunch()
    system.advance(to: TraceTime(.seconds(5100)))
    #expect(Self.fired(system) == ["5000 alarm.fire alarm=exact"])
  }
}
