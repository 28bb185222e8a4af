import BackgroundTrace

/// Time an Android app may spend on something in any window of a fixed length: the
/// expedited-work quota (AOSP `QuotaController`, `DEFAULT_EJ_LIMIT_*_MS` over its 24-hour
/// `DEFAULT_EJ_LIMIT_WINDOW_SIZE_MS`), the daily time of a foreground-service type
/// (`DEFAULT_DATA_SYNC_FGS_TIMEOUT_DURATION`, 6 hours in 24), and the regular jobs'
/// execution quota of a standby bucket (``StandbyBucket/jobQuotaWindow``).
///
/// The window rolls, as `QuotaController`'s does: what counts is the time used in the
/// last window, so an old use ages out bit by bit. `ActiveServices` restarts a type's
/// count 24 hours after its first start instead; the rolling count is never less than
/// that one, the strict reading.
struct RollingBudget: Sendable {
  /// A day: the expedited quota's and the foreground-service types' window.
  static let day = TraceInterval(.seconds(86_400))

  /// How far back uses count; the job quota's follows the app's standby bucket.
  var window: TraceInterval
  /// The finished uses that may still count, oldest first.
  private var uses: [(start: TraceTime, end: TraceTime)] = []

  /// How far back uses are kept, at least the window: the job quota's keeps a day, the
  /// longest bucket's window, so that a move to a longer window still counts the uses
  /// in it (`QuotaController` keeps its timing sessions for `MAX_PERIOD_MS`, 24 hours).
  let kept: TraceInterval

  /// A budget over `window` (a day by default), keeping uses for `kept` (the window by
  /// default).
  init(window: TraceInterval = Self.day, kept: TraceInterval? = nil) {
    self.window = window
    self.kept = kept ?? window
  }

  /// What is left of `limit` at `now`, with `running` already used by uses still under
  /// way (not yet charged).
  mutating func left(of limit: Duration, at now: TraceTime, running: Duration = .zero) -> Duration {
    let keptFrom = TraceTime(nanoseconds: now.nanoseconds - min(now.nanoseconds, max(window, kept).nanoseconds))
    uses.removeAll { $0.end <= keptFrom }
    return limit - used(at: now) - running
  }

  /// The first time from `now` on at which at least `needed` of `limit` is left, with
  /// no new use: the finished uses age out of the window bit by bit.
  func firstTime(withLeft needed: Duration, of limit: Duration, from now: TraceTime) -> TraceTime {
    var low = now.nanoseconds
    var high = now.nanoseconds + window.nanoseconds
    guard limit - used(at: now) < needed else { return now }
    while low < high {
      let middle = low + (high - low) / 2
      if limit - used(at: TraceTime(nanoseconds: middle)) >= needed { high = middle } else { low = middle + 1 }
    }
    return TraceTime(nanoseconds: high)
  }

  /// Charges a use that ran from `since` to `now`.
  mutating func charge(from since: TraceTime, to now: TraceTime) {
    if since < now { uses.append((since, now)) }
  }

  /// The time from `since` to `now` (zero when `since` is later).
  static func elapsed(from since: TraceTime, to now: TraceTime) -> Duration {
    .nanoseconds(Int64(clamping: now.nanoseconds - min(since.nanoseconds, now.nanoseconds)))
  }

  private func windowStart(at now: TraceTime) -> TraceTime {
    TraceTime(nanoseconds: now.nanoseconds - min(now.nanoseconds, window.nanoseconds))
  }

  /// The finished uses' time inside the window that ends at `now`.
  private func used(at now: TraceTime) -> Duration {
    let start = windowStart(at: now)
    var used = Duration.zero
    for use in uses where use.end > start { used += Self.elapsed(from: max(use.start, start), to: min(use.end, now)) }
    return used
  }
}
