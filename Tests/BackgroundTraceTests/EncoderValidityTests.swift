import Foundation
import TestSupport
import Testing

@testable import BackgroundTrace

/// The chunk encoder notes a value with no binary form as it encodes (what the durable
/// recorder relies on instead of checking each event first), and it notes exactly the
/// events ``TraceEvent/Kind/encodingProblem`` names.
@Suite struct EncoderValidityTests {
  /// Every kind of the format vectors (all valid).
  static func validKinds() throws -> [TraceEvent.Kind] {
    try FormatVectorTests.everyKindEvents().map(\.kind)
  }

  /// Kinds with one field made invalid, of the kinds' own layouts and of the spec layout.
  static func invalidKinds() -> [TraceEvent.Kind] {
    let tooLate = TraceTime(nanoseconds: UInt64(Int64.max) + 1)
    let tooLong = TraceInterval(nanoseconds: UInt64(Int64.max) + 1)
    return [
      .taskBegin(id: -1, name: "Save"), .taskEnd(id: -2), .taskExpire(id: -3),
      .schedSubmit(SchedulerSubmission(identifier: "r", type: .refresh, earliest: tooLate)),
      .schedLaunch(identifier: "r", run: -1), .schedExpire(run: -1), .schedComplete(run: -1, success: true),
      .workEnqueue(WorkEnqueue(work: "w", retryLimit: -1)), .workEnqueue(WorkEnqueue(work: "w", backoffDelay: tooLong)),
      .workEnqueue(WorkEnqueue(work: "w", period: tooLong)), .workEnqueue(WorkEnqueue(work: "w", flex: tooLong)),
      .workStart(work: "w", attempt: -1), .workResult(work: "w", attempt: -1, outcome: .success),
      .workStop(work: "w", attempt: -1, reason: "cancelled"), .envSet([]),
      .netSubmit(session: "s", task: -1, kind: .upload, discretionary: nil),
      .netFinish(session: "s", task: -1, outcome: .failed),
      .schedProgress(run: 1, completed: -1, total: 10), .workForeground(work: "w", attempt: -1),
    ]
  }

  @Test func theEncoderNotesExactlyTheEventsThatHaveNoBinaryForm() throws {
    for (kinds, valid) in [(try Self.validKinds(), true), (Self.invalidKinds(), false)] {
      for kind in kinds {
        let line = TextTraceWriter.line(for: TraceEvent(time: .zero, kind))
        var encoder = ChunkEncoder(baseTime: 0, inlineStrings: true, predictedIDs: true)
        #expect(encoder.append(kind, at: 1_000) == valid, "\(line)")
        #expect((kind.encodingProblem == nil) == valid, "\(line)")
      }
    }
  }

  /// `startNextChunk` resets the encoder in place (the durable recorder calls it at
  /// every seal): an encoder that encoded a chunk of every kind, with ids and runs its
  /// predictors follow and strings in its table, then started the next chunk at 5 s,
  /// encodes the same events byte for byte as a new encoder at 5 s would.
  @Test func startNextChunkResetsEveryField() throws {
    let kinds = try Self.validKinds()
    var reused = ChunkEncoder(baseTime: 0, inlineStrings: true, predictedIDs: true)
    for (index, kind) in kinds.enumerated() { reused.append(kind, at: UInt64(index) * 1_500) }
    reused.append(.taskBegin(id: 41, name: "Save"), at: 4_000_000_000)
    reused.startNextChunk(baseTime: 5_000_000_000)
    var fresh = ChunkEncoder(baseTime: 5_000_000_000, inlineStrings: true, predictedIDs: true)
    #expect(reused.isEmpty && reused.payloadSize == fresh.payloadSize && reused.time == 5_000_000_000)
    for (index, kind) in kinds.enumerated() {
      let time = 5_000_000_000 + UInt64(index) * 1_000_003
      #expect(reused.append(kind, at: time) == fresh.append(kind, at: time))
    }
    #expect(reused.records.array == fresh.records.array)
    #expect(reused.strings == fresh.strings)
    #expect(reused.eventCount == fresh.eventCount)
  }
}
