/// When WorkManager lets a request that is not backed off run, as androidx
/// `WorkSpec.calculateNextRunTime` computes it (``WorkBackoff`` is the backed-off case):
/// a one-time request at its enqueue plus its initial delay; a periodic one's first
/// period at the enqueue plus the initial delay, and with a flex shorter than the
/// interval, interval − flex later still; each later period an interval after the last.
/// Periodic work with a next schedule time override runs at the override instead,
/// before any of these and before its backoff (``overriddenRun(at:periods:lastEnqueue:)``).
public enum WorkSchedule: Sendable {
  /// The smallest repeat interval (`PeriodicWorkRequest.MIN_PERIODIC_INTERVAL_MILLIS`):
  /// 15 minutes. A shorter one is raised to it.
  public static let minimumPeriod = TraceInterval(nanoseconds: 900_000_000_000)
  /// The smallest flex interval (`PeriodicWorkRequest.MIN_PERIODIC_FLEX_MILLIS`):
  /// 5 minutes. A shorter one is raised to it.
  public static let minimumFlex = TraceInterval(nanoseconds: 300_000_000_000)

  /// The interval periodic work repeats at: `period`, at least ``minimumPeriod``.
  public static func interval(_ period: TraceInterval) -> TraceInterval {
    max(period, minimumPeriod)
  }

  /// The flex window of periodic work: `flex` within [``minimumFlex``, the interval].
  public static func flexWindow(period: TraceInterval, flex: TraceInterval) -> TraceInterval {
    min(max(flex, minimumFlex), interval(period))
  }

  /// When the request `enqueue` made at `time` may first run.
  public static func firstRun(of enqueue: WorkEnqueue, enqueuedAt time: TraceTime) -> TraceTime {
    if enqueue.period != nil, let override = enqueue.nextScheduleTimeOverride {
      return overriddenRun(at: override, periods: 0, lastEnqueue: time)
    }
    var start = time + (enqueue.initialDelay ?? .zero)
    if let period = enqueue.period, let flex = enqueue.flex {
      start = start + (interval(period) - flexWindow(period: period, flex: flex))
    }
    return start
  }

  /// When periodic work whose next schedule time override is `override` may run, after
  /// `periods` periods have ended and last enqueued at `lastEnqueue`: in its first period
  /// at the override as given, even one in the past; later, no earlier than
  /// ``minimumPeriod`` after the last enqueue (androidx
  /// `nextScheduleTimeOverride.coerceAtLeast(lastEnqueueTime + MIN_PERIODIC_INTERVAL_MILLIS)`).
  public static func overriddenRun(at override: TraceTime, periods: Int, lastEnqueue: TraceTime) -> TraceTime {
    periods == 0 ? override : max(override, lastEnqueue + minimumPeriod)
  }
}
