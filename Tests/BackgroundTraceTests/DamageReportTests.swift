import BackgroundTrace
import Foundation
import TestSupport
import Testing

/// What the reader says about damage is true: exact counts where the format knows them,
/// "at least" where it does not, and the damaged bytes named where they are
/// (docs/FORMAT.md, "Reading, and what counts as damage").
@Suite struct DamageReportTests {
  /// A recorder's file of 11 events on a manual clock: log chunk 0 at byte 24 holds
  /// events 1–7 and is sealed by the `app.state to=background` event (its committed body
  /// is 26 bytes, so it ends at 98); log chunk 1 at byte 104 holds events 8–11 (18 body
  /// bytes) and is sealed by `close()`. 170 bytes in all.
  static func recorderFile() throws -> [UInt8] {
    let directory = try TemporaryDirectory()
    let path = directory.path("eleven.bgtrace")
    let recorder = try TraceRecorder(writingTo: path, clock: ManualClock())
    let kinds: [TraceEvent.Kind] = [
      .appLaunch, .appState(to: .active), .taskBegin(id: 1, name: "A"), .taskEnd(id: 1), .taskBegin(id: 2, name: "B"),
      .taskEnd(id: 2), .appState(to: .background), .taskBegin(id: 3, name: "C"), .taskEnd(id: 3),
      .appState(to: .suspended), .mark(label: "x"),
    ]
    for (second, kind) in kinds.enumerated() { recorder.record(kind, at: TraceTime(seconds: Double(second))) }
    try recorder.close()
    return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  @Test func theLayoutTheseTestsAssume() throws {
    let bytes = try Self.recorderFile()
    #expect(bytes.count == 170)
    #expect(Array(bytes[24..<28]) == BinaryFormat.logChunkSync)
    #expect(Array(bytes[104..<108]) == BinaryFormat.logChunkSync)
  }

  @Test func aHalvedRecorderFileSaysAtLeastTheTornChunksEventsAreLostNotAnExactUndercount() throws {
    let (trace, damage) = try RecordedTrace.decode(binary: Array(try Self.recorderFile().prefix(85)))
    #expect(trace.events.isEmpty)
    #expect(
      damage.map(\.description) == [
        "<input>: at byte 24: error: the file ends at byte 85, inside log chunk 0 (events 1–7), which starts at byte 24: 13 of its 26 "
          + "committed bytes are there (a torn tail); at least 7 events lost: the chunk's 7, and any after them"
      ])
    #expect(damage.first?.lostEvents == nil, "chunk 1's 4 events were lost too: the exact count is unknown")
    #expect(damage.first?.minimumLostEvents == 7)
    #expect(damage.first?.endsTrace == true)
  }

  @Test func threeBytesFlippedInACommitWordAreNamedWhereTheyAreWithTheExactLoss() throws {
    var bytes = try Self.recorderFile()
    for offset in 56..<59 { bytes[offset] ^= 0xFF }
    let (trace, damage) = try RecordedTrace.decode(binary: bytes)
    #expect(
      trace.events.map(\.kind) == [
        .taskBegin(id: 3, name: "C"), .taskEnd(id: 3), .appState(to: .suspended), .mark(label: "x"),
      ])
    #expect(
      damage.map(\.description) == [
        "<input>: at byte 24: error: log chunk 0 at byte 24 (events from 1): its commit word or seal (bytes 56–71) is "
          + "damaged; 80 damaged bytes skipped, to the next chunk at byte 104; 7 events lost"
      ])
    #expect(damage.first?.lostEvents == 7)
    #expect(damage.first?.endsTrace == false, "the trace's end is intact")
  }

  @Test func aDamagedLastChunkHeaderIsNamedAndItsLossIsUnknownNotDamagedBytesAtTheEnd() throws {
    var bytes = try Self.recorderFile()
    for offset in 140..<143 { bytes[offset] ^= 0xFF }  // chunk 1's commit word
    let (trace, damage) = try RecordedTrace.decode(binary: bytes)
    #expect(trace.events.count == 7)
    #expect(
      damage.map(\.description) == [
        "<input>: at byte 104: error: log chunk 1 at byte 104 (events from 8): its commit word or seal (bytes "
          + "136–151) is damaged; 66 damaged bytes skipped, to the end of the file; the events in them and any "
          + "after them are lost (how many is unknown)"
      ])
  }

  @Test func aHeaderThatFailsItsCRCIsOneReportAndLosesNoEvent() throws {
    var bytes = try Self.recorderFile()
    bytes[18] ^= 0xFF  // the header body (an empty metadata map)
    let (trace, damage) = try RecordedTrace.decode(binary: bytes)
    #expect(trace.events.count == 11)
    #expect(
      damage.map(\.description) == [
        "<input>: at byte 18: error: the file header fails its CRC check; the metadata and the file's format "
          + "features are lost"
      ])
    #expect(damage.first?.length == 6, "the header body and its padding, up to the first chunk")
  }

  @Test func aKilledRecordersReservedZerosAreUnwrittenSpaceNotTraceBytes() throws {
    // A killed recorder's file ends in the zeros of the window it had grown the file by.
    var bytes = try Self.recorderFile()
    bytes += [UInt8](repeating: 0, count: 1 << 20)
    var reader = try BinaryTraceReader(source: MemoryByteSource(bytes), file: "killed.bgtrace")
    var count = 0
    while try reader.next() != nil { count += 1 }
    #expect(count == 11)
    #expect(reader.damage.isEmpty)
    // The file is 170 bytes; 6 zeros pad it to a chunk boundary, the rest is unwritten.
    #expect(reader.unwrittenBytes == (1 << 20) - 6)
  }
}
