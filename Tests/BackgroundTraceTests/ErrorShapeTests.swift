import BackgroundTrace
import Foundation
import Testing

/// Every error the library throws has one shape (kind, file, position, message), so a
/// tool prints any of them with one `catch` and the same kind of line.
@Suite struct ErrorShapeTests {
  /// Whatever a reader throws, as the one shape; fails the test for any other error.
  private func readerError(_ read: () throws -> Void) -> (any BackgroundTraceError)? {
    do {
      try read()
      Issue.record("expected the reader to throw")
      return nil
    } catch let error as any BackgroundTraceError {
      return error
    } catch {
      Issue.record("not a BackgroundTraceError: \(type(of: error)): \(error)")
      return nil
    }
  }

  @Test func malformedTextNamesFileLineAndColumn() throws {
    let error = readerError {
      var reader = try TraceReader(
        source: MemoryByteSource(Array("bgtrace 1\n0 task.begin id=x\n".utf8)), file: "golden.txt")
      _ = try reader.readAll()
    }
    #expect(error?.kind == .malformedTrace)
    #expect(error?.file == "golden.txt")
    #expect(error?.position == .text(line: 2, column: 17))
    #expect(error?.description == "golden.txt:2:17: expected a non-negative integer for 'id', found 'x'")
  }

  @Test func wrongBinaryVersionNamesTheByte() throws {
    var bytes = BinaryFormat.magic
    bytes += [99] + [UInt8](repeating: 0, count: 9)  // version 99, then flags, length, CRC
    let error = readerError { _ = try TraceReader(source: MemoryByteSource(bytes), file: "old.bgtrace") }
    #expect(error?.kind == .malformedTrace)
    #expect(error?.file == "old.bgtrace")
    #expect(error?.position == .byte(offset: 8))
    #expect(
      error?.description
        == "old.bgtrace: at byte 8: unsupported binary format version 99; this reader reads versions 1 to 4")
  }

  @Test func missingFileIsAnIOErrorWithoutPosition() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID()).bgtrace").path
    let error = readerError { _ = try TraceReader(path: path) }
    #expect(error?.kind == .io)
    #expect(error?.file == path)
    #expect(error?.position == nil)
    #expect(error?.description == "\(path): cannot open: No such file or directory")
  }

  @Test func unencodableEventNamesTheEventNumber() throws {
    let trace = RecordedTrace(events: [
      TraceEvent(time: TraceTime(seconds: 2), .appLaunch),
      TraceEvent(time: TraceTime(seconds: 1), .appTerminate(reason: nil)),
    ])
    let error = readerError { _ = try trace.binary() }
    #expect(error?.kind == .unencodableEvent)
    #expect(error?.file == nil)
    #expect(error?.position == .event(number: 2))
    #expect(error?.description.hasPrefix("event 2: ") == true)
  }

  @Test func schedulerRejectionHasTheSameShape() {
    let error: any BackgroundTraceError = TaskSchedulerError(.tooManyPendingTaskRequests)
    #expect(error.kind == .schedulerRejection)
    #expect(error.file == nil && error.position == nil)
    #expect(error.description == "BGTaskScheduler error: tooManyPendingTaskRequests")
  }
}
