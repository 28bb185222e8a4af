/// A point on a trace's timeline: nanoseconds since the trace started.
///
/// Times in a trace never decrease. The text form writes them as decimal
/// seconds with at most nine fractional digits (`12.5`, `0`, `0.000000001`).
public struct TraceTime: Sendable, Hashable, Comparable, Codable {
  /// The largest representable time: `Int64.max` nanoseconds (about 292 years).
  public static let max = TraceTime(nanoseconds: UInt64(Int64.max))

  /// The start of the trace.
  public static let zero = TraceTime(nanoseconds: 0)

  /// Nanoseconds since the trace started; at most `Int64.max`.
  public var nanoseconds: UInt64

  /// Creates a time from nanoseconds since the trace started.
  public init(nanoseconds: UInt64) {
    self.nanoseconds = nanoseconds
  }

  /// Creates a time from whole milliseconds since the trace started.
  public init(milliseconds: UInt64) {
    self.nanoseconds = milliseconds * 1_000_000
  }

  /// Creates a time from a number of seconds, rounded to the nearest nanosecond.
  ///
  /// Negative and non-finite values are clamped to ``zero`` and ``max``.
  public init(seconds: Double) {
    guard seconds.isFinite else {
      self = seconds > 0 ? .max : .zero
      return
    }
    let nanos = (seconds * 1e9).rounded()
    if nanos <= 0 {
      self = .zero
    } else if nanos >= Double(Int64.max) {
      self = .max
    } else {
      self.nanoseconds = UInt64(nanos)
    }
  }

  /// The time in seconds, as a `Double` (for display and arithmetic, not for storage).
  public var seconds: Double { Double(nanoseconds) / 1e9 }

  /// The time as a Swift `Duration` since the trace started.
  public var duration: Duration { .nanoseconds(Int64(nanoseconds)) }

  /// Whether `lhs` is earlier than `rhs` on the trace's timeline.
  public static func < (lhs: TraceTime, rhs: TraceTime) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }

  /// The time `seconds` later, saturating at ``max``.
  public func adding(nanoseconds delta: UInt64) -> TraceTime {
    let (sum, overflow) = nanoseconds.addingReportingOverflow(delta)
    return overflow || sum > TraceTime.max.nanoseconds ? .max : TraceTime(nanoseconds: sum)
  }
}

extension TraceTime: CustomStringConvertible {
  /// The canonical decimal-seconds spelling: no exponent, no trailing zeros, `0` for zero.
  public var description: String {
    let whole = nanoseconds / 1_000_000_000
    var fraction = nanoseconds % 1_000_000_000
    guard fraction != 0 else { return String(whole) }
    var digits = 9
    while fraction % 10 == 0 {
      fraction /= 10
      digits -= 1
    }
    let fractionText = String(fraction)
    let padding = String(repeating: "0", count: digits - fractionText.count)
    return "\(whole).\(padding)\(fractionText)"
  }
}

extension TraceTime {
  /// Parses canonical or non-canonical decimal seconds (`12`, `12.50`, `0.000000001`).
  ///
  /// - Returns: the time, or `nil` when the text is not a non-negative decimal with at
  ///   most nine fractional digits that fits in ``max``.
  public init?(decimalSeconds text: some StringProtocol) {
    guard let value = Self.parse(utf8: Array(text.utf8)[...]) else { return nil }
    self = value
  }

  /// Parses decimal seconds from UTF-8 bytes; `nil` when malformed or out of range.
  static func parse(utf8 bytes: ArraySlice<UInt8>) -> TraceTime? {
    var whole: UInt64 = 0
    var index = bytes.startIndex
    var sawDigit = false
    while index < bytes.endIndex, bytes[index] != UInt8(ascii: ".") {
      let digit = bytes[index] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      let (times10, o1) = whole.multipliedReportingOverflow(by: 10)
      let (next, o2) = times10.addingReportingOverflow(UInt64(digit))
      guard !o1, !o2, next <= UInt64(Int64.max) / 1_000_000_000 else { return nil }
      whole = next
      sawDigit = true
      index += 1
    }
    guard sawDigit else { return nil }
    var fraction: UInt64 = 0
    var fractionDigits = 0
    if index < bytes.endIndex {
      index += 1  // the point
      guard index < bytes.endIndex else { return nil }  // "12." has no fraction
      while index < bytes.endIndex {
        let digit = bytes[index] &- UInt8(ascii: "0")
        guard digit < 10, fractionDigits < 9 else { return nil }
        fraction = fraction * 10 + UInt64(digit)
        fractionDigits += 1
        index += 1
      }
      for _ in fractionDigits..<9 { fraction *= 10 }
    }
    let (total, overflow) = (whole * 1_000_000_000).addingReportingOverflow(fraction)
    guard !overflow, total <= UInt64(Int64.max) else { return nil }
    return TraceTime(nanoseconds: total)
  }
}
