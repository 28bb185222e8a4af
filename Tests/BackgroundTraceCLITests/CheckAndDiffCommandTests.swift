import BackgroundTrace
import BackgroundTraceCLI
import Foundation
import Testing

/// `bgtrace check` and `bgtrace diff` run in-process on hand-written traces.
@Suite struct CheckAndDiffCommandTests {
  let directory: String

  init() throws {
    directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("bgtrace-check-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  func write(_ text: String, to name: String) throws -> String {
    let path = (directory as NSString).appendingPathComponent(name)
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static let doubleEnd = """
    bgtrace 1
    0 app.launch
    0.2 app.state to=active
    1 task.begin id=2 name=Upload
    6 task.end id=2
    7 task.end id=2
    8 app.state to=suspended

    """

  static let overBudget = """
    bgtrace 1
    0 app.launch
    0.2 app.state to=background
    1 task.begin id=1
    40 task.end id=1
    41 app.state to=suspended

    """

  static let clean = """
    bgtrace 1
    0 app.launch
    0.2 app.state to=active
    1 task.begin id=1
    2 task.end id=1

    """

  @Test func findingsPrintCompilerStyleAndExitOne() throws {
    let path = try write(Self.doubleEnd, to: "double.txt")
    let result = run("check", path)
    #expect(result.status == .findings)
    #expect(result.output == "\(path):6: error: task 2 ended twice (first end at 6s) [task-double-end]\n")
  }

  @Test func jsonLinesCarryTheSameFields() throws {
    let path = try write(Self.doubleEnd, to: "double.txt")
    let result = run("check", "--format", "json", path)
    #expect(result.status == .findings)
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    #expect(object["path"] as? String == path)
    #expect(object["location"] as? Int == 6)
    #expect(object["rule"] as? String == "task-double-end")
    #expect(object["severity"] as? String == "error")
    #expect(object["message"] as? String == "task 2 ended twice (first end at 6s)")
    #expect((object["time"] as? NSNumber)?.doubleValue == 7)
  }

  @Test func warningsPassUnlessStrict() throws {
    let path = try write(Self.overBudget, to: "budget.txt")
    let relaxed = run("check", path)
    #expect(relaxed.status == .success)
    #expect(
      relaxed.output
        == "\(path):5: warning: task 1 stayed open more than the 30s background budget (in the background since 1s) with no expiration [task-over-budget]\n"
    )
    #expect(run("check", "--strict", path).status == .findings)
    #expect(run("check", "--budget", "45", path).output == "")
  }

  @Test func aCleanTraceExitsZeroAndPrintsNothing() throws {
    let result = run("check", try write(Self.clean, to: "clean.txt"))
    #expect(result.status == .success)
    #expect(result.output == "")
  }

  @Test func directoriesAreCheckedInPathOrder() throws {
    _ = try write(Self.doubleEnd, to: "tree/b/double.txt")
    _ = try write(Self.clean, to: "tree/a/clean.txt")
    _ = try write(Self.overBudget, to: "tree/c.txt")
    let trace = try RecordedTrace(text: Self.doubleEnd)
    _ = FileManager.default.createFile(
      atPath: (directory as NSString).appendingPathComponent("tree/b/double.bgtrace"),
      contents: Data(try trace.binary()))
    let tree = (directory as NSString).appendingPathComponent("tree")
    let result = run("check", tree)
    #expect(result.status == .findings)
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "\(tree)/b/double.bgtrace:5: error: task 2 ended twice (first end at 6s) [task-double-end]",
        "\(tree)/b/double.txt:6: error: task 2 ended twice (first end at 6s) [task-double-end]",
        "\(tree)/c.txt:5: warning: task 1 stayed open more than the 30s background budget (in the background since 1s) with no expiration [task-over-budget]",
      ])
  }

  @Test func retryLimitAppliesToWorkWithoutALimit() throws {
    let path = try write(
      """
      bgtrace 1
      0 work.enqueue work=sync
      1 work.start work=sync attempt=0
      2 work.result work=sync attempt=0 outcome=retry
      32 work.start work=sync attempt=1
      33 work.result work=sync attempt=1 outcome=retry

      """, to: "retry.txt")
    #expect(run("check", path).status == .success)
    let limited = run("check", "--retry-limit", "1", path)
    #expect(limited.status == .findings)
    #expect(
      limited.output
        == "\(path):6: error: work sync returned retry at attempt 1, but attempt 1 must be its last (enqueued at 0s with limit=1) [work-retry-limit]\n"
    )
  }

  @Test func badInputExitsTwoButOtherFilesAreStillChecked() throws {
    let bad = try write("bgtrace 1\n0 task.begin\n", to: "bad.txt")
    let good = try write(Self.doubleEnd, to: "double.txt")
    let result = run("check", bad, good)
    #expect(result.status == .badInput)
    #expect(result.errors == "bgtrace: \(bad):2:3: task.begin is missing the required field 'id'\n")
    #expect(
      result.output
        == "\(good):6: error: task 2 ended twice (first end at 6s) [task-double-end]\n")
  }

  @Test func unsealedTailIsANoteAndChecksAsIntactButLossExitsTwo() throws {
    // A recorder that is never closed leaves its last log chunk unsealed, as a killed
    // process does (docs/FORMAT.md, "Reading, and what counts as damage").
    let path = (directory as NSString).appendingPathComponent("open.bgtrace")
    let recorder = try TraceRecorder(writingTo: path)
    recorder.record(.appLaunch, at: .zero)
    recorder.record(.taskBegin(id: 1, name: nil), at: TraceTime(seconds: 1))
    recorder.record(.taskEnd(id: 1), at: TraceTime(seconds: 2))
    let result = run("check", path)
    #expect(result.status == .success)
    #expect(
      result.errors
        == "\(path): at byte 24: note: log chunk 0 at byte 24 (events 1–3) is unsealed (the writer did not close the file); its 3 committed events are recovered; nothing is lost\n"
    )

    // The same file with its committed length cut short loses events: exit 2.
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    bytes = Array(bytes[..<(24 + 48 + 3)])
    let cut = (directory as NSString).appendingPathComponent("cut.bgtrace")
    try Data(bytes).write(to: URL(fileURLWithPath: cut))
    let lost = run("check", cut)
    #expect(lost.status == .badInput)
    #expect(
      lost.errors
        == "\(cut): at byte 24: error: the file ends at byte 75, inside log chunk 0 (events 1–3), which starts at byte 24: 3 of its 8 committed bytes are there (a torn tail); the 1 whole record before the cut is recovered, 2 events lost\n"
    )
    _ = recorder
  }

  // MARK: diff

  static let expected = """
    bgtrace 1
    0 app.launch
    1 task.begin id=5 name=A
    2 task.begin id=6 name=B
    3 task.end id=5
    4 task.end id=6
    5 app.state to=suspended

    """

  @Test func tracesThatDifferOnlyByIdRenamingAreTheSame() throws {
    let expected = try write(Self.expected, to: "e.txt")
    let renamed = try write(
      Self.expected.replacingOccurrences(of: "id=5", with: "id=1").replacingOccurrences(of: "id=6", with: "id=2"),
      to: "r.txt")
    let same = run("diff", expected, renamed)
    #expect(same.status == .success)
    #expect(same.output == "")
    let exact = run("diff", "--ids", "exact", expected, renamed)
    #expect(exact.status == .findings)
    #expect(
      exact.output == """
        first divergence at event 2: expected '1 task.begin id=5 name=A', found '1 task.begin id=1 name=A'
        --- \(expected)
        +++ \(renamed)
        @@ -1,7 +1,7 @@
         bgtrace 1
         0 app.launch
        -1 task.begin id=5 name=A
        -2 task.begin id=6 name=B
        -3 task.end id=5
        -4 task.end id=6
        +1 task.begin id=1 name=A
        +2 task.begin id=2 name=B
        +3 task.end id=1
        +4 task.end id=2
         5 app.state to=suspended

        """)
    let exactSame = run("diff", "--ids", "exact", expected, expected)
    #expect(exactSame.status == .success)
    #expect(exactSame.output == "")
  }

  @Test func reorderedEndsDiffer() throws {
    let expected = try write(Self.expected, to: "e.txt")
    let reordered = try write(
      Self.expected.replacingOccurrences(
        of: "3 task.end id=5\n4 task.end id=6", with: "3 task.end id=6\n4 task.end id=5"),
      to: "o.txt")
    let result = run("diff", expected, reordered)
    #expect(result.status == .findings)
    #expect(
      result.output == """
        first divergence at event 4: expected '3 task.end id=5', found '3 task.end id=6'
        --- \(expected)
        +++ \(reordered)
        @@ -2,6 +2,6 @@
         0 app.launch
         1 task.begin id=5 name=A
         2 task.begin id=6 name=B
        -3 task.end id=5
        -4 task.end id=6
        +3 task.end id=6
        +4 task.end id=5
         5 app.state to=suspended

        """)
    #expect(run("diff", "--time", "order", expected, reordered).status == .findings)
  }

  @Test func anExtraEndDiffersWithAHunk() throws {
    let expected = try write(Self.expected, to: "e.txt")
    let extra = try write(
      Self.expected.replacingOccurrences(of: "4 task.end id=6\n", with: "4 task.end id=6\n4 task.end id=6\n"),
      to: "x.txt")
    let result = run("diff", expected, extra)
    #expect(result.status == .findings)
    #expect(
      result.output == """
        first divergence at event 6: the actual trace has an extra '4 task.end id=6'
        --- \(expected)
        +++ \(extra)
        @@ -4,4 +4,5 @@
         2 task.begin id=6 name=B
         3 task.end id=5
         4 task.end id=6
        +4 task.end id=6
         5 app.state to=suspended

        """)
  }

  @Test func shiftedTimesDifferUnlessWithinToleranceOrOrderOnly() throws {
    let expected = try write(Self.expected, to: "e.txt")
    let shifted = try write(Self.expected.replacingOccurrences(of: "4 task.end", with: "4.25 task.end"), to: "s.txt")
    let exact = run("diff", expected, shifted)
    #expect(exact.status == .findings)
    #expect(
      exact.output == """
        first divergence at event 5: expected '4 task.end id=6', found '4.25 task.end id=6'
        --- \(expected)
        +++ \(shifted)
        @@ -3,5 +3,5 @@
         1 task.begin id=5 name=A
         2 task.begin id=6 name=B
         3 task.end id=5
        -4 task.end id=6
        +4.25 task.end id=6
         5 app.state to=suspended

        """)
    #expect(run("diff", "--time", "tolerance=0.25", expected, shifted).status == .success)
    #expect(run("diff", "--time", "tolerance=0.2", expected, shifted).status == .findings)
    #expect(run("diff", "--time", "order", expected, shifted).status == .success)
  }

  @Test func diffOfBadInputExitsTwo() throws {
    let expected = try write(Self.expected, to: "e.txt")
    let result = run("diff", expected, (directory as NSString).appendingPathComponent("missing.txt"))
    #expect(result.status == .badInput)
    #expect(result.output == "")
    #expect(
      result.errors
        == "bgtrace: \((directory as NSString).appendingPathComponent("missing.txt")): cannot open: No such file or directory\n"
    )
  }
}
