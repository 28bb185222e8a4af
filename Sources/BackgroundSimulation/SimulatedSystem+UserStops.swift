import BackgroundTrace

/// What an Android user does to hold back an app's background work: a force stop, and
/// the restriction of its background use (docs/platform-model.md, "Force stop and
/// background restriction").
extension SimulatedSystem {
  /// Android: the user force-stops the app (Settings' "Force stop", `adb shell am
  /// force-stop`).
  ///
  /// `app.terminate reason=force-stopped` is recorded, with or without a process: a
  /// running worker stops as at any process death (`work.stop reason=terminated`,
  /// WorkManager's `ForceStopRunnable` setting it back to ENQUEUED). JobScheduler
  /// cancels the app's jobs and AlarmManager removes its alarms. The app is then in
  /// the stopped state: no broadcast, message or alarm starts it
  /// (``deliverTemporaryAllowlist(_:duration:)`` and ``deliverBootCompleted()`` do
  /// nothing, also after a reboot), and its work waits `quit` until the user opens it
  /// (``launchApp(_:)``, ``relaunch()``), when `ForceStopRunnable` schedules it again.
  /// On iOS it does nothing: ``terminate(reason:)`` with `user` is the app switcher's quit.
  public func forceStop() {
    guard configuration.platform == .android else { return }
    if processRunning {
      terminate(reason: TerminationReason.forceStop)
    } else {
      record(.appTerminate(reason: TerminationReason.forceStop))
    }
    forceStopped = true
    workAwaitsReschedule = true
    dropAlarms()
    noteWaits()
  }

  /// Android: the user sets the app's battery usage to "Restricted" (`true`), or back
  /// to "Optimized" (`false`): `env.set background-restricted=true|false`.
  ///
  /// While restricted, and the app is neither on top nor running a foreground service,
  /// as AOSP's `AppStateTrackerImpl` decides:
  /// - its jobs do not start, expedited ones included (`areJobsRestricted`:
  ///   `canRunInBatterySaver` frees them from battery saver only), unless it is on the
  ///   power allowlist or the temporary one; its work waits `background-restriction`,
  ///   and a running worker is stopped with `STOP_REASON_BACKGROUND_RESTRICTION`
  ///   (`work.stop reason=background-restriction`);
  /// - its alarms are held, but for alarm clocks (`AlarmManagerService
  ///   .isBackgroundRestricted`, `areAlarmsRestricted`: the temporary allowlist frees
  ///   no alarm), until it comes to the foreground or the restriction is lifted.
  ///
  /// AOSP counts the app's uid as active for a minute after it leaves the foreground
  /// (`ActivityManagerConstants.DEFAULT_BACKGROUND_SETTLE_TIME`); the model holds its
  /// work at once, the strict case, unless
  /// ``SimulationConfiguration/backgroundSettleTime`` says otherwise. On iOS it does
  /// nothing.
  public func setBackgroundRestricted(_ restricted: Bool) {
    guard configuration.platform == .android, restricted != backgroundRestricted else { return }
    backgroundRestricted = restricted
    record(.envSet([Self.backgroundRestrictedSetting(restricted)]))
    if restricted {
      reviewBackgroundRestriction()
    } else {
      startEligibleWork()
      deliverHeldAlarms()
    }
  }

  /// `env.set background-restricted=`'s setting.
  static func backgroundRestrictedSetting(_ restricted: Bool) -> EnvironmentSetting {
    EnvironmentSetting(key: "background-restricted", value: String(restricted))
  }

  /// Whether the user's restriction holds the app's alarms now: restricted, its uid not
  /// active (on top, running a foreground service, or within the settle time after it
  /// left the top), not on the power allowlist (`AppStateTrackerImpl.areAlarmsRestricted`).
  var backgroundRestrictionHoldsAlarms: Bool {
    backgroundRestricted && !appInForeground && !runsForegroundService && !configuration.onPowerAllowlist
      && !(uidActiveUntil.map { now < $0 } ?? false)
  }

  /// Whether the user's restriction holds the app's jobs now: as its alarms, and not
  /// on the temporary allowlist either (`AppStateTrackerImpl.areJobsRestricted`).
  var backgroundRestrictionHoldsJobs: Bool {
    backgroundRestrictionHoldsAlarms && !allowlistedUntil.values.contains { now < $0 }
  }

  /// Applies the restriction, when the user has set it, as it stands now: stops the
  /// running jobs it holds, or starts the work and delivers the alarms it no longer
  /// holds; and looks again when what frees the app now ends (the uid's settle time, a
  /// temporary allowlist).
  func reviewBackgroundRestriction() {
    guard backgroundRestricted else { return }
    if let next = (Array(allowlistedUntil.values) + [uidActiveUntil].compactMap { $0 }).filter({ $0 > now }).min() {
      scheduler.schedule(at: next) { [self] in reviewBackgroundRestriction() }
    }
    if backgroundRestrictionHoldsJobs {
      for work in workOrder where works[work]?.phase == .running && works[work]?.countsAsJob == true {
        stop(work, reason: .backgroundRestriction, reschedule: true)
      }
      noteWaits()
    } else {
      startEligibleWork()
    }
    if !backgroundRestrictionHoldsAlarms { deliverHeldAlarms() }
  }
}
