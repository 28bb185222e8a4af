import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// What the checker, `explain --why` and `diff` do with `work.enqueue request=`, the
/// request's own id (docs/events.md, "Work requests"), on traces written by hand.
@Suite struct WorkRequestIdentityTests {
  static let first = "7e4b9c2a-1f3d-4e5a-9b8c-0d1e2f3a4b5c"
  static let second = "0b6d3f1e-2a4c-4e8f-9a1b-3c5d7e9f1a2b"

  /// A request running, a second appended behind it with `limit=1`, and an update to
  /// `limit=3` naming `updated`; the second is released at 100 s and retries at attempt 0
  /// and 1, then `last` follows.
  private static func appendedThenUpdated(_ updated: String, last: String) throws -> RecordedTrace {
    try RecordedTrace(
      text: """
        bgtrace 1
        meta platform=android
        0 work.enqueue work=sync request=\(first)
        0 work.enqueue work=sync limit=1 policy=append request=\(second)
        0 work.enqueue work=sync limit=3 policy=update request=\(updated)
        0.1 work.start work=sync attempt=0
        100 work.result work=sync attempt=0 outcome=success
        100.1 work.start work=sync attempt=0
        100.1 work.result work=sync attempt=0 outcome=retry
        130.2 work.start work=sync attempt=1
        130.2 work.result work=sync attempt=1 outcome=retry
        \(last)

        """)
  }

  /// An update that names a request queued behind the running one applies to the
  /// queued one (androidx `WorkerUpdater.updateWorkImpl` finds the WorkSpec by id): the
  /// released request is held to its new retry limit, 3, and its attempt 1 retry is no
  /// finding; the running request's settings stay as they were.
  @Test func anUpdateOfAQueuedRequestAppliesToIt() throws {
    let trace = try Self.appendedThenUpdated(Self.second, last: "190.3 work.start work=sync attempt=2")
    #expect(TraceChecker.check(trace).map(\.rule) == [])
  }

  /// The near miss: the same update naming the running request leaves the queued one's
  /// limit at 1, and its retry at attempt 1 goes past it.
  @Test func anUpdateOfTheRunningRequestLeavesTheQueuedOnesLimit() throws {
    let trace = try Self.appendedThenUpdated(Self.first, last: "190.3 work.start work=sync attempt=2")
    #expect(TraceChecker.check(trace).map(\.rule) == [.workRetryLimit])
  }

  /// `explain --why` takes a request's id: the history of the work that holds it.
  @Test func whyTakesARequestsID() throws {
    let trace = try RecordedTrace(
      text: """
        bgtrace 1
        meta platform=android
        0 work.enqueue work=sync request=\(Self.first)
        0.1 work.start work=sync attempt=0
        5 work.result work=sync attempt=0 outcome=success

        """)
    let byID = try #require(RequestHistory(of: Self.first, in: trace))
    #expect(byID == RequestHistory(of: "sync", in: trace))
    #expect(byID.lines.first == "work sync")
    #expect(RequestHistory(of: Self.second, in: trace) == nil)
  }

  /// `diff` numbers request ids by first appearance, as it numbers work: two runs whose
  /// seeds gave their requests other ids compare equal, and a request id in one place
  /// of one trace and another place of the other does not.
  @Test func diffRenamesRequestIDs() throws {
    func trace(_ a: String, _ b: String) throws -> RecordedTrace {
      try RecordedTrace(
        text: """
          bgtrace 1
          0 work.enqueue work=sync request=\(a)
          1 work.enqueue work=sync policy=update request=\(b)

          """)
    }
    #expect(TraceDiff(expected: try trace(Self.first, Self.first), actual: try trace(Self.second, Self.second)).isEqual)
    #expect(!TraceDiff(expected: try trace(Self.first, Self.first), actual: try trace(Self.first, Self.second)).isEqual)
  }
}
