import Foundation
import TestSupport
import Testing

@testable import BackgroundTrace

/// Traces/format-v4/long-running-work: `work.quota` (37) and `work.refuse` (36), laid
/// out from their specs, written out here by hand from docs/FORMAT.md ("Spec layout").
@Suite struct LongRunningWorkVectorTests {
  static let vector: [UInt8] = {
    let payload: [UInt8] =
      [0x02, 0x06] + Array("upload".utf8) + [0x04] + Array("sync".utf8)  // string table: upload 0, sync 1
      + [
        0x00, 0x00,  // app.launch at 0
        0x0D, 0x07, 0x80, 0x00, 0x01,  // work.enqueue, +1 s; presence bit 7 (expedited); work 0; drop = 1
        0x1E, 0x25, 0x00, 0x00, 0x01,  // work.quota: tag 30, code 37, +0; work 0; policy drop = 1
        0x0E, 0x07, 0x01, 0x00,  // work.start, +1 s; work 1, attempt 0
        0x1E, 0x23, 0x00, 0x01, 0x00,  // work.foreground (35), +0; work 1, attempt 0
        0x1E, 0x24, 0x00, 0x01, 0x00, 0x00,  // work.refuse (36), +0; work 1, attempt 0, background = 0
      ]
    return FormatV4VectorTests.androidFile(payload: payload, events: 6)
  }()

  @Test func theVectorIsLaidOutFromTheKindsSpecs() throws {
    let trace = try FormatV4VectorTests.expectVector("long-running-work", isLaidOutAs: Self.vector)
    #expect(
      trace.events.map(\.kind).suffix(4) == [
        .workQuota(work: "upload", policy: .drop), .workStart(work: "sync", attempt: 0),
        .workForeground(work: "sync", attempt: 0), .workRefuse(work: "sync", attempt: 0, reason: .background),
      ])
  }
}
