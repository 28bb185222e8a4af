import Foundation
import TestSupport
import Testing

@testable import BackgroundTrace

/// The spec layout of docs/FORMAT.md ("Spec layout"): the records of the kinds from
/// code 27 on, laid out from their specs, written out here by hand.
@Suite struct SpecLayoutTests {
  /// Traces/format-v4/spec-layout.bgtrace: a continued-processing run reporting its
  /// progress, under a version 4 header with predicted identifiers (flags 02).
  static let progressVector: [UInt8] = {
    let body: [UInt8] = [0x01, 0x08] + Array("platform".utf8) + [0x03] + Array("ios".utf8)
    let payload: [UInt8] =
      [0x01, 0x12] + Array("com.example.export".utf8)  // string table: 1 string, 18 bytes
      + [
        0x00, 0x00,  // app.launch at 0
        0x4A, 0x07, 0x00,  // sched.launch (10 | 2 predicted << 5), +1 s (1 << 2 | 3); ident 0; run 0 + 1
        0x1B, 0xD2, 0x0F, 0x01, 0x00, 0x64,  // sched.progress (27), +500 ms; run 1, completed 0, total 100
        0x1B, 0xD2, 0x0F, 0x01, 0x28, 0x64,  // +500 ms; run 1, completed 40, total 100
        0x1B, 0x8A, 0x27, 0x01, 0x64, 0x64,  // +1,250 ms (5002); run 1, completed 100, total 100
        0x6C, 0x00,  // sched.complete (12 | (1 success | 2 predicted) << 5), +0; run 1
      ]
    let chunk = FormatVectorTests.chunkHeader(
      payload: payload, sequence: 0, firstEvent: 0, events: 6, baseTime: [0, 0, 0, 0, 0, 0, 0, 0])
    return FormatV4VectorTests.header(flags: 0x02, body: body) + chunk + payload
  }()

  @Test func theProgressVectorIsLaidOutFromTheKindsSpec() throws {
    try FormatV4VectorTests.expectVector("spec-layout", isLaidOutAs: Self.progressVector)
  }

  /// A kind with a field of every type, two of them optional and absent: each field's
  /// bytes as the layout says, then the same values back from the bytes and from the
  /// compact event's slots.
  @Test func everyFieldTypeIsLaidOutInSpecOrder() throws {
    let spec = KindSpec(
      "test.every-type", .app,
      [
        .required("session", .string), .optional("ok", .boolean), .required("mode", .choice(words: ["a", "b", "c"])),
        .optional("at", .seconds), .optional("after", .interval), .required("count", .integer),
        .optional("label", .string), .optional("flag", .boolean), .optional("note", .string),
      ], "a test kind")
    let layout = try #require(SpecLayout(spec))
    let values: [FieldValue?] = [
      .string("s"), .boolean(true), .choice("c"), nil, .interval(TraceInterval(milliseconds: 250)), .integer(300),
      .string("t"), nil, .string("u"),
    ]
    var encoder = ChunkEncoder(baseTime: 0)
    encoder.appendSpecFields(values, layout: layout)
    #expect(encoder.strings == ["s", "t", "u"])
    #expect(
      encoder.records.array == [
        0x2D,  // presence: ok (bit 0), after (bit 2), label (bit 3), note (bit 5); at (bit 1) and flag (bit 4) absent
        0x00,  // session: string 0
        0x01,  // ok: true
        0x02,  // mode: word 2, "c"
        0xEA, 0x07,  // after: 250 ms (250 << 2 | 2 = 1002)
        0xAC, 0x02,  // count: 300
        0x01,  // label: string 1
        0x02,  // note: string 2, in the compact event's third string slot
      ])
    var event = CompactEvent(time: 0, tag: .appLaunch)
    let (decoded, atEnd) = try encoder.records.withUnsafeBytes { bytes in
      var cursor = ByteCursor(bytes)
      let decoder = ChunkDecoder(strings: ["s", "t", "u"], time: 0)
      let values = try decoder.specFields(layout, &cursor, into: &event) {
        ChunkDecoder.Failure(offset: 0, message: $0)
      }
      return (values, cursor.isAtEnd)
    }
    #expect(decoded == values)
    #expect(atEnd)
    #expect(event.specFieldValues(layout: layout, strings: ChunkStrings(strings: ["s", "t", "u"])) == values)
    #expect(event.thirdString != CompactEvent.noString)
  }

  /// Why the one record `record` does not decode, or `nil` when it does, with the chunk's
  /// string table `strings`.
  static func malformation(ofRecord record: [UInt8], strings: [String] = []) -> ChunkDecoder.Failure? {
    record.withUnsafeBytes { bytes -> ChunkDecoder.Failure? in
      var cursor = ByteCursor(bytes)
      var decoder = ChunkDecoder(strings: strings, time: 0)
      var event = CompactEvent(time: 0, tag: .appLaunch)
      do throws(ChunkDecoder.Failure) {
        try decoder.compactRecord(&cursor, into: &event)
        return nil
      } catch {
        return error
      }
    }
  }

  /// What a record of a spec-layout kind must not be: each is a malformed record, named.
  @Test(arguments: [
    ([0x1B, 0x00, 0x01, 0x02], "integer out of range"),  // cut short before `total`
    ([0x1E, 0x05, 0x00], "bad extended event kind code"),  // code 5 has a tag byte of its own
    ([0x1E, 0x1E, 0x00], "bad extended event kind code"),  // 30 is no kind's code
    ([0x1E, 0x40, 0x00], "unknown event kind tag 64"),  // a longer code no kind has
    ([0x1E, 0x7F, 0x00], "unknown event kind tag 127"),  // a code no kind has
  ])
  func aBadSpecLayoutRecordIsMalformed(_ record: [UInt8], _ message: String) {
    let error = Self.malformation(ofRecord: record)
    #expect(error?.message == message)
  }

  /// Presence bits past the kind's optional fields, a boolean that is not 0 or 1, and a
  /// word index past the choice's words are malformed.
  @Test(arguments: [
    ([0x04, 0x00], "bad presence bits"),  // bit 2: the kind has two optional fields
    ([0x01, 0x02, 0x00], "bad ok"),
    ([0x00, 0x03], "bad mode"),
  ])
  func aBadFieldIsMalformed(_ bytes: [UInt8], _ message: String) throws {
    let spec = KindSpec(
      "test.fields", .app,
      [.optional("ok", .boolean), .required("mode", .choice(words: ["a", "b", "c"])), .optional("n", .integer)],
      "a test kind")
    let layout = try #require(SpecLayout(spec))
    let error = bytes.withUnsafeBytes { raw -> ChunkDecoder.Failure? in
      var cursor = ByteCursor(raw)
      var event = CompactEvent(time: 0, tag: .appLaunch)
      do throws(ChunkDecoder.Failure) {
        _ = try ChunkDecoder(strings: [], time: 0).specFields(layout, &cursor, into: &event) {
          ChunkDecoder.Failure(offset: 0, message: $0)
        }
        return nil
      } catch {
        return error
      }
    }
    #expect(error?.message == message)
  }

  /// A kind with more fields of one storage class than a compact event holds has no
  /// layout; every kind from code 27 on has one.
  @Test func kindsThatDoNotFitHaveNoLayout() {
    let strings = KindSpec("test.strings", .app, ["a", "b", "c", "d"].map { .required($0, .string) }, "four strings")
    #expect(SpecLayout(strings) == nil)
    for kind in EventTag.allCases where kind.rawValue >= SpecLayout.firstCode {
      #expect(SpecLayout(kind.spec) != nil, "\(kind.name)")
    }
  }
}
