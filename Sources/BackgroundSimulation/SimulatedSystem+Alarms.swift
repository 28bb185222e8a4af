public import BackgroundTrace

/// The limits AOSP `AlarmManagerService` puts on an app's alarms (docs/platform-model.md,
/// "Alarms"), beside Doze (``/BackgroundTrace/DozePhase/defersAlarms``) and the standby bucket's quota
/// (``StandbyBucket/alarmQuota``).
public enum AlarmPolicy: Sendable {
  /// `DEFAULT_MIN_WINDOW`: from Android 12 (apps targeting it, compat change
  /// `ENFORCE_MINIMUM_WINDOW_ON_INEXACT_ALARMS`) a `setWindow` window is at least the
  /// smaller of this and three quarters of the time to its start
  /// (`getMinimumAllowedWindow`); apps on the power allowlist are exempt.
  public static let minimumWindow: Duration = .seconds(10 * 60)
  /// `INTERVAL_DAY`: the longest window `setWindow` keeps.
  public static let maximumWindow: Duration = .seconds(86_400)
  /// `MIN_FUTURITY`: an alarm goes off no sooner than this after it is set.
  public static let minimumFuturity: Duration = .seconds(5)
  /// `MIN_FUZZABLE_INTERVAL`: an inexact alarm set less than this ahead is delivered on
  /// time.
  public static let minimumFuzzableInterval: Duration = .seconds(10)
  /// `WINDOW_HEURISTIC`: an inexact alarm may go off up to this fraction of its distance
  /// after its time, in quarters (three quarters), and from Android 12 at most
  /// ``inexactWindowCap`` after it ("within one hour of the supplied trigger time").
  public static let inexactWindowQuarters: Int64 = 3
  /// The longest an inexact alarm may go off late from Android 12.
  public static let inexactWindowCap: Duration = .seconds(3600)
  /// `DEFAULT_ALLOW_WHILE_IDLE_QUOTA` per `DEFAULT_ALLOW_WHILE_IDLE_WINDOW`: exact
  /// allow-while-idle alarms in deep Doze from Android 12.
  public static let exactIdleQuota: (count: Int, window: Duration) = (72, .seconds(3600))
  /// `allow_while_idle_compat_quota` per its window: inexact allow-while-idle alarms in
  /// deep Doze from Android 12 (1 per 9 minutes in Android 12 and 13's copies, 7 an
  /// hour in later ones; the stricter is kept), and every allow-while-idle alarm before
  /// Android 12 (`ALLOW_WHILE_IDLE_LONG_TIME`, 9 minutes).
  public static let compatIdleQuota: (count: Int, window: Duration) = (1, .seconds(9 * 60))
  /// `DEFAULT_MIN_DEVICE_IDLE_FUZZ`: deep Doze ends this long before an alarm clock
  /// (`setAlarmClock`, the one alarm with `FLAG_WAKE_FROM_IDLE`). AOSP draws the time at
  /// random between it and `DEFAULT_MAX_DEVICE_IDLE_FUZZ` (15 minutes) before
  /// (`adjustIdleUntilTime`); the model takes the latest, the strict reading.
  public static let deviceIdleFuzz: Duration = .seconds(2 * 60)
  /// `DeviceIdleController`'s `MIN_TIME_TO_ALARM`: with an alarm clock due within this,
  /// the device does not go into deep idle (`isUpcomingAlarmClock`): it becomes active
  /// ("alarm") and then inactive again.
  public static let minimumTimeToAlarmClock: Duration = .seconds(30 * 60)
}

/// An alarm the simulated `AlarmManager` holds.
struct SimulatedAlarm {
  var type: AlarmType
  /// When it may go off at the latest, Doze and quotas aside: its time, or an inexact
  /// alarm's window's end.
  var deliverAt: TraceTime
  var timer: VirtualTimeScheduler.TimerID?
  /// An alarm clock's timer that ends deep Doze before it (``AlarmPolicy/deviceIdleFuzz``).
  var wakeTimer: VirtualTimeScheduler.TimerID?
  /// When its occurrence was asked for (AOSP `getRequestedElapsed`): its time, no sooner
  /// than ``AlarmPolicy/minimumFuturity``; a repeating alarm's next occurrence.
  var requested: TraceTime
  /// A repeating alarm's interval, as Android clamps it (``/BackgroundTrace/RepeatingAlarm``).
  var interval: TraceInterval?
  /// Whether it has no window (AOSP `windowLength == 0`): an exact alarm, or an inexact
  /// one set too near to be given one. The revocation of the exact-alarm permission
  /// removes these.
  var hasNoWindow: Bool { deliverAt == requested }
}

/// Android's `AlarmManager` in the simulated device: an alarm goes off at its time (an
/// inexact one at the end of its window, the strict reading), unless deep Doze holds
/// it, an idle quota or the standby bucket's quota defers it; then the app's process is
/// started if none runs, `alarm.fire` is recorded and the app's receiver runs
/// (``/BackgroundTrace/BackgroundAppDelegate/handleAlarm(_:)``). On iOS it does nothing.
extension SimulatedSystem: AlarmScheduling {
  /// Records `alarm.set` and schedules the alarm, replacing one of the same name.
  ///
  /// - Throws: ``/BackgroundTrace/AlarmPermissionError`` for an exact alarm from Android
  ///   12 unless ``SimulationConfiguration/exactAlarmsPermitted``, or after
  ///   ``revokeExactAlarmPermission()``; nothing is recorded.
  public func setAlarm(_ name: String, after delay: Duration, type: AlarmType) throws(AlarmPermissionError) {
    guard configuration.platform == .android else { return }
    if setThroughItsOwnCall(name, after: delay, type: type) { return }
    if type.needsExactAlarmPermission && configuration.androidRelease.requiresExactAlarmPermission
      && !exactAlarmsPermitted
    {
      throw AlarmPermissionError(alarm: name, type: type)
    }
    place(name, after: delay, type: type, window: nil)
  }

  /// Records `alarm.set type=window` and schedules the alarm at its window's end (the
  /// strict reading: AOSP delivers it at the earliest deadline among the wakeup alarms
  /// whose windows overlap, its own at the latest), the window widened as
  /// ``AlarmPolicy/minimumWindow`` says and cut to ``AlarmPolicy/maximumWindow``.
  public func setWindowAlarm(_ name: String, after delay: Duration, window: Duration) {
    guard configuration.platform == .android else { return }
    place(name, after: delay, type: .window, window: max(window, .zero))
  }

  /// Records `alarm.set type=repeating` with the interval asked for, and schedules the
  /// alarm's first occurrence at the end of its window, three quarters of the interval
  /// (clamped to between a minute and a year) after its time, the strict reading; each
  /// delivery schedules the next (``/BackgroundTrace/RepeatingAlarm``).
  public func setRepeatingAlarm(_ name: String, after delay: Duration, every interval: Duration) {
    guard configuration.platform == .android else { return }
    place(name, after: delay, type: .repeating, window: nil, interval: max(interval, .zero))
  }

  /// Records `alarm.set` and schedules the alarm `name`, replacing one of that name.
  private func place(
    _ name: String, after delay: Duration, type: AlarmType, window asked: Duration?, interval: Duration? = nil
  ) {
    let askedTime = now + TraceInterval(max(delay, .zero))
    let askedInterval = interval.map(TraceInterval.init)
    record(
      .alarmSet(alarm: name, at: askedTime, type: type, window: asked.map(TraceInterval.init), interval: askedInterval))
    if let timer = alarms[name]?.timer { scheduler.cancel(timer) }
    let trigger = max(askedTime, now + TraceInterval(AlarmPolicy.minimumFuturity))
    var deliverAt = trigger
    let repeatInterval = askedInterval.map(RepeatingAlarm.interval(asked:))
    if let repeatInterval {
      deliverAt = trigger + RepeatingAlarm.window(interval: repeatInterval)
    } else if var window = asked {
      if configuration.androidRelease.major >= 12 && !configuration.onPowerAllowlist {
        let futurity = RollingBudget.elapsed(from: now, to: trigger)
        window = max(window, min(AlarmPolicy.minimumWindow, futurity * 3 / 4))
      }
      deliverAt = trigger + TraceInterval(min(window, AlarmPolicy.maximumWindow))
    } else if !type.isExact {
      let distance = RollingBudget.elapsed(from: now, to: trigger)
      if distance >= AlarmPolicy.minimumFuzzableInterval {
        var window = distance * Int(AlarmPolicy.inexactWindowQuarters) / 4
        if configuration.androidRelease.major >= 12 { window = min(window, AlarmPolicy.inexactWindowCap) }
        deliverAt = trigger + TraceInterval(window)
      }
    }
    if let wakeTimer = alarms[name]?.wakeTimer { scheduler.cancel(wakeTimer) }
    alarms[name] = SimulatedAlarm(
      type: type, deliverAt: deliverAt, timer: nil, requested: trigger, interval: repeatInterval)
    scheduleAlarm(name, at: deliverAt)
    if type == .alarmClock {
      let wake = deliverAt - TraceInterval(AlarmPolicy.deviceIdleFuzz)
      alarms[name]?.wakeTimer = scheduler.schedule(at: max(wake, now)) { [self, deliverAt] in
        alarms[name]?.wakeTimer = nil
        if dozePhase == .deepIdle || dozePhase == .deepMaintenance { wakeForAlarmClock(at: deliverAt) }
      }
    }
  }

  /// Records `alarm.cancel`; the alarm does not go off.
  public func cancelAlarm(_ name: String) {
    guard configuration.platform == .android else { return }
    record(.alarmCancel(alarm: name))
    guard let alarm = alarms.removeValue(forKey: name) else { return }
    if let timer = alarm.timer { scheduler.cancel(timer) }
    if let wakeTimer = alarm.wakeTimer { scheduler.cancel(wakeTimer) }
  }

  /// The user revokes `SCHEDULE_EXACT_ALARM` (Settings, "Alarms & reminders"), on
  /// Android 12 and later, from an app that holds it (``SimulationConfiguration/exactAlarmsPermitted``):
  /// `env.set exact-alarm-permission=revoked` is recorded, and as AOSP
  /// `AlarmManagerService.removeExactAlarmsOnPermissionRevoked` does, the app's alarms
  /// without a window (exact ones, alarm clocks, inexact ones set under 10 s ahead) are
  /// removed, silently, and its process is killed (`KILL_ON_SCHEDULE_EXACT_ALARM_REVOKED`,
  /// `app.terminate reason=exact-alarm-revoked`). An exact alarm set afterwards throws.
  /// An app on the power allowlist is exempt (`isExemptFromExactAlarmPermissionNoLock`):
  /// its alarms stay and it lives. An app that holds `USE_EXACT_ALARM` has nothing the
  /// user can revoke: leave this uncalled.
  public func revokeExactAlarmPermission() {
    guard configuration.platform == .android, configuration.androidRelease.requiresExactAlarmPermission,
      exactAlarmsPermitted
    else { return }
    exactAlarmsPermitted = false
    record(.envSet([.exactAlarmPermissionRevoked]))
    guard !configuration.onPowerAllowlist else { return }
    for (name, alarm) in alarms where alarm.hasNoWindow {
      if let timer = alarm.timer { scheduler.cancel(timer) }
      if let wakeTimer = alarm.wakeTimer { scheduler.cancel(wakeTimer) }
      alarms[name] = nil
    }
    if processRunning { terminate(reason: "exact-alarm-revoked") }
    scheduler.runPending()
  }

  /// The alarm clock set for `alarmClock` makes the dozing device active, as
  /// `DeviceIdleController` does when its idle-until alarm, moved before the alarm clock,
  /// finds one upcoming (`becomeActiveLocked("alarm")`, then
  /// `becomeInactiveIfAppropriateLocked`): Doze starts again from now, light idle a
  /// minute on, deep idle no sooner than ``DozePolicy/deepIdleAfterInactive`` after the
  /// alarm clock.
  func wakeForAlarmClock(at alarmClock: TraceTime) {
    alarmClockWake = (now, alarmClock)
    updateDoze()
  }

  /// The earliest alarm clock set, if one is.
  var nextAlarmClock: TraceTime? {
    alarms.values.filter { $0.type == .alarmClock }.map(\.deliverAt).min()
  }

  private func scheduleAlarm(_ name: String, at time: TraceTime) {
    alarms[name]?.timer = scheduler.schedule(at: max(time, now)) { [self] in
      alarms[name]?.timer = nil
      alarmDue(name)
    }
  }

  /// The alarm's time has come: it goes off, or waits for what holds it.
  private func alarmDue(_ name: String) {
    guard let alarm = alarms[name] else { return }
    if let later = alarmDeferral(of: alarm) {
      scheduleAlarm(name, at: later)
      return
    }
    if dozePhase.defersAlarms && !alarm.type.goesOffInDoze { return }  // Doze's end delivers it
    // The app's return to the foreground, or the restriction lifted, delivers it.
    if backgroundRestrictionHoldsAlarms && alarm.type != .alarmClock { return }
    deliverAlarm(name)
  }

  /// When a quota lets the alarm go off, if one holds it now: the idle quotas in deep
  /// Doze, and the standby bucket's alarm quota.
  private func alarmDeferral(of alarm: SimulatedAlarm) -> TraceTime? {
    if alarm.type.hasIdleQuota && dozePhase.defersAlarms
      && !configuration.onPowerAllowlist
    {
      let quota =
        alarm.type == .exactAllowWhileIdle && configuration.androidRelease.major >= 12
        ? AlarmPolicy.exactIdleQuota : AlarmPolicy.compatIdleQuota
      let counted = configuration.androidRelease.major >= 12 ? alarm.type == .exactAllowWhileIdle : nil
      let times = idleAlarmDeliveries.filter { counted == nil || $0.exact == counted }.map(\.time)
      if let free = Self.quotaFrees(times, quota, at: now) { return free }
    }
    if configuration.androidRelease.defersJobsByStandbyHeartbeats {
      // Android 9: a delay after the app's last alarm, not a quota (alarm clocks and
      // the charger exempt, isExemptFromAppStandby and the parole).
      guard alarm.type != .alarmClock, !charging, let delay = standbyBucket.alarmDelay, let last = lastAlarmDelivery
      else { return nil }
      let free = last + TraceInterval(delay)
      return free > now ? free : nil
    }
    if countsAgainstAlarmQuota(alarm.type), let quota = standbyBucket.alarmQuota {
      return Self.quotaFrees(alarmDeliveries, quota, at: now)
    }
    return nil
  }

  /// Whether an alarm of `type` going off now counts against the standby bucket's
  /// alarm quota: not an alarm clock, not allow-while-idle from Android 12, not while
  /// charging (`AlarmManagerService.isExemptFromAppStandby`, the charging parole).
  private func countsAgainstAlarmQuota(_ type: AlarmType) -> Bool {
    if type == .alarmClock || charging { return false }
    return !(type.hasIdleQuota && configuration.androidRelease.major >= 12)
  }

  /// When `times` (oldest first) next leave room under `quota` at `now`, if they fill it:
  /// the `count`-th latest plus the window.
  private static func quotaFrees(
    _ times: [TraceTime], _ quota: (count: Int, window: Duration), at now: TraceTime
  ) -> TraceTime? {
    let window = TraceInterval(quota.window)
    let recent = times.filter { $0 + window > now }
    guard recent.count >= quota.count else { return nil }
    return recent[recent.count - quota.count] + window
  }

  /// The alarm goes off: the app's process is started (or thawed), `alarm.fire` is
  /// recorded and its receiver runs. An exact alarm puts the app on the temporary
  /// allowlist from Android 12 (``/BackgroundTrace/TemporaryAllowlistReason/exactAlarm``),
  /// which its `alarm.fire` says: no `app.allowlist` is recorded.
  private func deliverAlarm(_ name: String) {
    guard let alarm = alarms.removeValue(forKey: name) else { return }
    if let wakeTimer = alarm.wakeTimer { scheduler.cancel(wakeTimer) }
    if let interval = alarm.interval {
      // A repeating alarm's next occurrence is set before this one is delivered, as
      // `triggerAlarmsLocked` does: its receiver may cancel or replace it.
      var next = alarm
      next.requested = RepeatingAlarm.nextRequest(after: alarm.requested, deliveredAt: now, interval: interval)
      next.deliverAt = next.requested + RepeatingAlarm.window(interval: interval)
      alarms[name] = next
      scheduleAlarm(name, at: next.deliverAt)
    }
    if countsAgainstAlarmQuota(alarm.type) {
      alarmDeliveries.removeAll { $0 + RollingBudget.day <= now }
      alarmDeliveries.append(now)
    }
    if alarm.type.hasIdleQuota && dozePhase.defersAlarms {
      idleAlarmDeliveries.removeAll { $0.time + TraceInterval(AlarmPolicy.exactIdleQuota.window) <= now }
      idleAlarmDeliveries.append((now, alarm.type == .exactAllowWhileIdle))
    }
    // Pie's DeliveryTracker notes the delivery of an alarm that is not exempt
    // (isExemptFromAppStandby: an alarm clock is).
    if alarm.type != .alarmClock { lastAlarmDelivery = now }
    wakeForBackgroundWork()
    record(.alarmFire(alarm: name))
    if alarm.type.isExact && configuration.androidRelease.major >= 12 {
      let end = now + TraceInterval(TemporaryAllowlistReason.exactAlarm.defaultDuration)
      allowlistedUntil[.exactAlarm] = max(allowlistedUntil[.exactAlarm] ?? end, end)
      reviseExpeditedCharging()
    }
    appDelegate?.handleAlarm(name)
    suspendIfIdle(after: idleSuspensionDelay)
    scheduler.runPending()
  }

  /// Deep Doze ended (a maintenance window, or the device woke), or the user's
  /// background restriction no longer holds the app's alarms: the alarms due by now —
  /// held, or deferred by an idle quota that no longer applies — are due again, in the
  /// order of their times, each as its own time would find it (the standby bucket's
  /// quota and any other hold still apply, and a receiver may set or cancel another).
  func deliverHeldAlarms() {
    let due = alarms.filter { $0.value.deliverAt <= now }
    for name in due.keys.sorted(by: { (due[$0]!.deliverAt, $0) < (due[$1]!.deliverAt, $1) }) {
      guard let alarm = alarms[name], alarm.deliverAt <= now else { continue }
      if let timer = alarm.timer {
        scheduler.cancel(timer)
        alarms[name]?.timer = nil
      }
      alarmDue(name)
    }
  }

  /// The device rebooted, or the user force-stopped the app: `AlarmManager` keeps
  /// none of its alarms (`TerminationReason.dropsAlarms`).
  func dropAlarms() {
    for alarm in alarms.values {
      if let timer = alarm.timer { scheduler.cancel(timer) }
      if let wakeTimer = alarm.wakeTimer { scheduler.cancel(wakeTimer) }
    }
    alarms.removeAll()
  }
}
