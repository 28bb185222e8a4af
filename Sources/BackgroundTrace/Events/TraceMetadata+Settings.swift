/// The `meta` keys whose values mean something to the checker, replay or simulation,
/// each declared once with what its value must be (docs/FORMAT.md, "Settings"). The
/// readers refuse a trace whose setting is malformed, naming its place, so no command
/// holds a trace to a default it did not mean.
extension TraceMetadata {
  /// A `meta` key with a typed value.
  public struct Setting: Sendable {
    /// The key, as written after `meta`.
    public var key: String
    /// What its value must be, as an error message ends: "a number of seconds (such as 30)".
    public var expected: String
    /// Whether a value is one the setting accepts.
    public var accepts: @Sendable (String) -> Bool
  }

  /// Every typed setting: `budget=`, `fgs-deadline=` and `continued-stall=` (seconds),
  /// `android=` (a release's major version), `fgs-exempt=` (standing exemptions).
  public static let settings: [Setting] = [
    Setting(key: "budget", expected: "a number of seconds (such as 30)") {
      TraceInterval(decimalSeconds: $0) != nil
    },
    Setting(key: "android", expected: "an Android release's major version (such as 14)") {
      AndroidRelease(metaValue: $0) != nil
    },
    Setting(key: "fgs-deadline", expected: "a number of seconds (such as 10 or 30)") {
      TraceInterval(decimalSeconds: $0) != nil
    },
    Setting(
      key: "fgs-exempt",
      expected: "standing exemptions joined by + ("
        + BackgroundStartExemption.allCases.map(\.rawValue).joined(separator: ", ") + ")"
    ) { value in
      value.split(separator: "+", omittingEmptySubsequences: false).allSatisfy {
        BackgroundStartExemption(rawValue: String($0)) != nil
      }
    },
    Setting(key: "continued-stall", expected: "a number of seconds (such as 30)") {
      TraceInterval(decimalSeconds: $0) != nil
    },
  ]

  /// What is wrong with the pair `key=value`, in one sentence, or `nil` when `key`
  /// names no setting or `value` is one it accepts.
  public static func problem(key: String, value: String) -> String? {
    guard let setting = settings.first(where: { $0.key == key }), !setting.accepts(value) else { return nil }
    return "meta \(key)=\(value) is not valid: expected \(setting.expected)"
  }

  /// What is wrong with the first malformed setting, or `nil` when every one is valid.
  public var settingsProblem: String? {
    for entry in entries {
      if let problem = Self.problem(key: entry.key, value: entry.value) { return problem }
    }
    return nil
  }
}
