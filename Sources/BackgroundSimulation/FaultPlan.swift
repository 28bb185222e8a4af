/// Faults the simulation injects, drawn from its seed so a failing run replays exactly.
public struct FaultPlan: Sendable {
  /// Expiration handlers run this much earlier than the budget says (iOS may end
  /// background time early).
  public var earlyExpiration: Duration = .zero
  /// Terminate the app at these virtual times, with these reasons.
  public var terminations: [(at: Duration, reason: String)] = []
  /// Terminate the app at random, on average once per this interval while it runs.
  public var randomTerminationInterval: Duration?
  /// Flap the network: offline on average once per `interval`, for `outage`.
  public var networkFlaps: (interval: Duration, outage: Duration)?
  /// Scheduler runs get this much runtime, drawn per run, instead of the full 30 s or
  /// 3 min (devices often cut refresh runs to a few seconds); `nil`: the full runtime.
  public var schedulerRuntime: ClosedRange<Duration>?
  /// Scheduler launches whose expiration comes at once: this many in 100, drawn per
  /// launch. The system's expiration came while the app was still launching, and
  /// BGTaskScheduler delivered it right after the launch handler ran (`_handleAppLaunch`
  /// calls the queued expiration handlers after the launch handlers), so the run starts
  /// and expires at one instant.
  public var expirationAtLaunchPercent = 0
  /// `beginBackgroundTask` calls whose assertion UIKit fails to get: this many in 100,
  /// drawn per call. The call returns an identifier and the expiration handler runs at
  /// once (Apple, `beginBackgroundTask(withName:expirationHandler:)`).
  public var backgroundTaskAssertionFailurePercent = 0
  /// Extra delay added to every scheduler launch, drawn from this range.
  public var extraLaunchDelay: ClosedRange<Duration> = .zero ... .zero
  /// Background transfers that fail (`net.finish outcome=failed`): this many in 100,
  /// drawn per transfer.
  public var transferFailurePercent = 0
  /// Background transfers take this long instead of
  /// ``SimulationConfiguration/transferDuration`` (hours, on a slow network), drawn per
  /// transfer; `nil`: the configured duration.
  public var transferDuration: ClosedRange<Duration>?

  /// No faults.
  public static let none = FaultPlan()

  /// Creates a plan with no faults; set the fields you want.
  public init() {}
}
