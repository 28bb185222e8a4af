/// ``AlarmScheduling`` that forwards to a base (an Android adapter, or a fake) and
/// records each call: `alarm.set` at the recorder's clock, its `at` that clock plus the
/// delay, and `alarm.cancel`. The app's receiver records the delivery by calling
/// ``receive(_:)`` first thing in `onReceive`.
///
/// ```swift
/// let alarms = TracingAlarmScheduler(base: androidAlarms, recorder: recorder)
/// try alarms.setAlarm("refresh", after: .seconds(900), type: .exactAllowWhileIdle)
/// // in the receiver: alarms.receive("refresh")
/// ```
public final class TracingAlarmScheduler: AlarmScheduling {
  /// The alarm manager that sets the alarms.
  public let base: any AlarmScheduling
  /// Where events go.
  public let recorder: TraceRecorder

  /// Wraps `base`, recording into `recorder`.
  public init(base: any AlarmScheduling, recorder: TraceRecorder) {
    self.base = base
    self.recorder = recorder
  }

  /// Forwards, and records `alarm.set` once the base has set the alarm; a refusal is
  /// rethrown and records nothing, as no alarm was set.
  public func setAlarm(_ name: String, after delay: Duration, type: AlarmType) throws(AlarmPermissionError) {
    if setThroughItsOwnCall(name, after: delay, type: type) { return }
    let asked = recorder.currentTime + TraceInterval(max(delay, .zero))
    try base.setAlarm(name, after: delay, type: type)
    recorder.record(.alarmSet(alarm: name, at: asked, type: type))
  }

  /// Forwards, and records `alarm.set type=window` with its window.
  public func setWindowAlarm(_ name: String, after delay: Duration, window: Duration) {
    let asked = recorder.currentTime + TraceInterval(max(delay, .zero))
    base.setWindowAlarm(name, after: delay, window: window)
    recorder.record(.alarmSet(alarm: name, at: asked, type: .window, window: TraceInterval(max(window, .zero))))
  }

  /// Forwards, and records `alarm.set type=repeating` with the interval asked for.
  public func setRepeatingAlarm(_ name: String, after delay: Duration, every interval: Duration) {
    let asked = recorder.currentTime + TraceInterval(max(delay, .zero))
    base.setRepeatingAlarm(name, after: delay, every: interval)
    recorder.record(.alarmSet(alarm: name, at: asked, type: .repeating, interval: TraceInterval(max(interval, .zero))))
  }

  /// Records `alarm.cancel` and forwards.
  public func cancelAlarm(_ name: String) {
    recorder.record(.alarmCancel(alarm: name))
    base.cancelAlarm(name)
  }

  /// Records `alarm.fire`: the alarm `name` went off and its receiver runs.
  public func receive(_ name: String) {
    recorder.record(.alarmFire(alarm: name))
  }
}
