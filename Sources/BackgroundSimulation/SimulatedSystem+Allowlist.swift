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
  /// expiry. On iOS it does nothing.
  public func deliverTemporaryAllowlist(
    _ reason: TemporaryAllowlistReason, duration: Duration? = nil
  ) {
    guard configuration.platform == .android else { return }
    wakeForBackgroundWork()
    let duration = TraceInterval(duration ?? reason.defaultDuration)
    record(.appAllowlist(reason: reason, duration: duration))
    let end = now + duration
    allowlistedUntil[reason] = max(allowlistedUntil[reason] ?? end, end)
    appDelegate?.handleAllowlistedDelivery(reason)
    suspendIfIdle(after: idleSuspensionDelay)
    scheduler.runPending()
  }

  /// Android: the device has booted and the user unlocked it, and `BOOT_COMPLETED` is
  /// delivered to the app's receiver: ``deliverTemporaryAllowlist(_:duration:)`` with
  /// ``/BackgroundTrace/TemporaryAllowlistReason/bootCompleted`` (20 s). A service the app
  /// starts from it may take only the types Android 15 allows there
  /// (``/BackgroundTrace/ForegroundServiceType/mayStartFromBootCompleted``); others are
  /// refused at `startForeground` (`fgs.refuse reason=boot-completed`). The reboot itself
  /// is the caller's: end the app's process first (``terminate(reason:)``) to model it.
  public func deliverBootCompleted() {
    deliverTemporaryAllowlist(.bootCompleted)
  }

  /// Android: a high-priority FCM message arrives (`FirebaseMessagingService.onMessageReceived`):
  /// ``deliverTemporaryAllowlist(_:duration:)`` with
  /// ``/BackgroundTrace/TemporaryAllowlistReason/fcmHighPriority``.
  public func deliverHighPriorityMessage() {
    deliverTemporaryAllowlist(.fcmHighPriority)
  }
}
