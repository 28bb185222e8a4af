import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// Android 14 (API 34), developer.android.com, "Restrictions on starting foreground
/// services that need while-in-use permissions": `startForeground` checks the type's
/// runtime permission when the service is created; `camera` (`CAMERA`), `microphone`
/// (`RECORD_AUDIO`) and `location` (`ACCESS_FINE_LOCATION`) are held only while the app
/// is in use, so "if your app is in the background, and tries to create a foreground
/// service of type camera, location, or microphone, the system … throws
/// SecurityException", "even if the app falls into one of the exemptions from
/// background start restrictions". Android 11's "Foreground services" page exempts a
/// service "started by interacting with a notification"; background location
/// (`ACCESS_BACKGROUND_LOCATION`) makes location not a while-in-use permission.
@Suite struct WhileInUsePermissionTests {
  typealias Service = BootCompletedServiceTests.Service

  typealias App = BootCompletedServiceTests.App

  /// The app goes to the background at 30 s; at 90 s `delivery` starts its service.
  static func run(
    release: Int = 14, type: ForegroundServiceType, delivery: TemporaryAllowlistReason,
    backgroundLocation: Bool = false, health: HealthServicePermission = .bodySensors
  ) -> SimulatedSystem {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(release)
    configuration.backgroundLocationGranted = backgroundLocation
    configuration.healthServicePermission = health
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launchApp { App(services: $0, type: type) }
    system.advance(by: .seconds(30))
    system.moveToBackground()
    system.advance(by: .seconds(60))
    system.deliverTemporaryAllowlist(delivery)
    system.advance(by: .seconds(5))
    return system
  }

  static func lines(_ system: SimulatedSystem) -> [String] {
    system.trace.events.map(TextTraceWriter.line(for:)).filter { $0.contains(" fgs.") }
  }

  /// A high-priority message lets a `camera` (or `microphone`, `location`) service
  /// start from the background, but `startForeground` is refused:
  /// `fgs-while-in-use-from-background`.
  @Test(arguments: [ForegroundServiceType.camera, .microphone, .location])
  func aServiceCreatedFromAHighPriorityMessageIsRefused(type: ForegroundServiceType) {
    let system = Self.run(type: type, delivery: .fcmHighPriority)
    #expect(
      Self.lines(system) == [
        "90 fgs.start service=sync", "90 fgs.foreground service=sync type=\(type.rawValue)",
        "90 fgs.refuse service=sync reason=while-in-use",
      ])
    #expect(TraceChecker.check(system.trace).map(\.rule) == [.fgsWhileInUseFromBackground])
    #expect(
      ForegroundServiceError(.whileInUse, service: "sync", type: .microphone).description
        == "SecurityException: Starting FGS with type microphone callerApp=… requires permissions: any of the "
        + "permissions allOf=false [android.permission.RECORD_AUDIO] (service sync)")
  }

  /// Android 14 and `BOOT_COMPLETED`: the broadcast allows a start, not the microphone.
  /// (Android 15 bars `microphone` from `BOOT_COMPLETED` by type as well, a check that
  /// comes after this one.)
  @Test func aMicrophoneServiceFromBootCompletedIsRefusedOnAndroid14() {
    let system = Self.run(type: .microphone, delivery: .bootCompleted)
    #expect(Self.lines(system).last == "90 fgs.refuse service=sync reason=while-in-use")
  }

  /// Near misses: the tapped notification lends the while-in-use permissions; location
  /// with background location granted; a type without a while-in-use permission; and
  /// Android 13, which lets the service start (and silently denies it the camera).
  @Test(arguments: [
    (14, ForegroundServiceType.camera, TemporaryAllowlistReason.notification, false),
    (14, .location, .fcmHighPriority, true), (15, .location, .bootCompleted, true),
    (14, .connectedDevice, .fcmHighPriority, false), (13, .camera, .fcmHighPriority, false),
  ])
  func theNearMissesRun(release: Int, type: ForegroundServiceType, delivery: TemporaryAllowlistReason, background: Bool)
  {
    let system = Self.run(release: release, type: type, delivery: delivery, backgroundLocation: background)
    #expect(
      Self.lines(system) == ["90 fgs.start service=sync", "90 fgs.foreground service=sync type=\(type.rawValue)"])
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  /// A `health` service: AOSP `ForegroundServiceTypePolicy.FGS_TYPE_POLICY_HEALTH` takes
  /// any of `ACTIVITY_RECOGNITION`, `BODY_SENSORS` and `HIGH_SAMPLING_RATE_SENSORS`
  /// (Android 14 and 15), and a service that relies on `BODY_SENSORS`, a while-in-use
  /// permission ("body sensor, camera, microphone, or location permissions"), created
  /// from the background is refused, unless the app holds `BODY_SENSORS_BACKGROUND`. One
  /// that relies on activity recognition starts; Android 13 lets every one start.
  @Test(arguments: [
    (14, HealthServicePermission.bodySensors, true), (15, .bodySensors, true), (14, .bodySensorsInBackground, false),
    (14, .other, false), (13, .bodySensors, false),
  ])
  func aHealthServiceOnABodySensorIsRefusedFromTheBackground(
    release: Int, health: HealthServicePermission, refused: Bool
  ) {
    let system = Self.run(release: release, type: .health, delivery: .fcmHighPriority, health: health)
    let started = ["90 fgs.start service=sync", "90 fgs.foreground service=sync type=health"]
    #expect(Self.lines(system) == started + (refused ? ["90 fgs.refuse service=sync reason=while-in-use"] : []))
    #expect(TraceChecker.check(system.trace).map(\.rule) == (refused ? [.fgsWhileInUseFromBackground] : []))
    #expect(
      ForegroundServiceError(.whileInUse, service: "sync", type: .health).description
        == "SecurityException: Starting FGS with type health callerApp=… requires permissions: any of the "
        + "permissions allOf=false [android.permission.BODY_SENSORS] (service sync)")
  }

  /// A service created in the foreground keeps its permission into the background: the
  /// check is at creation, and a later `startForeground` of the same service passes.
  @Test func aServiceCreatedInTheForegroundKeepsItsPermission() throws {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(14)
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launch { _ in }
    system.advance(by: .seconds(5))
    try system.startForegroundService("sync", Service(type: .location))
    system.advance(by: .seconds(25))
    system.moveToBackground()
    system.advance(by: .seconds(60))
    try system.startForeground("sync", type: .location)
    #expect(Self.lines(system).allSatisfy { !$0.contains("fgs.refuse") })
  }
}
