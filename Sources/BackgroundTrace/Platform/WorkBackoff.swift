/// WorkManager's retry backoff, as androidx `WorkSpec.calculateNextRunTime` computes it.
///
/// After a worker returns `retry`, the next attempt may start no earlier than the time
/// the attempt returned plus the backoff: linear `delay × attempt`, exponential
/// `delay × 2^(attempt − 1)`, where `attempt` is the runAttemptCount of the run about
/// to start (≥ 1). The delay is clamped to [10 s, 5 h] and the result capped at 5 h.
public enum WorkBackoff: Sendable {
  /// The default backoff delay: 30 s.
  public static let defaultDelay = TraceInterval(nanoseconds: 30_000_000_000)
  /// The smallest delay WorkManager accepts (`MIN_BACKOFF_MILLIS`): 10 s.
  public static let minimumDelay = TraceInterval(nanoseconds: 10_000_000_000)
  /// The largest delay and backoff (`MAX_BACKOFF_MILLIS`): 5 h.
  public static let maximumBackoff = TraceInterval(nanoseconds: 5 * 3_600_000_000_000)

  /// The wait before the attempt numbered `attempt` (≥ 1) may start.
  ///
  /// - Parameters:
  ///   - attempt: the runAttemptCount of the run about to start.
  ///   - policy: linear or exponential (`nil`: exponential).
  ///   - delay: the configured delay (`nil`: 30 s), clamped to [10 s, 5 h].
  public static func backoff(
    beforeAttempt attempt: Int, policy: BackoffPolicy?, delay: TraceInterval?
  ) -> TraceInterval {
    let base = min(max((delay ?? defaultDelay).nanoseconds, minimumDelay.nanoseconds), maximumBackoff.nanoseconds)
    let cap = maximumBackoff.nanoseconds
    let attempt = UInt64(max(attempt, 1))
    let wait: UInt64
    switch policy ?? .exponential {
    case .linear:
      let (product, overflow) = base.multipliedReportingOverflow(by: attempt)
      wait = overflow ? cap : product
    case .exponential:
      let shift = attempt - 1
      wait = shift >= 63 || base > cap >> shift ? cap : base << shift
    }
    return TraceInterval(nanoseconds: min(wait, cap))
  }
}
