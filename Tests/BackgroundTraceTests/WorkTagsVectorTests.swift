import Foundation
import TestSupport
import Testing

@testable import BackgroundTrace

/// Traces/format-v4/work-tags: `work.result`'s and `work.stop`'s `tags` (flags bit 2 of
/// a result, above its outcome; bit 0 of a stop), a string reference after the record's
/// other fields, written out here by hand from docs/FORMAT.md. A record without tags
/// keeps the bytes it had before.
@Suite struct WorkTagsVectorTests {
  static let vector: [UInt8] = {
    let payload: [UInt8] =
      [0x03, 0x01] + Array("w".utf8) + [0x1B] + Array("com.example.SyncWorker,sync".utf8) + [0x09]
      + Array("cancelled".utf8)
      + [
        0x00, 0x00,  // app.launch at 0
        0x0E, 0x07, 0x00, 0x00,  // work.start, +1 s; work 0, attempt 0
        // work.result, flags 6 (retry 2 | tags 4): 15 | 6 << 5; +0; work 0, attempt 0; tags 1
        0xCF, 0x00, 0x00, 0x00, 0x01,
        0x0E, 0x07, 0x00, 0x01,  // work.start, +1 s; work 0, attempt 1
        // work.stop, flags 1 (tags): 16 | 1 << 5; +500 ms; work 0, attempt 1; reason 2; tags 1
        0x30, 0xD2, 0x0F, 0x00, 0x01, 0x02, 0x01,
        0x0E, 0xD2, 0x0F, 0x00, 0x02,  // work.start, +500 ms; work 0, attempt 2
        0x0F, 0x00, 0x00, 0x02,  // work.result, flags 0 (success, no tags), +0; work 0, attempt 2
      ]
    return FormatV4VectorTests.androidFile(payload: payload, events: 7)
  }()

  @Test func theVectorIsLaidOutAsTheFormatSays() throws {
    let trace = try FormatV4VectorTests.expectVector("work-tags", isLaidOutAs: Self.vector)
    let tags = "com.example.SyncWorker,sync"
    #expect(trace.events[2].kind == .workResult(work: "w", attempt: 0, outcome: .retry, tags: tags))
    #expect(trace.events[4].kind == .workStop(work: "w", attempt: 1, reason: "cancelled", tags: tags))
    #expect(trace.events[6].kind == .workResult(work: "w", attempt: 2, outcome: .success))
  }

  /// A result or stop without tags keeps the bytes docs/FORMAT.md's scheduler-and-work
  /// example gives it.
  @Test func resultsAndStopsWithoutTagsKeepTheirBytes() throws {
    let trace = try RecordedTrace(
      text: "bgtrace 1\n0 work.result work=w attempt=0 outcome=retry\n0 work.stop work=w attempt=1 reason=r\n")
    let binary = try trace.binary()
    #expect(binary.suffix(9) == [0x4F, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x01, 0x01])
  }

  /// A result's flags beyond its outcome and the tags bit, an outcome code past `retry`,
  /// and a stop's flags beyond the tags bit make records the reader refuses.
  @Test func unknownFlagsAreMalformed() throws {
    for record: [UInt8] in [
      [0x6F, 0x00, 0x00, 0x00], [0xEF, 0x00, 0x00, 0x00, 0x00], [0x50, 0x00, 0x00, 0x00, 0x00],
    ] {
      // result outcome 3; result outcome 3 with tags; stop flags 2
      let error = SpecLayoutTests.malformation(ofRecord: record, strings: ["w"])
      #expect(error?.message.contains("unknown flags") == true, "\(String(describing: error))")
    }
  }

  /// The optional tags make no event in memory larger: `work.result` and `work.stop`
  /// are `indirect`, and the largest inline case still fits (the in-memory recorder's
  /// figures in docs/benchmarks.md are for 49 bytes an event).
  @Test func anEventInMemoryStaysFortyNineBytes() {
    #if arch(x86_64) || arch(arm64)
      #expect(MemoryLayout<TraceEvent>.size == 49)
    #endif
  }

  /// Tags are private data (an app's own `addTag` words): a redacting recorder hashes
  /// them, as it does a worker's name.
  @Test func tagsAreAPrivateField() {
    for tag in [EventTag.workResult, .workStop] {
      let field = tag.spec.fields.last
      #expect(field?.name == "tags")
      #expect(field?.isPrivate == true)
      #expect(field?.isRequired == false)
    }
  }
}
