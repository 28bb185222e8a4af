extension TraceRecorder {
  /// Records that the user did something that starts background work (tapped "Save"),
  /// as `mark label=user:<action>`, so a replay of the trace calls
  /// ``BackgroundAppDelegate/perform(userAction:)`` with `action` at the same point.
  ///
  /// Call it where the app handles the action, before starting the work:
  ///
  /// ```swift
  /// @IBAction func saveTapped() {
  ///   recorder?.recordUserAction("save")
  ///   appDelegate.perform(userAction: "save")
  /// }
  /// ```
  public func recordUserAction(_ action: String) {
    record(.mark(label: userActionMarkPrefix + action))
  }
}
