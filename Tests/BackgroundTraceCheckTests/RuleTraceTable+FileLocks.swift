import BackgroundTraceCheck

extension RuleTraceTable {
  /// `file-locked-at-suspension` (docs/rules.md): iOS terminates an app suspended while
  /// it holds a file lock (`0xdead10cc`, Apple's "Understanding the exception types in a
  /// crash report").
  static let fileLockCases: [TraceCase] = [
    TraceCase(
      file: "file-locked-at-suspension.fires.txt",
      expected: [
        finding(
          .fileLockedAtSuspension, line: 12, at: "14 app.state to=suspended",
          "holding the lock it took at 11s on /AppGroup/drafts.sqlite (in a shared container)", "0xdead10cc")
      ]),
    TraceCase(file: "file-locked-at-suspension.near-miss.txt", expected: []),
  ]
}
