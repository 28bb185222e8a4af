/// The `app.terminate reason=` words whose consequences the simulation and the checker
/// share, each declared once.
package enum TerminationReason {
  /// Android: the device rebooted (`SimulatedSystem.reboot(downtime:)`).
  package static let reboot = "reboot"
  /// Android: the user force-stopped the app (`SimulatedSystem.forceStop()`).
  package static let forceStop = "force-stop"

  /// Whether the app has no alarm left after a termination for `reason`: AlarmManager
  /// keeps none across a boot, and removes a force-stopped package's
  /// (`AlarmManagerService`, `ACTION_PACKAGE_RESTARTED`).
  package static func dropsAlarms(_ reason: String?) -> Bool {
    reason == reboot || reason == forceStop
  }
}
