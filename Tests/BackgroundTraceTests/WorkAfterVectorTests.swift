import Foundation
import TestSupport
import Testing

@testable import BackgroundTrace

/// Traces/format-v4/work-after: `work.after` (43), laid out from its spec, written out
/// here by hand from docs/FORMAT.md ("Spec layout"): two required strings, no
/// presence bits.
@Suite struct WorkAfterVectorTests {
  static let vector: [UInt8] = {
    let payload: [UInt8] =
      [0x02]  // string table: 2 strings, in the order first used
      + [0x03] + Array("a:1".utf8) + [0x03] + Array("b:1".utf8)
      + [
        0x00, 0x00,  // app.launch at 0
        0x0D, 0x00, 0x00, 0x00,  // work.enqueue, +0; presence 0; work 0
        0x0D, 0x00, 0x00, 0x01,  // work.enqueue, +0; presence 0; work 1
        0x1E, 0x2B, 0x00, 0x01, 0x00,  // work.after: tag 30, code 43, +0; work 1; prerequisite 0
      ]
    return FormatV4VectorTests.androidFile(payload: payload, events: 4)
  }()

  @Test func theVectorIsLaidOutFromTheKindsSpec() throws {
    let trace = try FormatV4VectorTests.expectVector("work-after", isLaidOutAs: Self.vector)
    #expect(trace.events.last?.kind == .workAfter(work: "b:1", prerequisite: "a:1"))
  }
}
