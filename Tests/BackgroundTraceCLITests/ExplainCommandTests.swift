import BackgroundTrace
import BackgroundTraceCLI
import BackgroundTraceCheck
import Foundation
import TestSupport
import Testing

/// `bgtrace explain` (and its earlier name `replay`): the timeline over every shipped trace, and the flagging of
/// decisions the model says could not happen.
@Suite struct ExplainCommandTests {
  static let root = Repository.root

  static var shippedTraces: [String] {
    let traces = root.appendingPathComponent("Traces").path
    let files = FileManager.default.enumerator(atPath: traces)?.compactMap { $0 as? String } ?? []
    return files.filter { $0.hasSuffix(".txt") || $0.hasSuffix(".bgtrace") }.sorted().map { traces + "/" + $0 }
  }

  /// Every shipped trace explains with the exit status `check` gives it, or 1 when the
  /// timeline marks a decision the model says could not happen (`!!`), and its timeline
  /// has one numbered line per event.
  @Test func everyShippedTracePrintsATimeline() throws {
    #expect(Self.shippedTraces.count > 20)
    for path in Self.shippedTraces {
      let result = run("explain", path)
      let check = run("check", path)
      let inconsistent = result.output.contains("      !! inconsistent with the model: ")
      #expect(
        result.status == (inconsistent && check.status == .success ? .findings : check.status),
        "\(path): \(result.errors)")
      var reader = try TraceReader(path: path)
      let events = try reader.readAll().events.count
      let numbered = result.output.split(separator: "\n").filter { $0.first?.isNumber == true }
      #expect(numbered.count == events, "\(path)")
    }
  }

  /// The whole timeline of a small trace: each event with its line number, what it
  /// changed, and a finding at the end.
  @Test func theTimelineOfTheMinimalVector() {
    let path = Self.root.appendingPathComponent("Traces/format/minimal.txt").path
    let expected = """
      3: 0 app.launch
      4: 1.5 task.begin id=1 name=Save
            + task 1 Save: begun
      at the end (4):
            >> error: task 1 ("Save") begun at 1.5s was not ended before the trace ended [task-leaked]

      """
    for command in ["explain", "replay"] {
      let result = run(command, path)
      #expect(result.status == .findings)
      #expect(result.output == expected, "\(command)")
      #expect(result.errors == "")
    }
  }

  @Test func aTooEarlyRetryIsInconsistentWithTheModel() {
    let path = Self.root.appendingPathComponent("Traces/examples/early-retry.txt").path
    let result = run("explain", path)
    #expect(result.status == .findings)
    #expect(
      result.output.contains(
        "10: 20 work.start work=sync-1 attempt=1\n      + work sync-1: attempt 1 running\n"))
    #expect(
      result.output.contains(
        "!! inconsistent with the model: sync-1 attempt 1 started at 20s, before its backoff allowed it at 34s"))
  }

  @Test func findingsShowInlineAndFailTheRun() {
    let path = Self.root.appendingPathComponent("Traces/examples/double-end.txt").path
    let result = run("explain", path)
    #expect(result.status == .findings)
    #expect(
      result.output == """
        3: 0 app.launch
        4: 0.2 app.state to=active
        5: 12.5 app.state to=background
        6: 12.5 task.begin id=1 name=SaveDocument
              + task 1 SaveDocument: begun, 30s of budget left
        7: 42.5 task.expire id=1
              ~ task 1 SaveDocument: expired after 30s
        8: 42.5 task.end id=1
              - task 1 SaveDocument: ended after 30s
        9: 42.51 task.end id=1
              >> error: task 1 ended twice (first end at 42.5s) [task-double-end]

        """)
  }

  /// `--until` stops the timeline and then lists what is alive after the last event it
  /// printed.
  @Test func untilStopsTheTimeline() {
    let path = Self.root.appendingPathComponent("Traces/examples/double-end.txt").path
    let result = run("explain", "--until", "12.5", path)
    #expect(
      result.output == """
        3: 0 app.launch
        4: 0.2 app.state to=active
        5: 12.5 app.state to=background
        6: 12.5 task.begin id=1 name=SaveDocument
              + task 1 SaveDocument: begun, 30s of budget left
        alive after 6 (12.5s):
              · task 1 SaveDocument: open 0s, 30s of budget left

        """)
    #expect(result.status == .findings)  // the whole trace is still checked
  }
}

/// What `bgtrace explain` shows alive agrees with what the checker gave up.
@Suite struct ExplainAgreesWithTheCheckerTests {

  @Test func aTaskLeakedAtSuspensionIsNotShownOpenAfterIt() {
    let path = ExplainCommandTests.root.appendingPathComponent("Traces/rules/task-leaked.fires-suspended.txt").path
    let output = run("explain", path).output
    let afterSuspension = output.components(separatedBy: "app.state to=suspended\n").dropFirst().joined()
    #expect(
      output.contains(
        "app.state to=suspended\n      - task 1 Upload: closed after 4s, not ended before the app was suspended\n      >> error: task 1"
      ))
    #expect(!afterSuspension.contains("· task 1"))
  }

  @Test func replayIsTheEarlierNameOfExplain() throws {
    #expect(try CommandLineParser.parse(["replay", "a.txt"]) == .explain(path: "a.txt", until: nil, alive: false))
    #expect(try CommandLineParser.parse(["help", "replay"]) == .help(topic: .explain))
  }

  @Test func aSuspensionWithBudgetLeftIsInconsistentWithTheModel() throws {
    let trace = try RecordedTrace(
      text: """
        bgtrace 1
        0 app.launch
        1 app.state to=background
        2 task.begin id=1 name=Upload
        6 app.state to=suspended
        """, file: "suspended.txt")
    var explainer = TraceExplainer(meta: trace.meta)
    var inconsistencies: [String] = []
    for (index, event) in trace.events.enumerated() {
      inconsistencies += explainer.explain(LocatedEvent(event: event, location: index + 1)).inconsistencies.map(
        \.message)
    }
    #expect(
      inconsistencies == [
        "the app was suspended at 6s with task 1 open and 26s of its budget left; iOS suspends an app only when no task is open or the budget is spent"
      ])
  }

  /// Apple, `register(forTaskWithIdentifier:using:launchHandler:)`: a launch with no
  /// handler registered raises an exception and the app dies, so anything but the app's
  /// end right after it is inconsistent with the model.
  @Test func anAppThatSurvivesAnUnregisteredLaunchIsInconsistentWithTheModel() throws {
    func inconsistencies(_ text: String) throws -> [String] {
      let trace = try RecordedTrace(text: text)
      var explainer = TraceExplainer(meta: trace.meta)
      return trace.events.enumerated().flatMap { index, event in
        explainer.explain(LocatedEvent(event: event, location: index + 1)).inconsistencies.map(\.message)
      }
    }
    let start =
      "bgtrace 1\n0 app.launch\n0 sched.submit ident=refresh type=refresh\n0 app.state to=background\n"
      + "1 sched.launch ident=refresh run=1\n"
    #expect(
      try inconsistencies(start + "2 task.begin id=1 name=Fetch\n") == [
        "the app kept running after refresh launched with no launch handler registered; iOS raises an exception there and the app dies"
      ])
    #expect(try inconsistencies(start + "1 app.terminate reason=crash\n").isEmpty)
  }

  /// Every shipped trace: a task or run the checker reports as given up when its process
  /// stopped (suspension, termination, relaunch) is never listed alive after that event
  /// (until an event begins or launches the same id again).
  @Test(arguments: ExplainCommandTests.shippedTraces)
  func nothingTheCheckerGaveUpIsShownAlive(_ path: String) throws {
    var reader = try TraceReader(path: path)
    var explainer = TraceExplainer(meta: reader.meta)
    var checker = TraceChecker(meta: reader.meta)
    var givenUp: Set<String> = []
    while let located = try reader.next() {
      switch located.event.kind {
      case .taskBegin(let id, _): givenUp.remove("task \(id)")
      case .schedLaunch(_, let run): givenUp.remove("run \(run)")
      case .appLaunch: givenUp.removeAll()
      default: break
      }
      var findings: [Finding] = []
      checker.check(located, into: &findings)
      _ = explainer.explain(located)
      for finding in findings where finding.message.contains(" before the app ") {
        // "task 3 (...) begun at …", "run 2 (…) …": the first two words name it.
        givenUp.insert(finding.message.split(separator: " ").prefix(2).joined(separator: " "))
      }
      for line in explainer.alive {
        let name = line.split(separator: " ").prefix(2).joined(separator: " ").split(separator: ":")[0]
        #expect(!givenUp.contains(String(name)), "\(path):\(located.location): \(line) after the checker gave it up")
      }
    }
  }
}
