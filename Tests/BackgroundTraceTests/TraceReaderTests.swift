import BackgroundTrace
import Foundation
import TestSupport
import Testing

@Suite struct TraceReaderTests {
  static let text = """
    bgtrace 1
    # the same trace in both forms
    meta platform=ios budget=30

    0 app.launch
    0.2 app.state to=active

    12.5 task.begin id=1 name=SaveDocument
    # expired
    42.5 task.expire id=1
    42.5 task.end id=1

    """

  @Test func textAndBinaryFilesGiveTheSameEventsWithTheirOwnLocations() throws {
    let directory = try TemporaryDirectory()
    let trace = try RecordedTrace(text: Self.text)
    let textPath = directory.path("trace.txt")
    let binaryPath = directory.path("trace.bgtrace")
    try Data(Self.text.utf8).write(to: URL(fileURLWithPath: textPath))
    try Data(try trace.binary()).write(to: URL(fileURLWithPath: binaryPath))

    var textReader = try TraceReader(path: textPath)
    var binaryReader = try TraceReader(path: binaryPath)
    #expect(textReader.format == .text)
    #expect(binaryReader.format == .binary)
    #expect(textReader.file == textPath)
    #expect(textReader.meta == TraceMetadata(["platform": "ios", "budget": "30"]))
    #expect(binaryReader.meta == textReader.meta)

    var textEvents: [LocatedEvent] = []
    while let located = try textReader.next() { textEvents.append(located) }
    var binaryEvents: [LocatedEvent] = []
    while let located = try binaryReader.next() { binaryEvents.append(located) }

    #expect(textEvents.map(\.event) == trace.events)
    #expect(binaryEvents.map(\.event) == trace.events)
    #expect(textEvents.map(\.location) == [5, 6, 8, 10, 11])  // line numbers
    #expect(binaryEvents.map(\.location) == [1, 2, 3, 4, 5])  // event numbers
    #expect(textReader.damage.isEmpty)
    #expect(binaryReader.damage.isEmpty)
    #expect(try textReader.next() == nil)
    #expect(try binaryReader.next() == nil)
  }

  @Test func binaryLocationsKeepTheirNumbersAfterALostChunk() throws {
    let trace = sampleTrace(eventCount: 150)
    let bytes = try BinaryTraceEncoder.encode(trace, chunkPayloadLimit: 256)
    let lost = BinaryLayout(bytes).chunks[1]
    var damaged = bytes
    damaged[lost.payloadStart] ^= 0xFF
    var reader = try TraceReader(source: MemoryByteSource(damaged), file: "damaged.bgtrace")
    var locations: [Int] = []
    while let located = try reader.next() {
      #expect(located.event == trace.events[located.location - 1])
      locations.append(located.location)
    }
    let expected = Array(1...trace.events.count).filter { !lost.events.contains($0 - 1) }
    #expect(locations == expected)
    #expect(reader.damage.map(\.lostEvents) == [lost.eventCount])
    #expect(reader.damage.first?.file == "damaged.bgtrace")
  }

  @Test func largeTextAndBinaryFilesStreamTheSameEvents() throws {
    let directory = try TemporaryDirectory()
    let trace = sampleTrace(eventCount: 20_000)  // larger than one 64 KiB read block in both forms
    try Data(trace.text.utf8).write(to: URL(fileURLWithPath: directory.path("big.txt")))
    try Data(try trace.binary()).write(to: URL(fileURLWithPath: directory.path("big.bgtrace")))
    var textReader = try TraceReader(path: directory.path("big.txt"))
    var binaryReader = try TraceReader(path: directory.path("big.bgtrace"))
    #expect(try textReader.readAll() == trace)
    #expect(try binaryReader.readAll() == trace)
  }

  @Test func malformedTextFileErrorNamesThePath() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("bad.txt")
    try Data("bgtrace 1\n0 app.launch\n0 task.end\n".utf8).write(to: URL(fileURLWithPath: path))
    var reader = try TraceReader(path: path)
    #expect(try reader.next()?.event == TraceEvent(time: .zero, .appLaunch))
    let error = #expect(throws: TraceReadError.self) { try reader.next() }
    #expect(error?.kind == .malformedTrace)
    #expect(error?.description == "\(path):3:3: task.end is missing the required field 'id'")
  }

  @Test func emptyFileIsAnEmptyTextInput() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("empty.txt")
    try Data().write(to: URL(fileURLWithPath: path))
    let error = #expect(throws: TraceReadError.self) { try TraceReader(path: path) }
    #expect(error?.description == "\(path):1:1: expected the header 'bgtrace 1', found an empty input")
  }

  @Test func missingFileAndDirectoryAreReadErrors() throws {
    let directory = try TemporaryDirectory()
    let missing = directory.path("nope.txt")
    let notFound = #expect(throws: TraceReadError.self) { try TraceReader(path: missing) }
    #expect(notFound == .unreadable(ByteSourceError(file: missing, message: "cannot open: No such file or directory")))
    let isDirectory = #expect(throws: TraceReadError.self) { try TraceReader(path: directory.url.path) }
    #expect(
      isDirectory == .unreadable(ByteSourceError(file: directory.url.path, message: "is a directory, not a trace file"))
    )
    #expect(isDirectory?.kind == .io)
    #expect(isDirectory?.position == nil)
  }

  /// The reader throws one type, so a `catch` can tell a malformed trace from an
  /// unreadable one by its pattern, as TraceReadError's documentation shows.
  @Test func aTypedCatchTellsAMalformedTraceFromAnUnreadableOne() throws {
    let directory = try TemporaryDirectory()
    let bad = directory.path("bad.txt")
    try Data("bgtrace 1\n0 task.end\n".utf8).write(to: URL(fileURLWithPath: bad))
    func outcome(_ path: String) -> String {
      do throws(TraceReadError) {
        var reader = try TraceReader(path: path)
        while try reader.next() != nil {}
        return "read"
      } catch {
        switch error {
        case .malformed(let error): return "malformed at \(error.position.map { "\($0)" } ?? "?")"
        case .unreadable(let error): return "unreadable: \(error.message)"
        }
      }
    }
    #expect(outcome(bad) == "malformed at text(line: 2, column: 3)")
    #expect(outcome(directory.path("nope.txt")) == "unreadable: cannot open: No such file or directory")
  }
}
