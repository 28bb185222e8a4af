import BackgroundTrace

/// Android's foreground services and workers promoted to the foreground: what
/// `fgs.*` and `work.foreground` change (docs/rules.md, "Foreground services").
extension LifecycleWalker {
  /// Applies a foreground-service event (`fgs.*`, `work.foreground`).
  mutating func applyForegroundService(_ kind: TraceEvent.Kind, into observer: inout some LifecycleObserver) {
    // Read without judging yet.
  }
}
