import Foundation
import TestSupport
import Testing

@testable import BackgroundTrace

/// Traces/format-v4/expire-reason: `sched.expire`'s `reason=` (flags bit 0, then a byte
/// after the run: 0 stalled, 1 user), written out here by hand from docs/FORMAT.md. A
/// user's cancel of a continued-processing task and the system's expiry of a stalled
/// one were both a bare `sched.expire`; an expiry with no reason keeps its bytes.
@Suite struct ExpireReasonVectorTests {
  static let vector: [UInt8] = {
    let body: [UInt8] = [0x01, 0x08] + Array("platform".utf8) + [0x03] + Array("ios".utf8)
    let payload: [UInt8] =
      [0x03, 0x14] + Array("com.example.export.1".utf8) + [0x14] + Array("com.example.export.2".utf8) + [0x14]
      + Array("com.example.export.3".utf8)
      + [
        0x00, 0x00,  // app.launch at 0
        0x4A, 0x07, 0x00,  // sched.launch, flags 2 (predicted run 1), +1 s; ident 0
        0x6B, 0x7B, 0x00,  // sched.expire, flags 3 (reason, predicted run 1), +30 s; stalled 0
        0x4C, 0x00,  // sched.complete, flags 2 (predicted run 1, success false), +0
        0x4A, 0x07, 0x01,  // sched.launch, flags 2 (predicted run 2), +1 s; ident 1
        0x6B, 0x17, 0x01,  // sched.expire, flags 3 (reason, predicted run 2), +5 s; user 1
        0x4C, 0x00,  // sched.complete, +0
        0x4A, 0x07, 0x02,  // sched.launch, flags 2 (predicted run 3), +1 s; ident 2
        0x4B, 0x0B,  // sched.expire, flags 2 (predicted run 3), +2 s: no reason, as before
        0x6C, 0x00,  // sched.complete, flags 3 (success, predicted run 3), +0
      ]
    let chunk = FormatVectorTests.chunkHeader(
      payload: payload, sequence: 0, firstEvent: 0, events: 10, baseTime: [0, 0, 0, 0, 0, 0, 0, 0])
    return FormatV4VectorTests.header(flags: 0x02, body: body) + chunk + payload
  }()

  @Test func theVectorIsLaidOutAsTheFormatSays() throws {
    let trace = try FormatV4VectorTests.expectVector("expire-reason", isLaidOutAs: Self.vector)
    #expect(
      trace.events.compactMap { event -> ExpirationReason?? in
        guard case .schedExpire(_, let reason) = event.kind else { return nil }
        return .some(reason)
      } == [.stalled, .user, nil])
  }

  /// An expiry with no reason keeps the bytes it had before the reason existed, with
  /// predicted identifiers and without.
  @Test func anExpiryWithNoReasonKeepsItsBytes() throws {
    let trace = try RecordedTrace(text: "bgtrace 1\n0 sched.launch ident=r run=1\n1 sched.expire run=1\n")
    #expect(try trace.binary().suffix(2) == [0x4B, 0x07])  // predicted run, +1 s
    var unpredicted = ChunkEncoder(baseTime: 0)
    for event in trace.events { unpredicted.append(event) }
    #expect(unpredicted.payload().suffix(3) == [0x0B, 0x07, 0x00])  // run delta 0, as in version 1
  }

  /// A reason byte no reason has, and the reason bit on a record cut before its byte,
  /// are malformed.
  @Test func aBadReasonIsMalformed() {
    for record: [UInt8] in [[0x2B, 0x00, 0x02, 0x02], [0x2B, 0x00, 0x02]] {
      // sched.expire, flags 1 (reason), +0; run delta ZigZag(1); reason 2 (none) / cut
      let error = SpecLayoutTests.malformation(ofRecord: record, strings: ["w"])
      #expect(error?.message.hasPrefix("sched.expire: ") == true, "\(String(describing: error))")
    }
  }
}
