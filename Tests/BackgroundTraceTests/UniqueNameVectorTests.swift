import Foundation
import TestSupport
import Testing

@testable import BackgroundTrace

/// Traces/format-v4/unique-name: `work.enqueue`'s `unique` field (the unique name a
/// work of its own is enqueued under), suffix bit 1, after the request's id, laid out
/// here by hand from docs/FORMAT.md ("Record suffixes").
@Suite struct UniqueNameVectorTests {
  static let vector: [UInt8] = {
    let payload: [UInt8] =
      [0x03, 0x01] + Array("w".utf8) + [0x24] + Array(RequestIDVectorTests.id.utf8) + [0x04] + Array("sync".utf8)
      + [
        0x00, 0x00,  // app.launch at 0
        // marker; work.enqueue, flags 0; +1 s: (1 << 2) | 3 = 7; presence 0x20 (policy),
        // work 0, policy code 1 (keep); the suffix: bits 0 and 1, the request (string 1),
        // the unique name (string 2)
        0x3E, 0x0D, 0x07, 0x20, 0x00, 0x01, 0x03, 0x01, 0x02,
        // marker; work.enqueue, +0; presence 0; work 0; the suffix: bit 1, string 2
        0x3E, 0x0D, 0x00, 0x00, 0x00, 0x02, 0x02,
      ]
    return FormatV4VectorTests.androidFile(payload: payload, events: 3)
  }()

  @Test func theVectorIsLaidOutAsTheFormatSays() throws {
    let trace = try FormatV4VectorTests.expectVector("unique-name", isLaidOutAs: Self.vector)
    let request = try #require(WorkRequestID(RequestIDVectorTests.id))
    #expect(
      trace.events[1].kind == .workEnqueue(WorkEnqueue(work: "w", policy: .keep, request: request, uniqueName: "sync")))
    #expect(trace.events[2].kind == .workEnqueue(WorkEnqueue(work: "w", uniqueName: "sync")))
  }

  /// A suffix bit beyond the two fields is malformed.
  @Test func anUnknownSuffixBitIsMalformed() throws {
    let error = try #require(
      SpecLayoutTests.malformation(ofRecord: [0x3E, 0x0D, 0x00, 0x00, 0x00, 0x04, 0x00], strings: ["w"]))
    #expect(error.message == "work.enqueue: bad suffix presence bits")
  }
}
