import Foundation
import TestSupport
import Testing

@testable import BackgroundTrace

/// Traces/format-v4/foreground-services: Android's foreground-service kinds (codes 28,
/// 29 and 32–35, laid out from their specs) and `work.enqueue`'s `expedited` field
/// (presence bit 7, after `flex`), written out here by hand from docs/FORMAT.md.
@Suite struct ForegroundServiceVectorTests {
  static let vector: [UInt8] = {
    let payload: [UInt8] =
      [0x04, 0x06] + Array("upload".utf8) + [0x04] + Array("sync".utf8) + [0x06] + Array("player".utf8)
      + [0x06] + Array("beacon".utf8)  // string table: upload 0, sync 1, player 2, beacon 3
      + [
        0x00, 0x00,  // app.launch at 0
        0x0D, 0x07, 0x80, 0x00, 0x01,  // work.enqueue, +1 s; presence bit 7 (expedited); work 0; drop = 1
        0x0E, 0x00, 0x00, 0x00,  // work.start, +0; work 0, attempt 0
        0x1E, 0x23, 0xD2, 0x0F, 0x00, 0x00,  // work.foreground: tag 30, code 35, +500 ms; work 0, attempt 0
        0x1C, 0xD2, 0x0F, 0x01,  // fgs.start (28), +500 ms; service 1
        0x1D, 0xD2, 0x0F, 0x01, 0x01, 0x00,  // fgs.foreground (29), +500 ms; presence: type; service 1; dataSync 0
        0x1C, 0xD2, 0x0F, 0x02,  // fgs.start, +500 ms; service 2
        0x1E, 0x21, 0x00, 0x02, 0x00,  // fgs.refuse (33), +0; service 2; background 0
        0x1C, 0x07, 0x03,  // fgs.start, +1 s; service 3
        0x1D, 0xEA, 0x07, 0x00, 0x03,  // fgs.foreground, +250 ms (1002); no type; service 3
        0x1E, 0x21, 0x00, 0x03, 0x01,  // fgs.refuse, +0; service 3; no-type 1
        0x1E, 0x22, 0xBA, 0x17, 0x01, 0x00,  // fgs.timeout (34), +750 ms (3002); service 1; dataSync 0
        0x1E, 0x20, 0xD2, 0x0F, 0x01,  // fgs.stop (32), +500 ms; service 1
      ]
    return FormatV4VectorTests.androidFile(payload: payload, events: 13)
  }()

  @Test func theVectorIsLaidOutFromTheKindsSpecs() throws {
    let trace = try FormatV4VectorTests.expectVector("foreground-services", isLaidOutAs: Self.vector)
    #expect(
      trace.events.map(\.kind).prefix(4).last == .workForeground(work: "upload", attempt: 0)
        && trace.events[1].kind == .workEnqueue(WorkEnqueue(work: "upload", expedited: .drop)))
  }

  /// An enqueue without `expedited=` keeps the bytes it had: presence bit 7 clear and no
  /// byte after the others.
  @Test func anEnqueueWithoutExpeditedKeepsItsBytes() throws {
    let trace = try RecordedTrace(text: "bgtrace 1\n0 work.enqueue work=w flex=300 period=900\n")
    let expedited = try RecordedTrace(
      text: "bgtrace 1\n0 work.enqueue work=w flex=300 period=900 expedited=run-as-regular\n")
    let plain = try trace.binary()
    let withField = try expedited.binary()
    #expect(withField.count == plain.count + 1)
    #expect(try RecordedTrace.decode(binary: withField).trace == expedited)
  }

  /// An expedited byte that names no policy is malformed.
  @Test func aBadExpeditedCodeIsMalformed() {
    let record: [UInt8] = [0x0D, 0x00, 0x80, 0x00, 0x02]  // presence bit 7, work 0, code 2
    let error = SpecLayoutTests.malformation(ofRecord: record, strings: ["w"])
    #expect(error?.message.hasPrefix("work.enqueue: bad expedited") == true, "\(String(describing: error))")
  }
}
