import BackgroundSimulation
public import BackgroundTrace

extension ReplayPlatform: AlarmScheduling {
  /// Records `alarm.set`, an app action the replay compares with the recording's; the
  /// alarm goes off when the recording's `alarm.fire` says.
  ///
  /// - Throws: ``/BackgroundTrace/AlarmPermissionError`` for an exact alarm on Android
  ///   12 and later when the recording sets none, or after its
  ///   `env.set exact-alarm-permission=revoked`: the app could not then, as the
  ///   simulation without ``/BackgroundSimulation/SimulationConfiguration/exactAlarmsPermitted``
  ///   and a device without the permission refuse it.
  public func setAlarm(_ name: String, after delay: Duration, type: AlarmType) throws(AlarmPermissionError) {
    guard recordedPlatform == "android" else { return }  // as the simulation: iOS has no AlarmManager
    if setThroughItsOwnCall(name, after: delay, type: type) { return }
    if type.needsExactAlarmPermission && refusesExactAlarms { throw AlarmPermissionError(alarm: name, type: type) }
    record(.alarmSet(alarm: name, at: scheduler.now + TraceInterval(max(delay, .zero)), type: type))
  }

  /// Records `alarm.set type=window`, an app action the replay compares with the
  /// recording's; the alarm goes off when the recording's `alarm.fire` says.
  public func setWindowAlarm(_ name: String, after delay: Duration, window: Duration) {
    guard recordedPlatform == "android" else { return }
    record(
      .alarmSet(
        alarm: name, at: scheduler.now + TraceInterval(max(delay, .zero)), type: .window,
        window: TraceInterval(max(window, .zero))))
  }

  /// Records `alarm.set type=repeating`, an app action the replay compares with the
  /// recording's; each occurrence goes off when the recording's `alarm.fire` says.
  public func setRepeatingAlarm(_ name: String, after delay: Duration, every interval: Duration) {
    guard recordedPlatform == "android" else { return }
    record(
      .alarmSet(
        alarm: name, at: scheduler.now + TraceInterval(max(delay, .zero)), type: .repeating,
        interval: TraceInterval(max(interval, .zero))))
  }

  /// Whether an exact alarm is refused: on Android 12 and later, when the recording
  /// sets none, or once the recording's user revoked the permission.
  private var refusesExactAlarms: Bool {
    (!script.setsExactAlarms || exactAlarmPermissionRevoked) && recordedPlatform == "android"
      && recordedAndroidRelease.requiresExactAlarmPermission
  }

  /// Records `alarm.cancel` (on Android, as the simulation does).
  public func cancelAlarm(_ name: String) {
    guard recordedPlatform == "android" else { return }
    record(.alarmCancel(alarm: name))
  }
}
