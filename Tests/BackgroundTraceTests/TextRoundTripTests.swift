import BackgroundTrace
import Foundation
import TestSupport
import Testing

/// Text → binary → text over the traces shipped under Traces/.
@Suite struct TextRoundTripTests {
  static let textTraces = Repository.files(under: Repository.traces, suffix: "txt")

  @Test func tracesDirectoryHoldsTextTraces() {
    let names = Set(Self.textTraces.map(\.lastPathComponent))
    #expect(names.isSuperset(of: ["all-kinds.txt", "minimal.txt", "unicode-strings.txt", "nanosecond-times.txt"]))
  }

  @Test(arguments: textTraces)
  func shippedTraceIsCanonicalAndSurvivesTextToBinaryToText(_ url: URL) throws {
    let contents = try String(contentsOf: url, encoding: .utf8)
    let trace = try RecordedTrace(text: contents, file: url.path)
    let hasComments = contents.split(separator: "\n").contains { $0.drop { $0 == " " || $0 == "\t" }.hasPrefix("#") }
    if !hasComments {
      // A shipped trace without comments must be written exactly as the writer writes it.
      #expect(trace.text == contents, "\(url.lastPathComponent) is not canonical")
    }
    for limit in [BinaryFormat.defaultChunkPayload, 256] {
      let binary = try BinaryTraceEncoder.encode(trace, chunkPayloadLimit: limit)
      let decoded = try RecordedTrace.decode(binary: binary)
      #expect(decoded.damage.isEmpty)
      #expect(decoded.trace == trace)
      #expect(decoded.trace.text == trace.text)
      if !hasComments {
        #expect(decoded.trace.text == contents)
      }
    }
  }
}
