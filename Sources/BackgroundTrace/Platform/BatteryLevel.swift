/// When Android counts the battery as low, for the battery-not-low constraint
/// (``WorkConstraint/batteryNotLow``), as AOSP decides it: `BatteryService` sends
/// `ACTION_BATTERY_LOW` when the device is unplugged at or below the warning level
/// (`config_lowBatteryWarningLevel`, 15 %), and `ACTION_BATTERY_OKAY` only once the level
/// is back at the close level (warning + `config_lowBatteryCloseWarningBump`, 20 %);
/// JobScheduler's `BatteryStateTracker` flips battery-not-low on those two broadcasts
/// alone, so plugging in does not end a low battery. Its charging constraint asks for
/// "stable power": charging and the battery not low (`BatteryController`).
public enum BatteryLevel: Sendable {
  /// `config_lowBatteryWarningLevel`: 15 %.
  public static let lowWarningLevel = 15
  /// The level at which a low battery is okay again: 15 % + `config_lowBatteryCloseWarningBump` (5).
  public static let closeWarningLevel = 20

  /// Whether the battery is low at `level` percent, given whether it `wasLow` and
  /// whether the device is `charging`.
  public static func isLow(level: Int, wasLow: Bool, charging: Bool) -> Bool {
    wasLow ? level < closeWarningLevel : !charging && level <= lowWarningLevel
  }
}
