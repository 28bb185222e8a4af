/// Where an Android device is in Doze, as `env.set doze=` records it (the simulation's
/// `DozePolicy` decides when; docs/platform-model.md, "Doze").
public enum DozePhase: String, Sendable, Hashable, CaseIterable {
  /// Not dozing: the screen is on, the device charges, or it has not been inactive long.
  case awake = "off"
  /// Light idle: jobs wait.
  case lightIdle = "light"
  /// A light maintenance window: jobs run.
  case lightMaintenance = "light-maintenance"
  /// Deep idle: jobs wait.
  case deepIdle = "deep"
  /// A deep maintenance window: jobs run.
  case deepMaintenance = "deep-maintenance"

  /// Whether regular jobs wait in this phase.
  public var defersJobs: Bool { self == .lightIdle || self == .deepIdle }

  /// Whether alarms that do not go off in Doze (``AlarmType/goesOffInDoze``)
  /// wait in this phase: deep idle only (AOSP `AlarmManagerService` holds them until
  /// `DeviceIdleController`'s `setIdleUntil` alarm, set for deep idle alone).
  public var defersAlarms: Bool { self == .deepIdle }
}
