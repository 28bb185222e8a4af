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
}
