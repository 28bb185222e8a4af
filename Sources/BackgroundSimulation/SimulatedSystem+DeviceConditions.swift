import BackgroundTrace

/// The device's conditions as work constraints read them (``/BackgroundTrace/DeviceConditions``):
/// the network, power, battery and storage ``setEnvironment(network:charging:metered:roaming:batteryLevel:storageLow:)``
/// sets, and whether an Android device is idle for jobs, which follows the screen.
extension SimulatedSystem {
  /// The conditions now.
  var deviceConditions: DeviceConditions {
    DeviceConditions(
      networkConnected: networkAvailable, networkMetered: networkMetered, networkRoaming: networkRoaming,
      charging: charging, batteryLow: batteryLow, storageLow: storageLow, idle: idleForJobs,
      // androidx `SystemJobInfoConverter.setRequiredNetwork`: from API 30 a request for
      // `NET_CAPABILITY_TEMPORARILY_NOT_METERED`; before, `convertNetworkType` falls back
      // to `NETWORK_TYPE_ANY`.
      networkTemporarilyUnmetered: networkTemporarilyUnmetered
        || (configuration.platform == .android && configuration.androidRelease.major < 11))
  }

  /// The network connection becomes temporarily unmetered, or stops being so
  /// (`NET_CAPABILITY_TEMPORARILY_NOT_METERED`: a carrier lifts its metering for a
  /// while), recorded as `env.set temporarily-unmetered=true|false`. Work that needs
  /// ``/BackgroundTrace/WorkConstraint/temporarilyUnmetered`` starts, or is stopped
  /// (`STOP_REASON_CONSTRAINT_CONNECTIVITY`).
  public func setNetworkTemporarilyUnmetered(_ unmetered: Bool) {
    guard unmetered != networkTemporarilyUnmetered else { return }
    networkTemporarilyUnmetered = unmetered
    record(.envSet([EnvironmentSetting(key: "temporarily-unmetered", value: unmetered ? "true" : "false")]))
    environmentChanged()
    scheduler.runPending()
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
