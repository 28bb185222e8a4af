import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// Works of their own under one unique name (`work.enqueue unique=`, docs/events.md,
/// "Work requests"): a policy on the name acts on every work of it, as androidx
/// `EnqueueRunnable` acts on every request the name holds
/// (work/work-runtime/src/main/java/androidx/work/impl/utils/EnqueueRunnable.kt), and
/// cancelling the name cancels them all (`CancelWorkRunnable.forName`).
@Suite struct UniqueNameWorksTests {
  private func transitions(_ text: String) throws -> [LifecycleTransition] {
    let trace = try RecordedTrace(text: text)
    var walker = LifecycleWalker(meta: trace.meta)
    var transitions: [LifecycleTransition] = []
    for event in trace.events { walker.apply(event, into: &transitions) }
    return transitions
  }

  private func kept(_ transitions: [LifecycleTransition]) -> [String] {
    transitions.compactMap {
      if case .workEnqueued(let enqueue, .kept) = $0 { enqueue.work } else { nil }
    }
  }

  private func cancelled(_ transitions: [LifecycleTransition]) -> [String] {
    transitions.compactMap {
      if case .workCancelled(let work) = $0 { work } else { nil }
    }
  }

  /// `keep` on the name keeps the request out while one of the name's works is
  /// unfinished, though the name's own work finished (androidx: KEEP inserts nothing
  /// while a request of the name is ENQUEUED or RUNNING).
  @Test func keepKeepsOutWhileAWorkOfTheNameIsUnfinished() throws {
    let transitions = try transitions(
      """
      bgtrace 1
      meta platform=android
      0 app.launch
      0 work.enqueue work=sync policy=keep
      0 work.enqueue work=sync:2 unique=sync
      1 work.start work=sync attempt=0
      2 work.result work=sync attempt=0 outcome=success
      3 work.enqueue work=sync policy=keep
      4 work.enqueue work=sync:3 unique=sync policy=keep
      5 work.start work=sync:2 attempt=0
      6 work.result work=sync:2 attempt=0 outcome=success
      7 work.enqueue work=sync policy=keep

      """)
    #expect(kept(transitions) == ["sync", "sync:3"])
  }

  /// A work the app cancelled while its attempt runs no longer holds its name: androidx
  /// marks it CANCELLED at once, so `keep` enqueues, though its stop comes later.
  @Test func aWorkCancelledWhileRunningDoesNotKeepItsName() throws {
    let transitions = try transitions(
      """
      bgtrace 1
      meta platform=android
      0 app.launch
      0 work.enqueue work=sync:1 policy=replace unique=sync
      0.1 work.start work=sync:1 attempt=0
      5 work.cancel work=sync:1
      5 work.enqueue work=sync policy=keep
      5 work.stop work=sync:1 attempt=0 reason=cancelled

      """)
    #expect(kept(transitions).isEmpty)
  }

  /// `replace` on the name cancels each of its unfinished works; a work of them that
  /// starts after is a finished work started again.
  @Test func replaceCancelsEveryWorkOfTheName() throws {
    let text = """
      bgtrace 1
      meta platform=android
      0 app.launch
      0 work.enqueue work=sync:1 unique=sync policy=replace
      0 work.enqueue work=sync:2 unique=sync
      5 work.enqueue work=sync policy=replace
      6 work.start work=sync:2 attempt=0

      """
    #expect(cancelled(try transitions(text)) == ["sync:1", "sync:2"])
    let findings = TraceChecker.check(try RecordedTrace(text: text))
    #expect(findings.map(\.rule) == [.workAfterFinish])
    #expect(findings.first?.message == "work sync:2 started again after it was cancelled at 5s")
  }

  /// A work of its own that replaces the name cancels the name's own work too, and
  /// the other works enqueued beside it join the name without cancelling anything.
  @Test func aWorkOfItsOwnReplacesTheNamesOwnWork() throws {
    let transitions = try transitions(
      """
      bgtrace 1
      meta platform=android
      0 app.launch
      0 work.enqueue work=sync
      1 work.enqueue work=sync:1 unique=sync policy=replace
      1 work.enqueue work=sync:2 unique=sync
      2 work.cancel work=sync

      """)
    #expect(cancelled(transitions) == ["sync", "sync:1", "sync:2", "sync"])
  }

  /// `--why` on a work of its own names its unique name, and says what ended it while
  /// it waited, as the lifecycle model decides it: the name's replace, the app's cancel
  /// of the name, or an `appendOrReplace` after a work of the name failed, which deletes
  /// the others.
  @Test(arguments: [
    (
      "success", "10 work.enqueue work=sync policy=replace",
      "  10s: cancelled: the unique name sync was enqueued with policy replace."
    ),
    ("success", "10 work.cancel work=sync", "  10s: the app cancelled the unique name sync, and it with it."),
    (
      "failure", "10 work.enqueue work=sync policy=appendOrReplace",
      "  10s: cancelled: the unique name sync was enqueued with policy appendOrReplace."
    ),
  ])
  func whyNamesTheUniqueNameAndWhatEndedTheWork(outcome: String, end: String, line: String) throws {
    let trace = try RecordedTrace(
      text: """
        bgtrace 1
        meta platform=android
        0 app.launch
        0 work.enqueue work=a:1 policy=replace initial=60 unique=sync
        0 work.enqueue work=b:1 unique=sync
        0.1 work.start work=b:1 attempt=0
        0.1 work.result work=b:1 attempt=0 outcome=\(outcome)
        \(end)

        """)
    #expect(
      RequestHistory(of: "a:1", in: trace)?.lines == [
        "work a:1",
        "  0s: enqueued (under the unique name sync; initial delay 60s; policy replace).",
        "  0s to 10s (10s): not due: its initial delay (60s) had not passed.",
        line,
      ])
  }

  /// `diff` numbers a unique name as it numbers the work it names: two runs that gave
  /// the name and its works other ids compare equal, and a work put under another name
  /// does not.
  @Test func diffRenamesAUniqueNameAsAWork() throws {
    func trace(_ name: String, _ work: String, under unique: String) throws -> RecordedTrace {
      try RecordedTrace(
        text: """
          bgtrace 1
          0 work.enqueue work=\(name) policy=replace
          1 work.enqueue work=\(work) policy=append unique=\(unique)
          1 work.after work=\(work) prerequisite=\(name)

          """)
    }
    let expected = try trace("sync", "a:1", under: "sync")
    #expect(TraceDiff(expected: expected, actual: try trace("feed", "b:1", under: "feed")).isEqual)
    #expect(!TraceDiff(expected: expected, actual: try trace("feed", "b:1", under: "other")).isEqual)
  }
}
