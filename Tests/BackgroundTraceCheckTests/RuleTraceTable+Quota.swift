import BackgroundTraceCheck

extension RuleTraceTable {
  /// `work-period-outpaced` (docs/rules.md): AOSP `QuotaController` holds an app's
  /// regular jobs once its standby bucket's quota (10 minutes per window; 24 hours in
  /// `rare`) is spent, so a periodic request can wait longer than its period.
  static let quotaCases: [TraceCase] = [
    TraceCase(
      file: "work-period-outpaced.fires.txt",
      expected: [
        finding(
          .workPeriodOutpaced, line: 11, at: "86400 work.start work=sync attempt=0",
          "periodic work sync (every 900s) waited 84899.9s for its standby bucket's job quota",
          "cannot keep its period")
      ]),
    TraceCase(file: "work-period-outpaced.near-miss.txt", expected: []),
  ]
}
