import Foundation
import TestSupport
import Testing

@testable import BackgroundTrace

/// Traces/format-v4/request-id: `work.enqueue`'s `request` field (the request's id,
/// androidx `WorkRequest.getId()`), in the record's suffix, laid out here by hand from
/// docs/FORMAT.md ("Record suffixes"). An enqueue without it keeps the bytes it had
/// before.
@Suite struct RequestIDVectorTests {
  static let id = "7e4b9c2a-1f3d-4e5a-9b8c-0d1e2f3a4b5c"

  static let vector: [UInt8] = {
    let payload: [UInt8] =
      [0x02, 0x01] + Array("w".utf8) + [0x24] + Array(id.utf8)  // string table: w 0, the id 1
      + [
        0x00, 0x00,  // app.launch at 0
        // the suffix marker: tag code 30 with flags 1, 30 | 1 << 5;
        // work.enqueue, flags 0; +1 s: (1 << 2) | 3 = 7; presence 0; work 0;
        // the suffix: presence bit 0 (request), string 1
        0x3E, 0x0D, 0x07, 0x00, 0x00, 0x01, 0x01,
        // the same with policy=update: presence 0x20 (policy), policy code 4 (update)
        0x3E, 0x0D, 0x00, 0x20, 0x00, 0x04, 0x01, 0x01,
      ]
    return FormatV4VectorTests.androidFile(payload: payload, events: 3)
  }()

  @Test func theVectorIsLaidOutAsTheFormatSays() throws {
    let trace = try FormatV4VectorTests.expectVector("request-id", isLaidOutAs: Self.vector)
    let request = try #require(WorkRequestID(Self.id))
    #expect(trace.events[1].kind == .workEnqueue(WorkEnqueue(work: "w", request: request)))
    #expect(trace.events[2].kind == .workEnqueue(WorkEnqueue(work: "w", policy: .update, request: request)))
  }

  /// An enqueue without an id keeps the bytes it had: no marker, no suffix.
  @Test func anEnqueueWithoutAnIDKeepsItsBytes() throws {
    let plain = try RecordedTrace(text: "bgtrace 1\n0 work.enqueue work=w\n")
    #expect(try plain.binary().suffix(4) == [0x0D, 0x00, 0x00, 0x00])
  }

  /// What a suffix must not be: each is a malformed record, named.
  @Test(
    arguments: [
      // the marker before a kind that takes no suffix (work.start)
      ([0x3E, 0x0E, 0x00, 0x00, 0x00], "a record suffix on a kind that takes none"),
      // a suffix whose presence bits name no field
      ([0x3E, 0x0D, 0x00, 0x00, 0x00, 0x00, 0x01], "work.enqueue: bad suffix presence bits"),
      // a request id that is not a UUID (string 0 is "w")
      ([0x3E, 0x0D, 0x00, 0x00, 0x00, 0x01, 0x00], "work.enqueue: bad request id"),
      // the suffix cut off before its string
      ([0x3E, 0x0D, 0x00, 0x00, 0x00, 0x01], "string reference out of range"),
    ] as [([UInt8], String)])
  func aBadSuffixIsMalformed(record: [UInt8], message: String) throws {
    let error = try #require(SpecLayoutTests.malformation(ofRecord: record, strings: ["w", Self.id]))
    #expect(error.message == message)
  }

  /// The text form refuses an id that is not a UUID, naming the field, the position
  /// and what was found.
  @Test func aRequestThatIsNotAUUIDIsBadInput() {
    let text = "bgtrace 1\n0 work.enqueue work=w request=7e4b9c2a-1f3d-4e5a-9b8c-0d1e2f3a4b5g\n"
    let error = #expect(throws: TraceFormatError.self) { try RecordedTrace(text: text, file: "t.txt") }
    #expect(error?.file == "t.txt")
    #expect(
      error?.message.contains("expected a UUID (8-4-4-4-12 hex digits), found \"7e4b9c2a-1f3d-4e5a-9b8c-0d1e2f3a4b5g\"")
        == true, "\(String(describing: error))")
  }
}
