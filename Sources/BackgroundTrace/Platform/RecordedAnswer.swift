/// System answers an app reads synchronously that a replay must give back exactly as
/// the recorded run got them, faults and device quirks included. They are stored as
/// `input` events with a reserved `system.` key (docs/platform-model.md#replay).
package enum RecordedAnswer {
  /// `backgroundTimeRemaining`, in seconds; `foreground` while it is unlimited
  /// (`Double.greatestFiniteMagnitude`).
  package static let backgroundTimeRemaining = "system.backgroundTimeRemaining"

  /// `UIApplication.backgroundRefreshStatus`: `available`, `denied`, `restricted` (or
  /// `unknown` for a status this package does not know).
  package static let backgroundRefreshStatus = "system.backgroundRefreshStatus"

  /// The spelling of an unlimited remaining time.
  static let unlimited = "foreground"

  /// The event that records one read of `backgroundTimeRemaining`.
  package static func backgroundTimeRemainingRead(_ seconds: Double) -> TraceEvent.Kind {
    .input(key: backgroundTimeRemaining, value: value(ofRemaining: seconds))
  }

  /// The `input` value for a remaining time: decimal seconds to the nanosecond, or
  /// `foreground` when unlimited.
  static func value(ofRemaining seconds: Double) -> String {
    guard seconds < TraceTime.max.seconds else { return unlimited }
    return TraceInterval(seconds: seconds).description
  }

  /// The remaining time an `input` value spells; `nil` when it spells none.
  package static func remaining(from value: String) -> Double? {
    if value == unlimited { return .greatestFiniteMagnitude }
    return TraceInterval(decimalSeconds: value)?.seconds
  }
}
