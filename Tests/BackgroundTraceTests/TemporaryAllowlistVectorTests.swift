import Foundation
import TestSupport
import Testing

@testable import BackgroundTrace

/// Traces/format-v4/temporary-allowlist: `app.allowlist` (38), laid out from its spec,
/// written out here by hand from docs/FORMAT.md ("Spec layout").
@Suite struct TemporaryAllowlistVectorTests {
  static let vector: [UInt8] = {
    let payload: [UInt8] = [
      0x00,  // string table: empty
      0x00, 0x00,  // app.launch at 0
      0x1E, 0x26, 0x07, 0x00, 0x2B,  // app.allowlist: tag 30, code 38, +1 s; fcm-high-priority = 0; 10 s = 10<<2|3
      0x1E, 0x26, 0x00, 0x02, 0x7B,  // app.allowlist, +0; notification = 2; 30 s = 30<<2|3
    ]
    return FormatV4VectorTests.androidFile(payload: payload, events: 3)
  }()

  @Test func theVectorIsLaidOutFromTheKindsSpec() throws {
    let trace = try FormatV4VectorTests.expectVector("temporary-allowlist", isLaidOutAs: Self.vector)
    #expect(
      trace.events.map(\.kind).suffix(2) == [
        .appAllowlist(reason: .fcmHighPriority, duration: TraceInterval(nanoseconds: 10_000_000_000)),
        .appAllowlist(reason: .notification, duration: TraceInterval(nanoseconds: 30_000_000_000)),
      ])
  }
}
