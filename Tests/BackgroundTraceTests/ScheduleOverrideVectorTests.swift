import Foundation
import TestSupport
import Testing

@testable import BackgroundTrace

/// Traces/format-v4/schedule-override: `work.enqueue`'s `override` field (periodic work's
/// next schedule time override, androidx `setNextScheduleTimeOverride`), behind the
/// record's flags bit 2 and written after `needs`, laid out here by hand from
/// docs/FORMAT.md. An enqueue without it keeps the bytes it had before.
@Suite struct ScheduleOverrideVectorTests {
  static let vector: [UInt8] = {
    let payload: [UInt8] =
      [0x01, 0x01] + Array("w".utf8)  // string table: w 0
      + [
        0x00, 0x00,  // app.launch at 0
        // work.enqueue, flags 4 (override): 13 | 4 << 5; +1 s; presence 0x10 (period); work 0;
        // period 3600 s: (3600 << 2) | 3 = 14403, a varint 0xC3 0x70;
        // override at 7200 s: (7200 << 2) | 3 = 28803, a varint 0x83 0xE1 0x01
        0x8D, 0x07, 0x10, 0x00, 0xC3, 0x70, 0x83, 0xE1, 0x01,
        // work.start, +7199 s: (7199 << 2) | 3 = 28799, 0xFF 0xE0 0x01; work 0, attempt 0
        0x0E, 0xFF, 0xE0, 0x01, 0x00, 0x00,
      ]
    return FormatV4VectorTests.androidFile(payload: payload, events: 3)
  }()

  @Test func theVectorIsLaidOutAsTheFormatSays() throws {
    let trace = try FormatV4VectorTests.expectVector("schedule-override", isLaidOutAs: Self.vector)
    #expect(
      trace.events[1].kind
        == .workEnqueue(
          WorkEnqueue(
            work: "w", period: TraceInterval(nanoseconds: 3_600_000_000_000),
            nextScheduleTimeOverride: TraceTime(nanoseconds: 7_200_000_000_000))))
  }

  /// `override=` follows `initial=` and `needs=` when they are there too, and an enqueue
  /// without it keeps the bytes it had (flags bits 0 and 1 only).
  @Test func theOverrideFollowsTheConstraints() throws {
    let plain = try RecordedTrace(text: "bgtrace 1\n0 work.enqueue work=w initial=0.5 needs=charging\n")
    #expect(try plain.binary().suffix(7) == [0x6D, 0x00, 0x00, 0x00, 0xD2, 0x0F, 0x10])
    let all = try RecordedTrace(text: "bgtrace 1\n0 work.enqueue work=w initial=0.5 needs=charging override=2\n")
    // flags 7: 13 | 7 << 5 = 0xED; 2 s: (2 << 2) | 3 = 11
    #expect(try all.binary().suffix(8) == [0xED, 0x00, 0x00, 0x00, 0xD2, 0x0F, 0x10, 0x0B])
    #expect(try RecordedTrace.decode(binary: try all.binary()).trace == all)
  }

  /// A record that announces the override and ends before it is damaged, not misread.
  @Test func aMissingOverrideIsMalformed() {
    let record: [UInt8] = [0x8D, 0x00, 0x00, 0x00]  // flags 4, nothing after the work
    let error = SpecLayoutTests.malformation(ofRecord: record, strings: ["w"])
    #expect(error != nil)
  }
}
