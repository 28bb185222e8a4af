import BackgroundTrace
import BackgroundTraceCLI
import Foundation
import Testing

/// `bgtrace check` as a CI gate: paths with no trace, directories read by content,
/// `--ignore`, baselines and the JSON Lines format's one name (docs/cli.md).
@Suite struct CheckGateTests {
  let directory: String

  init() throws {
    directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("bgtrace-gate-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

  @discardableResult
  func write(_ text: String, to name: String) throws -> String {
    try FileManager.default.createDirectory(
      atPath: (path(name) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: path(name), atomically: true, encoding: .utf8)
    return path(name)
  }

  /// Ends task 2 twice: one task-double-end at line 5.
  static let doubleEnd = """
    bgtrace 1
    0 app.launch
    1 task.begin id=2
    2 task.end id=2
    3 task.end id=2

    """

  /// Ends task 1 twice (line 5) and task 2 twice (line 8).
  static let twoDoubleEnds = """
    bgtrace 1
    0 app.launch
    1 task.begin id=1
    2 task.end id=1
    3 task.end id=1
    4 task.begin id=2
    5 task.end id=2
    6 task.end id=2

    """

  // MARK: paths with no trace

  @Test func aDirectoryWithNoTraceExitsTwoNamingIt() throws {
    try write("# Notes\n", to: "docs/notes.txt")
    let result = run("check", path("docs"))
    #expect(result.status == .badInput)
    #expect(result.output == "")
    #expect(
      result.errors
        == "bgtrace: \(path("docs")): holds no trace: no file under it starts with the text header 'bgtrace 1' or the binary magic bytes\n"
    )
  }

  @Test func anEmptyFileExitsTwoNamingIt() throws {
    let empty = try write("", to: "empty.txt")
    let result = run("check", empty)
    #expect(result.status == .badInput)
    #expect(result.errors == "bgtrace: \(empty):1:1: expected the header 'bgtrace 1', found an empty input\n")
  }

  /// A release or deadline the trace's meta does not name is refused where it is
  /// written, by every command, not read as the default (docs/FORMAT.md, "Settings").
  @Test func aBadAndroidReleaseOrDeadlineExitsTwoNamingIt() throws {
    let release = try write("bgtrace 1\nmeta platform=android android=fourteen\n0 app.launch\n", to: "release.txt")
    for command in ["check", "explain", "stats", "dump"] {
      let result = run(command, release)
      #expect(result.status == .badInput)
      #expect(
        result.errors
          == "bgtrace: \(release):2:31: meta android=fourteen is not valid: expected an Android release's major version (such as 14)\n"
      )
    }
    let deadline = try write("bgtrace 1\nmeta fgs-deadline=soon\n0 app.launch\n", to: "deadline.txt")
    #expect(
      run("check", deadline).errors
        == "bgtrace: \(deadline):2:19: meta fgs-deadline=soon is not valid: expected a number of seconds (such as 10 or 30)\n"
    )
    let budget = try write("bgtrace 1\nmeta budget=\"half a minute\"\n0 app.launch\n", to: "budget.txt")
    #expect(
      run("check", budget).errors
        == "bgtrace: \(budget):2:13: meta budget=half a minute is not valid: expected a number of seconds (such as 30)\n"
    )
    let fine = try write("bgtrace 1\nmeta android=14.0 fgs-deadline=30\n0 app.launch\n", to: "fine.txt")
    #expect(run("check", fine).status == .success)
  }

  /// An exemption the trace's `meta fgs-exempt=` does not name is refused, not dropped.
  @Test func aBadBackgroundStartExemptionExitsTwoNamingIt() throws {
    let exempt = try write(
      "bgtrace 1\nmeta platform=android fgs-exempt=companion-device+vip\n0 app.launch\n", to: "exempt.txt")
    let result = run("check", exempt)
    #expect(result.status == .badInput)
    #expect(
      result.errors
        == "bgtrace: \(exempt):2:34: meta fgs-exempt=companion-device+vip is not valid: expected standing "
        + "exemptions joined by + (companion-device, battery-unrestricted, system-alert-window)\n")
    let fine = try write(
      "bgtrace 1\nmeta platform=android fgs-exempt=battery-unrestricted+companion-device\n0 app.launch\n",
      to: "exempt-fine.txt")
    #expect(run("check", fine).status == .success)
  }

  @Test func directoriesHoldingOnlyHiddenTracesHoldNoTrace() throws {
    try write(Self.doubleEnd, to: "pkg/.build/debug/t.txt")
    try write(Self.doubleEnd, to: "pkg/.git/t.txt")
    let result = run("check", path("pkg"))
    #expect(result.status == .badInput)
    #expect(result.errors.hasPrefix("bgtrace: \(path("pkg")): holds no trace: "))
  }

  // MARK: directories read by content

  @Test func directoriesCheckFilesThatStartLikeATraceWhateverTheirExtension() throws {
    try write(Self.doubleEnd, to: "pkg/Tests/__Traces__/run.log")
    _ = FileManager.default.createFile(
      atPath: path("pkg/Tests/recorded.data"), contents: Data(try RecordedTrace(text: Self.doubleEnd).binary()))
    try write("bgtrace-like notes, not a trace\n", to: "pkg/notes.txt")
    try write("", to: "pkg/empty.txt")
    try write(Self.doubleEnd, to: "pkg/.build/debug/copy.txt")
    try write(Self.doubleEnd, to: "pkg/.hidden/copy.txt")
    let root = path("pkg")
    let result = run("check", root)
    #expect(result.status == .findings)
    #expect(result.errors == "")
    #expect(
      result.output == """
        \(root)/Tests/__Traces__/run.log:5: error: task 2 ended twice (first end at 2s) [task-double-end]
        \(root)/Tests/recorded.data:4: error: task 2 ended twice (first end at 2s) [task-double-end]

        """)
  }

  // MARK: --ignore

  @Test func ignoredRulesNeitherPrintNorFail() throws {
    let trace = try write(Self.doubleEnd, to: "double.txt")
    let result = run("check", "--ignore", "task-double-end", trace)
    #expect(result.status == .success)
    #expect(result.output == "")
    #expect(run("check", "--ignore=task-leaked", "--ignore", "task-double-end", trace).status == .success)
    #expect(run("check", "--ignore", "task-leaked", trace).status == .findings)
  }

  @Test func anUnknownIgnoredRuleListsTheRules() throws {
    #expect(
      throws: UsageError(
        "'--ignore' takes a rule id, not 'task-doubled'; the rules are task-leaked, task-double-end, task-unknown-end, task-expired-not-ended, task-over-budget, sched-unregistered, sched-duplicate-register, sched-late-register, sched-not-completed, sched-double-complete, sched-refresh-not-rescheduled, sched-progress-stalled, work-retry-limit, work-backoff-early, work-result-mismatch, work-after-finish, event-after-terminate, net-handler-not-called, net-handler-early, net-handler-unknown, net-session-duplicate, net-not-recreated, fgs-not-promoted, fgs-timeout-ignored, fgs-started-in-background, fgs-untyped, fgs-budget-exhausted, work-foreground-refused, work-expedited-dropped, work-expedited-demoted, file-locked-at-suspension, work-outlasts-doze-window, work-period-outpaced, alarm-exact-deferred, net-one-transfer-per-wake, fgs-boot-completed-type, fgs-missing-permission, fgs-while-in-use-from-background, alarm-repeat-clamped"
      )
    ) {
      try CommandLineParser.parse(["check", "--ignore", "task-doubled", "a.txt"])
    }
  }

  // MARK: baselines

  @Test func aWrittenBaselineListsEveryFindingSorted() throws {
    let first = try write(Self.twoDoubleEnds, to: "b.txt")
    let second = try write(Self.doubleEnd, to: "a.txt")
    let baseline = path("baseline.txt")
    let result = run("check", "--write-baseline", baseline, first, second)
    #expect(result.status == .success)
    #expect(result.output == "")
    #expect(result.errors == "bgtrace: wrote 3 known findings to \(baseline)\n")
    #expect(
      try String(contentsOfFile: baseline, encoding: .utf8) == """
        # bgtrace check baseline: known findings, one 'PATH:LOCATION: [RULE-ID]' a line (bgtrace help check)
        \(second):5: [task-double-end]
        \(first):5: [task-double-end]
        \(first):8: [task-double-end]

        """)
  }

  @Test func noBaselineIsWrittenWhenATraceCannotBeChecked() throws {
    let bad = try write("bgtrace 1\n0 task.begin\n", to: "bad.txt")
    let good = try write(Self.doubleEnd, to: "good.txt")
    let baseline = path("baseline.txt")
    let result = run("check", "--write-baseline", baseline, bad, good)
    #expect(result.status == .badInput)
    #expect(
      result.errors == """
        bgtrace: \(bad):2:3: task.begin is missing the required field 'id'
        bgtrace: \(baseline): not written, as not every trace could be checked

        """)
    #expect(!FileManager.default.fileExists(atPath: baseline))
  }

  @Test func aBaselineSuppressesKnownFindingsAndFailsOnNewOnes() throws {
    let trace = try write(Self.twoDoubleEnds, to: "t.txt")
    let baseline = try write("# known\n\n\(trace):5: [task-double-end]\n", to: "baseline.txt")
    let result = run("check", "--baseline", baseline, trace)
    #expect(result.status == .findings)
    #expect(result.output == "\(trace):8: error: task 2 ended twice (first end at 5s) [task-double-end]\n")
    #expect(result.errors == "bgtrace: suppressed 1 known finding listed in \(baseline)\n")
  }

  @Test func aBaselineThatKnowsEveryFindingPassesAndNamesStaleEntries() throws {
    let trace = try write(Self.doubleEnd, to: "t.txt")
    let baseline = try write(
      "\(trace):5: [task-double-end]\n\(trace):9: [task-leaked]\n\(trace):5: [task-leaked]\n", to: "baseline.txt")
    let result = run("check", "--baseline", baseline, trace)
    #expect(result.status == .success)
    #expect(result.output == "")
    #expect(
      result.errors == """
        bgtrace: suppressed 1 known finding listed in \(baseline)
        bgtrace: 2 entries of \(baseline) matched no finding; rewrite it with --write-baseline

        """)
  }

  @Test func aBaselineEntryMatchesByPathLocationAndRule() throws {
    let trace = try write(Self.doubleEnd, to: "t.txt")
    let other = try write(Self.doubleEnd, to: "u.txt")
    let baseline = try write("\(other):5: [task-double-end]\n\(trace):4: [task-double-end]\n", to: "baseline.txt")
    let result = run("check", "--baseline", baseline, trace)
    #expect(result.status == .findings)
    #expect(result.output == "\(trace):5: error: task 2 ended twice (first end at 2s) [task-double-end]\n")
  }

  @Test func aMalformedBaselineNamesTheLineAndWhatWasExpected() throws {
    let trace = try write(Self.doubleEnd, to: "t.txt")
    let malformed = try write("# ok\nt.txt:5 task-double-end\n", to: "malformed.txt")
    let result = run("check", "--baseline", malformed, trace)
    #expect(result.status == .badInput)
    #expect(result.output == "")
    #expect(
      result.errors
        == "bgtrace: \(malformed):2:1: expected 'PATH:LOCATION: [RULE-ID]', found \"t.txt:5 task-double-end\"\n")
    let unknownRule = try write("t.txt:5: [double-end]\n", to: "unknown.txt")
    #expect(
      run("check", "--baseline", unknownRule, trace).errors.hasPrefix(
        "bgtrace: \(unknownRule):1:11: unknown rule 'double-end'; the rules are task-leaked, "))
  }

  @Test func baselineOptionsCannotBeCombined() {
    #expect(
      throws: UsageError("'--baseline' and '--write-baseline' cannot be combined: a new baseline lists every finding")
    ) {
      try CommandLineParser.parse(["check", "--baseline", "a", "--write-baseline", "b", "t.txt"])
    }
  }

  // MARK: JSON Lines

  @Test func jsonlIsTheFormatsNameAndJsonItsAlias() throws {
    let trace = try write(Self.doubleEnd, to: "t.txt")
    let jsonl = run("check", "--format", "jsonl", trace)
    #expect(jsonl.status == .findings)
    #expect(
      jsonl.output
        == "{\"path\":\"\(trace)\",\"location\":5,\"time\":3,\"severity\":\"error\",\"rule\":\"task-double-end\",\"message\":\"task 2 ended twice (first end at 2s)\"}\n"
    )
    #expect(run("check", "--format=json", trace).output == jsonl.output)
    #expect(throws: UsageError("'--format' takes 'text' or 'jsonl' (also spelled 'json'), not 'xml'")) {
      try CommandLineParser.parse(["check", "--format", "xml", "t.txt"])
    }
  }

  // MARK: unknown options

  @Test func unknownOptionsSuggestTheNearestOne() {
    #expect(throws: UsageError("unknown option '--fromat'; did you mean '--format'?")) {
      try CommandLineParser.parse(["export", "--fromat", "svg", "a.txt"])
    }
    #expect(throws: UsageError("unknown option '--basline'; did you mean '--baseline'?")) {
      try CommandLineParser.parse(["check", "--basline=known.txt", "a.txt"])
    }
    #expect(throws: UsageError("unknown option '--stric'; did you mean '--strict'?")) {
      try CommandLineParser.parse(["check", "a.txt", "--stric"])
    }
    #expect(throws: UsageError("unknown option '--verison'; did you mean '--version'?")) {
      try CommandLineParser.parse(["--verison"])
    }
    #expect(throws: UsageError("unknown option '--colour' for 'bgtrace diff'; see 'bgtrace help diff'")) {
      try CommandLineParser.parse(["diff", "--colour", "a", "b"])
    }
    #expect(throws: UsageError("'--strict' is given twice")) {
      try CommandLineParser.parse(["check", "--strict", "--strict", "a.txt"])
    }
  }

  @Test func optionValuesThatStartWithADashAreNotOptions() throws {
    #expect(
      try CommandLineParser.parse(["convert", "--to", "text", "-", "-"])
        == .convert(input: "-", output: "-", format: .text))
    #expect(throws: UsageError("'--from' takes seconds (like 30 or 0.5), not '-1'")) {
      try CommandLineParser.parse(["export", "a.txt", "--format", "svg", "--from", "-1"])
    }
  }
}
