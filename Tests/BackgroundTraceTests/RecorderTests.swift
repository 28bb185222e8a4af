import BackgroundTrace
import Foundation
import Synchronization
import TestSupport
import Testing

/// A clock that moves only when told to, for deterministic recorder tests.
struct ManualClock: Clock {
  struct Instant: InstantProtocol {
    var offset: Duration

    func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    func duration(to other: Instant) -> Duration { other.offset - offset }
    static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private final class Storage: Sendable {
    let offset: Mutex<Duration>
    init(_ offset: Duration) { self.offset = Mutex(offset) }
  }

  private let storage: Storage

  init(at offset: Duration = .zero) {
    storage = Storage(offset)
  }

  var now: Instant { Instant(offset: storage.offset.withLock { $0 }) }
  var minimumResolution: Duration { .nanoseconds(1) }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    storage.offset.withLock { $0 = max($0, deadline.offset) }
  }

  func advance(by duration: Duration) {
    storage.offset.withLock { $0 += duration }
  }

  func set(to offset: Duration) {
    storage.offset.withLock { $0 = offset }
  }
}

/// The events a reader finds in the file now, with nothing lost (an unsealed last
/// chunk is a note, not a loss).
private func durableEvents(at path: String) throws -> [TraceEvent] {
  var reader = try TraceReader(path: path)
  let trace = try reader.readAll()
  #expect(reader.format == .binary)
  #expect(reader.damage.allSatisfy { !$0.isLoss }, "\(reader.damage)")
  return trace.events
}

/// How many unsealed-chunk notes a reader gives for the file now.
private func unsealedNotes(at path: String) throws -> Int {
  var reader = try TraceReader(path: path)
  _ = try reader.readAll()
  return reader.damage.filter { $0.kind == .unsealedTail }.count
}

/// How many log chunk sync words the file holds.
private func sealedAndOpenChunkCount(at path: String) throws -> Int {
  let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  return bytes.indices.dropLast(3).filter { bytes[$0..<$0 + 4].elementsEqual([0xB7, 0x4C, 0x4F, 0x47]) }.count
}

private func fileSize(_ path: String) throws -> Int {
  try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
}

@Suite struct RecorderTests {
  @Test func inMemoryTraceIsWhatWasRecordedOnTheInjectedClock() {
    let clock = ManualClock(at: .seconds(1_000))  // the trace starts at the clock's current instant
    let recorder = TraceRecorder(meta: TraceMetadata(["platform": "ios"]), clock: clock)
    recorder.record(.appLaunch)
    clock.advance(by: .milliseconds(200))
    recorder.record(.appState(to: .active))
    clock.advance(by: .milliseconds(12_300))
    recorder.record(.taskBegin(id: 1, name: "SaveDocument"))
    clock.advance(by: .nanoseconds(1))
    recorder.record(.taskEnd(id: 1))
    #expect(recorder.eventCount == 4)
    #expect(recorder.meta == TraceMetadata(["platform": "ios"]))
    #expect(
      recorder.trace.text == """
        bgtrace 1
        meta platform=ios
        0 app.launch
        0.2 app.state to=active
        12.5 task.begin id=1 name=SaveDocument
        12.500000001 task.end id=1

        """)
  }

  @Test func timesNeverDecreaseEvenWhenGivenEarlierTimes() {
    let clock = ManualClock()
    let recorder = TraceRecorder(clock: clock)
    recorder.record(.mark(label: "a"), at: TraceTime(seconds: 5))
    recorder.record(.mark(label: "b"), at: TraceTime(seconds: 3))  // earlier: raised to 5
    clock.set(to: .seconds(1))
    recorder.record(.mark(label: "c"))  // the clock says 1: raised to 5
    clock.set(to: .seconds(6))
    recorder.record(.mark(label: "d"))
    recorder.record(.mark(label: "e"), at: .zero)
    recorder.record(.mark(label: "f"), at: TraceTime(nanoseconds: .max))  // beyond the largest time: clamped
    recorder.record(.mark(label: "g"), at: TraceTime(seconds: 7))
    #expect(recorder.trace.events.map(\.time) == [5, 5, 5, 6, 6].map { TraceTime(seconds: $0) } + [.max, .max])
    #expect(recorder.trace.events.map(\.kind) == ["a", "b", "c", "d", "e", "f", "g"].map { .mark(label: $0) })
  }

  @Test func clockBehindTheStartReadsAsTheStart() {
    let clock = ManualClock(at: .seconds(10))
    let recorder = TraceRecorder(clock: clock)
    clock.set(to: .milliseconds(9_500))  // behind by less than a second
    recorder.record(.mark(label: "a"))
    clock.set(to: .seconds(3))
    recorder.record(.mark(label: "b"))
    clock.set(to: .milliseconds(10_250))
    recorder.record(.mark(label: "c"))
    #expect(recorder.trace.events.map(\.time) == [.zero, .zero, TraceTime(milliseconds: 250)])
  }

  @Test func defaultClockStampsNonDecreasingTimes() {
    let recorder = TraceRecorder()
    for index in 0..<1_000 { recorder.record(.taskBegin(id: index, name: nil)) }
    let times = recorder.trace.events.map(\.time)
    #expect(times.count == 1_000)
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
  }

  @Test func streamingCommitsEveryEventBeforeRecordReturnsAndSealsOnFlushAndAtBackground() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("run.bgtrace")
    let meta = TraceMetadata(["platform": "ios", "budget": "30"])
    let recorder = try TraceRecorder(
      writingTo: path, meta: meta, clock: ManualClock(), keepsEvents: true, chunkPayloadLimit: 256)

    // The header is written at once.
    var reader = try TraceReader(path: path)
    #expect(reader.meta == meta)
    #expect(try reader.next() == nil)

    // Every event is in the file as soon as it is recorded; chunks are sealed as they fill.
    for index in 0..<300 {
      recorder.record(.mark(label: "x"), at: TraceTime(milliseconds: UInt64(index / 10)))
      #expect(try durableEvents(at: path) == recorder.trace.events, "event \(index)")
    }
    #expect(try unsealedNotes(at: path) == 1, "the last chunk is open")
    let chunks = try sealedAndOpenChunkCount(at: path)
    #expect(chunks >= 3, "300 three-byte records in 256-byte chunks")

    // flush() seals the open chunk; flushing again changes nothing.
    recorder.record(.taskBegin(id: 1, name: "Upload"), at: TraceTime(seconds: 1))
    try recorder.flush()
    #expect(try durableEvents(at: path) == recorder.trace.events)
    #expect(try unsealedNotes(at: path) == 0)
    let sizeAfterFlush = try fileSize(path)
    try recorder.flush()
    #expect(try fileSize(path) == sizeAfterFlush)

    // Going to the background seals the chunk, that event included.
    recorder.record(.appState(to: .inactive), at: TraceTime(seconds: 2))
    #expect(try unsealedNotes(at: path) == 1)
    recorder.record(.appState(to: .background), at: TraceTime(seconds: 3))
    #expect(try durableEvents(at: path) == recorder.trace.events)
    #expect(try unsealedNotes(at: path) == 0)

    // close() seals the rest and cuts the file; later events stay in memory only.
    recorder.record(.taskEnd(id: 1), at: TraceTime(seconds: 4))
    try recorder.close()
    #expect(try durableEvents(at: path) == recorder.trace.events)
    #expect(try unsealedNotes(at: path) == 0)
    recorder.record(.appTerminate(reason: nil), at: TraceTime(seconds: 5))
    #expect(try durableEvents(at: path).count == recorder.eventCount - 1)
    #expect(recorder.trace.events.last == TraceEvent(time: TraceTime(seconds: 5), .appTerminate(reason: nil)))

    var final = try TraceReader(path: path)
    #expect(try final.readAll().meta == meta)
  }

  /// The recorder encodes each record straight into the open chunk in the file's
  /// mapping; an event that does not fit in the chunk's room is committed whole in the
  /// next chunk, one made larger if it needs it, and a chunk opened for an event that
  /// went elsewhere is never left in the file.
  @Test func eventsLargerThanTheChunksRoomAreCommittedWholeInTheNextChunk() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("run.bgtrace")
    // A 4,096-byte limit: each chunk has room for 8,192 bytes of entries (the limit and
    // 4,096 of headroom), and is sealed once 4,096 are committed.
    let recorder = try TraceRecorder(
      writingTo: path, clock: ManualClock(), keepsEvents: true, chunkPayloadLimit: 4_096)
    func record(_ kind: TraceEvent.Kind, at milliseconds: UInt64) throws {
      recorder.record(kind, at: TraceTime(milliseconds: milliseconds))
      #expect(try durableEvents(at: path) == recorder.trace.events, "after the event at \(milliseconds) ms")
    }
    for index in 0..<10 { try record(.mark(label: "m"), at: UInt64(index)) }
    try record(.mark(label: String(repeating: "a", count: 3_000)), at: 10)  // fits: chunk 0 stays open
    #expect(try sealedAndOpenChunkCount(at: path) == 1)
    // 5,152 bytes of room are left: this one goes to chunk 1 and seals chunk 0 first.
    try record(.mark(label: String(repeating: "b", count: 6_000)), at: 11)
    #expect(try sealedAndOpenChunkCount(at: path) == 2)
    #expect(try unsealedNotes(at: path) == 0, "chunk 1 is sealed too: 6,000 bytes are past the limit")
    // More than a whole chunk's room: chunk 2 is opened larger, for it alone.
    try record(.mark(label: String(repeating: "c", count: 10_000)), at: 12)
    #expect(try sealedAndOpenChunkCount(at: path) == 3)
    try record(.mark(label: "m"), at: 13)
    try recorder.close()
    #expect(try durableEvents(at: path) == recorder.trace.events)
    #expect(try sealedAndOpenChunkCount(at: path) == 4)
    #expect(recorder.trace.events.count == 14)
  }

  /// An event with no binary form, recorded as a chunk's first, stops the recording
  /// without leaving that empty chunk in the file: the stop record comes right after
  /// the last sealed chunk.
  @Test func aStopAtAChunksFirstEventLeavesNoEmptyChunk() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("run.bgtrace")
    let recorder = try TraceRecorder(writingTo: path, clock: ManualClock())
    recorder.record(.appLaunch, at: .zero)
    recorder.record(.appState(to: .background), at: TraceTime(seconds: 1))  // sealed here
    recorder.record(.taskEnd(id: -1), at: TraceTime(seconds: 2))
    #expect(recorder.failure?.kind == .unencodableEvent)
    try? recorder.close()
    #expect(try sealedAndOpenChunkCount(at: path) == 1)
    let (trace, damage) = try RecordedTrace.decode(binary: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    #expect(
      trace.events == [
        TraceEvent(time: .zero, .appLaunch), TraceEvent(time: TraceTime(seconds: 1), .appState(to: .background)),
      ])
    #expect(damage.map(\.kind) == [.recordingStopped])
    #expect(damage.first?.lostEvents == 1)
  }

  @Test func streamingWithoutKeepingEventsStillCounts() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("run.bgtrace")
    let recorder = try TraceRecorder(writingTo: path, clock: ManualClock())
    recorder.record(.appLaunch, at: .zero)
    recorder.record(.appState(to: .active), at: TraceTime(seconds: 1))
    #expect(recorder.eventCount == 2)
    #expect(recorder.trace.events.isEmpty)
    try recorder.close()
    #expect(
      try durableEvents(at: path) == [
        TraceEvent(time: .zero, .appLaunch), TraceEvent(time: TraceTime(seconds: 1), .appState(to: .active)),
      ])
  }

  @Test func releasingTheRecorderFlushesIt() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("run.bgtrace")
    func recordAndDrop() throws {
      let recorder = try TraceRecorder(writingTo: path, clock: ManualClock())
      recorder.record(.mark(label: "kept"), at: TraceTime(seconds: 1))
    }
    try recordAndDrop()
    #expect(try durableEvents(at: path) == [TraceEvent(time: TraceTime(seconds: 1), .mark(label: "kept"))])
  }

  @Test func fileThatCannotBeCreatedIsAnError() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("missing/run.bgtrace")
    let error = #expect(throws: TraceRecordingError.self) { try TraceRecorder(writingTo: path) }
    #expect(error == TraceRecordingError(file: path, message: "cannot create: No such file or directory"))
    #expect(error?.kind == .io)
  }

  @Test func eventWithoutABinaryFormIsReportedOnFlush() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("run.bgtrace")
    let recorder = try TraceRecorder(writingTo: path, clock: ManualClock())
    recorder.record(.taskEnd(id: -1), at: .zero)
    let error = #expect(throws: TraceRecordingError.self) { try recorder.flush() }
    #expect(error?.kind == .unencodableEvent)
    #expect(error?.file == path)
    #expect(error?.position == .event(number: 1))
    #expect(error?.description == "\(path): event 1: field 'id' is negative; trace integers are non-negative")
  }
}
