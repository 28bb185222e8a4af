import BackgroundTrace
import Foundation
import Testing

/// Files cut at chosen bytes, with the exact damage the reader must report
/// (docs/FORMAT.md, "Reading, and what counts as damage"): a cut inside a chunk header
/// loses that chunk's events, which the reader cannot count; a cut inside a payload
/// loses the chunk's N events, counted from its header.
@Suite struct BinaryCutTests {
  let directory: String

  init() throws {
    directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("bgtrace-cut-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  /// Reads `bytes` from a file, as `bgtrace` does.
  func read(_ bytes: [UInt8], name: String) throws -> (events: [TraceEvent], damage: [TraceDamage]) {
    let path = (directory as NSString).appendingPathComponent(name)
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    var reader = try TraceReader(path: path)
    let trace = try reader.readAll()
    return (
      trace.events,
      reader.damage.map { damage in
        var damage = damage
        damage.file = nil
        return damage
      }
    )
  }

  /// two-chunks.bgtrace (FormatVectorTests): a 19-byte file header, chunk 0 at byte 19
  /// (40 + 13 bytes, events 1–2), chunk 1 at byte 72 (40 + 7 bytes, events 3–4).
  static let twoChunks = FormatVectorTests.twoChunks
  static let firstTwo = Array(FormatVectorTests.twoChunksEvents.prefix(2))

  @Test func aCutInsideTheSecondChunkHeaderKeepsTheFirstChunkAndLosesAnUncountedTail() throws {
    // 28 bytes into chunk 1's header: its event count (bytes 20–23) is there, but the
    // header's CRC is not, so the count cannot be trusted.
    let read = try read(Array(Self.twoChunks.prefix(100)), name: "header-cut.bgtrace")
    #expect(read.events == Self.firstTwo)
    #expect(
      read.damage == [
        TraceDamage(
          file: nil, offset: 72, length: 28, lostEvents: nil,
          message:
            "the file ends 28 bytes into a chunk header (a torn tail); the events of that chunk and any after it are lost (how many is unknown)",
          endsTrace: true)
      ])
  }

  @Test func aCutInsideTheFirstChunkHeaderKeepsNothing() throws {
    let read = try read(Array(Self.twoChunks.prefix(30)), name: "first-header-cut.bgtrace")
    #expect(read.events.isEmpty)
    #expect(
      read.damage == [
        TraceDamage(
          file: nil, offset: 19, length: 11, lostEvents: nil,
          message:
            "the file ends 11 bytes into a chunk header (a torn tail); the events of that chunk and any after it are lost (how many is unknown)",
          endsTrace: true)
      ])
  }

  @Test func aCutInsideAPayloadCountsTheEventsLost() throws {
    // 51 bytes into chunk 0 (40 header bytes, 11 of 13 payload bytes).
    let read = try read(Array(Self.twoChunks.prefix(70)), name: "payload-cut.bgtrace")
    #expect(read.events.isEmpty)
    #expect(
      read.damage == [
        TraceDamage(
          file: nil, offset: 19, length: 51, lostEvents: nil, minimumLostEvents: 2,
          message:
            "the file ends at byte 70, inside chunk 0 (events 1–2), which starts at byte 19: 11 of its 13 payload bytes are there (a torn tail); at least 2 events lost: the chunk's 2, and any after them",
          endsTrace: true)
      ])
  }

  @Test func aCutAtAChunkBoundaryIsNoDamage() throws {
    let read = try read(Array(Self.twoChunks.prefix(72)), name: "boundary.bgtrace")
    #expect(read.events == Self.firstTwo)
    #expect(read.damage.isEmpty)
  }

  /// A recorder's file (version 2, log chunks at multiples of 8) cut inside its second
  /// chunk's header, as a copy taken while the recorder opened that chunk would be.
  @Test func aRecorderFileCutInsideAChunkHeaderKeepsTheSealedChunk() throws {
    let path = (directory as NSString).appendingPathComponent("recorded.bgtrace")
    let recorder = try TraceRecorder(writingTo: path)
    recorder.record(.appLaunch, at: .zero)
    recorder.record(.appState(to: .background), at: TraceTime(seconds: 1))  // seals chunk 0
    recorder.record(.taskBegin(id: 1, name: "Save"), at: TraceTime(seconds: 2))
    try recorder.close()
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    // The chunks start at their sync bytes `B7 4C 4F 47`.
    let syncs = bytes.indices.dropLast(3).filter { Array(bytes[$0..<$0 + 4]) == [0xB7, 0x4C, 0x4F, 0x47] }
    #expect(syncs.count == 2)
    let second = try #require(syncs.last)
    #expect(second % 8 == 0)
    let read = try read(Array(bytes.prefix(second + 20)), name: "recorded-cut.bgtrace")
    #expect(
      read.events == [
        TraceEvent(time: .zero, .appLaunch), TraceEvent(time: TraceTime(seconds: 1), .appState(to: .background)),
      ])
    #expect(
      read.damage == [
        TraceDamage(
          file: nil, offset: second, length: 20, lostEvents: nil,
          message:
            "the file ends 20 bytes into a log chunk header (a torn tail); the events of that chunk and any after it are lost (how many is unknown)",
          endsTrace: true)
      ])
  }
}
