import BackgroundSimulation
public import BackgroundTrace

extension ReplayPlatform: AlarmScheduling {
  /// Records `alarm.set`, an app action the replay compares with the recording's; the
  /// alarm goes off when the recording's `alarm.fire` says.
  public func setAlarm(_ name: String, after delay: Duration, type: AlarmType) {
    record(.alarmSet(alarm: name, at: scheduler.now + TraceInterval(delay), type: type))
  }

  /// Records `alarm.cancel`.
  public func cancelAlarm(_ name: String) { record(.alarmCancel(alarm: name)) }
}
