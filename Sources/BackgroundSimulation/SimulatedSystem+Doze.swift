import BackgroundTrace

/// Doze in the simulated Android device (``DozePolicy``): the screen, motion and the
/// charger decide when the device dozes; each phase change is recorded (`env.set
/// doze=…`); entering idle stops the running regular jobs (`work.stop reason=doze`,
/// JobParameters `STOP_REASON_DEVICE_STATE`), and due work waits for the next
/// maintenance window (`work.wait reasons=doze`). Expedited work and workers running as
/// foreground services are exempt, as `DeviceIdleJobsController` exempts them.
extension SimulatedSystem {
  /// Changes the device's screen and motion: `env.set screen=on|off stationary=true|false`.
  /// A screen off on an unplugged device starts the way into Doze; a stationary one
  /// also the way into deep Doze. Motion ends deep Doze, and light Doze starts over.
  public func setDeviceState(screenOn: Bool? = nil, stationary: Bool? = nil) {
    var settings: [EnvironmentSetting] = []
    if let screenOn, screenOn != self.screenOn {
      noteScreen(on: screenOn)
      self.screenOn = screenOn
      settings.append(EnvironmentSetting(key: "screen", value: screenOn ? "on" : "off"))
    }
    if let stationary, stationary != (stationarySince != nil) {
      stationarySince = stationary ? now : nil
      settings.append(EnvironmentSetting(key: "stationary", value: stationary ? "true" : "false"))
      // DeviceIdleController.handleMotionDetectedLocked: motion in deep Doze makes the
      // device active and inactive again, and light idle, which deep idle overrode,
      // starts over; motion leaves light idle as it is.
      if !stationary, dozePhase == .deepIdle || dozePhase == .deepMaintenance, inactiveSince != nil {
        inactiveSince = now
      }
    }
    guard !settings.isEmpty else { return }
    record(.envSet(settings))
    updateDoze()
    updateIdleForJobs()
    updateStandbyBucket()
    scheduler.runPending()
  }

  /// The Doze phase at `time`, and when it ends, from the device's inactivity and
  /// motion; after an alarm clock made it active (``alarmClockWake``), counted from then,
  /// deep idle from the alarm clock.
  private func dozePhase(at time: TraceTime) -> (DozePhase, ends: TraceTime?) {
    guard let (inactive, stationary) = dozeClocks else { return (.awake, nil) }
    return configuration.doze.phase(at: time, inactiveSince: inactive, stationarySince: stationary)
  }

  /// Since when the device counts as inactive and as stationary for Doze: after an alarm
  /// clock made it active, from then, and stationary from the alarm clock. `nil` while
  /// it is active.
  private var dozeClocks: (inactive: TraceTime, stationary: TraceTime?)? {
    guard var inactive = inactiveSince else { return nil }
    var stationary = stationarySince
    if let wake = alarmClockWake, wake.at >= inactive {
      inactive = wake.at
      stationary = stationary.map { max($0, wake.alarmClock) }
    }
    return (inactive, stationary)
  }

  /// When the device steps to `STATE_IDLE_PENDING` on its way to deep idle, from its
  /// inactivity and motion (``DozePolicy/idlePendingAfterInactive``).
  private var idlePendingStep: TraceTime? {
    dozeClocks.flatMap {
      configuration.doze.idlePendingStep(inactiveSince: $0.inactive, stationarySince: $0.stationary)
    }
  }

  /// The alarm clock due within ``AlarmPolicy/minimumTimeToAlarmClock``, if one is:
  /// `DeviceIdleController.isUpcomingAlarmClock`.
  private var upcomingAlarmClock: TraceTime? {
    nextAlarmClock.flatMap { $0 <= now + TraceInterval(AlarmPolicy.minimumTimeToAlarmClock) ? $0 : nil }
  }

  /// Whether the device dozes now, deferring the app's regular jobs: not those of an app
  /// on the power allowlist (``SimulationConfiguration/onPowerAllowlist``).
  var dozeDefersJobs: Bool { dozePhase.defersJobs && !configuration.onPowerAllowlist }

  /// Brings the Doze phase up to date after a change of screen, charger or motion, or
  /// at a phase's end: records a new phase, stops or starts work, and plans the next
  /// change.
  func updateDoze() {
    guard configuration.platform == .android else { return }
    let inactive = !screenOn && !charging
    if inactive && inactiveSince == nil { inactiveSince = now }
    if !inactive { inactiveSince = nil }
    var (phase, ends) = dozePhase(at: now)
    // DeviceIdleController.stepIdleStateLocked: at the steps to IDLE_PENDING and to deep
    // idle, an alarm clock near makes the device active, and inactive again.
    let atDeepStep = (phase == .deepIdle && dozePhase != .deepIdle) || (idlePendingStep == now && phase != .deepIdle)
    if atDeepStep, let alarmClock = upcomingAlarmClock {
      alarmClockWake = (now, alarmClock)
      (phase, ends) = dozePhase(at: now)
    }
    // The step may have moved with the wake: it is read again for the next timer.
    if let step = idlePendingStep, step > now, ends.map({ step < $0 }) ?? true { ends = step }
    if let timer = dozeTimer { scheduler.cancel(timer) }
    dozeTimer = ends.map { time in
      scheduler.schedule(at: time) { [self] in
        dozeTimer = nil
        updateDoze()
      }
    }
    guard phase != dozePhase else { return }
    dozePhase = phase
    record(.envSet([EnvironmentSetting(key: "doze", value: phase.rawValue)]))
    if !phase.defersAlarms { deliverHeldAlarms() }
    if dozeDefersJobs {
      for work in workOrder where works[work]?.countsAsJob == true {
        stop(work, reason: .deviceState, reschedule: true)
      }
      noteWaits()
    } else {
      startEligibleWork()
    }
  }
}
