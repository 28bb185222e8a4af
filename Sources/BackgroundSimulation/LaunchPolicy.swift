/// When the simulated BGTaskScheduler launches a pending request, and how long the run
/// it launches gets (docs/platform-model.md, "BGTaskScheduler").
///
/// The default, ``realistic``, follows what devices do: launches come minutes to many
/// hours after the earliest date, processing tasks run only while the device is idle
/// on its charger, and refresh runs are often cut to a few seconds. ``immediate``
/// launches at the earliest date with the full runtime: fast to test, and more
/// lenient than any device, so a test that passes with it can still fail in the field.
///
/// ```swift
/// var configuration = SimulationConfiguration()
/// configuration.launchPolicy = .immediate  // a unit test of the launch handler itself
/// ```
public struct LaunchPolicy: Sendable, Equatable {
  /// The delay after a refresh request's earliest date before its launch, drawn per launch.
  public var refreshDelay: ClosedRange<Duration>
  /// The delay after a processing request's earliest date before its launch, drawn per
  /// launch; the launch still waits for the request's requirements (and, with
  /// ``processingNeedsIdleDevice``, for the device to be idle).
  public var processingDelay: ClosedRange<Duration>
  /// How long a launched refresh run may run before it expires, drawn per run.
  public var refreshRuntime: ClosedRange<Duration>
  /// How long a launched processing run may run before it expires, drawn per run.
  public var processingRuntime: ClosedRange<Duration>
  /// Whether processing tasks launch only while the device is idle — on external power
  /// with the app not in use — and expire when it stops being idle (the charger
  /// unplugged, the app opened), whatever the request requires.
  public var processingNeedsIdleDevice: Bool

  /// Creates a policy.
  public init(
    refreshDelay: ClosedRange<Duration>, processingDelay: ClosedRange<Duration>,
    refreshRuntime: ClosedRange<Duration>, processingRuntime: ClosedRange<Duration>,
    processingNeedsIdleDevice: Bool
  ) {
    self.refreshDelay = refreshDelay
    self.processingDelay = processingDelay
    self.refreshRuntime = refreshRuntime
    self.processingRuntime = processingRuntime
    self.processingNeedsIdleDevice = processingNeedsIdleDevice
  }

  /// What devices do (the default):
  /// - a refresh launches 15 min to 8 h after its earliest date (Apple, *Starting and
  ///   Terminating Tasks During Development*: the delay "can be many hours");
  /// - a processing task launches 15 min to 48 h after its earliest date, and only
  ///   while the device is idle on external power (Apple, `BGProcessingTaskRequest`;
  ///   a request can wait about two days);
  /// - a refresh run gets 5 to 30 s (up to 30 s, often cut to a few seconds), a
  ///   processing run 3 min.
  public static let realistic = LaunchPolicy(
    refreshDelay: .seconds(900) ... .seconds(8 * 3600), processingDelay: .seconds(900) ... .seconds(48 * 3600),
    refreshRuntime: .seconds(5) ... .seconds(30), processingRuntime: .seconds(180) ... .seconds(180),
    processingNeedsIdleDevice: true)

  /// Every launch at the request's earliest date (once the app is in the background and
  /// the request's requirements hold), with the full 30 s or 3 min. Less realistic than
  /// ``realistic``: use it to test a launch handler, not to trust that it gets to run.
  public static let immediate = LaunchPolicy(
    refreshDelay: .zero ... .zero, processingDelay: .zero ... .zero,
    refreshRuntime: .seconds(30) ... .seconds(30), processingRuntime: .seconds(180) ... .seconds(180),
    processingNeedsIdleDevice: false)
}
