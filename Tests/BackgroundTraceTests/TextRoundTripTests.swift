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
    // The log lines `bgtrace import` notes after an event's fields (`# from LOG:LINE`)
    // are not part of the canonical text, which holds the events alone.
    let withoutSources = contents.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.range(of: " # from ").map { line[..<$0.lowerBound] } ?? line
    }.joined(separator: "\n")
    if !hasComments {
      // A shipped trace without comments must be written exactly as the writer writes it.
      #expect(trace.text == withoutSources, "\(url.lastPathComponent) is not canonical")
    }
    for limit in [BinaryFormat.defaultChunkPayload, 256] {
      let binary = try BinaryTraceEncoder.encode(trace, chunkPayloadLimit: limit)
      let decoded = try RecordedTrace.decode(binary: binary)
      #expect(decoded.damage.isEmpty)
      #expect(decoded.trace == trace)
      #expect(decoded.trace.text == trace.text)
      if !hasComments {
        #expect(decoded.trace.text == withoutSources)
      }
    }
  }
}
