public import BackgroundTrace

/// What happened to one alarm, and why it went off when it did: `bgtrace explain PATH
/// --why NAME` for an alarm's name (docs/platform-model.md, "Alarms").
///
/// One sentence per step, each with its time: each `alarm.set` (the call, and when it
/// asked to go off), each cancel, each delivery with how late it was, and for a late
/// one the stretch it was held and what held it, as far as the trace tells: the
/// window of an inexact alarm, deep Doze (`env.set doze=deep`) for an alarm that does
/// not go off in it, an allow-while-idle alarm's idle quota, the standby bucket's alarm
/// quota (`env.set bucket=`), the user's background restriction while the app was not
/// in the foreground (`env.set background-restricted=true`), the revocation of the exact-alarm permission
/// (`env.set exact-alarm-permission=revoked`) for an exact alarm, or on Android 9 (`meta android=9`) the bucket's delay after
/// the app's last alarm. What the trace does not tell is said as such.
///
/// ```swift
/// if let history = AlarmHistory(of: "backup", in: trace) {
///   print(history.lines.joined(separator: "\n"))
/// }
/// ```
public struct AlarmHistory: Sendable, Hashable {
  /// The alarm's name.
  public let alarm: String
  /// The header (`alarm backup`), then one sentence per step, in time order.
  public let lines: [String]

  /// The history of the alarm `name` in `trace`, up to `until` (the trace's end by
  /// default).
  ///
  /// - Returns: `nil` when no event of the trace names that alarm.
  public init?(of name: String, in trace: RecordedTrace, until: TraceTime? = nil) {
    guard trace.events.contains(where: { $0.kind.alarmName == name }) else { return nil }
    var story = AlarmStory(alarm: name, release: trace.meta.androidRelease)
    for event in trace.events where until == nil || event.time <= until! { story.apply(event) }
    story.finish(at: until ?? trace.events.last?.time ?? TraceTime(nanoseconds: 0))
    alarm = name
    lines = ["alarm \(name)"] + story.steps
  }

  /// The alarm names `--why` takes in `trace`, each once, in the order they first appear.
  public static func names(in trace: RecordedTrace) -> [String] {
    var seen = Set<String>()
    return trace.events.compactMap { event in
      guard let name = event.kind.alarmName, seen.insert(name).inserted else { return nil }
      return name
    }
  }
}

extension TraceEvent.Kind {
  /// The alarm this event is about, if it is about one.
  fileprivate var alarmName: String? {
    switch self {
    case .alarmSet(let alarm, _, _, _, _), .alarmFire(let alarm), .alarmCancel(let alarm): alarm
    default: nil
    }
  }
}

/// The walk that writes an ``AlarmHistory``.
private struct AlarmStory {
  let alarm: String
  var steps: [String] = []
  /// The pending alarm: when it was set, when it was asked to go off (a repeating one's
  /// next occurrence), its type, a `setWindow` alarm's window and a repeating one's
  /// interval, as Android clamps it.
  var pending: Pending?
  typealias Pending = (
    setAt: TraceTime, due: TraceTime, type: AlarmType, window: TraceInterval?, interval: TraceInterval?
  )
  /// Since when the device has been in deep Doze, if it is.
  var deepDozeSince: TraceTime?
  /// Whether the device was in deep Doze at some moment since the alarm fell due.
  var dozedSinceDue = false
  /// Whether the user has restricted the app's background use
  /// (`env.set background-restricted=`), and whether the app is in the foreground.
  var backgroundRestricted = false
  var appInForeground = false
  /// Whether the restriction held the app's alarms at some moment since the alarm fell
  /// due: restricted, with the app out of the foreground.
  var restrictedSinceDue = false
  /// The standby bucket the trace last recorded.
  var bucket: String?
  var charging = false
  /// The release the trace was recorded on (`meta android=`).
  let release: AndroidRelease
  /// The type each alarm was last set with, and when the app's last alarm that was not
  /// an alarm clock went off: what starts Android 9's delay.
  var types: [String: AlarmType] = [:]
  var lastDelivery: TraceTime?

  init(alarm: String, release: AndroidRelease) {
    self.alarm = alarm
    self.release = release
  }

  mutating func apply(_ event: TraceEvent) {
    let now = event.time
    // Deep Doze in force up to now, past the alarm's time: it held the alarm.
    if let pending, deepDozeSince != nil, now > pending.due { dozedSinceDue = true }
    if let pending, backgroundRestricted, !appInForeground, now > pending.due { restrictedSinceDue = true }
    switch event.kind {
    case .envSet(let settings):
      if settings.contains(.exactAlarmPermissionRevoked), let pending, pending.type.isExact {
        steps.append(
          "  \(now)s: removed: the user revoked the exact-alarm permission, and Android removes the app's exact "
            + "alarms and kills its process (AlarmManagerService: removeExactAlarmsOnPermissionRevoked); it was due "
            + "at \(pending.due)s.")
        self.pending = nil
      }
      for setting in settings {
        switch setting.key {
        case "doze":
          if setting.value == DozePhase.deepIdle.rawValue {
            if deepDozeSince == nil { deepDozeSince = now }
          } else {
            deepDozeSince = nil
          }
        case "bucket": bucket = setting.value
        case "background-restricted": backgroundRestricted = setting.value == "true"
        case "charging": charging = setting.value == "true"
        default: break
        }
      }
    case .appTerminate(let reason?) where TerminationReason.dropsAlarms(reason):
      guard let pending else { return }
      steps.append(
        reason == TerminationReason.reboot
          ? "  \(now)s: dropped by the reboot; it was due at \(pending.due)s (AlarmManager keeps no alarm across a boot)."
          : "  \(now)s: dropped by the force stop; it was due at \(pending.due)s (AlarmManager removes a stopped app's alarms)."
      )
      self.pending = nil
      appInForeground = false
    case .appTerminate:
      appInForeground = false
    case .appState(let state):
      appInForeground = state == .active || state == .inactive
    case .alarmSet(let name, _, let type, _, _) where name != alarm:
      types[name] = type
    case .alarmFire(let name) where name != alarm:
      if types[name] != .alarmClock { lastDelivery = now }
    case .alarmSet(alarm, let due, let type, let window, let asked):
      types[alarm] = type
      let replacing = pending.map { ", replacing the alarm due at \($0.due)s" } ?? ""
      let within = window.map { " within \($0)s" } ?? ""
      let interval = asked.map(RepeatingAlarm.interval(asked:))
      let every = interval.map { i in
        " and every \(i)s after" + (asked == i ? "" : " (\(asked!)s asked, clamped to \(i)s)")
      }
      steps.append(
        "  \(now)s: set with \(Self.call(type)), to go off at \(due)s\(within)\(every ?? "")\(replacing).")
      pending = (now, due, type, window, interval)
      dozedSinceDue = false
      restrictedSinceDue = false
    case .alarmCancel(alarm):
      guard let pending else {
        steps.append("  \(now)s: cancelled, with no alarm of that name set.")
        return
      }
      steps.append("  \(now)s: cancelled; it was due at \(pending.due)s.")
      self.pending = nil
    case .alarmFire(alarm):
      guard let pending else {
        steps.append("  \(now)s: went off; the trace shows no alarm.set before it.")
        return
      }
      let due = pending.due
      if now <= due + AlarmStory.onTime {
        steps.append("  \(now)s: went off on time.")
      } else {
        steps.append("  \(due)s to \(now)s (\(now.interval(since: due))s): held: \(held(pending, until: now)).")
        steps.append("  \(now)s: went off, \(now.interval(since: due))s after its time.")
      }
      if pending.type != .alarmClock { lastDelivery = now }
      if let interval = pending.interval {
        let next = RepeatingAlarm.nextRequest(after: due, deliveredAt: now, interval: interval)
        self.pending = (now, next, pending.type, nil, interval)
        dozedSinceDue = false
        restrictedSinceDue = false
      } else {
        self.pending = nil
      }
    default:
      break
    }
  }

  mutating func finish(at end: TraceTime) {
    guard let pending else { return }
    if deepDozeSince != nil, end > pending.due { dozedSinceDue = true }
    if backgroundRestricted, !appInForeground, end > pending.due { restrictedSinceDue = true }
    guard end > pending.due else {
      steps.append("  at the end (\(end)s): still set, due at \(pending.due)s.")
      return
    }
    steps.append(
      "  \(pending.due)s to the end at \(end)s (\(end.interval(since: pending.due))s): not gone off: "
        + "\(held(pending, until: end)).")
  }

  /// What the trace says held an alarm from its time until `time`.
  private func held(_ alarm: Pending, until time: TraceTime) -> String {
    var reasons: [String] = []
    if let interval = alarm.interval {
      reasons.append(
        "a repeating alarm may go off up to three quarters of its \(interval)s interval after each time "
          + "(AlarmManagerService: maxTriggerTime)")
    } else if let window = alarm.window {
      reasons.append(
        "a setWindow alarm may go off up to the end of its \(window)s window, which Android 12 widens to at "
          + "least the smaller of 10 minutes and three quarters of the \(alarm.due.interval(since: alarm.setAt))s "
          + "it was set ahead (AlarmManagerService: getMinimumAllowedWindow)")
    } else if !alarm.type.isExact {
      reasons.append(
        "an inexact alarm may go off up to three quarters of the \(alarm.due.interval(since: alarm.setAt))s it was "
          + "set ahead after its time (at most an hour from Android 12)")
    }
    if dozedSinceDue && !alarm.type.goesOffInDoze {
      reasons.append(
        "deep Doze holds an alarm set with \(Self.call(alarm.type)) until its maintenance window or its end "
          + "(AlarmManagerService: mPendingIdleUntil)")
    } else if dozedSinceDue && alarm.type != .alarmClock {
      reasons.append(
        "in deep Doze, allow-while-idle alarms go off within an idle quota (9 minutes apart, or 72 an hour)")
    }
    if restrictedSinceDue && alarm.type != .alarmClock {
      reasons.append(
        "the user had restricted the app's background use, and Android holds its alarms, but alarm clocks, until it "
          + "comes to the foreground (AlarmManagerService: isBackgroundRestricted)")
    }
    if !charging, alarm.type != .alarmClock, let bucket, bucket != "active", bucket != "exempted" {
      if release.defersJobsByStandbyHeartbeats {
        let last = lastDelivery.map { ", which went off at \($0)s" } ?? " (before the trace)"
        reasons.append(
          "on Android 9 the \(bucket) standby bucket holds an alarm until a delay after the app's last alarm"
            + "\(last) (AlarmManagerService: DEFAULT_APP_STANDBY_DELAYS)")
      } else {
        reasons.append("the \(bucket) standby bucket limits how many of the app's alarms go off an hour")
      }
    }
    if reasons.isEmpty {
      return "the trace records nothing that held it (on a device: the standby bucket's alarm quota, or the batching "
        + "of alarms while the screen is off)"
    }
    return reasons.joined(separator: "; ")
  }

  /// A delivery this close to its time is on time.
  static let onTime = TraceInterval(nanoseconds: 1_000_000_000)

  /// `setExact (exact)`.
  static func call(_ type: AlarmType) -> String { "\(type.call) (\(type.rawValue))" }
}
