import BackgroundTrace
import BackgroundTraceImport
import Testing

/// What `LogImporter.run` throws: the import's own error, typed, for a log that cannot
/// be read as well as for one that cannot be imported, and what the caller's output
/// threw, apart from it.
@Suite struct ImportFailureTests {
  /// Two lines of one WorkManager work, in logcat's threadtime style.
  static let log = Array(
    """
    01-01 00:00:01.000  100  101 D WM-GreedyScheduler: Starting work for 9b6d0618-f951-4dfc-92a8-38c1e902c481
    01-01 00:00:03.000  100  101 I WM-WorkerWrapper: Worker result SUCCESS for Work [ id=9b6d0618-f951-4dfc-92a8-38c1e902c481, tags={ A } ]

    """.utf8)

  /// A log whose bytes run out in a failed read after `good` bytes.
  struct FailingSource: ByteSource {
    var bytes: [UInt8]
    var good: Int
    var offset = 0

    mutating func read(into buffer: inout [UInt8], count: Int) throws(ByteSourceError) -> Int {
      guard offset < good else { throw ByteSourceError(file: "device.log", message: "read failed: Input/output error") }
      let end = min(good, offset + count)
      buffer += bytes[offset..<end]
      defer { offset = end }
      return end - offset
    }
  }

  static func failure(
    _ inputs: [LogInput], event: (TraceEvent) throws -> Void = { _ in }
  ) -> LogImportFailure? {
    do {
      _ = try LogImporter.run(inputs, options: LogImportOptions(), meta: { _ in }, event: event)
      return nil
    } catch {
      return error
    }
  }

  @Test func aLogThatCannotBeOpenedIsAnImportErrorOfKindIO() throws {
    let failure = try #require(Self.failure([.file("/nonexistent/device.log")]))
    let error = try #require(failure.importError)
    #expect(error.kind == .io)
    #expect(error.description == "/nonexistent/device.log: cannot open: No such file or directory")
  }

  @Test func aReadThatFailsAfterTheFirstLinesIsAnImportErrorOfKindIO() throws {
    // The log reads as far as its first line, then fails.
    let firstLine = Self.log.firstIndex(of: 10)! + 1
    let input = LogInput(name: "device.log") { FailingSource(bytes: Self.log, good: firstLine) }
    let error = try #require(Self.failure([input])?.importError)
    #expect(error.kind == .io)
    #expect(error.description == "device.log: read failed: Input/output error")
  }

  @Test func whatTheOutputThrowsComesBackAsIsAndStopsTheImport() throws {
    struct DiskFull: Error, Equatable {}
    var events = 0
    let failure = try #require(
      Self.failure([.bytes(Self.log, name: "device.log")]) { _ in
        events += 1
        throw DiskFull()
      })
    guard case .output(let error) = failure else {
      Issue.record("expected the output's error, got \(failure)")
      return
    }
    #expect(error as? DiskFull == DiskFull())
    #expect(failure.importError == nil)
    #expect(events == 1)
  }

  @Test func aLogInNoKnownStyleIsAnImportErrorAtNoLine() throws {
    let error = try #require(Self.failure([.bytes(Array("hello\nworld\n".utf8), name: "notes.txt")])?.importError)
    #expect(error.kind == .configuration)
    #expect(error.position == nil)
    #expect(error.description.hasPrefix("notes.txt: "))
  }
}
