/// A span of trace time: how long something lasts or waits (`delay=`, `period=`, a
/// budget, a backoff), as opposed to a ``TraceTime``, which is a point on a trace's
/// timeline.
///
/// The two types do not mix by accident: a point plus a span is a point
/// (``TraceTime/+(_:_:)``), the distance between two points is a span
/// (``TraceTime/interval(since:)``), and two points cannot be added. Like
/// ``TraceTime``, a span is a whole number of nanoseconds, at most `Int64.max`, and is
/// written in decimal seconds (`30`, `0.5`).
public struct TraceInterval: Sendable, Hashable, Comparable, Codable {
  /// The longest representable span: `Int64.max` nanoseconds (about 292 years).
  public static let max = TraceInterval(nanoseconds: UInt64(Int64.max))

  /// No time at all.
  public static let zero = TraceInterval(nanoseconds: 0)

  /// The span in nanoseconds; at most `Int64.max`.
  public var nanoseconds: UInt64

  /// Creates a span of `nanoseconds`.
  public init(nanoseconds: UInt64) {
    self.nanoseconds = nanoseconds
  }

  /// Creates a span of whole milliseconds.
  public init(milliseconds: UInt64) {
    self.nanoseconds = milliseconds * 1_000_000
  }

  /// Creates a span from seconds, rounded to the nearest nanosecond.
  ///
  /// Negative and non-finite values are clamped to ``zero`` and ``max``.
  public init(seconds: Double) {
    self.nanoseconds = TraceTime(seconds: seconds).nanoseconds
  }

  /// Creates a span from a `Duration` (a negative duration becomes ``zero``, one
  /// beyond ``max`` becomes ``max``).
  public init(_ duration: Duration) {
    self.nanoseconds = TraceTime(duration).nanoseconds
  }

  /// Parses decimal seconds, as in a trace's `delay=30`.
  ///
  /// - Returns: the span, or `nil` when the text is not a non-negative decimal with at
  ///   most nine fractional digits that fits in ``max``.
  public init?(decimalSeconds text: some StringProtocol) {
    guard let point = TraceTime(decimalSeconds: text) else { return nil }
    self.nanoseconds = point.nanoseconds
  }

  /// The span in seconds, as a `Double` (for display and arithmetic, not for storage).
  public var seconds: Double { Double(nanoseconds) / 1e9 }

  /// The span as a Swift `Duration`.
  public var duration: Duration { .nanoseconds(Int64(nanoseconds)) }

  /// Whether `lhs` is shorter than `rhs`.
  public static func < (lhs: TraceInterval, rhs: TraceInterval) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }

  /// The two spans one after the other, saturating at ``max``.
  public static func + (lhs: TraceInterval, rhs: TraceInterval) -> TraceInterval {
    TraceInterval(nanoseconds: TraceTime(nanoseconds: lhs.nanoseconds).adding(nanoseconds: rhs.nanoseconds).nanoseconds)
  }

  /// How much longer `lhs` is than `rhs`; ``zero`` when it is not longer.
  public static func - (lhs: TraceInterval, rhs: TraceInterval) -> TraceInterval {
    TraceInterval(nanoseconds: lhs.nanoseconds > rhs.nanoseconds ? lhs.nanoseconds - rhs.nanoseconds : 0)
  }
}

extension TraceInterval: CustomStringConvertible {
  /// Decimal seconds, spelled as ``TraceTime`` spells them (`30`, `0.5`).
  public var description: String { TraceTime(nanoseconds: nanoseconds).description }
}

extension TraceTime {
  /// The point `interval` later, saturating at ``max``.
  public static func + (time: TraceTime, interval: TraceInterval) -> TraceTime {
    time.adding(nanoseconds: interval.nanoseconds)
  }

  /// The point `interval` earlier, stopping at ``zero``.
  public static func - (time: TraceTime, interval: TraceInterval) -> TraceTime {
    TraceTime(nanoseconds: time.nanoseconds > interval.nanoseconds ? time.nanoseconds - interval.nanoseconds : 0)
  }

  /// How long after `earlier` this time is; ``TraceInterval/zero`` when it is not after it.
  public func interval(since earlier: TraceTime) -> TraceInterval {
    TraceInterval(nanoseconds: nanoseconds > earlier.nanoseconds ? nanoseconds - earlier.nanoseconds : 0)
  }

  /// The time since the trace started, as a span.
  public var sinceStart: TraceInterval { TraceInterval(nanoseconds: nanoseconds) }
}
