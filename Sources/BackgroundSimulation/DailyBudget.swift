import BackgroundTrace

/// Time an Android app may spend on something in any 24 hours: the expedited-work quota
/// (AOSP `QuotaController`, `DEFAULT_EJ_LIMIT_*_MS` over its 24-hour
/// `DEFAULT_EJ_LIMIT_WINDOW_SIZE_MS`) and the daily time of a foreground-service type
/// (`DEFAULT_DATA_SYNC_FGS_TIMEOUT_DURATION`, 6 hours in 24).
///
/// The window rolls, as `QuotaController`'s does: what counts is the time used in the
/// last 24 hours, so an old use ages out bit by bit. `ActiveServices` restarts a type's
/// count 24 hours after its first start instead; the rolling count is never less than
/// that one, the strict reading.
struct DailyBudget: Sendable {
  /// How far back uses count: 24 hours.
  static let window = TraceInterval(.seconds(86_400))

  /// The finished uses that may still count, oldest first.
  private var uses: [(start: TraceTime, end: TraceTime)] = []

  /// What is left of `limit` at `now`, with `running` already used by uses still under
  /// way (not yet charged).
  mutating func left(of limit: Duration, at now: TraceTime, running: Duration = .zero) -> Duration {
    let windowStart = TraceTime(nanoseconds: now.nanoseconds - min(now.nanoseconds, Self.window.nanoseconds))
    uses.removeAll { $0.end <= windowStart }
    var used = running
    for use in uses { used += Self.elapsed(from: max(use.start, windowStart), to: use.end) }
    return limit - used
  }

  /// Charges a use that ran from `since` to `now`.
  mutating func charge(from since: TraceTime, to now: TraceTime) {
    if since < now { uses.append((since, now)) }
  }

  /// The time from `since` to `now` (zero when `since` is later).
  static func elapsed(from since: TraceTime, to now: TraceTime) -> Duration {
    .nanoseconds(Int64(clamping: now.nanoseconds - min(since.nanoseconds, now.nanoseconds)))
  }
}
