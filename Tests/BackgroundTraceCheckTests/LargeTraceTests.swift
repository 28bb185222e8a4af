import BackgroundTrace
import BackgroundTraceCheck
import Testing
import TraceWorkloads

/// The generated workloads follow every rule, so a large one checks clean.
@Suite("Large traces")
struct LargeTraceTests {
  @Test(arguments: WorkloadGenerator.Timing.allCases)
  func largeRuleAbidingTraceHasNoFindings(_ timing: WorkloadGenerator.Timing) {
    let trace = WorkloadGenerator.trace(eventCount: 200_000, seed: 3, timing: timing)
    #expect(trace.events.count >= 200_000)
    let findings = TraceChecker.check(trace)
    #expect(findings.isEmpty, "\(findings.prefix(5).map { $0.line(path: "workload") })")
  }
}
