import BackgroundTraceCheck
import Testing

@Suite("Rule traces")
struct RuleTraceTests {
  @Test(arguments: RuleTraceTable.all)
  func traceProducesExactlyItsExpectedFindings(_ trace: TraceCase) throws {
    let findings = try TraceFiles.check(trace.file, configuration: trace.configuration)
    expectFindings(findings, match: trace.expected, in: trace.file)
  }

  @Test(arguments: RuleTraceTable.all + SeedTraceTests.cases + BackoffAfterStopTests.cases)
  func expectedLinesPointAtTheIntendedEvents(_ trace: TraceCase) throws {
    let lines = try TraceFiles.lines(of: trace.file)
    for expectation in trace.expected {
      try #require(expectation.line < lines.count, "\(trace.file) has no line \(expectation.line)")
      let line = lines[expectation.line]
      #expect(!line.hasPrefix("#"), "\(trace.file):\(expectation.line) is a comment")
      #expect(line.hasPrefix(expectation.event), "\(trace.file):\(expectation.line) is \"\(line)\"")
    }
  }

  @Test(arguments: Rule.allCases)
  func everyRuleHasAFiringTraceAndANearMiss(_ rule: Rule) {
    let files = Set(RuleTraceTable.all.map(\.file))
    #expect(files.contains("\(rule.id).fires.txt"))
    #expect(files.contains("\(rule.id).near-miss.txt"))
  }

  @Test func firingTracesExpectTheirRuleOnceAndNearMissesExpectNothing() {
    for trace in RuleTraceTable.all + BackoffAfterStopTests.cases where !trace.file.contains("/") {
      let rule = trace.file.prefix { $0 != "." }
      let kind = trace.file.dropFirst(rule.count + 1)
      if kind.hasPrefix("fires") {
        #expect(trace.expected.map(\.rule.id) == [String(rule)], "\(trace.file)")
      } else {
        #expect(kind.hasPrefix("near-miss"), "\(trace.file) is neither fires nor near-miss")
        #expect(trace.expected.isEmpty, "\(trace.file)")
      }
    }
  }

  @Test func everyTraceFileUnderTracesRulesHasExpectations() {
    let listed =
      RuleTraceTable.all.map(\.file) + SeedTraceTests.cases.map(\.file) + BackoffAfterStopTests.cases.map(\.file)
      + ConfigurationTests.files
    #expect(Set(listed).count == listed.count, "a trace is listed twice")
    #expect(TraceFiles.allRelativePaths() == listed.sorted())
  }
}
