import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import Testing

/// Android's temporary allowlist in the simulation and in a replay: a delivery that puts
/// the app on it (`app.allowlist`) lets the app start a foreground service from the
/// background until the window ends. Android, "Restrictions on starting a foreground
/// service from the background", "Exemptions from background start restrictions"; AOSP
/// `PowerExemptionManager` (`REASON_PUSH_MESSAGING` 101, `REASON_ALARM_MANAGER_WHILE_IDLE`
/// 302, `REASON_NOTIFICATION_SERVICE` 310).
@Suite struct TemporaryAllowlistModelTests {
  /// A service that calls `startForeground(dataSync)` at once and stops after `sync`.
  final class SyncService: ForegroundService {
    let context: AsyncContext
    init(context: AsyncContext) { self.context = context }

    func onStartCommand(_ control: ForegroundServiceControl) {
      guard (try? control.startForeground(type: .dataSync)) != nil else { return }
      let context = context
      context.run {
        try? await context.sleep(.seconds(5))
        control.stopSelf()
      }
    }
  }

  /// Starts the sync service from each delivery (`onMessageReceived`, the alarm's
  /// receiver, the notification's `PendingIntent`), catching a refusal.
  final class App: BackgroundAppDelegate {
    let services: any ForegroundServices
    let context: AsyncContext
    init(services: any ForegroundServices, scheduler: VirtualTimeScheduler) {
      self.services = services
      self.context = AsyncContext(simulation: scheduler)
    }

    func handleAllowlistedDelivery(_ reason: TemporaryAllowlistReason) {
      try? services.startForegroundService("sync", SyncService(context: context))
    }
  }

  private static func android() -> SimulationConfiguration {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(14)
    return configuration
  }

  private static func lines(_ trace: RecordedTrace) -> [String] {
    trace.events.map(TextTraceWriter.line(for:)).filter { $0.contains(" fgs.") || $0.contains(" app.allowlist") }
  }

  /// A high-priority FCM message at 60 s, long after the app left the foreground: the
  /// handler's start is allowed, and the checker finds nothing.
  @Test func aStartFromAHighPriorityMessageHandlerIsAllowed() {
    let system = SimulatedSystem(seed: 1, configuration: Self.android())
    system.launchApp { App(services: $0, scheduler: $0.scheduler) }
    system.moveToBackground()
    system.advance(by: .seconds(60))
    system.deliverHighPriorityMessage()
    system.advance(by: .seconds(10))
    #expect(
      Self.lines(system.trace) == [
        "60 app.allowlist reason=fcm-high-priority duration=10", "60 fgs.start service=sync",
        "60 fgs.foreground service=sync type=dataSync", "65 fgs.stop service=sync",
      ])
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  /// Each reason's window: 10 s for an FCM message and an exact alarm (AlarmManagerService
  /// `DEFAULT_ALLOW_WHILE_IDLE_WHITELIST_DURATION = 10 * 1000`), 30 s for a notification
  /// (DeviceIdleController `NOTIFICATION_ALLOWLIST_DURATION_MS = 30000`); a start just
  /// before the end is allowed, one at the end is refused, as the checker reports it.
  @Test(arguments: [
    (TemporaryAllowlistReason.fcmHighPriority, 10), (.exactAlarm, 10), (.notification, 30),
  ])
  func theWindowEndsAfterTheReasonsDuration(_ reason: TemporaryAllowlistReason, seconds: Int) throws {
    let system = SimulatedSystem(seed: 1, configuration: Self.android())
    system.launch { _ in }
    system.moveToBackground()
    system.advance(by: .seconds(60))
    system.deliverTemporaryAllowlist(reason)
    system.advance(by: .seconds(seconds) - .milliseconds(100))
    let context = AsyncContext(simulation: system.scheduler)
    try system.startForegroundService("early", SyncService(context: context))
    system.advance(by: .milliseconds(100))
    #expect(throws: ForegroundServiceError(.background, service: "late")) {
      try system.startForegroundService("late", SyncService(context: context))
    }
    let end = 60 + seconds
    #expect(
      Self.lines(system.trace).filter { !$0.contains("early") } == [
        "60 app.allowlist reason=\(reason.rawValue) duration=\(seconds)", "\(end) fgs.start service=late",
        "\(end) fgs.refuse service=late reason=background",
      ])
    #expect(TraceChecker.check(system.trace).map(\.rule) == [.fgsStartedInBackground])
  }

  /// A delivery to an app with no process starts one in the background (the broadcast
  /// starts it), and a worker's `setForeground` is not the same start: this is only the
  /// delivery's window. A replay delivers the recorded window and runs the handler again.
  @Test func aDeliveryLaunchesTheAppAndReplays() {
    let system = SimulatedSystem(seed: 1, configuration: Self.android())
    system.launchApp { App(services: $0, scheduler: $0.scheduler) }
    system.terminate(reason: "user")
    system.advance(by: .seconds(60))
    system.deliverTemporaryAllowlist(.notification)
    system.advance(by: .seconds(60))
    let recorded = system.trace
    let text = recorded.events.map(TextTraceWriter.line(for:))
    #expect(text.contains("60 app.launch"))
    #expect(
      Self.lines(recorded) == [
        "60 app.allowlist reason=notification duration=30", "60 fgs.start service=sync",
        "60 fgs.foreground service=sync type=dataSync", "65 fgs.stop service=sync",
      ])
    #expect(TraceChecker.check(recorded).isEmpty)
    for timing in [Replayer.Timing.order, .exact] {
      let result = Replayer.replay(recorded, timing: timing) { App(services: $0, scheduler: $0.scheduler) }
      #expect(result.divergence == nil, "\(timing): \(String(describing: result.divergence))")
      #expect(result.unapplied.isEmpty)
      #expect(result.trace.events == recorded.events)
    }
  }

  /// On iOS there is no such allowlist: the delivery records nothing.
  @Test func onIOSADeliveryDoesNothing() {
    let system = SimulatedSystem(seed: 1)
    system.launch { _ in }
    system.deliverHighPriorityMessage()
    #expect(Self.lines(system.trace).isEmpty)
  }
}

/// A `BOOT_COMPLETED` receiver starting a foreground service. Android 15 (API 35),
/// "Restrictions on BOOT_COMPLETED broadcast receivers launching foreground services":
/// `dataSync`, `camera`, `mediaPlayback`, `phoneCall`, `mediaProjection` and
/// `microphone` may not be launched from one (`ForegroundServiceStartNotAllowedException`);
/// AOSP `ActiveServices.shouldAllowBootCompletedStart` (compat change
/// `FGS_BOOT_COMPLETED_RESTRICTIONS`, 296558535) allows only `location`,
/// `connectedDevice`, `remoteMessaging`, `health`, `systemExempted` and `specialUse`.
/// The broadcast's allowlist lasts `DEFAULT_BOOT_TIME_TEMP_ALLOWLIST_DURATION`, 20 s
/// (ActivityManagerConstants; `REASON_BOOT_COMPLETED`, 200).
@Suite struct BootCompletedServiceTests {
  /// A service that asks for `type` at once; a refusal is caught, as apps must.
  final class Service: ForegroundService {
    let type: ForegroundServiceType
    init(type: ForegroundServiceType) { self.type = type }
    func onStartCommand(_ control: ForegroundServiceControl) {
      _ = try? control.startForeground(type: type)
    }
  }

  /// Starts its service from the receiver of each delivery (here the boot broadcast's).
  final class App: BackgroundAppDelegate {
    let services: any ForegroundServices
    let type: ForegroundServiceType
    init(services: any ForegroundServices, type: ForegroundServiceType) {
      self.services = services
      self.type = type
    }

    func handleAllowlistedDelivery(_ reason: TemporaryAllowlistReason) {
      try? services.startForegroundService("sync", Service(type: type))
    }
  }

  static func run(release: Int, type: ForegroundServiceType) -> SimulatedSystem {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(release)
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launchApp { App(services: $0, type: type) }
    system.moveToBackground()
    system.advance(by: .seconds(60))
    system.terminate(reason: "reboot")
    system.advance(by: .seconds(30))
    system.deliverBootCompleted()
    system.advance(by: .seconds(5))
    return system
  }

  static func lines(_ system: SimulatedSystem) -> [String] {
    system.trace.events.map(TextTraceWriter.line(for:)).filter { $0.contains(" fgs.") || $0.contains(" app.allowlist") }
  }

  /// On Android 15 a `dataSync` service started from the boot broadcast is refused at
  /// `startForeground`; the checker reports `fgs-boot-completed-type`.
  @Test func aDataSyncServiceFromBootCompletedIsRefusedOnAndroid15() throws {
    let system = Self.run(release: 15, type: .dataSync)
    #expect(
      Self.lines(system) == [
        "90 app.allowlist reason=boot-completed duration=20", "90 fgs.start service=sync",
        "90 fgs.foreground service=sync type=dataSync", "90 fgs.refuse service=sync reason=boot-completed",
      ])
    #expect(TraceChecker.check(system.trace).map(\.rule) == [.fgsBootCompletedType])
    #expect(
      ForegroundServiceError(.bootCompleted, service: "sync", type: .dataSync).description
        == "ForegroundServiceStartNotAllowedException: FGS type dataSync not allowed to start from BOOT_COMPLETED! "
        + "(service sync)")
  }

  /// Near misses: a `connectedDevice` service on 15 is allowed, and a `dataSync` one on
  /// 14, before the restriction. (A `location` one on 15 passes this check and then needs
  /// background location: `WhileInUsePermissionTests`.)
  @Test(arguments: [(15, ForegroundServiceType.connectedDevice), (14, .dataSync)])
  func anAllowedTypeOrAnEarlierReleaseRuns(release: Int, type: ForegroundServiceType) throws {
    let system = Self.run(release: release, type: type)
    #expect(
      Self.lines(system) == [
        "90 app.allowlist reason=boot-completed duration=20", "90 fgs.start service=sync",
        "90 fgs.foreground service=sync type=\(type.rawValue)",
      ])
    #expect(TraceChecker.check(system.trace).isEmpty)
  }
}

/// A foreground service type's manifest permission. Android 14 (API 34), "Foreground
/// service types are required": each type needs its `FOREGROUND_SERVICE_*` permission
/// (none for `shortService`); without it `startForeground` throws `SecurityException`
/// (AOSP `ActiveServices.validateForegroundServiceType`, `ForegroundServiceTypePolicy`,
/// compat change `FGS_TYPE_PERMISSION_CHANGE_ID` for apps targeting 34).
@Suite struct ForegroundServicePermissionTests {
  /// A service that asks for `type` at once; a refusal is caught, as apps must.
  typealias Service = BootCompletedServiceTests.Service

  static func run(release: Int, declared: Set<ForegroundServiceType>?, type: ForegroundServiceType) -> SimulatedSystem {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(release)
    configuration.foregroundServicePermissions = declared
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launch { _ in }
    system.advance(by: .seconds(5))
    try? system.startForegroundService("upload", Service(type: type))
    system.advance(by: .seconds(1))
    return system
  }

  static func lines(_ system: SimulatedSystem) -> [String] {
    system.trace.events.map(TextTraceWriter.line(for:)).filter { $0.contains(" fgs.") }
  }

  /// Android 14, a manifest with `FOREGROUND_SERVICE_LOCATION` only: a `dataSync`
  /// service is refused with the permission it lacks named.
  @Test func aTypeWhosePermissionIsNotDeclaredIsRefused() throws {
    let system = Self.run(release: 14, declared: [.location], type: .dataSync)
    #expect(
      Self.lines(system) == [
        "5 fgs.start service=upload", "5 fgs.foreground service=upload type=dataSync",
        "5 fgs.refuse service=upload reason=permission",
      ])
    #expect(
      ForegroundServiceError(.permission, service: "upload", type: .dataSync).description
        == "SecurityException: Starting FGS with type dataSync callerApp=… requires permissions: all of the "
        + "permissions allOf=true [android.permission.FOREGROUND_SERVICE_DATA_SYNC] (service upload)")
    #expect(TraceChecker.check(system.trace).map(\.rule) == [.fgsMissingPermission])
  }

  /// Near misses: the declared type, `shortService` (no permission of its own), and the
  /// same `dataSync` on Android 13, before types needed permissions.
  @Test(arguments: [
    (14, ForegroundServiceType.location), (14, .shortService), (13, .dataSync),
  ])
  func aDeclaredTypeShortServiceOrAnEarlierReleaseRuns(release: Int, type: ForegroundServiceType) {
    let system = Self.run(release: release, declared: [.location], type: type)
    #expect(
      Self.lines(system) == ["5 fgs.start service=upload", "5 fgs.foreground service=upload type=\(type.rawValue)"])
  }

  /// The permission names, as ForegroundServiceTypePolicy has them.
  @Test func eachTypeNamesItsPermission() {
    #expect(ForegroundServiceType.dataSync.permission == "android.permission.FOREGROUND_SERVICE_DATA_SYNC")
    #expect(ForegroundServiceType.mediaPlayback.permission == "android.permission.FOREGROUND_SERVICE_MEDIA_PLAYBACK")
    #expect(
      ForegroundServiceType.remoteMessaging.permission == "android.permission.FOREGROUND_SERVICE_REMOTE_MESSAGING")
    #expect(ForegroundServiceType.systemExempted.permission == "android.permission.FOREGROUND_SERVICE_SYSTEM_EXEMPTED")
    #expect(ForegroundServiceType.shortService.permission == nil)
  }
}
