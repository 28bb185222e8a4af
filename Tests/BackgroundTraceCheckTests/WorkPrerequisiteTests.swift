import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// `work.after` (androidx `WorkContinuation`): a work ends with a prerequisite that
/// fails or is cancelled (androidx `WorkerWrapper.iterativelyFailWorkAndDependents`,
/// `CancelWorkRunnable`), so a start of it after that is `work-after-finish`; a start
/// after the prerequisite succeeded is not, in the text and the binary form alike.
@Suite struct WorkPrerequisiteTests {
  private func findings(_ text: String) throws -> [String] {
    let trace = try RecordedTrace(text: text)
    let fromText = TraceChecker.check(trace).map { "\($0.rule.rawValue) \($0.message)" }
    let decoded = try RecordedTrace.decode(binary: try trace.binary()).trace
    #expect(TraceChecker.check(decoded).map { "\($0.rule.rawValue) \($0.message)" } == fromText)
    return fromText
  }

  @Test func aDependentOfAFailedPrerequisiteNeverRuns() throws {
    let found = try findings(
      """
      bgtrace 1
      meta platform=android
      0 app.launch
      0 work.enqueue work=a:1
      0 work.enqueue work=b:1
      0 work.after work=b:1 prerequisite=a:1
      0 work.enqueue work=c:1
      0 work.after work=c:1 prerequisite=b:1
      0.1 work.start work=a:1 attempt=0
      1 work.result work=a:1 attempt=0 outcome=failure
      2 work.start work=c:1 attempt=0
      2 work.result work=c:1 attempt=0 outcome=success
      """)
    #expect(found.count == 1)
    #expect(found.first?.hasPrefix("work-after-finish ") == true, "\(found)")
    #expect(found.first?.contains("c:1") == true && found.first?.contains("failed at 1s") == true, "\(found)")
  }

  @Test func aDependentOfACancelledPrerequisiteIsCancelledWithIt() throws {
    let found = try findings(
      """
      bgtrace 1
      meta platform=android
      0 app.launch
      0 work.enqueue work=a:1 initial=60
      0 work.enqueue work=b:1
      0 work.after work=b:1 prerequisite=a:1
      5 work.cancel work=a:1
      6 work.start work=b:1 attempt=0
      """)
    #expect(found.count == 1)
    #expect(found.first?.contains("was cancelled at 5s") == true, "\(found)")
  }

  @Test func aDependentRunsAfterItsPrerequisiteSucceeded() throws {
    #expect(
      try findings(
        """
        bgtrace 1
        meta platform=android
        0 app.launch
        0 work.enqueue work=a:1
        0 work.enqueue work=b:1
        0 work.after work=b:1 prerequisite=a:1
        0.1 work.start work=a:1 attempt=0
        1 work.result work=a:1 attempt=0 outcome=success
        1.1 work.start work=b:1 attempt=0
        2 work.result work=b:1 attempt=0 outcome=success
        """
      ).isEmpty)
  }

  /// A prerequisite that already failed when the work is enqueued ends it at once, as
  /// androidx `EnqueueRunnable` inserts it FAILED: it failed at its enqueue, 2 s.
  @Test func aPrerequisiteThatAlreadyFailedEndsTheWorkAtOnce() throws {
    let found = try findings(
      """
      bgtrace 1
      meta platform=android
      0 app.launch
      0 work.enqueue work=a:1
      0.1 work.start work=a:1 attempt=0
      1 work.result work=a:1 attempt=0 outcome=failure
      2 work.enqueue work=b:1
      2 work.after work=b:1 prerequisite=a:1
      3 work.start work=b:1 attempt=0
      """)
    #expect(found.count == 1)
    #expect(found.first?.contains("failed at 2s") == true, "\(found)")
  }
}
