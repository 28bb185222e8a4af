extension TraceMetadata {
  /// The `meta source=` of a trace imported from an iOS device log (`bgtrace import`).
  public static let iosLogSource = "ios-log"
  /// The `meta source=` of a trace imported from an Android device log.
  public static let androidLogSource = "android-log"
  /// The `meta source=` words of imported logs' traces, whose cuts the checker spares
  /// (docs/rules.md, "Imported logs").
  public static let logSources: Set<String> = [iosLogSource, androidLogSource]
}
