import BackgroundTraceCLI
import Foundation
import TestSupport
import Testing

/// `bgtrace diff` leaves the meta lines out unless `--meta` is given, and `--time order`
/// ignores every time, the events' and their time fields', and shows none.
@Suite struct DiffMetaAndTimeTests {
  let folder: TraceFolder

  init() throws { folder = try TraceFolder() }

  static func trace(seed: Int, earliest: String = "60", end: String = "3") -> String {
    """
    bgtrace 1
    meta seed=\(seed) platform=ios
    0 app.launch
    1 task.begin id=1 name=Save
    2 sched.submit ident=refresh type=refresh earliest=\(earliest)
    \(end) task.end id=1
    4 app.state to=suspended

    """
  }

  @Test func tracesThatDifferOnlyInMetaAreTheSameWithANote() throws {
    let expected = try folder.write(Self.trace(seed: 8), to: "seed8.txt")
    let actual = try folder.write(Self.trace(seed: 13), to: "seed13.txt")
    let result = run("diff", expected, actual)
    #expect(result.status == .success)
    #expect(result.output == "")
    #expect(
      result.errors
        == "bgtrace: note: the meta lines differ (not compared): expected 'meta seed=8 platform=ios', found 'meta seed=13 platform=ios'; pass --meta to compare them\n"
    )
    let same = run("diff", expected, expected)
    #expect(same.status == .success)
    #expect(same.errors == "")
  }

  @Test func metaComparesWithTheMetaOption() throws {
    let expected = try folder.write(Self.trace(seed: 8), to: "seed8.txt")
    let actual = try folder.write(Self.trace(seed: 13), to: "seed13.txt")
    let result = run("diff", "--meta", expected, actual)
    #expect(result.status == .findings)
    #expect(result.errors == "")
    #expect(
      result.output == """
        first divergence at event 0: expected 'meta seed=8 platform=ios', found 'meta seed=13 platform=ios'
        --- \(expected)
        +++ \(actual)
        @@ -1,5 +1,5 @@
         bgtrace 1
        -meta seed=8 platform=ios
        +meta seed=13 platform=ios
         0 app.launch
         1 task.begin id=1 name=Save
         2 sched.submit ident=refresh type=refresh earliest=60

        """)
  }

  /// Without `--meta` the meta line is not shown, and hunk headers still count the
  /// lines of the canonical text, meta line included.
  @Test func hunksCountTheMetaLineTheyDoNotShow() throws {
    let expected = try folder.write(Self.trace(seed: 8), to: "seed8.txt")
    let actual = try folder.write(Self.trace(seed: 13, end: "3.5"), to: "seed13.txt")
    let result = run("diff", expected, actual)
    #expect(result.status == .findings)
    #expect(
      result.output == """
        first divergence at event 4: expected '3 task.end id=1', found '3.5 task.end id=1'
        --- \(expected)
        +++ \(actual)
        @@ -3,5 +3,5 @@
         0 app.launch
         1 task.begin id=1 name=Save
         2 sched.submit ident=refresh type=refresh earliest=60
        -3 task.end id=1
        +3.5 task.end id=1
         4 app.state to=suspended

        """)
  }

  /// `earliest=` is a field of type seconds in the vocabulary: it compares as times do.
  @Test func timeFieldsCompareAsTimes() throws {
    let expected = try folder.write(Self.trace(seed: 8), to: "e.txt")
    let later = try folder.write(Self.trace(seed: 8, earliest: "60.5"), to: "l.txt")
    let exact = run("diff", expected, later)
    #expect(exact.status == .findings)
    #expect(
      exact.output.hasPrefix(
        "first divergence at event 3: expected '2 sched.submit ident=refresh type=refresh earliest=60', found '2 sched.submit ident=refresh type=refresh earliest=60.5'\n"
      ))
    #expect(run("diff", "--time", "order", expected, later).status == .success)
    #expect(run("diff", "--time", "tolerance=0.5", expected, later).status == .success)
    #expect(run("diff", "--time", "tolerance=0.4", expected, later).status == .findings)
  }

  /// Under `--time order` no line shows a time, so none mixes the two files' times.
  @Test func orderOnlyShowsNoTimes() throws {
    let expected = try folder.write(Self.trace(seed: 8), to: "e.txt")
    let actual = try folder.write(
      Self.trace(seed: 8, earliest: "90").replacingOccurrences(
        of: "1 task.begin id=1 name=Save\n", with: "1 task.begin id=1 name=Save\n1.5 mark label=saving\n"),
      to: "a.txt")
    let result = run("diff", "--time", "order", expected, actual)
    #expect(result.status == .findings)
    #expect(
      result.output == """
        first divergence at event 3: the actual trace has an extra 'mark label=saving'
        --- \(expected)
        +++ \(actual)
        @@ -3,5 +3,6 @@
         app.launch
         task.begin id=1 name=Save
        +mark label=saving
         sched.submit ident=refresh type=refresh earliest=*
         task.end id=1
         app.state to=suspended

        """)
  }
}
