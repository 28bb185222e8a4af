public import BackgroundTrace

/// One problem the checker found: which rule, where, when, and a message that names
/// the identifier and the earlier event involved.
public struct Finding: Sendable, Hashable {
  /// The rule that fired.
  public var rule: Rule
  /// Where it shows: the line (text input) or 1-based event number (binary input).
  public var location: Int
  /// The trace time of the event where it shows.
  public var time: TraceTime
  /// One line naming the identifier and the earlier event involved.
  public var message: String

  /// The rule's severity.
  public var severity: Severity { rule.severity }

  /// Creates a finding.
  public init(rule: Rule, location: Int, time: TraceTime, message: String) {
    self.rule = rule
    self.location = location
    self.time = time
    self.message = message
  }

  /// The compiler-style line: `PATH:LOCATION: SEVERITY: MESSAGE [RULE-ID]`.
  public func line(path: String) -> String {
    "\(path):\(location): \(severity.rawValue): \(message) [\(rule.id)]"
  }
}

extension TraceTime {
  /// The time as the checker prints it: canonical seconds with an `s` (`42.5s`).
  var seconds: String { "\(self)s" }
}

extension TraceInterval {
  /// The span as the checker prints it: canonical seconds with an `s` (`30s`).
  var seconds: String { "\(self)s" }
}
