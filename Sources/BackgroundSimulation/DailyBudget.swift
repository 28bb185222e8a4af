import BackgroundTrace

/// Time an Android app may spend on something in a rolling 24 hours: the expedited-work
/// quota (AOSP `QuotaController`, `DEFAULT_EJ_LIMIT_*_MS` per 24 hours) and the daily
/// time of a foreground-service type (`DEFAULT_DATA_SYNC_FGS_TIMEOUT_DURATION`, 6 hours
/// in 24). A window opens with the first use after the previous one closed, at that
/// use's start, and closes 24 hours later; what was used in a closed window no longer
/// counts.
struct DailyBudget: Sendable {
  /// How long a window lasts: 24 hours.
  static let window = TraceInterval(.seconds(86_400))

  /// When the current window opened (`nil`: none yet).
  private var windowStart: TraceTime?
  /// What was used in it, not counting uses still running.
  private var used = Duration.zero

  /// What is left of `limit` at `now`, with `running` already used by uses still under
  /// way (not yet charged).
  mutating func left(of limit: Duration, at now: TraceTime, running: Duration = .zero) -> Duration {
    roll(at: now, openingAt: now)
    return limit - used - running
  }

  /// Charges a use that ran from `since` to `now`.
  mutating func charge(from since: TraceTime, to now: TraceTime) {
    roll(at: now, openingAt: since)
    used += Self.elapsed(from: since, to: now)
  }

  /// The time from `since` to `now` (zero when `since` is later).
  static func elapsed(from since: TraceTime, to now: TraceTime) -> Duration {
    .nanoseconds(Int64(clamping: now.nanoseconds - min(since.nanoseconds, now.nanoseconds)))
  }

  /// Opens a new window at `start` when none is open at `now`.
  private mutating func roll(at now: TraceTime, openingAt start: TraceTime) {
    if let windowStart, now < windowStart + Self.window { return }
    windowStart = start
    used = .zero
  }
}
