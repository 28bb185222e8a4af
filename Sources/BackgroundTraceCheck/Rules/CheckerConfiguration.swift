public import BackgroundTrace

/// What the checker assumes where the trace does not say.
public struct CheckerConfiguration: Sendable, Hashable {
  /// The attempt limit for work whose enqueue declares none; `nil` checks no limit
  /// for such work (WorkManager itself has no retry cap).
  public var defaultRetryLimit: Int?
  /// The background budget; `nil` takes the trace's `meta budget=`, else 30 s.
  public var budget: TraceInterval?
  /// How long after an expiration a task or run may still end: 1 s by default.
  public var grace: TraceInterval
  /// The rules to run.
  public var rules: Set<Rule>
  /// How many finished works the checker remembers, by generations of this many
  /// (``/_BackgroundTraceStorage/RecentSet``); `nil`: every one, as a trace's check
  /// does. A log watched as it is written (`bgtrace watch`) bounds it, so that memory
  /// stays flat on an endless stream; a work seen again after it was forgotten is then
  /// taken for a new one.
  package var finishedWorkMemory: Int?

  /// The default budget: 30 s, as on iOS 13 and later.
  public static let defaultBudget = TraceMetadata.defaultBudget

  /// Creates a configuration.
  public init(
    defaultRetryLimit: Int? = nil, budget: TraceInterval? = nil,
    grace: TraceInterval = TraceInterval(nanoseconds: 1_000_000_000), rules: Set<Rule> = Set(Rule.allCases)
  ) {
    self.defaultRetryLimit = defaultRetryLimit
    self.budget = budget
    self.grace = grace
    self.rules = rules
  }

  /// The budget for a trace with this metadata: the override, else `meta budget=`, else 30 s.
  public func budget(for meta: TraceMetadata) -> TraceInterval {
    budget ?? meta.budget
  }
}
