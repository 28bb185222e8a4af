import BackgroundTrace
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A recorder that cannot go on writing says so in its file, and two recorders never
/// share one (docs/FORMAT.md, "Stop record"; TraceRecorder's documentation).
@Suite struct RecorderFailureTests {
  /// Runs `record-child` with `arguments` and returns its standard output and exit status.
  static func runChild(_ arguments: [String]) throws -> (output: String, status: Int32) {
    let process = Process()
    process.executableURL = RecorderCrashTests.child
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (String(decoding: data, as: UTF8.self), process.terminationStatus)
  }

  @Test func aFileSizeLimitStopsTheRecordingAndTheFileSaysHowManyEventsItDidNotWrite() throws {
    // A write past RLIMIT_FSIZE fails with EFBIG, as one on a full disk with ENOSPC:
    // the same path through the recorder, and no mount needed.
    let directory = try TemporaryDirectory()
    let path = directory.path("limited.bgtrace")
    let recorded = 600_000
    let (output, status) = try Self.runChild([
      "--file-size-limit", "2500000", "--events", String(recorded), path, "65536",
    ])
    #expect(status == 0, "record never traps: the child records all it was told to and exits")
    let fields = output.split(separator: " ", maxSplits: 1)
    let unwritten = try #require(Int(fields.first?.dropFirst("unwritten=".count) ?? ""))
    #expect(fields.last == "failure=cannot reserve space in the file: File too large\n")
    #expect(unwritten > 0 && unwritten < recorded)

    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(bytes.count <= 2_500_000)
    let (trace, damage) = try RecordedTrace.decode(binary: bytes)
    let written = trace.events.count
    #expect(written + unwritten == recorded, "every event is either in the file or counted as not written")
    #expect(trace.events.indices.allSatisfy { trace.events[$0].kind == RecorderCrashTests.expectedKind($0) })
    #expect(damage.count == 1)
    let stop = try #require(damage.first)
    #expect(stop.kind == .recordingStopped)
    #expect(stop.lostEvents == unwritten)
    #expect(stop.isLoss && stop.endsTrace)
    #expect(
      stop.message.hasPrefix(
        "the recording stopped writing after event \(written) (at \(trace.events.last!.time)s): "
          + "cannot reserve space in the file: File too large; \(unwritten) events recorded after it, from "))
    #expect(stop.description.hasPrefix("<input>: at byte \(stop.offset): error: the recording stopped"))
  }

  @Test func anEventWithNoBinaryFormStopsTheFileAtOnceAndFailureSaysWhyBeforeAnyFlush() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("stopped.bgtrace")
    let recorder = try TraceRecorder(writingTo: path, clock: ManualClock())
    recorder.record(.appLaunch, at: .zero)
    recorder.record(.taskBegin(id: 1, name: "Save"), at: TraceTime(seconds: 1))
    #expect(recorder.failure == nil)
    recorder.record(.taskEnd(id: -1), at: TraceTime(seconds: 2))
    #expect(recorder.failure?.kind == .unencodableEvent, "readable at once, not only from flush()")
    recorder.record(.taskEnd(id: 1), at: TraceTime(seconds: 3))
    recorder.record(.mark(label: "late"), at: TraceTime(seconds: 4))
    #expect(recorder.unwrittenEventCount == 3)

    // Read while the recorder is still open, as a killed app leaves it.
    let (open, openDamage) = try RecordedTrace.decode(binary: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    #expect(open.events.map(\.kind) == [.appLaunch, .taskBegin(id: 1, name: "Save")])
    let expected =
      "the recording stopped writing after event 2 (at 1s): event 3: field 'id' is negative; "
      + "trace integers are non-negative; 3 events recorded after it, from 2s to 4s, were not written"
    #expect(openDamage.map(\.message) == [expected])
    #expect(openDamage.map(\.lostEvents) == [3])

    #expect(throws: TraceRecordingError.self) { try recorder.close() }
    let (closed, closedDamage) = try RecordedTrace.decode(
      binary: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    #expect(closed.events == open.events)
    #expect(closedDamage.map(\.message) == [expected], "close() keeps the stop record and ends the file after it")
  }

  @Test func aSecondRecorderOnTheSamePathInThisProcessIsRefused() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("shared.bgtrace")
    let first = try TraceRecorder(writingTo: path, clock: ManualClock())
    first.record(.appLaunch, at: .zero)
    for replacing in [false, true] {
      let error = #expect(throws: TraceRecordingError.self) {
        try TraceRecorder(writingTo: path, replacing: replacing)
      }
      #expect(error?.kind == .fileInUse)
      #expect(
        error?.description
          == "\(path): is being recorded by another recorder in this process; give each recorder its own file")
    }
    first.record(.mark(label: "still mine"), at: TraceTime(seconds: 1))
    try first.close()
    #expect(
      try RecordedTrace.decode(binary: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))).trace.events.count
        == 2)

    // Closed, the file is free, but it exists: replaced only when asked to.
    let exists = #expect(throws: TraceRecordingError.self) { try TraceRecorder(writingTo: path) }
    #expect(exists?.description == "\(path): already exists; pass replacing: true to replace it")
    let second = try TraceRecorder(writingTo: path, replacing: true, clock: ManualClock())
    try second.close()
    #expect(
      try RecordedTrace.decode(binary: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))).trace.events.isEmpty)
  }

  @Test func aSecondProcessOnTheSamePathIsToldWhoHoldsItAndATemplateTakesAnotherName() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("run.bgtrace")
    let process = Process()
    process.executableURL = RecorderCrashTests.child
    process.arguments = [path, "4096"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    try? output.fileHandleForWriting.close()
    // The first acknowledgement: the child holds the file and has recorded into it.
    let first = try #require(try output.fileHandleForReading.read(upToCount: 8))
    #expect(first.count == 8)

    let error = #expect(throws: TraceRecordingError.self) { try TraceRecorder(writingTo: path, replacing: true) }
    #expect(error?.kind == .fileInUse)
    #expect(
      error?.description
        == "\(path): is being recorded by process \(process.processIdentifier); give each recorder its own file")

    // BGTRACE_OUTPUT without %p shared by two processes: this one records beside it.
    let recorder = try #require(try TraceRecorder.fromEnvironment([TraceRecorder.outputVariable: path]))
    try recorder.close()
    let beside = directory.path("run-2.bgtrace")
    #expect(
      try RecordedTrace.decode(binary: [UInt8](try Data(contentsOf: URL(fileURLWithPath: beside)))).trace.events.map(
        \.kind)
        == [.appLaunch])

    kill(process.processIdentifier, SIGKILL)
    _ = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == SIGKILL, "killed by the test, not by a SIGBUS")
    let (trace, damage) = try RecordedTrace.decode(binary: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    #expect(damage.allSatisfy { !$0.isLoss })
    #expect(!trace.events.isEmpty)
    #expect(trace.events.indices.allSatisfy { trace.events[$0].kind == RecorderCrashTests.expectedKind($0) })
  }
}
