import BackgroundTraceCheck
import Testing

/// The bugs and the correct patterns of common background-task tutorials' code samples, as traces.
@Suite("Seed patterns")
struct SeedTraceTests {
  static let cases: [TraceCase] = [
    // DocumentManager: the expiration handler ends the task and resets the id to
    // .invalid; the save finishing later ends .invalid again.
    TraceCase(
      file: "seeds/document-manager-ends-invalid.txt",
      expected: [finding(.taskUnknownEnd, line: 14, at: "40.4 task.end id=0", ".invalid")]),
    TraceCase(file: "seeds/document-manager-guarded.txt", expected: []),

    // sendCriticalData twice, one stored id: task 2 ends twice, task 1 never ends.
    // Its expiration handler ran, so at the watchdog termination it is
    // task-expired-not-ended (not task-leaked), and expiring before the budget
    // deadline means no task-over-budget.
    TraceCase(
      file: "seeds/send-critical-data-twice.txt",
      expected: [
        finding(.taskDoubleEnd, line: 19, at: "35 task.end id=2", "task 2 ended twice (first end at 6s)"),
        finding(
          .taskExpiredNotEnded, line: 20, at: "40 app.terminate reason=watchdog", "task 1 (\"SendCriticalData\")",
          "35s"),
      ]),
    // Without an expiration the termination after the budget shows the budget
    // overrun and the leak of task 1, both at the termination.
    TraceCase(
      file: "seeds/send-critical-data-twice-no-expiration.txt",
      expected: [
        finding(.taskDoubleEnd, line: 17, at: "6.3 task.end id=2", "task 2 ended twice (first end at 6s)"),
        finding(
          .taskOverBudget, line: 18, at: "36 app.terminate reason=watchdog", "task 1 (\"SendCriticalData\")",
          "since 5.5s"),
        finding(
          .taskLeaked, line: 18, at: "36 app.terminate reason=watchdog", "task 1 (\"SendCriticalData\")",
          "begun at 5.5s", "before the app terminated"),
      ]),

    // DataSyncWorker: `runAttemptCount < 3` keeps within limit=3; without it the
    // retry at attempt 3 goes past the limit, reported once.
    TraceCase(file: "seeds/data-sync-worker-with-check.txt", expected: []),
    TraceCase(
      file: "seeds/data-sync-worker-without-check.txt",
      expected: [
        finding(
          .workRetryLimit, line: 17, at: "216 work.result work=sync attempt=3 outcome=retry", "work sync",
          "attempt 3")
      ]),

    // The AppDelegate refresh handler: correct, without the resubmit, without
    // setTaskCompleted, and with both the expiration handler and the fetch completing.
    TraceCase(file: "seeds/refresh-handler-correct.txt", expected: []),
    TraceCase(
      file: "seeds/refresh-handler-forgets-resubmit.txt",
      expected: [
        finding(
          .schedRefreshNotRescheduled, line: 18, at: "3603 sched.complete run=1", "run 1", "com.example.refresh")
      ]),
    TraceCase(
      file: "seeds/refresh-handler-never-completes.txt",
      expected: [finding(.schedNotCompleted, line: 19, at: "3633 app.state to=suspended", "run 1", "3630s")]),
    TraceCase(
      file: "seeds/refresh-handler-expired-then-fetch-completes.txt",
      expected: [
        finding(
          .schedDoubleComplete, line: 21, at: "3630.5 sched.complete run=1", "run 1 completed twice (first at 3630s)")
      ]),
  ]

  @Test(arguments: cases)
  func seedTraceProducesExactlyItsExpectedFindings(_ trace: TraceCase) throws {
    let findings = try TraceFiles.check(trace.file, configuration: trace.configuration)
    expectFindings(findings, match: trace.expected, in: trace.file)
  }

  @Test func sendCriticalDataFindingsNameTheirSeverities() throws {
    let findings = try TraceFiles.check("seeds/send-critical-data-twice-no-expiration.txt")
    #expect(findings.filter { $0.rule == .taskOverBudget }.map(\.severity) == [.warning])
    #expect(findings.filter { $0.rule != .taskOverBudget }.map(\.severity) == [.error, .error])
    #expect(
      findings.first?.line(path: "trace.txt")
        == "trace.txt:17: error: task 2 ended twice (first end at 6s) [task-double-end]")
  }

  @Test func forgottenResubmitIsAWarning() throws {
    let findings = try TraceFiles.check("seeds/refresh-handler-forgets-resubmit.txt")
    #expect(findings.map(\.severity) == [.warning])
  }
}
