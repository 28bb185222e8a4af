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

  /// Charges a use that ran from `since` to `now`.
  mutating func charge(from since: TraceTime, to now: TraceTime) {
    if since < now { uses.append((since, now)) }
  }

  /// Pays back up to `credit` of the time used, the latest uses first (each shortened at
  /// its start), and returns what was left over. As `QuotaController`'s
  /// `ShrinkableDebits`, the debit never goes below zero, and a credit taken off the
  /// later uses still counts when an older use ages out. Where AOSP takes a session off
  /// the debit whole once it has left the window, the model ages a use out bit by bit,
  /// as it does every use (the strict reading).
  mutating func forgive(_ credit: Duration) -> Duration {
    var left = credit
    while left > .zero, let last = uses.last {
      let length = Self.elapsed(from: last.start, to: last.end)
      if length <= left {
        left -= length
        uses.removeLast()
      } else {
        uses[uses.count - 1].start = last.start + TraceInterval(left)
        left = .zero
      }
    }
    return left
  }

  /// The time used in the `window` that ends at `time` (``window`` by default), as it
  /// stands with no new use.
  func used(in window: TraceInterval? = nil, at time: TraceTime) -> Duration {
    let start = TraceTime(nanoseconds: time.nanoseconds - min(time.nanoseconds, (window ?? self.window).nanoseconds))
    var used = Duration.zero
    for use in uses where use.end > start {
      used += Self.elapsed(from: max(use.start, start), to: min(use.end, time))
    }
    return used
  }

  /// The uses that ended in the window that ends at `time`, those less than `coalescing`
  /// apart counted as one (QuotaController's timing sessions).
  func sessions(in window: TraceInterval, at time: TraceTime, coalescing: Duration) -> [TraceTime] {
    let start = TraceTime(nanoseconds: time.nanoseconds - min(time.nanoseconds, window.nanoseconds))
    var ends: [TraceTime] = []
    var previousEnd: TraceTime?
    for use in uses where use.end > start {
      if let previousEnd, Self.elapsed(from: previousEnd, to: use.start) <= coalescing {
        ends[ends.count - 1] = use.end
      } else {
        ends.append(use.end)
      }
      previousEnd = use.end
    }
    return ends
  }

  /// The time from `since` to `now` (zero when `since` is later).
  static func elapsed(from since: TraceTime, to now: TraceTime) -> Duration {
    .nanoseconds(Int64(clamping: now.nanoseconds - min(since.nanoseconds, now.nanoseconds)))
  }

}
