import BackgroundTraceCheck
import Testing

@Suite struct BackoffAfterStopTests {
  static let afterStop = TraceCase(file: "work-backoff-early.near-miss-after-stop.txt", expected: [])

  /// docs/rules.md: "`work.start attempt=K` (K ≥ 1) before the previous attempt's result time
  /// plus the backoff delay" and "Backoff is checked only after a `retry` result."
  /// Attempt 1 was stopped (`work.stop`), so attempt 2 follows no retry result and has
  /// no backoff to wait for.
  @Test func startAfterAStoppedAttemptHasNoBackoffToCheck() throws {
    let findings = try TraceFiles.check(Self.afterStop.file)
    expectFindings(findings, match: Self.afterStop.expected, in: Self.afterStop.file)
  }
}
