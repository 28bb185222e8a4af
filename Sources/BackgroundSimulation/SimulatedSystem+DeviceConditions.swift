public import BackgroundTrace

/// The device's conditions as work constraints read them (``/BackgroundTrace/DeviceConditions``):
/// the network, power, battery and storage ``setEnvironment(network:charging:metered:roaming:batteryLevel:storageLow:)``
/// sets, and whether an Android device is idle for jobs, which follows the screen.
extension SimulatedSystem {
  /// The conditions now.
  var deviceConditions: DeviceConditions {
    DeviceConditions(
      networkConnected: networkAvailable, networkMetered: networkMetered, networkRoaming: networkRoaming,
      charging: charging, batteryLow: batteryLow, storageLow: storageLow, idle: idleForJobs)
  }

  /// Whether the Android device counts as idle for the idle constraint: its screen has
  /// been off for ``SimulationConfiguration/deviceIdleThreshold`` (AOSP
  /// `DeviceIdlenessTracker`); the screen coming on ends it.
  var idleForJobs: Bool {
    guard configuration.platform == .android, let since = screenOffSince else { return false }
    return now >= since + TraceInterval(configuration.deviceIdleThreshold)
  }

  /// Follows a change of the screen: plans the moment the device becomes idle for jobs,
  /// or ends idle at once, and lets work start or stop by it. The trace says nothing of
  /// its own: the screen's `env.set` and the threshold tell when it is idle, and work
  /// that waits for it says so (`work.wait reasons=device-idle`).
  func updateIdleForJobs() {
    guard configuration.platform == .android else { return }
    let wasIdle = wasIdleForJobs
    if let timer = deviceIdleTimer { scheduler.cancel(timer) }
    deviceIdleTimer = nil
    if screenOn {
      screenOffSince = nil
    } else if screenOffSince == nil {
      screenOffSince = now
    }
    if let since = screenOffSince, !idleForJobs {
      deviceIdleTimer = scheduler.schedule(at: since + TraceInterval(configuration.deviceIdleThreshold)) { [self] in
        deviceIdleTimer = nil
        updateIdleForJobs()
      }
    }
    guard idleForJobs != wasIdle else { return }
    wasIdleForJobs = idleForJobs
    stopWorkMissingConstraints()
    startEligibleWork()
  }
}
