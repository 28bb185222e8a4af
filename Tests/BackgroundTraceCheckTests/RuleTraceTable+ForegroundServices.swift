import BackgroundTraceCheck

extension RuleTraceTable {
  /// Android foreground-service rules (docs/rules.md, `fgs-*`), each worked out by hand
  /// from the trace's comment block and the AOSP constant it names.
  static let foregroundServiceCases: [TraceCase] = [
    TraceCase(
      file: "fgs-not-promoted.fires.txt",
      expected: [
        finding(
          .fgsNotPromoted, line: 9, at: "13 fgs.foreground service=sync type=dataSync",
          "service sync (started at 1s) did not call startForeground within 10s")
      ]),
    TraceCase(
      file: "fgs-not-promoted.fires-stopped-first.txt",
      expected: [
        finding(
          .fgsNotPromoted, line: 10, at: "3 fgs.stop service=sync",
          "service sync (started at 1s) was stopped before it called startForeground")
      ]),
    TraceCase(
      file: "fgs-not-promoted.fires-meta-deadline.txt",
      expected: [
        finding(.fgsNotPromoted, line: 7, at: "7 fgs.foreground service=sync", "did not call startForeground within 5s")
      ]),
    TraceCase(
      file: "fgs-not-promoted.fires-anr.txt",
      expected: [
        finding(.fgsNotPromoted, line: 10, at: "41 app.terminate reason=anr", "within 10s", "an ANR")
      ]),
    TraceCase(file: "fgs-not-promoted.near-miss.txt", expected: []),
    TraceCase(file: "fgs-not-promoted.near-miss-meta-deadline.txt", expected: []),
    TraceCase(
      file: "fgs-timeout-ignored.fires.txt",
      expected: [
        finding(
          .fgsTimeoutIgnored, line: 13, at: "21612 fgs.stop service=sync",
          "service sync did not stop within 10s of its onTimeout at 21601.5s")
      ]),
    TraceCase(
      file: "fgs-timeout-ignored.fires-crash.txt",
      expected: [
        finding(
          .fgsTimeoutIgnored, line: 10, at: "191.5 app.terminate reason=crash", "onTimeout at 181.5s",
          "ForegroundServiceDidNotStopInTimeException")
      ]),
    TraceCase(file: "fgs-timeout-ignored.near-miss.txt", expected: []),
    TraceCase(
      file: "fgs-started-in-background.fires.txt",
      expected: [
        finding(
          .fgsStartedInBackground, line: 10, at: "10 fgs.start service=sync",
          "service sync was started while the app was in the background on android 12")
      ]),
    TraceCase(
      file: "fgs-started-in-background.fires-launched-in-background.txt",
      expected: [
        finding(
          .fgsStartedInBackground, line: 9, at: "1 fgs.start service=upload", "in the background on android 14")
      ]),
    TraceCase(file: "fgs-started-in-background.near-miss.txt", expected: []),
    TraceCase(file: "fgs-started-in-background.near-miss-exemptions.txt", expected: []),
    TraceCase(
      file: "fgs-untyped.fires.txt",
      expected: [
        finding(
          .fgsUntyped, line: 8, at: "1.5 fgs.foreground service=player",
          "startForeground without a type on android 14")
      ]),
    TraceCase(
      file: "fgs-untyped.fires-current-release.txt",
      expected: [finding(.fgsUntyped, line: 7, at: "1.5 fgs.foreground service=player", "on android 16")]),
    TraceCase(file: "fgs-untyped.near-miss.txt", expected: []),
    TraceCase(file: "fgs-untyped.near-miss-typed.txt", expected: []),
  ]
}
