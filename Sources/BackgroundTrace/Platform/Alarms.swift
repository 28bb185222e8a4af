/// Which `AlarmManager` call set an alarm, as `alarm.set type=` records it: it decides
/// how late the alarm may go off, and whether Doze holds it (docs/platform-model.md,
/// "Alarms").
public enum AlarmType: String, Sendable, Hashable, CaseIterable {
  /// `set(RTC_WAKEUP, …)`: inexact; it may go off later than asked, and Doze holds it.
  case inexact
  /// `setExact`: on time, but Doze holds it.
  case exact
  /// `setAndAllowWhileIdle`: inexact, and it goes off in Doze, within the idle quota.
  case allowWhileIdle = "allow-while-idle"
  /// `setExactAndAllowWhileIdle`: on time, also in Doze, within the idle quota.
  case exactAllowWhileIdle = "exact-allow-while-idle"
  /// `setAlarmClock`: on time whatever the device's state; the user sees it as an alarm
  /// clock.
  case alarmClock = "alarm-clock"

  /// Whether it goes off at the time asked (an exact alarm).
  public var isExact: Bool { self == .exact || self == .exactAllowWhileIdle || self == .alarmClock }

  /// Whether it goes off while the device is in Doze (`FLAG_ALLOW_WHILE_IDLE`, or
  /// `FLAG_WAKE_FROM_IDLE` for an alarm clock).
  public var goesOffInDoze: Bool { self != .inexact && self != .exact }
}

/// Android's `AlarmManager` as app code uses it: an alarm named by the app (its
/// `PendingIntent`) goes off once, and the system then delivers it to the app's
/// receiver, ``BackgroundAppDelegate/handleAlarm(_:)``, starting the app's process if
/// none runs. Setting an alarm of the same name replaces it, as a `PendingIntent` that
/// is equal does.
///
/// ```swift
/// alarms.setAlarm("refresh", after: .seconds(15 * 60), type: .exactAllowWhileIdle)
/// // alarm.set alarm=refresh at=900 type=exact-allow-while-idle; later alarm.fire alarm=refresh
/// ```
public protocol AlarmScheduling: AnyObject, Sendable {
  /// `AlarmManager.set…(RTC_WAKEUP, now + delay, pendingIntent)`, the call `type` names.
  func setAlarm(_ name: String, after delay: Duration, type: AlarmType)
  /// `AlarmManager.cancel(pendingIntent)`: the alarm `name` does not go off.
  func cancelAlarm(_ name: String)
}
