import BackgroundTrace
import Testing

@testable import BackgroundTraceExport

/// A REPLACE enqueue while the work's attempt runs starts a new request (androidx:
/// `ExistingWorkPolicy.REPLACE` cancels the running work and enqueues the new request,
/// with its own id): the timeline draws the new request on a lane of its own, and the
/// replaced request's attempt ends on its lane when its stop comes, not when the new
/// one starts.
@Suite struct ReplacedWorkLaneTests {
  static func model(_ body: String) throws -> TimelineModel {
    TimelineModel.build(try RecordedTrace(text: "bgtrace 1\nmeta platform=android\n" + body), name: "replace.txt")
  }

  @Test func theReplacementHasALaneOfItsOwn() throws {
    let model = try Self.model(
      """
      0 app.launch
      0 work.enqueue work=sync name=SyncWorker request=aaaaaaaa-0000-4000-8000-000000000001
      0.1 work.start work=sync attempt=0
      10 work.enqueue work=sync name=SyncWorker policy=replace request=bbbbbbbb-0000-4000-8000-000000000002
      10 work.stop work=sync attempt=0 reason=cancelled
      10.1 work.start work=sync attempt=0
      70.1 work.result work=sync attempt=0 outcome=success

      """)
    #expect(model.works.map(\.label) == ["sync SyncWorker (replaced)", "sync SyncWorker"])
    let replaced = try #require(model.works.first?.attempts.first)
    #expect(replaced.start == TraceTime(seconds: 0.1) && replaced.end == TraceTime(seconds: 10))
    #expect(replaced.outcome == .stopped && replaced.stopReason == "cancelled")
    let replacement = try #require(model.works.last?.attempts.first)
    #expect(replacement.start == TraceTime(seconds: 10.1) && replacement.end == TraceTime(seconds: 70.1))
    #expect(replacement.outcome == .success)
    #expect(model.works.last?.enqueues == [TraceTime(seconds: 10)])
  }

  /// On a device the replaced worker may return after all (its result is ignored by
  /// WorkManager): the late result ends its attempt on its own lane. Requests that do
  /// not overlap, a REPLACE after the first finished, share one lane.
  @Test func aLateResultEndsTheReplacedAttemptAndSequentialRequestsShareALane() throws {
    let late = try Self.model(
      """
      0 app.launch
      1 work.enqueue work=sync
      1 work.start work=sync attempt=0
      2 work.enqueue work=sync policy=replace
      3 work.result work=sync attempt=0 outcome=success
      4 work.start work=sync attempt=0
      5 work.result work=sync attempt=0 outcome=success

      """)
    #expect(late.works.map(\.label) == ["sync (replaced)", "sync"])
    #expect(late.works.first?.attempts.map(\.end) == [TraceTime(seconds: 3)])
    #expect(late.works.first?.attempts.first?.outcome == .success)
    let sequential = try Self.model(
      """
      0 app.launch
      1 work.enqueue work=sync
      1 work.start work=sync attempt=0
      2 work.result work=sync attempt=0 outcome=success
      3 work.enqueue work=sync policy=replace
      4 work.start work=sync attempt=0
      5 work.result work=sync attempt=0 outcome=success

      """)
    #expect(sequential.works.map(\.label) == ["sync"])
    #expect(sequential.works.first?.attempts.count == 2)
  }
}
