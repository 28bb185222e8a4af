import Foundation
import TestSupport
import Testing

@testable import BackgroundTrace

/// The `net.*` records laid out by hand from docs/FORMAT.md ("Record"), against the
/// encoder and against Traces/format/background-transfers.bgtrace.
@Suite struct TransferRecordLayoutTests {
  /// Each record as the table says: the tag byte (kind | flags << 5), the scaled time
  /// delta, the session's string index, the task's varint.
  @Test func eachTransferRecordIsWhatTheTableSays() {
    var encoder = ChunkEncoder(baseTime: 0)
    let events: [(TraceEvent.Kind, UInt64)] = [
      (.netCreate(session: "s"), 500_000_000),
      (.netSubmit(session: "s", task: 1, kind: .upload, discretionary: nil), 500_000_000),
      (.netSubmit(session: "s", task: 2, kind: .download, discretionary: true), 500_000_000),
      (.netSubmit(session: "s", task: 3, kind: .upload, discretionary: false), 750_000_000),
      (.netFinish(session: "s", task: 1, outcome: .success), 60_000_000_000),
      (.netFinish(session: "s", task: 2, outcome: .failed), 61_000_000_000),
      (.netFinish(session: "s", task: 3, outcome: .cancelled), 62_000_000_000),
      (.netWake(session: "s"), 62_000_000_000),
      (.netEventsDone(session: "s"), 62_001_000_000),
      (.netHandler(session: "s"), 62_001_000_000),
    ]
    for (kind, time) in events {
      let valid = encoder.append(kind, at: time)
      #expect(valid)
    }
    #expect(encoder.strings == ["s"])
    #expect(
      encoder.records.array == [
        0x15, 0xD2, 0x0F, 0x00,  // net.create (21), +500 ms (500 << 2 | 2 = 2002), "s"
        0x16, 0x00, 0x00, 0x01,  // net.submit (22), flags 0: upload, discretionary absent; task 1
        0x76, 0x00, 0x00, 0x02,  // flags 3 (bits 5–7 011): download | true (1) << 1; task 2
        0x96, 0xEA, 0x07, 0x00, 0x03,  // flags 4: upload | false (2) << 1; +250 ms; task 3
        0x17, 0xCA, 0xBB, 0x0E, 0x00, 0x01,  // net.finish (23), success (0); +59,250 ms (59250 << 2 | 2); task 1
        0x37, 0x07, 0x00, 0x02,  // flags 1: failed; +1 s; task 2
        0x57, 0x07, 0x00, 0x03,  // flags 2: cancelled; +1 s; task 3
        0x18, 0x00, 0x00,  // net.wake (24), +0
        0x19, 0x06, 0x00,  // net.events-done (25), +1 ms (1 << 2 | 2)
        0x1A, 0x00, 0x00,  // net.handler (26), +0
      ])
  }

  /// The vector's records after its string table, as the table says (the same layout
  /// in a file: a sealed chunk of the 16 events of background-transfers.txt).
  @Test func theVectorHoldsTheseRecords() throws {
    let bytes = [UInt8](
      try Data(contentsOf: Repository.traces.appendingPathComponent("format/background-transfers.bgtrace")))
    // The payload's string table: 2 strings, "com.example.upload" (18 bytes) and "system".
    let table: [UInt8] = [0x02, 0x12] + Array("com.example.upload".utf8) + [0x06] + Array("system".utf8)
    let start = try #require(bytes.firstRange(of: table)).upperBound
    #expect(
      Array(bytes[start...]) == [
        0x00, 0x00,  // app.launch at 0
        0x15, 0xD2, 0x0F, 0x00,  // 0.5 net.create
        0x16, 0xD2, 0x0F, 0x00, 0x01,  // 1 net.submit task=1 kind=upload
        0x76, 0x00, 0x00, 0x02,  // 1 net.submit task=2 kind=download discretionary=true
        0x96, 0xEA, 0x07, 0x00, 0x03,  // 1.25 net.submit task=3 kind=upload discretionary=false
        0x41, 0xBA, 0x17,  // 2 app.state to=background (+750 ms)
        0x61, 0x07,  // 3 app.state to=suspended
        0x17, 0xE7, 0x01, 0x00, 0x01,  // 60 net.finish task=1 success (+57 s: 57 << 2 | 3)
        0x37, 0x07, 0x00, 0x02,  // 61 net.finish task=2 failed
        0x57, 0x07, 0x00, 0x03,  // 62 net.finish task=3 cancelled
        0x22, 0x00, 0x01,  // 62 app.terminate reason=system
        0x00, 0x06,  // 62.001 app.launch
        0x18, 0x00, 0x00,  // 62.001 net.wake
        0x15, 0x8E, 0x03, 0x00,  // 62.1 net.create (+99 ms)
        0x19, 0xC2, 0x0C, 0x00,  // 62.5 net.events-done (+400 ms)
        0x1A, 0xEA, 0x07, 0x00,  // 62.75 net.handler (+250 ms)
      ])
  }
}
