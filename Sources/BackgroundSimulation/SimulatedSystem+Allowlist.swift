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
    allowlistedUntil = max(allowlistedUntil ?? end, end)
    appDelegate?.handleAllowlistedDelivery(reason)
    suspendIfIdle(after: idleSuspensionDelay)
    scheduler.runPending()
  }

  /// Android: a high-priority FCM message arrives (`FirebaseMessagingService.onMessageReceived`):
  /// ``deliverTemporaryAllowlist(_:duration:)`` with
  /// ``/BackgroundTrace/TemporaryAllowlistReason/fcmHighPriority``.
  public func deliverHighPriorityMessage() {
    deliverTemporaryAllowlist(.fcmHighPriority)
  }
}
