import BackgroundTrace
import Foundation
import TestSupport
import Testing

/// Reading a file whose recorder never closed it: the committed records of the unsealed
/// log chunk are recovered and reported as a note, not a loss (docs/FORMAT.md, "Log
/// chunks" and "Reading, and what counts as damage").
@Suite struct RecorderRecoveryTests {
  /// The three events every test here records, and the bytes they commit, worked out by
  /// hand from docs/FORMAT.md.
  static let events = [
    TraceEvent(time: .zero, .appLaunch),
    TraceEvent(time: TraceTime(seconds: 1), .taskBegin(id: 1, name: "Save")),
    TraceEvent(time: TraceTime(milliseconds: 1_500), .taskEnd(id: 1)),
  ]
  static let body: [UInt8] = [
    0x00, 0x00,  // app.launch, delta 0
    0x1F, 0x04, 0x53, 0x61, 0x76, 0x65,  // string 0 = "Save"
    0x23, 0x07, 0x02, 0x00,  // task.begin (name flag), delta 1 s, id delta +1, name string 0
    0x04, 0xD2, 0x0F, 0x00,  // task.end, delta 500 ms (500 << 2 | 2 = 2002), id delta 0
  ]
  /// The file header (18 bytes and a 1-byte empty metadata body) padded to 24 bytes.
  static let chunkOffset = 24

  /// The file as a killed process leaves it: recorded, never flushed or closed.
  static func openFile(in directory: borrowing TemporaryDirectory) throws -> (bytes: [UInt8], recorder: TraceRecorder) {
    let path = directory.path("open.bgtrace")
    let recorder = try TraceRecorder(writingTo: path, clock: ManualClock(), chunkPayloadLimit: 256)
    for event in events { recorder.record(event.kind, at: event.time) }
    return ([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), recorder)
  }

  /// A committed test vector of docs/FORMAT.md (Traces/format-v4/recorder-NAME.bgtrace).
  static func vector(_ name: String) throws -> [UInt8] {
    let url = Repository.traces.appendingPathComponent("format-v4/recorder-\(name).bgtrace")
    return [UInt8](try Data(contentsOf: url))
  }

  static func littleEndian(_ bytes: ArraySlice<UInt8>) -> Int {
    bytes.reversed().reduce(0) { $0 << 8 | Int($1) }
  }

  static let note = TraceDamage(
    file: "open.bgtrace", offset: 24, length: 48 + 16, lostEvents: 0,
    message:
      "log chunk 0 at byte 24 (events 1–3) is unsealed (the writer did not close the file); its 3 committed events are recovered; nothing is lost",
    kind: .unsealedTail)

  @Test func unsealedChunkOfAnOpenFileIsRecoveredWithANote() throws {
    let directory = try TemporaryDirectory()
    let (bytes, recorder) = try Self.openFile(in: directory)
    defer { _ = recorder }
    #expect(bytes[8] == 4 && bytes[9] == 1, "format version 4, log chunks")
    let chunk = Self.chunkOffset
    #expect(Array(bytes[chunk..<chunk + 4]) == [0xB7, 0x4C, 0x4F, 0x47], "log chunk sync")
    #expect(Self.littleEndian(bytes[chunk + 32..<chunk + 36]) == 16, "committed length")
    #expect(Self.littleEndian(bytes[chunk + 36..<chunk + 40]) == 3, "committed records")
    #expect(Array(bytes[chunk + 48..<chunk + 64]) == Self.body)
    #expect(bytes[(chunk + 64)...].allSatisfy { $0 == 0 }, "the rest is reserved, unwritten space")

    let decoded = try RecordedTrace.decode(binary: bytes, file: "open.bgtrace")
    #expect(decoded.trace.events == Self.events)
    #expect(decoded.damage == [Self.note])
    #expect(
      decoded.damage.map(\.description) == [
        "open.bgtrace: at byte 24: note: log chunk 0 at byte 24 (events 1–3) is unsealed (the writer did not close the file); its 3 committed events are recovered; nothing is lost"
      ])
    #expect(!decoded.damage[0].isLoss)
  }

  @Test func fileCutAtTheCommittedEndIsRecoveredTheSameWay() throws {
    let directory = try TemporaryDirectory()
    let (bytes, _) = try Self.openFile(in: directory)
    let cut = Array(bytes[..<(Self.chunkOffset + 48 + 16)])
    #expect(cut == (try Self.vector("unsealed")), "the recorder writes the documented bytes")
    let decoded = try RecordedTrace.decode(binary: cut, file: "open.bgtrace")
    #expect(decoded.trace.events == Self.events)
    #expect(decoded.damage == [Self.note])
  }

  @Test func tornRecordWhoseCommitWasNotPublishedIsNotAnEvent() throws {
    let directory = try TemporaryDirectory()
    let (bytes, _) = try Self.openFile(in: directory)
    var torn = bytes
    // A fourth record (task.end id=1 at 2.5 s) written after the committed bytes, its
    // commit word never stored: what a kill between the two stores leaves.
    torn.replaceSubrange(Self.chunkOffset + 64..<Self.chunkOffset + 67, with: [0x04, 0x07, 0x00])
    let decoded = try RecordedTrace.decode(binary: torn, file: "open.bgtrace")
    #expect(decoded.trace.events == Self.events)
    var note = Self.note
    note.message =
      "log chunk 0 at byte 24 (events 1–3) is unsealed (the writer did not close the file); its 3 committed events are recovered and the bytes after them, an uncommitted record, are ignored; nothing is lost"
    #expect(decoded.damage == [note])

    // A commit word that claims a record the committed bytes do not hold is a loss.
    var overclaimed = bytes
    overclaimed[Self.chunkOffset + 36] = 4
    let damaged = try RecordedTrace.decode(binary: overclaimed, file: "open.bgtrace")
    #expect(damaged.trace.events.isEmpty)
    #expect(
      damaged.damage.map(\.description) == [
        "open.bgtrace: at byte 24: error: log chunk 0 at byte 24 (events 1–4) is malformed at body byte 16 (3 records where the commit word says 4); 4 events lost"
      ])
  }

  @Test func closedFileHasASealedChunkAndNoNote() throws {
    let directory = try TemporaryDirectory()
    let (_, recorder) = try Self.openFile(in: directory)
    try recorder.close()
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory.path("open.bgtrace"))))
    #expect(bytes.count == Self.chunkOffset + 48 + 16, "cut to its data")
    #expect(bytes == (try Self.vector("sealed")), "the recorder writes the documented bytes")
    let decoded = try RecordedTrace.decode(binary: bytes, file: "open.bgtrace")
    #expect(decoded.trace.events == Self.events)
    #expect(decoded.damage.isEmpty)
  }
}
