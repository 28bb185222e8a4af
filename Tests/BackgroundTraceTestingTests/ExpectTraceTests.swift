import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceTesting
import Foundation
import Testing

@Suite struct ExpectTraceTests {
  let directory: String

  init() throws {
    directory = try GoldenFixtures.temporaryDirectory()
  }

  func golden(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

  @Test func aMatchingTracePasses() throws {
    try GoldenFixtures.save.write(toFile: golden("save.txt"), atomically: true, encoding: .utf8)
    expectTrace(
      try GoldenFixtures.trace(GoldenFixtures.save), matchesGolden: "save", record: .never, directory: directory)
    #expect(!FileManager.default.fileExists(atPath: golden("save.txt.actual")))
  }

  @Test func identifiersCompareUpToRenamingByDefault() throws {
    try GoldenFixtures.save.write(toFile: golden("save.txt"), atomically: true, encoding: .utf8)
    let renumbered = try GoldenFixtures.trace(GoldenFixtures.saveRenumbered)
    expectTrace(renumbered, matchesGolden: "save", record: .never, directory: directory)
    withKnownIssue {
      expectTrace(
        renumbered, matchesGolden: "save", record: .never, diff: DiffOptions(identifiers: .exact),
        directory: directory)
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.hasPrefix("the trace does not match the golden \(golden("save.txt")):\n")
        && text.contains(
          "first divergence at event 4: expected '10 task.begin id=7 name=SaveDocument', found '10 task.begin id=1 name=SaveDocument'"
        )
    }
  }

  @Test func aMismatchFailsWithTheDiffAndWritesActualAndDiffFiles() throws {
    try GoldenFixtures.save.write(toFile: golden("save.txt"), atomically: true, encoding: .utf8)
    let slower = try GoldenFixtures.trace(GoldenFixtures.saveSlower)
    withKnownIssue {
      expectTrace(slower, matchesGolden: "save", record: .never, directory: directory)
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("first divergence at event 5: expected '12.25 task.end id=7', found '12.75 task.end id=7'")
        && text.contains("-12.25 task.end id=7\n+12.75 task.end id=7")
    }
    #expect(try String(contentsOfFile: golden("save.txt.actual"), encoding: .utf8) == GoldenFixtures.saveSlower)
    let diff = try String(contentsOfFile: golden("save.txt.diff"), encoding: .utf8)
    #expect(diff.hasPrefix("first divergence at event 5"))
    #expect(try String(contentsOfFile: golden("save.txt"), encoding: .utf8) == GoldenFixtures.save)
  }

  @Test func aToleranceAcceptsSmallTimeShifts() throws {
    try GoldenFixtures.save.write(toFile: golden("save.txt"), atomically: true, encoding: .utf8)
    let slower = try GoldenFixtures.trace(GoldenFixtures.saveSlower)
    expectTrace(
      slower, matchesGolden: "save", record: .never, diff: DiffOptions(times: .tolerance(TraceInterval(seconds: 0.5))),
      directory: directory)
  }

  @Test func aMissingGoldenIsRecordedAndFailsForReview() throws {
    let trace = try GoldenFixtures.trace(GoldenFixtures.save)
    withKnownIssue {
      expectTrace(trace, matchesGolden: "new", record: .missing, directory: directory)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("recorded a new golden trace at \(golden("new.txt"))")
    }
    #expect(try String(contentsOfFile: golden("new.txt"), encoding: .utf8) == GoldenFixtures.save)
    expectTrace(trace, matchesGolden: "new", record: .missing, directory: directory)
  }

  @Test func neverModeDoesNotWriteAMissingGolden() throws {
    let trace = try GoldenFixtures.trace(GoldenFixtures.save)
    withKnownIssue {
      expectTrace(trace, matchesGolden: "absent", record: .never, directory: directory)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined()
        == "no golden trace at \(golden("absent.txt")) (recording is off: BGTRACE_RECORD=never or CI is set); the actual trace is in \(golden("absent.txt.actual"))"
    }
    #expect(!FileManager.default.fileExists(atPath: golden("absent.txt")))
    #expect(FileManager.default.fileExists(atPath: golden("absent.txt.actual")))
  }

  @Test func failedModeRewritesAMismatchingGolden() throws {
    try GoldenFixtures.save.write(toFile: golden("save.txt"), atomically: true, encoding: .utf8)
    let slower = try GoldenFixtures.trace(GoldenFixtures.saveSlower)
    withKnownIssue {
      expectTrace(slower, matchesGolden: "save", record: .failed, directory: directory)
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("-12.25 task.end id=7\n+12.75 task.end id=7")
        && text.hasSuffix("\nre-recorded the golden (BGTRACE_RECORD=failed); review the change")
    }
    #expect(try String(contentsOfFile: golden("save.txt"), encoding: .utf8) == GoldenFixtures.saveSlower)
  }

  @Test func allModeRewritesEvenAMatchingGolden() throws {
    // The same events as the trace, with a comment: it matches (`.never` passes), and
    // only a rewrite drops the comment.
    let commented = GoldenFixtures.save.replacingOccurrences(of: "bgtrace 1\n", with: "bgtrace 1\n# reviewed\n")
    try commented.write(toFile: golden("save.txt"), atomically: true, encoding: .utf8)
    let trace = try GoldenFixtures.trace(GoldenFixtures.save)
    expectTrace(trace, matchesGolden: "save", record: .never, directory: directory)
    expectTrace(trace, matchesGolden: "save", record: .failed, directory: directory)
    #expect(try String(contentsOfFile: golden("save.txt"), encoding: .utf8) == commented)
    withKnownIssue {
      expectTrace(trace, matchesGolden: "save", record: .all, directory: directory)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined()
        == "re-recorded the golden trace at \(golden("save.txt")) (BGTRACE_RECORD=all); review the change"
    }
    #expect(try String(contentsOfFile: golden("save.txt"), encoding: .utf8) == GoldenFixtures.save)
  }

  /// `.failed` and `.all` record a missing golden as `.missing` does, and fail for review.
  @Test(arguments: [GoldenRecordMode.failed, .all])
  func failedAndAllModesRecordAMissingGolden(mode: GoldenRecordMode) throws {
    let trace = try GoldenFixtures.trace(GoldenFixtures.save)
    withKnownIssue {
      expectTrace(trace, matchesGolden: "new", record: mode, directory: directory)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined()
        == "recorded a new golden trace at \(golden("new.txt")); review it, commit it and run the test again"
    }
    #expect(try String(contentsOfFile: golden("new.txt"), encoding: .utf8) == GoldenFixtures.save)
    #expect(!FileManager.default.fileExists(atPath: golden("new.txt.actual")))
  }

  @Test func aCheckerFindingFailsEvenWhenTheGoldenHasIt() throws {
    try GoldenFixtures.saveEndedTwice.write(toFile: golden("twice.txt"), atomically: true, encoding: .utf8)
    let trace = try GoldenFixtures.trace(GoldenFixtures.saveEndedTwice)
    withKnownIssue {
      expectTrace(trace, matchesGolden: "twice", record: .never, directory: directory)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("task 7 ended twice (first end at 12.25s) [task-double-end]")
    }
    expectTrace(
      trace, matchesGolden: "twice", record: .never, checks: .all(except: [.taskDoubleEnd]), directory: directory)
    expectTrace(trace, matchesGolden: "twice", record: .never, checks: .none, directory: directory)
  }

  @Test func binaryGoldensWork() throws {
    let trace = try GoldenFixtures.trace(GoldenFixtures.save)
    _ = FileManager.default.createFile(atPath: golden("save.bgtrace"), contents: Data(try trace.binary()))
    expectTrace(trace, matchesGolden: "save.bgtrace", record: .never, directory: directory)
    let slower = try GoldenFixtures.trace(GoldenFixtures.saveSlower)
    withKnownIssue {
      expectTrace(slower, matchesGolden: "save.bgtrace", record: .never, directory: directory)
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.hasPrefix("the trace does not match the golden \(golden("save.bgtrace")):\n")
        && text.contains("-12.25 task.end id=7\n+12.75 task.end id=7")
    }
    var reader = try TraceReader(path: golden("save.bgtrace.actual"))
    #expect(reader.format == .binary)
    #expect(try reader.readAll() == GoldenFixtures.trace(GoldenFixtures.saveSlower))
  }

  @Test func theDefaultGoldenLivesBesideTheTestFile() {
    #expect(
      GoldenTrace.path(for: "save", testFilePath: "/repo/Tests/AppTests/SaveTests.swift")
        == "/repo/Tests/AppTests/__Traces__/SaveTests/save.txt")
    #expect(
      GoldenTrace.path(for: "save.bgtrace", testFilePath: "/repo/Tests/AppTests/SaveTests.swift")
        == "/repo/Tests/AppTests/__Traces__/SaveTests/save.bgtrace")
  }

  @Test func theCommittedGoldenBesideThisFileMatches() throws {
    // A real golden under __Traces__/ExpectTraceTests/, reviewed like code. On CI
    // (`CI` set) a missing golden fails instead of being written.
    expectTrace(try GoldenFixtures.trace(GoldenFixtures.save), matchesGolden: "save-document")
  }

  @Test(arguments: [
    ([:], GoldenRecordMode.missing),
    (["CI": "true"], .never),
    (["CI": "1", "BGTRACE_RECORD": "all"], .all),
    (["BGTRACE_RECORD": "failed"], .failed),
    (["CI": "false"], .missing),
  ])
  func recordModeComesFromTheEnvironment(environment: [String: String], expected: GoldenRecordMode) throws {
    // An unknown value is an error (GoldenEnvironmentTests), not a silent `missing`.
    #expect(try GoldenRecordMode.fromEnvironment(environment) == expected)
  }
}
