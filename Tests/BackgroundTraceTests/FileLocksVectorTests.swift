import Foundation
import TestSupport
import Testing

@testable import BackgroundTrace

/// Traces/format-v4/file-locks: `file.lock` (39) and `file.unlock` (40), laid out from
/// their specs, written out here by hand from docs/FORMAT.md ("Spec layout").
@Suite struct FileLocksVectorTests {
  static let vector: [UInt8] = {
    let body: [UInt8] = [0x01, 0x08] + Array("platform".utf8) + [0x03] + Array("ios".utf8)
    let payload: [UInt8] =
      [0x01, 0x17] + Array("/AppGroup/drafts.sqlite".utf8)  // string table: 1 string, 23 bytes
      + [
        0x00, 0x00,  // app.launch at 0
        0x1E, 0x27, 0x2F, 0x00, 0x01,  // file.lock: tag 30, code 39, +11 s (11 << 2 | 3); path 0; shared 1
        0x1E, 0x28, 0x07, 0x00,  // file.unlock: code 40, +1 s; path 0
      ]
    let chunk = FormatVectorTests.chunkHeader(
      payload: payload, sequence: 0, firstEvent: 0, events: 3, baseTime: [0, 0, 0, 0, 0, 0, 0, 0])
    return FormatV4VectorTests.header(flags: 0x02, body: body) + chunk + payload
  }()

  @Test func theVectorIsLaidOutFromTheKindsSpecs() throws {
    let trace = try FormatV4VectorTests.expectVector("file-locks", isLaidOutAs: Self.vector)
    #expect(
      trace.events.map(\.kind).suffix(2) == [
        .fileLock(path: "/AppGroup/drafts.sqlite", shared: true), .fileUnlock(path: "/AppGroup/drafts.sqlite"),
      ])
  }
}
