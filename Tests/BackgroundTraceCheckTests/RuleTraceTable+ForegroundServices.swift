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
      file: "fgs-started-in-background.fires-overlay-android-15.txt",
      expected: [
        finding(
          .fgsStartedInBackground, line: 10, at: "3600 fgs.start service=sync", "in the background on android 15")
      ]),
    TraceCase(file: "fgs-started-in-background.near-miss-standing-exemption.txt", expected: []),
    TraceCase(file: "fgs-started-in-background.near-miss-allowlist.txt", expected: []),
    TraceCase(
      file: "fgs-started-in-background.fires-after-allowlist.txt",
      expected: [
        finding(
          .fgsStartedInBackground, line: 11, at: "110 fgs.start service=sync", "in the background on android 14")
      ]),
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
    TraceCase(
      file: "fgs-budget-exhausted.fires.txt",
      expected: [
        finding(
          .fgsBudgetExhausted, line: 18, at: "25200.5 fgs.refuse service=sync reason=exhausted",
          "service sync was refused: its type's daily time is spent")
      ]),
    TraceCase(file: "fgs-budget-exhausted.near-miss.txt", expected: []),
    // Android 15, "Restrictions on BOOT_COMPLETED broadcast receivers launching foreground
    // services"; AOSP ActiveServices.shouldAllowBootCompletedStart.
    TraceCase(
      file: "fgs-boot-completed-type.fires.txt",
      expected: [
        finding(
          .fgsBootCompletedType, line: 13, at: "0.1 fgs.refuse service=sync reason=boot-completed",
          "service sync was refused the foreground: it was started from BOOT_COMPLETED", "android 15 bars there")
      ]),
    TraceCase(file: "fgs-boot-completed-type.near-miss.txt", expected: []),
    // Android 14, "Foreground service types are required"; AOSP
    // ActiveServices.validateForegroundServiceType.
    TraceCase(
      file: "fgs-missing-permission.fires.txt",
      expected: [
        finding(
          .fgsMissingPermission, line: 11, at: "5.1 fgs.refuse service=upload reason=permission",
          "service upload was refused the foreground", "FOREGROUND_SERVICE_* permission")
      ]),
    TraceCase(file: "fgs-missing-permission.near-miss.txt", expected: []),
    // developer.android.com, "Restrictions on starting foreground services that need
    // while-in-use permissions" (Android 14).
    TraceCase(
      file: "fgs-while-in-use-from-background.fires.txt",
      expected: [
        finding(
          .fgsWhileInUseFromBackground, line: 13, at: "90.1 fgs.refuse service=tracker reason=while-in-use",
          "service tracker was refused the foreground", "only while in use")
      ]),
    TraceCase(file: "fgs-while-in-use-from-background.near-miss.txt", expected: []),
    TraceCase(
      file: "work-foreground-refused.fires.txt",
      expected: [
        finding(
          .workForegroundRefused, line: 14, at: "61.5 work.foreground work=upload attempt=0",
          "work upload attempt 0 called setForeground while the app was in the background on android 12",
          "stopped at its job time limit")
      ]),
    TraceCase(
      file: "work-foreground-refused.fires-no-type.txt",
      expected: [
        finding(
          .workForegroundRefused, line: 12, at: "1.1 work.refuse work=upload attempt=0 reason=no-type",
          "has no type", "MissingForegroundServiceTypeException, which crashes the app")
      ]),
    TraceCase(
      file: "work-foreground-refused.fires-exhausted.txt",
      expected: [
        finding(
          .workForegroundRefused, line: 12, at: "100 work.refuse work=upload attempt=0 reason=exhausted",
          "daily time is spent", "Unable to start foreground service")
      ]),
    TraceCase(file: "work-foreground-refused.near-miss.txt", expected: []),
    TraceCase(file: "work-foreground-refused.near-miss-exemptions.txt", expected: []),
    TraceCase(file: "work-foreground-refused.near-miss-android-11.txt", expected: []),
    TraceCase(file: "work-foreground-refused.near-miss-allowlist.txt", expected: []),
    TraceCase(
      file: "work-expedited-dropped.fires.txt",
      expected: [
        finding(
          .workExpeditedDropped, line: 9, at: "1 work.quota work=sync policy=drop",
          "expedited work sync was dropped", "never runs")
      ]),
    TraceCase(file: "work-expedited-dropped.near-miss.txt", expected: []),
    TraceCase(
      file: "work-expedited-demoted.fires.txt",
      expected: [
        finding(
          .workExpeditedDemoted, line: 9, at: "1 work.quota work=sync policy=run-as-regular",
          "expedited work sync was enqueued as regular work")
      ]),
    TraceCase(
      file: "work-expedited-demoted.fires-stopped.txt",
      expected: [
        finding(
          .workExpeditedDemoted, line: 9, at: "301.1 work.stop work=sync attempt=0 reason=quota",
          "attempt 0 was stopped when the app's expedited quota ran out")
      ]),
    TraceCase(file: "work-expedited-demoted.near-miss.txt", expected: []),
  ]
}
