public import BackgroundTrace

/// Android's temporary allowlist: the deliveries after which a background app may start
/// a foreground service for a short window (docs/platform-model.md, "Foreground
/// services").
extension SimulatedSystem {
  /// Android: the system delivers something that puts the app on its temporary
  /// allowlist — a high-priority FCM message, an exact alarm firing, the user tapping
  /// one of its notifications — and runs the app's code for it
  /// (``/BackgroundTrace/BackgroundAppDelegate/handleAllowlistedDelivery(_:)``).
  ///
  /// A process is started (or a frozen one thawed) in the background if none runs;
  /// `app.allowlist reason=… duration=…` is recorded; until `duration` has passed
  /// (``/BackgroundTrace/TemporaryAllowlistReason/defaultDuration`` when `nil`) a foreground service may
  /// be started from the background (`startForegroundService`, a worker's
  /// `setForeground`), after it the start is refused again. A second delivery extends
  /// the window to the later end, as AOSP's `tempAllowlistUidLocked` keeps the later
  /// expiry. On iOS, and for an app the user force-stopped (``forceStop()``) and has not
  /// opened since, it does nothing.
  public func deliverTemporaryAllowlist(
    _ reason: TemporaryAllowlistReason, duration: Duration? = nil
  ) {
    // A force-stopped app gets no broadcast, message or alarm until the user opens it.
    guard configuration.platform == .android, !forceStopped else { return }
    wakeForBackgroundWork()
    let duration = TraceInterval(duration ?? reason.defaultDuration)
    record(.appAllowlist(reason: reason, duration: duration))
    let end = now + duration
    allowlistedUntil[reason] = max(allowlistedUntil[reason] ?? end, end)
    reviseExpeditedCharging()
    reviewBackgroundRestriction()
    appDelegate?.handleAllowlistedDelivery(reason)
    suspendIfIdle(after: idleSuspensionDelay)
    scheduler.runPending()
  }

  /// Android: the device has booted and the user unlocked it, and `BOOT_COMPLETED` is
  /// delivered to the app's receiver: ``deliverTemporaryAllowlist(_:duration:)`` with
  /// ``/BackgroundTrace/TemporaryAllowlistReason/bootCompleted`` (20 s). A service the app
  /// starts from it may take only the types Android 15 allows there
  /// (``/BackgroundTrace/ForegroundServiceType/mayStartFromBootCompleted``); others are
  /// refused at `startForeground` (`fgs.refuse reason=boot-completed`). ``reboot(downtime:)``
  /// delivers it after the device has rebooted.
  public func deliverBootCompleted() {
    deliverTemporaryAllowlist(.bootCompleted)
  }

  /// Android: the device reboots. The app's process ends (`app.terminate reason=reboot`;
  /// a running worker is stopped, `work.stop reason=terminated`, and runs again with its
  /// next attempt, as androidx `ForceStopRunnable.cleanUp` sets RUNNING work back to
  /// ENQUEUED with `STOP_REASON_UNKNOWN`); the temporary allowlist, kept in memory, is
  /// gone; and no work runs until a process of the app has run again, since WorkManager
  /// does not persist its jobs (`work.wait reasons=rebooted`). After `downtime` the
  /// device is up and unlocked, and `BOOT_COMPLETED` is delivered
  /// (``deliverBootCompleted()``), which starts the app's process: WorkManager keeps
  /// its `RescheduleReceiver` enabled while work is unfinished. Work's schedule is kept
  /// (`calculateNextRunTime` counts from the stored `lastEnqueueTime`): what fell due
  /// while the device was down runs at once. On iOS it does nothing.
  public func reboot(downtime: Duration = .seconds(60)) {
    guard configuration.platform == .android else { return }
    terminate(reason: TerminationReason.reboot)
    workAwaitsReschedule = true
    allowlistedUntil.removeAll()
    dropAlarms()
    noteWaits()
    scheduler.schedule(after: downtime) { [self] in
      if !screenOn { setDeviceState(screenOn: true) }  // the user unlocks the device
      deliverBootCompleted()
    }
  }

  /// Android: a high-priority FCM message arrives (`FirebaseMessagingService.onMessageReceived`):
  /// ``deliverTemporaryAllowlist(_:duration:)`` with
  /// ``/BackgroundTrace/TemporaryAllowlistReason/fcmHighPriority``.
  public func deliverHighPriorityMessage() {
    deliverTemporaryAllowlist(.fcmHighPriority)
  }
}
