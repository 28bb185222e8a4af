import Foundation
import TestSupport
import Testing

@testable import BackgroundTrace

/// Traces/format-v4/continued-processing: `sched.submit`'s continued-processing request
/// (flags bit 2, and the title, subtitle, strategy and resources announced in bits 4–7
/// of its requirement byte, after `earliest`), written out here by hand from
/// docs/FORMAT.md.
@Suite struct ContinuedProcessingVectorTests {
  static let vector: [UInt8] = {
    let body: [UInt8] = [0x01, 0x08] + Array("platform".utf8) + [0x03] + Array("ios".utf8)
    let payload: [UInt8] =
      [0x05, 0x14] + Array("com.example.export.1".utf8) + [0x06] + Array("Export".utf8) + [0x08]
      + Array("3 photos".utf8) + [0x14] + Array("com.example.export.2".utf8) + [0x05] + Array("Video".utf8)
      + [
        0x00, 0x00,  // app.launch at 0
        0x06, 0x07, 0x00,  // sched.register, +1 s; ident 0
        // sched.submit, flags 4 (continued), +0; requirements F0: title, subtitle, strategy,
        // resources present; ident 0; title 1; subtitle 2; strategy fail 0; resources gpu 0
        0x87, 0x00, 0xF0, 0x00, 0x01, 0x02, 0x00, 0x00,
        0x4A, 0x00, 0x00,  // sched.launch, flags 2 (predicted run 1), +0; ident 0
        0x1B, 0xD2, 0x0F, 0x01, 0x01, 0x03,  // sched.progress, +500 ms; run 1, completed 1, total 3
        // sched.submit, flags 6 (continued, earliest), +500 ms; requirements 70: title,
        // subtitle, strategy; ident 3; earliest 2 s (2 << 2 | 3); title 1; subtitle 4; queue 1
        0xC7, 0xD2, 0x0F, 0x70, 0x03, 0x0B, 0x01, 0x04, 0x01,
      ]
    let chunk = FormatVectorTests.chunkHeader(
      payload: payload, sequence: 0, firstEvent: 0, events: 6, baseTime: [0, 0, 0, 0, 0, 0, 0, 0])
    return FormatV4VectorTests.header(flags: 0x02, body: body) + chunk + payload
  }()

  @Test func theVectorIsLaidOutAsTheFormatSays() throws {
    let trace = try FormatV4VectorTests.expectVector("continued-processing", isLaidOutAs: Self.vector)
    #expect(
      trace.events[2].kind
        == .schedSubmit(
          SchedulerSubmission(
            identifier: "com.example.export.1", type: .continued, title: "Export", subtitle: "3 photos",
            strategy: .fail, resources: .gpu)))
  }

  /// A refresh or processing submission keeps the bytes it had before continued
  /// processing existed (docs/FORMAT.md's scheduler-and-work example).
  @Test func otherSubmissionsKeepTheirBytes() throws {
    let trace = try RecordedTrace(text: "bgtrace 1\n0 sched.submit ident=p type=processing earliest=60 network=true\n")
    let binary = try trace.binary()
    // The record as docs/FORMAT.md's hand-laid example has it.
    #expect(binary.suffix(6) == [0x67, 0x00, 0x01, 0x00, 0xF3, 0x01])
  }

  /// Continued-processing fields on another type are refused in the text form, at the
  /// field, and make a record the binary reader refuses.
  @Test func continuedFieldsBelongToContinuedRequestsOnly() throws {
    let error = #expect(throws: TraceFormatError.self) {
      try RecordedTrace(text: "bgtrace 1\n0 sched.submit ident=r type=refresh title=Export\n")
    }
    #expect(error?.message.contains("'title' is for type=continued only, not type=refresh") == true)
    #expect(error?.position == .text(line: 2, column: 37), "at the field's name")
    for record: [UInt8] in [[0x07, 0x00, 0x10, 0x00, 0x00], [0xA7, 0x00, 0x00, 0x00]] {
      // a refresh with the title bit; processing and continued at once (flags 5)
      let error = SpecLayoutTests.malformation(ofRecord: record, strings: ["w"])
      #expect(error?.message.hasPrefix("sched.submit: ") == true, "\(String(describing: error))")
    }
  }
}
