import BackgroundTraceCheck
import Testing

/// docs/rules.md, "Backoff": after a stopped attempt the next one waits until androidx's
/// lastEnqueueTime plus its backoff (androidx `WorkerWrapper.resetWorkerStatus` keeps
/// lastEnqueueTime; `WorkSpec.calculateNextRunTime` adds the backoff).
@Suite struct BackoffAfterStopTests {
  static let cases = [
    TraceCase(
      file: "work-backoff-early.fires-after-stop.txt",
      expected: [
        finding(
          .workBackoffEarly, line: 12, at: "41 work.start work=sync attempt=2", "work sync attempt 2",
          "started at 41s", "stopped; last enqueued at 2s + 60s = 62s")
      ]),
    TraceCase(file: "work-backoff-early.near-miss-after-stop.txt", expected: []),
  ]

  @Test(arguments: cases)
  func startAfterAStoppedAttemptWaitsForItsBackoff(_ trace: TraceCase) throws {
    let findings = try TraceFiles.check(trace.file)
    expectFindings(findings, match: trace.expected, in: trace.file)
  }
}
