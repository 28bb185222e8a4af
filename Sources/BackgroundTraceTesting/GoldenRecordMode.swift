/// When a golden-trace assertion writes the golden file.
public enum GoldenRecordMode: String, Sendable, Hashable, CaseIterable {
  /// Never write: a missing golden fails (the default when `CI` is set).
  case never
  /// Write a golden that does not exist yet, and fail so it gets reviewed (the local default).
  case missing
  /// Also rewrite a golden that does not match, and fail showing the diff.
  case failed
  /// Rewrite every golden, and fail so the changes get reviewed.
  case all

  /// The mode from `BGTRACE_RECORD`, else `never` when `CI` is set, else `missing`.
  ///
  /// An empty `BGTRACE_RECORD` counts as unset; `CI` counts as set unless it is empty,
  /// `0` or `false`, so CI never records unless `BGTRACE_RECORD` says so.
  ///
  /// - Parameter environment: the variables to read (the process's by default).
  /// - Throws: ``GoldenEnvironmentError`` when `BGTRACE_RECORD` names no mode.
  public static func fromEnvironment(_ environment: [String: String]) throws(GoldenEnvironmentError)
    -> GoldenRecordMode
  {
    if let value = environment["BGTRACE_RECORD"], !value.isEmpty {
      guard let mode = GoldenRecordMode(rawValue: value) else {
        let allowed = allCases.map(\.rawValue).joined(separator: ", ")
        throw GoldenEnvironmentError(
          variable: "BGTRACE_RECORD", message: "is '\(value)'; it takes one of \(allowed)")
      }
      return mode
    }
    if let ci = environment["CI"], !ci.isEmpty, ci != "0", ci.lowercased() != "false" {
      return .never
    }
    return .missing
  }
}
