import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// `CheckerConfiguration`: the default retry limit, the budget and the grace period.
@Suite("Checker configuration")
struct ConfigurationTests {
  /// The traces under `Traces/rules/config/`.
  static let files = [
    "config/budget-default.txt", "config/budget-meta.txt", "config/default-retry-limit.txt", "config/grace.txt",
  ]

  static func seconds(_ value: Double) -> TraceInterval { TraceInterval(seconds: value) }

  // MARK: Default retry limit

  @Test func withoutADefaultLimitWorkThatDeclaresNoneHasNoCap() throws {
    let findings = try TraceFiles.check("config/default-retry-limit.txt")
    expectFindings(findings, match: [], in: "config/default-retry-limit.txt")
  }

  /// Work a (no `limit=`) takes the default; work b keeps its own `limit=5`, so its
  /// retries at attempts 2, 3 and 4 stay quiet.
  @Test(arguments: [
    (0, [finding(.workRetryLimit, line: 9, at: "3 work.result work=a attempt=0 outcome=retry", "work a")]),
    (1, [finding(.workRetryLimit, line: 13, at: "14 work.result work=a attempt=1 outcome=retry", "work a")]),
    (2, [finding(.workRetryLimit, line: 17, at: "35 work.result work=a attempt=2 outcome=retry", "work a")]),
    (3, []),
  ])
  func defaultRetryLimitAppliesOnlyToWorkWithoutLimit(_ limit: Int, _ expected: [ExpectedFinding]) throws {
    let configuration = CheckerConfiguration(defaultRetryLimit: limit)
    let findings = try TraceFiles.check("config/default-retry-limit.txt", configuration: configuration)
    expectFindings(findings, match: expected, in: "config/default-retry-limit.txt (default limit \(limit))")
    #expect(!findings.contains { $0.message.contains("work b") })
  }

  // MARK: Budget

  @Test func metaBudgetOverridesTheThirtySecondDefault() throws {
    // 15 s in the background: within 30 s, over the trace's `meta budget=10`.
    let findings = try TraceFiles.check("config/budget-meta.txt")
    expectFindings(
      findings, match: [finding(.taskOverBudget, line: 8, at: "16 task.end id=1", "task 1", "10s")],
      in: "config/budget-meta.txt")
  }

  @Test(arguments: [
    (20.0, false), (15.0, false), (14.5, true), (12.0, true),
  ])
  func budgetOptionOverridesMetaBudget(_ budget: Double, _ fires: Bool) throws {
    let configuration = CheckerConfiguration(budget: Self.seconds(budget))
    let findings = try TraceFiles.check("config/budget-meta.txt", configuration: configuration)
    let expected = fires ? [finding(.taskOverBudget, line: 8, at: "16 task.end id=1", "task 1")] : []
    expectFindings(findings, match: expected, in: "config/budget-meta.txt (budget \(budget))")
  }

  @Test func budgetDefaultsToThirtySeconds() throws {
    // 30.5 s in the background with no `meta budget=`.
    let findings = try TraceFiles.check("config/budget-default.txt")
    expectFindings(
      findings, match: [finding(.taskOverBudget, line: 8, at: "31.5 task.end id=1", "task 1", "30s")],
      in: "config/budget-default.txt")
  }

  @Test func budgetOptionOverridesTheDefault() throws {
    let configuration = CheckerConfiguration(budget: Self.seconds(40))
    let findings = try TraceFiles.check("config/budget-default.txt", configuration: configuration)
    expectFindings(findings, match: [], in: "config/budget-default.txt (budget 40)")
  }

  @Test func budgetForMetadataFollowsTheOverrideOrder() {
    let meta = TraceMetadata(["budget": "12.5"])
    #expect(CheckerConfiguration().budget(for: TraceMetadata()) == Self.seconds(30))
    #expect(CheckerConfiguration().budget(for: meta) == Self.seconds(12.5))
    #expect(CheckerConfiguration(budget: Self.seconds(45)).budget(for: meta) == Self.seconds(45))
  }

  // MARK: Grace

  /// Task 1 and run 1 expire at 10 and end at 12 (line 11 is the task's end, the first
  /// event after a deadline before 12).
  @Test(arguments: [
    (1.0, true), (1.5, true), (2.0, false), (5.0, false),
  ])
  func graceChangesTheExpiryDeadline(_ grace: Double, _ fires: Bool) throws {
    let configuration = CheckerConfiguration(grace: Self.seconds(grace))
    let findings = try TraceFiles.check("config/grace.txt", configuration: configuration)
    let expected =
      fires
      ? [
        finding(.taskExpiredNotEnded, line: 11, at: "12 task.end id=1", "task 1", "10s"),
        finding(.schedNotCompleted, line: 11, at: "12 task.end id=1", "run 1", "10s"),
      ] : []
    expectFindings(findings, match: expected, in: "config/grace.txt (grace \(grace))")
  }

  @Test func defaultGraceIsOneSecond() throws {
    let findings = try TraceFiles.check("config/grace.txt")
    #expect(findings.map(\.rule).sorted { $0.id < $1.id } == [.schedNotCompleted, .taskExpiredNotEnded])
    #expect(CheckerConfiguration().grace == Self.seconds(1))
  }

  // MARK: Rules

  @Test func onlyTheConfiguredRulesRun() throws {
    let configuration = CheckerConfiguration(rules: [.taskDoubleEnd, .workRetryLimit])
    let findings = try TraceFiles.check("combined/trace-order.txt", configuration: configuration)
    #expect(findings.map(\.rule) == [.taskDoubleEnd, .workRetryLimit])
    #expect(findings.map(\.location) == [11, 19])
  }
}
