import BackgroundTrace
import Foundation

/// One chunk of a binary trace, located by walking the layout of docs/FORMAT.md
/// independently of the library's reader.
struct ChunkLocation: Equatable {
  /// Byte offset of the chunk's sync bytes.
  var offset: Int
  /// Header plus payload bytes.
  var size: Int
  /// The first event's 0-based index in the trace.
  var firstEvent: Int
  /// Events in the chunk.
  var eventCount: Int

  var end: Int { offset + size }
  var payloadStart: Int { offset + 40 }
  var events: Range<Int> { firstEvent..<firstEvent + eventCount }
}

/// The layout of an intact binary trace: where its header ends and where each chunk is.
struct BinaryLayout {
  var headerEnd: Int
  var chunks: [ChunkLocation]

  /// Walks `bytes` by the documented layout: an 18-byte file header whose bytes 10–13
  /// hold the body length, then chunks of 40 header bytes (payload length at 4, first
  /// event at 12, event count at 20) plus the payload.
  init(_ bytes: [UInt8]) {
    func little(_ offset: Int, _ count: Int) -> Int {
      (0..<count).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }
    headerEnd = 18 + little(10, 4)
    chunks = []
    var offset = headerEnd
    while offset < bytes.count {
      let size = 40 + little(offset + 4, 4)
      chunks.append(
        ChunkLocation(
          offset: offset, size: size, firstEvent: little(offset + 12, 8), eventCount: little(offset + 20, 4)))
      offset += size
    }
  }
}

extension RecordedTrace {
  /// The events in `ranges` of 0-based event indices, in order.
  func events(in ranges: [Range<Int>]) -> [TraceEvent] {
    ranges.flatMap { events[$0] }
  }
}

/// A small trace of every kind of event, each event unique (its time is its index in
/// milliseconds), for the binary recovery tests.
func sampleTrace(eventCount: Int = 150) -> RecordedTrace {
  let kinds: [TraceEvent.Kind] = [
    .appLaunch,
    .appState(to: .active),
    .taskBegin(id: 1, name: "SaveDocument"),
    .schedRegister(identifier: "com.example.refresh", ok: nil),
    .schedSubmit(
      SchedulerSubmission(identifier: "com.example.refresh", type: .refresh, earliest: TraceTime(seconds: 900))),
    .workEnqueue(WorkEnqueue(work: "sync-1", name: "DataSyncWorker", retryLimit: 3)),
    .workStart(work: "sync-1", attempt: 0),
    .workResult(work: "sync-1", attempt: 0, outcome: .retry),
    .envSet([EnvironmentSetting(key: "network", value: "offline")]),
    .input(key: "upload.status", value: "ok"),
    .taskEnd(id: 1),
    .schedLaunch(identifier: "com.example.refresh", run: 7),
    .schedComplete(run: 7, success: true),
    .mark(label: "checkpoint"),
    .appState(to: .background),
  ]
  let events = (0..<eventCount).map { index in
    TraceEvent(time: TraceTime(milliseconds: UInt64(index)), kinds[index % kinds.count])
  }
  return RecordedTrace(meta: TraceMetadata(["platform": "ios", "budget": "30"]), events: events)
}
