import BackgroundTraceCLI
import Foundation
import TestSupport
import Testing

/// `bgtrace explain` prints what each event changed, so its output grows with the
/// trace; everything alive is listed on request (`--alive`) and where `--until` stops.
@Suite struct ExplainChangesTests {
  let folder: TraceFolder

  init() throws { folder = try TraceFolder() }

  /// Tasks begun in a loop and leaked: each begin prints one change, the one that ends
  /// prints its end, and the suspension closes the rest.
  static let leakInALoop = """
    bgtrace 1
    0 app.launch
    0 app.state to=background
    1 task.begin id=1 name=Upload
    2 task.begin id=2 name=Upload
    3 task.begin id=3 name=Upload
    4 task.end id=2
    40 app.state to=suspended

    """

  @Test func eachEventPrintsWhatItChanged() throws {
    let path = try folder.write(Self.leakInALoop, to: "leak.txt")
    let result = run("explain", path)
    #expect(result.status == .findings)
    #expect(result.errors == "")
    #expect(
      result.output == """
        2: 0 app.launch
        3: 0 app.state to=background
        4: 1 task.begin id=1 name=Upload
              + task 1 Upload: begun, 30s of budget left
        5: 2 task.begin id=2 name=Upload
              + task 2 Upload: begun, 30s of budget left
        6: 3 task.begin id=3 name=Upload
              + task 3 Upload: begun, 30s of budget left
        7: 4 task.end id=2
              - task 2 Upload: ended after 2s
        8: 40 app.state to=suspended
              - task 1 Upload: closed after 39s, not ended before the app was suspended
              - task 3 Upload: closed after 37s, not ended before the app was suspended
              >> warning: task 1 ("Upload") stayed open more than the 30s background budget (in the background since 1s) with no expiration [task-over-budget]
              >> warning: task 3 ("Upload") stayed open more than the 30s background budget (in the background since 3s) with no expiration [task-over-budget]
              >> error: task 1 ("Upload") begun at 1s was not ended before the app was suspended [task-leaked]
              >> error: task 3 ("Upload") begun at 3s was not ended before the app was suspended [task-leaked]

        """)
  }

  @Test func aliveListsEverythingAliveAfterEachEvent() throws {
    let path = try folder.write(Self.leakInALoop, to: "leak.txt")
    let result = run("explain", "--alive", "--until", "4", path)
    #expect(
      result.output == """
        2: 0 app.launch
        3: 0 app.state to=background
        4: 1 task.begin id=1 name=Upload
              · task 1 Upload: open 0s, 30s of budget left
        5: 2 task.begin id=2 name=Upload
              · task 1 Upload: open 1s, 29s of budget left
              · task 2 Upload: open 0s, 30s of budget left
        6: 3 task.begin id=3 name=Upload
              · task 1 Upload: open 2s, 28s of budget left
              · task 2 Upload: open 1s, 29s of budget left
              · task 3 Upload: open 0s, 30s of budget left
        7: 4 task.end id=2
              · task 1 Upload: open 3s, 27s of budget left
              · task 3 Upload: open 1s, 29s of budget left

        """)
  }

  @Test func untilListsWhatIsAliveWhereItStops() throws {
    let path = try folder.write(Self.leakInALoop, to: "leak.txt")
    let result = run("explain", "--until", "3.5", path)
    #expect(result.status == .findings)  // the whole trace is still checked
    #expect(
      result.output == """
        2: 0 app.launch
        3: 0 app.state to=background
        4: 1 task.begin id=1 name=Upload
              + task 1 Upload: begun, 30s of budget left
        5: 2 task.begin id=2 name=Upload
              + task 2 Upload: begun, 30s of budget left
        6: 3 task.begin id=3 name=Upload
              + task 3 Upload: begun, 30s of budget left
        alive after 6 (3s):
              · task 1 Upload: open 2s, 28s of budget left
              · task 2 Upload: open 1s, 29s of budget left
              · task 3 Upload: open 0s, 30s of budget left

        """)
    let nothing = run("explain", "--until", "0", path)
    #expect(nothing.output.hasSuffix("3: 0 app.state to=background\nalive after 3 (0s): nothing\n"))
  }

  /// Scheduler runs and work attempts print their changes too.
  @Test func runsAndAttemptsPrintTheirChanges() throws {
    let path = try folder.write(
      """
      bgtrace 1
      0 app.launch
      0 sched.register ident=refresh
      0 app.state to=background
      1 sched.launch ident=refresh run=1
      2 work.enqueue work=sync limit=3
      3 work.start work=sync attempt=0
      4 work.result work=sync attempt=0 outcome=retry
      5 sched.expire run=1
      6 sched.complete run=1 success=false
      50 work.start work=sync attempt=1
      51 app.terminate reason=memory

      """, to: "runs.txt")
    let lines = run("explain", path).output.split(separator: "\n").filter { !$0.hasPrefix("      >>") }
    #expect(
      lines == [
        "2: 0 app.launch",
        "3: 0 sched.register ident=refresh",
        "4: 0 app.state to=background",
        "5: 1 sched.launch ident=refresh run=1",
        "      + run 1 (refresh): launched",
        "      !! inconsistent with the model: refresh launched with no pending request",
        "6: 2 work.enqueue work=sync limit=3",
        "      + work sync: enqueued",
        "7: 3 work.start work=sync attempt=0",
        "      + work sync: attempt 0 running",
        "8: 4 work.result work=sync attempt=0 outcome=retry",
        "      - work sync: attempt 0 returned retry, attempt 1 may start at 34s",
        "9: 5 sched.expire run=1",
        "      ~ run 1 (refresh): expired after 4s",
        "10: 6 sched.complete run=1 success=false",
        "      - run 1 (refresh): completed after 5s",
        "11: 50 work.start work=sync attempt=1",
        "      + work sync: attempt 1 running",
        "12: 51 app.terminate reason=memory",
        "      - work sync: attempt 1 closed, not returned before the app terminated",
      ])
  }

  /// An expiration's reason (`sched.expire reason=`) is in its change: a continued run
  /// the user cancelled, and one expired as stalled.
  @Test func anExpirationSaysItsReason() throws {
    let path = try folder.write(
      """
      bgtrace 1
      0 app.launch
      1 sched.register ident=a.1
      1 sched.submit ident=a.1 type=continued title=A subtitle=B
      1 sched.launch ident=a.1 run=1
      5 sched.expire run=1 reason=user
      5 sched.complete run=1 success=false
      6 sched.register ident=a.2
      6 sched.submit ident=a.2 type=continued title=A subtitle=C
      6 sched.launch ident=a.2 run=2
      36 sched.expire run=2 reason=stalled
      36 sched.complete run=2 success=false

      """, to: "reasons.txt")
    let lines = run("explain", path).output.split(separator: "\n").filter { $0.hasPrefix("      ~") }
    #expect(
      lines == [
        "      ~ run 1 (a.1): cancelled by the user after 4s", "      ~ run 2 (a.2): expired as stalled after 30s",
      ])
  }

  /// 200 tasks begun and leaked print two lines each, and at the suspension a closing
  /// line, a finding and an inconsistency each: the output grows with the trace, not
  /// with the trace times what is open.
  @Test func outputGrowsWithTheTrace() throws {
    var text = "bgtrace 1\n0 app.launch\n0 app.state to=background\n"
    for id in 1...200 { text += "1 task.begin id=\(id)\n" }
    text += "2 app.state to=suspended\n"
    let path = try folder.write(text, to: "many.txt")
    let lines = run("explain", path).output.split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix("      + task ") }.count == 200)
    #expect(lines.filter { $0.hasPrefix("      - task ") }.count == 200)
    #expect(lines.filter { $0.hasPrefix("      >> error: ") }.count == 200)  // leaked
    #expect(lines.filter { $0.hasPrefix("      !! ") }.count == 200)  // suspended with budget left
    #expect(lines.count == 3 + 200 * 5)
  }
}
