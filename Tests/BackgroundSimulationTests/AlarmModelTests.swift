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
    release: Int = 14, bucket: StandbyBucket = .active, dozing: Bool = false
  ) -> SimulatedSystem {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(release)
    configuration.standbyBucket = bucket
    configuration.standbyBucketFollowsUse = false
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    if dozing { system.setDeviceState(screenOn: false, stationary: true) }
    return system
  }

  static func fired(_ system: SimulatedSystem) -> [String] {
    system.trace.events.map(TextTraceWriter.line(for:)).filter { $0.contains(" alarm.fire") }
  }

  /// `adjustDeliveryTimeBasedOnDeviceIdle`: in deep Doze an alarm without
  /// `FLAG_ALLOW_WHILE_IDLE` or `FLAG_WAKE_FROM_IDLE` waits for `mPendingIdleUntil`, the
  /// maintenance window (7,200 s); `setExactAndAllowWhileIdle` and `setAlarmClock` go off
  /// on time. Light Doze holds no alarm (`DeviceIdleController` calls `setIdleUntil` for
  /// deep idle alone): an exact alarm at 100 s goes off then. The late exact alarm is
  /// `alarm-exact-deferred`.
  @Test func deepDozeHoldsAlarmsThatDoNotGoOffWhileIdle() {
    let system = Self.system(dozing: true)
    system.setAlarm("light", after: .seconds(100), type: .exact)
    system.setAlarm("exact", after: .seconds(4000), type: .exact)
    system.setAlarm("idle", after: .seconds(4000), type: .exactAllowWhileIdle)
    system.setAlarm("clock", after: .seconds(5000), type: .alarmClock)
    system.advance(to: TraceTime(.seconds(8000)))
    #expect(
      Self.fired(system) == [
        "100 alarm.fire alarm=light", "4000 alarm.fire alarm=idle", "5000 alarm.fire alarm=clock",
        "7200 alarm.fire alarm=exact",
      ])
    #expect(TraceChecker.check(system.trace).map(\.rule) == [.alarmExactDeferred])
  }

  /// `WINDOW_HEURISTIC`: an inexact alarm may go off up to three quarters of its distance
  /// late (the model takes the window's end, the strict reading), from Android 12 at
  /// most an hour late; one set less than `MIN_FUZZABLE_INTERVAL` (10 s) ahead has no
  /// window; and none goes off sooner than `MIN_FUTURITY` (5 s) after it is set.
  @Test(arguments: [(14, "11600"), (11, "14000")])
  func anInexactAlarmGoesOffAtItsWindowsEnd(release: Int, far: String) {
    let system = Self.system(release: release)
    system.setAlarm("soon", after: .seconds(8), type: .inexact)
    system.setAlarm("later", after: .seconds(400), type: .inexact)
    system.setAlarm("far", after: .seconds(8000), type: .allowWhileIdle)
    system.setAlarm("now", after: .seconds(1), type: .exact)
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
  func allowWhileIdleAlarmsHaveAnIdleQuota(release: Int, second: String) {
    let system = Self.system(release: release, dozing: true)
    system.setAlarm("first", after: .seconds(4000), type: .exactAllowWhileIdle)
    system.setAlarm("second", after: .seconds(4060), type: .exactAllowWhileIdle)
    system.advance(to: TraceTime(.seconds(5000)))
    #expect(Self.fired(system) == ["4000 alarm.fire alarm=first", "\(second) alarm.fire alarm=second"])
  }

  /// From Android 12 an inexact allow-while-idle alarm has the compat quota in deep Doze,
  /// 1 per 9 minutes (`allow_while_idle_compat_quota` in Android 12 and 13): set 8 s
  /// ahead (no window) at 3,700 and 3,710 s, the second waits until 3,708 + 540.
  @Test func inexactAllowWhileIdleAlarmsHaveTheCompatQuota() {
    let system = Self.system(dozing: true)
    system.advance(to: TraceTime(.seconds(3700)))
    system.setAlarm("first", after: .seconds(8), type: .allowWhileIdle)
    system.advance(to: TraceTime(.seconds(3710)))
    system.setAlarm("second", after: .seconds(8), type: .allowWhileIdle)
    system.advance(to: TraceTime(.seconds(5000)))
    #expect(Self.fired(system) == ["3708 alarm.fire alarm=first", "4248 alarm.fire alarm=second"])
  }

  /// `DEFAULT_APP_STANDBY_QUOTAS`: an app in the rare bucket has one alarm an hour; the
  /// second, due at 200 s, waits until the first's delivery plus the hour, 3,700 s.
  /// While charging the quota does not apply (the parole).
  @Test(arguments: [(false, "3700"), (true, "200")])
  func theStandbyBucketLimitsAlarms(charging: Bool, second: String) {
    let system = Self.system(bucket: .rare)
    system.setEnvironment(charging: charging)
    system.setAlarm("first", after: .seconds(100), type: .exact)
    system.setAlarm("second", after: .seconds(200), type: .exact)
    system.advance(to: TraceTime(.seconds(4000)))
    #expect(Self.fired(system) == ["100 alarm.fire alarm=first", "\(second) alarm.fire alarm=second"])
  }

  /// Setting an alarm's name again replaces it; a cancelled alarm, and every alarm at a
  /// reboot (`AlarmManager` keeps none across a boot), never goes off.
  @Test func aNameIsOneAlarmUntilCancelledOrRebooted() {
    let system = Self.system()
    system.setAlarm("sync", after: .seconds(100), type: .exact)
    system.setAlarm("sync", after: .seconds(300), type: .exact)
    system.setAlarm("gone", after: .seconds(200), type: .exact)
    system.cancelAlarm("gone")
    system.setAlarm("lost", after: .seconds(2000), type: .exact)
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
  func anExactAlarmsReceiverMayStartAForegroundService(type: AlarmType, outcome: String) {
    let system = Self.system()
    system.launchApp { App(services: $0) }
    system.moveToBackground()
    system.setAlarm("sync", after: .seconds(8), type: type)
    system.advance(to: TraceTime(.seconds(60)))
    let lines = system.trace.events.map(TextTraceWriter.line(for:)).filter {
      $0.contains("alarm.fire") || $0.contains("fgs.")
    }
    #expect(lines.first == "8 alarm.fire alarm=sync")
    #expect(lines.dropFirst(2).first?.contains(outcome) == true, "\(lines)")
  }

  /// Sets the next sync from each delivery, in the process the alarm started.
  final class ChainApp: BackgroundAppDelegate {
    let alarms: any AlarmScheduling
    init(alarms: any AlarmScheduling) { self.alarms = alarms }
    func didFinishLaunching() {}
    func perform(userAction action: String) {
      alarms.setAlarm("sync", after: .seconds(900), type: .exact)
    }
    func handleAlarm(_ name: String) {
      alarms.setAlarm(name, after: .seconds(900), type: .exact)
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
}
