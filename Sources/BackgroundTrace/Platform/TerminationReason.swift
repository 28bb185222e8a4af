/// The `app.terminate reason=` words whose consequences the simulation, the importer
/// and the checker share, each declared once.
package enum TerminationReason {
  /// Android: the device rebooted (`SimulatedSystem.reboot(downtime:)`).
  package static let reboot = "reboot"
  /// Android: the user force-stopped the app (`SimulatedSystem.forceStop()`, or a log's
  /// `Force stopping` line and an exit of `REASON_USER_REQUESTED` with `SUBREASON_FORCE_STOP`).
  package static let forceStop = "force-stopped"

  /// Whether the app has no alarm left after a termination for `reason`: AlarmManager
  /// keeps none across a boot, and removes a force-stopped package's
  /// (`AlarmManagerService`, `ACTION_PACKAGE_RESTARTED`).
  package static func dropsAlarms(_ reason: String?) -> Bool {
    reason == reboot || reason == forceStop
  }
}
