import Foundation
import TestSupport
import Testing

@testable import BackgroundTrace

/// Traces/format-v4/initial-delay: `work.enqueue`'s `initial` field (the initial delay,
/// androidx `setInitialDelay`), behind the record's flags bit 0 and written after every
/// field of the presence byte, laid out here by hand from docs/FORMAT.md. An enqueue
/// without it keeps the bytes it had before.
@Suite struct InitialDelayVectorTests {
  static let vector: [UInt8] = {
    let payload: [UInt8] =
      [0x01, 0x01] + Array("w".utf8)  // string table: w 0
      + [
        0x00, 0x00,  // app.launch at 0
        // work.enqueue, flags 1 (initial): 13 | 1 << 5; +1 s; presence 0; work 0;
        // initial 900 s: (900 << 2) | 3 = 3603, a varint 0x93 0x1C
        0x2D, 0x07, 0x00, 0x00, 0x93, 0x1C,
        0x0E, 0x93, 0x1C, 0x00, 0x00,  // work.start, +900 s; work 0, attempt 0
      ]
    return FormatV4VectorTests.androidFile(payload: payload, events: 3)
  }()

  @Test func theVectorIsLaidOutAsTheFormatSays() throws {
    let trace = try FormatV4VectorTests.expectVector("initial-delay", isLaidOutAs: Self.vector)
    #expect(
      trace.events[1].kind
        == .workEnqueue(WorkEnqueue(work: "w", initialDelay: TraceInterval(nanoseconds: 900_000_000_000))))
  }

  /// An enqueue without `initial=` keeps the bytes it had: flags 0 and nothing after
  /// the presence byte's fields (the scheduler-and-work example of docs/FORMAT.md).
  @Test func anEnqueueWithoutAnInitialDelayKeepsItsBytes() throws {
    let plain = try RecordedTrace(text: "bgtrace 1\n0 work.enqueue work=w expedited=drop\n").binary()
    let delayed = try RecordedTrace(text: "bgtrace 1\n0 work.enqueue work=w expedited=drop initial=0.5\n")
    let withField = try delayed.binary()
    #expect(plain.suffix(5) == [0x0D, 0x00, 0x80, 0x00, 0x01])
    #expect(withField.suffix(7) == [0x2D, 0x00, 0x80, 0x00, 0x01, 0xD2, 0x0F])  // 500 ms: (500 << 2) | 2 = 2002
    #expect(try RecordedTrace.decode(binary: withField).trace == delayed)
  }

  /// `needs=` (the constraints) is behind flags bit 1, after the initial delay: a varint
  /// whose bit N is `WorkConstraint`'s case N (network 0, charging 4).
  @Test func theConstraintsFollowTheInitialDelay() throws {
    let needs = try RecordedTrace(text: "bgtrace 1\n0 work.enqueue work=w needs=network+charging\n")
    #expect(try needs.binary().suffix(5) == [0x4D, 0x00, 0x00, 0x00, 0x11])
    let both = try RecordedTrace(text: "bgtrace 1\n0 work.enqueue work=w initial=0.5 needs=charging+network\n")
    #expect(try both.binary().suffix(7) == [0x6D, 0x00, 0x00, 0x00, 0xD2, 0x0F, 0x11])
    #expect(try RecordedTrace.decode(binary: try both.binary()).trace == both)
    #expect(TextTraceWriter.line(for: both.events[0]) == "0 work.enqueue work=w initial=0.5 needs=network+charging")
  }

  /// Constraint bits no constraint has, and words that name none, are refused.
  @Test func unknownConstraintsAreMalformed() {
    let record: [UInt8] = [0x4D, 0x00, 0x00, 0x00, 0x80, 0x04]  // bit 9
    let error = SpecLayoutTests.malformation(ofRecord: record, strings: ["w"])
    #expect(error?.message.hasPrefix("work.enqueue: bad needs") == true, "\(String(describing: error))")
    #expect(throws: TraceFormatError.self) {
      try RecordedTrace(text: "bgtrace 1\n0 work.enqueue work=w needs=wifi\n")
    }
  }
}
