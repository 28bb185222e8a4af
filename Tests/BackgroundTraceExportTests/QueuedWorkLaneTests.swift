import BackgroundTrace
import Testing

@testable import BackgroundTraceExport

/// A unique work's lane is named after the request that runs on it: an enqueue that
/// KEEP kept out, or one queued behind the running request (androidx APPEND, or a later
/// step of `beginUniqueWork`), does not rename it until the queued request is released.
@Suite struct QueuedWorkLaneTests {
  static let chain = """
    bgtrace 1
    meta platform=android
    0 app.launch
    0 work.enqueue work=digest name=FetchWorker policy=keep
    0 work.enqueue work=digest name=PostWorker policy=append
    0.1 work.start work=digest attempt=0
    5 work.enqueue work=digest name=OtherWorker policy=keep

    """

  @Test func aKeptOrQueuedRequestDoesNotNameTheLane() throws {
    let model = TimelineModel.build(try RecordedTrace(text: Self.chain), name: "digest.txt")
    #expect(model.works.map(\.label) == ["digest FetchWorker"])
    #expect(model.works.first?.enqueues == [TraceTime(seconds: 0), TraceTime(seconds: 0), TraceTime(seconds: 5)])
  }

  @Test func theReleasedRequestNamesTheLane() throws {
    let text =
      Self.chain + """
        10.1 work.result work=digest attempt=0 outcome=success
        10.2 work.start work=digest attempt=0
        13.2 work.result work=digest attempt=0 outcome=success

        """
    let model = TimelineModel.build(try RecordedTrace(text: text), name: "digest.txt")
    #expect(model.works.map(\.label) == ["digest PostWorker"])
    #expect(model.works.first?.attempts.map(\.start) == [TraceTime(seconds: 0.1), TraceTime(seconds: 10.2)])
  }
}
