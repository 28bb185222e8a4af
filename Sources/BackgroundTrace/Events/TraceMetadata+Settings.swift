/// The `meta` keys whose values mean something to the checker, replay or simulation,
/// each declared once with how its value is read (docs/FORMAT.md, "Settings"). The
/// accessors (``TraceMetadata/budget``, ``TraceMetadata/androidRelease`` …) read through
/// that declaration, and the readers refuse a trace whose setting it does not read,
/// naming its place, so no command holds a trace to a default it did not mean.
extension TraceMetadata {
  /// A `meta` key with a typed value.
  public struct Setting<Value>: Sendable {
    /// The key, as written after `meta`.
    public let key: String
    /// What its value must be, as an error message ends: "a number of seconds (such as 30)".
    public let expected: String
    /// The value `text` stands for, or `nil` when it stands for none.
    public let read: @Sendable (String) -> Value?
  }

  /// A setting's key and what it accepts, whatever its value's type: what the readers check.
  public struct SettingRule: Sendable {
    /// The key, as written after `meta`.
    public let key: String
    /// What its value must be.
    public let expected: String
    /// Whether a value is one the setting reads.
    public let accepts: @Sendable (String) -> Bool

    init<Value>(_ setting: Setting<Value>) {
      key = setting.key
      expected = setting.expected
      let read = setting.read
      accepts = { read($0) != nil }
    }
  }

  /// `budget=`: the background budget, in seconds.
  public static let budgetSetting = Setting<TraceInterval>(
    key: "budget", expected: "a number of seconds (such as 30)", read: { TraceInterval(decimalSeconds: $0) })
  /// `android=`: the Android release, its major version.
  public static let androidSetting = Setting<AndroidRelease>(
    key: "android", expected: "an Android release's major version (such as 14)", read: { AndroidRelease(metaValue: $0) }
  )
  /// `fgs-deadline=`: how long after `fgs.start` the checker expects `fgs.foreground`, in seconds.
  public static let foregroundServiceDeadlineSetting = Setting<TraceInterval>(
    key: "fgs-deadline", expected: "a number of seconds (such as 10 or 30)",
    read: { TraceInterval(decimalSeconds: $0) })
  /// `fgs-exempt=`: the standing background-start exemptions, joined by `+`.
  public static let backgroundStartExemptionsSetting = Setting<Set<BackgroundStartExemption>>(
    key: "fgs-exempt",
    expected: "standing exemptions joined by + ("
      + BackgroundStartExemption.allCases.map(\.rawValue).joined(separator: ", ") + ")",
    read: { value in
      var exemptions = Set<BackgroundStartExemption>()
      for word in value.split(separator: "+", omittingEmptySubsequences: false) {
        guard let exemption = BackgroundStartExemption(rawValue: String(word)) else { return nil }
        exemptions.insert(exemption)
      }
      return exemptions
    })
  /// `continued-stall=`: how long a continued-processing run may go without progress, in seconds.
  public static let continuedStallSetting = Setting<TraceInterval>(
    key: "continued-stall", expected: "a number of seconds (such as 30)", read: { TraceInterval(decimalSeconds: $0) })

  /// `launch-enters-background=`: whether UIKit calls `applicationDidEnterBackground`
  /// when it launches the app straight into the background (docs/platform-model.md,
  /// "Background launch"); absent, it does.
  public static let launchEntersBackgroundSetting = Setting<Bool>(
    key: "launch-enters-background", expected: "true or false",
    read: { $0 == "true" ? true : $0 == "false" ? false : nil })

  /// Every typed setting, as the readers check them.
  public static let settings: [SettingRule] = [
    SettingRule(budgetSetting), SettingRule(androidSetting), SettingRule(foregroundServiceDeadlineSetting),
    SettingRule(backgroundStartExemptionsSetting), SettingRule(continuedStallSetting),
    SettingRule(launchEntersBackgroundSetting),
  ]

  /// Whether a launch straight into the background calls the app delegate's
  /// `applicationDidEnterBackground` (`meta launch-enters-background=`): Apple's
  /// documented sequence, and the default, says it does.
  public var launchEntersBackground: Bool { self[Self.launchEntersBackgroundSetting] ?? true }

  /// The value of `setting` in this metadata, or `nil` when it is absent (or, in
  /// metadata no reader checked, malformed).
  public subscript<Value>(setting: Setting<Value>) -> Value? {
    self[setting.key].flatMap(setting.read)
  }

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
