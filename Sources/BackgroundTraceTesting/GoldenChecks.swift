public import BackgroundTraceCheck

/// Which checker rules a golden-trace assertion also runs on the actual trace.
public struct GoldenChecks: Sendable, Hashable {
  /// The rules to run.
  public var rules: Set<Rule>
  /// Whether warnings fail too.
  public var strict: Bool

  /// Every rule; warnings do not fail.
  public static let all = GoldenChecks(rules: Set(Rule.allCases))
  /// No rule: only the comparison with the golden counts.
  public static let none = GoldenChecks(rules: [])

  /// Every rule except these (for a test that records a known bug on purpose).
  public static func all(except excluded: Set<Rule>) -> GoldenChecks {
    GoldenChecks(rules: Set(Rule.allCases).subtracting(excluded))
  }

  /// Creates a selection.
  public init(rules: Set<Rule>, strict: Bool = false) {
    self.rules = rules
    self.strict = strict
  }
}
