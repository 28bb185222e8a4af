import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// Findings come out in trace order, whether an event or a passing deadline shows them.
@Suite("Trace order")
struct TraceOrderTests {
  /// The findings of `combined/trace-order.txt`, in order.
  static let expected: [ExpectedFinding] = [
    finding(.schedLateRegister, line: 8, at: "1 sched.register ident=com.example.cleanup", "com.example.cleanup"),
    finding(.taskDoubleEnd, line: 11, at: "4 task.end id=1", "task 1 ended twice (first end at 3s)"),
    finding(.schedUnregistered, line: 14, at: "6 sched.submit ident=com.example.other", "com.example.other"),
    finding(.workBackoffEarly, line: 18, at: "20 work.start work=sync attempt=1", "11s + 30s = 41s"),
    finding(.workRetryLimit, line: 19, at: "21 work.result work=sync attempt=1 outcome=retry", "work sync"),
    // Task 2's budget deadline (5 + 30 = 35) passes before the env.set at 36.
    finding(.taskOverBudget, line: 20, at: "36 env.set network=offline", "task 2 (\"Upload\")"),
    // Task 3's grace deadline (40 + 1 = 41) passes before the input at 42.
    finding(.taskExpiredNotEnded, line: 24, at: "42 input", "task 3", "40s"),
    finding(.taskUnknownEnd, line: 25, at: "43 task.end id=9", "task 9"),
    finding(.eventAfterTerminate, line: 27, at: "51 task.begin id=4", "task.begin", "reason: watchdog"),
  ]

  @Test func findingsComeOutInTraceOrder() throws {
    let findings = try TraceFiles.check("combined/trace-order.txt")
    #expect(findings.map(\.rule) == Self.expected.map(\.rule))
    #expect(findings.map(\.location) == Self.expected.map(\.line))
    #expect(findings.map(\.location) == findings.map(\.location).sorted())
    #expect(findings.map(\.time) == findings.map(\.time).sorted())
  }

  @Test func deadlineFindingsCarryTheTimeOfTheEventWhereTheyShow() throws {
    let findings = try TraceFiles.check("combined/trace-order.txt")
    let overBudget = try #require(findings.first { $0.rule == .taskOverBudget })
    let expired = try #require(findings.first { $0.rule == .taskExpiredNotEnded })
    #expect(overBudget.time == TraceTime(seconds: 36))
    #expect(expired.time == TraceTime(seconds: 42))
  }

  @Test func checkingATraceInMemoryLocatesFindingsByEventNumber() throws {
    var reader = try TraceReader(path: TraceFiles.path("task-double-end.fires.txt"))
    let trace = try reader.readAll()
    let findings = TraceChecker.check(trace)
    // Line 10 holds the seventh event.
    #expect(findings.map(\.rule) == [.taskDoubleEnd])
    #expect(findings.map(\.location) == [7])
    #expect(findings.first?.time == TraceTime(seconds: 7))
  }

  @Test func checkingTheSameTraceTwiceGivesTheSameFindings() throws {
    let first = try TraceFiles.check("combined/trace-order.txt")
    let second = try TraceFiles.check("combined/trace-order.txt")
    #expect(first == second)
  }
}
