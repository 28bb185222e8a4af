import BackgroundTrace

/// When an Android device dozes (AOSP `DeviceIdleController`; docs/platform-model.md,
/// "Doze"), and so when JobScheduler defers the app's regular jobs: `DeviceIdleJobsController`
/// holds every job that is not expedited or exempt while the device is in light or deep
/// idle, and lets them run in the maintenance windows between.
///
/// Light Doze begins once the screen is off and the device unplugged; deep Doze once it
/// is also stationary. Each idle stretch is longer than the one before, up to a
/// maximum, with a maintenance window after each. The defaults are AOSP's
/// `DeviceIdleController.Constants`, taking the earliest entry and the shortest
/// maintenance windows AOSP allows, the strict reading: it may wait longer to enter
/// idle (for running jobs, for motion sensing) and stretch a window up to its maximum
/// budget while jobs run.
public struct DozePolicy: Sendable, Equatable {
  /// Whether the device dozes at all.
  public var isEnabled: Bool
  /// From screen off and unplugged to light idle: `DEFAULT_LIGHT_IDLE_AFTER_INACTIVE_TIMEOUT`, 1 minute.
  public var lightIdleAfterInactive: Duration
  /// The first light idle stretch, `DEFAULT_LIGHT_IDLE_TIMEOUT` (5 minutes), each next one
  /// `DEFAULT_LIGHT_IDLE_FACTOR` (2) times longer, up to `DEFAULT_LIGHT_MAX_IDLE_TIMEOUT`
  /// (15 minutes).
  public var lightIdle: ClosedRange<Duration>
  /// A light maintenance window: `DEFAULT_LIGHT_IDLE_MAINTENANCE_MIN_BUDGET`, 1 minute.
  public var lightMaintenance: Duration
  /// From screen off, unplugged and stationary to deep idle: `DEFAULT_INACTIVE_TIMEOUT`
  /// (30 minutes) then `DEFAULT_IDLE_AFTER_INACTIVE_TIMEOUT` (30 minutes).
  public var deepIdleAfterInactive: Duration
  /// The first of those steps, `DEFAULT_INACTIVE_TIMEOUT` (30 minutes): from inactive to
  /// `STATE_IDLE_PENDING`, where `DeviceIdleController.stepIdleStateLocked` first looks
  /// for an upcoming alarm clock (`isUpcomingAlarmClock`), as it does at each later step.
  /// At most ``deepIdleAfterInactive``.
  public var idlePendingAfterInactive: Duration
  /// The first deep idle stretch, `DEFAULT_IDLE_TIMEOUT` (1 hour), each next one
  /// `DEFAULT_IDLE_FACTOR` (2) times longer, up to `DEFAULT_MAX_IDLE_TIMEOUT` (6 hours).
  public var deepIdle: ClosedRange<Duration>
  /// The first deep maintenance window, `DEFAULT_IDLE_PENDING_TIMEOUT` (5 minutes), each
  /// next one `DEFAULT_IDLE_PENDING_FACTOR` (2) times longer, up to
  /// `DEFAULT_MAX_IDLE_PENDING_TIMEOUT` (10 minutes).
  public var deepMaintenance: ClosedRange<Duration>

  /// AOSP's defaults (the doc comment of each property gives its constant).
  public static let aosp = DozePolicy(
    isEnabled: true, lightIdleAfterInactive: .seconds(60), lightIdle: .seconds(5 * 60) ... .seconds(15 * 60),
    lightMaintenance: .seconds(60), deepIdleAfterInactive: .seconds(60 * 60),
    deepIdle: .seconds(60 * 60) ... .seconds(6 * 3600), deepMaintenance: .seconds(5 * 60) ... .seconds(10 * 60),
    idlePendingAfterInactive: .seconds(30 * 60))

  /// A device that never dozes: more lenient than any Android 6+ device left alone.
  public static let never = DozePolicy(
    isEnabled: false, lightIdleAfterInactive: .zero, lightIdle: .zero ... .zero, lightMaintenance: .zero,
    deepIdleAfterInactive: .zero, deepIdle: .zero ... .zero, deepMaintenance: .zero ... .zero)

  /// Creates a policy; `idlePendingAfterInactive` is half of `deepIdleAfterInactive`
  /// unless given, as AOSP's two default timeouts are.
  public init(
    isEnabled: Bool, lightIdleAfterInactive: Duration, lightIdle: ClosedRange<Duration>, lightMaintenance: Duration,
    deepIdleAfterInactive: Duration, deepIdle: ClosedRange<Duration>, deepMaintenance: ClosedRange<Duration>,
    idlePendingAfterInactive: Duration? = nil
  ) {
    self.idlePendingAfterInactive = min(idlePendingAfterInactive ?? deepIdleAfterInactive / 2, deepIdleAfterInactive)
    self.isEnabled = isEnabled
    self.lightIdleAfterInactive = lightIdleAfterInactive
    self.lightIdle = lightIdle
    self.lightMaintenance = lightMaintenance
    self.deepIdleAfterInactive = deepIdleAfterInactive
    self.deepIdle = deepIdle
    self.deepMaintenance = deepMaintenance
  }

  /// When the device inactive since `inactiveSince` and stationary since
  /// `stationarySince` steps to `STATE_IDLE_PENDING` on its way to deep idle (``idlePendingAfterInactive``);
  /// `nil` when it is moving, or Doze is off.
  func idlePendingStep(inactiveSince: TraceTime, stationarySince: TraceTime?) -> TraceTime? {
    guard isEnabled, let stationarySince else { return nil }
    return max(stationarySince, inactiveSince) + TraceInterval(idlePendingAfterInactive)
  }

  /// The phase at `time` of a device inactive (screen off, unplugged) since
  /// `inactiveSince` and stationary since `stationarySince` (`nil`: moving), and when it
  /// ends (`nil`: not while the device stays as it is).
  func phase(at time: TraceTime, inactiveSince: TraceTime, stationarySince: TraceTime?) -> (DozePhase, ends: TraceTime?)
  {
    guard isEnabled else { return (.awake, nil) }
    let deepStart = stationarySince.map { max($0, inactiveSince) + TraceInterval(deepIdleAfterInactive) }
    if let deepStart, time >= deepStart {
      return Self.walk(
        from: deepStart, to: time, idle: deepIdle, maintenance: deepMaintenance, phases: (.deepIdle, .deepMaintenance))
    }
    let lightStart = inactiveSince + TraceInterval(lightIdleAfterInactive)
    let phase: DozePhase
    var ends: TraceTime?
    (phase, ends) =
      time < lightStart
      ? (.awake, lightStart)
      : Self.walk(
        from: lightStart, to: time, idle: lightIdle, maintenance: lightMaintenance...lightMaintenance,
        phases: (.lightIdle, .lightMaintenance))
    if let deepStart, ends.map({ $0 > deepStart }) ?? true { ends = deepStart }
    return (phase, ends)
  }

  /// Alternates idle stretches (growing by 2 up to their maximum) and maintenance
  /// windows (likewise) from `start`, and returns the phase `time` falls in.
  private static func walk(
    from start: TraceTime, to time: TraceTime, idle: ClosedRange<Duration>, maintenance: ClosedRange<Duration>,
    phases: (idle: DozePhase, maintenance: DozePhase)
  ) -> (DozePhase, ends: TraceTime?) {
    guard idle.lowerBound > .zero || maintenance.lowerBound > .zero else { return (.awake, nil) }
    var stretchStart = start
    var idleLength = idle.lowerBound
    var maintenanceLength = maintenance.lowerBound
    while true {
      let idleEnd = stretchStart + TraceInterval(idleLength)
      if time < idleEnd { return (phases.idle, idleEnd) }
      let maintenanceEnd = idleEnd + TraceInterval(maintenanceLength)
      if time < maintenanceEnd { return (phases.maintenance, maintenanceEnd) }
      stretchStart = maintenanceEnd
      idleLength = min(idleLength * 2, idle.upperBound)
      maintenanceLength = min(maintenanceLength * 2, maintenance.upperBound)
    }
  }
}
