import BackgroundTrace
import BackgroundTraceImport
import TestSupport
import Testing

/// A log long enough that the messages its one pass keeps outgrow memory (they go to a
/// temporary file, in chunks): the chosen app's events come back whole and in order,
/// the app is chosen by a line at the log's very end, and `--strict` still stops at the
/// first message that does not parse.
@Suite struct ImportLongLogTests {
  /// Works of the app (pid 100, named only by the last line) and of an unnamed other app
  /// (pid 300), one line a second, about 3 MB of messages once kept.
  static let works = 20_000
  /// The work after which a message that does not parse is written.
  static let malformedAfter = 15_000

  static func work(_ index: Int, app: Int) -> String {
    "\(String(index, radix: 16).leftPadded(to: 8))-0000-0000-0000-\(String(app).leftPadded(to: 12))"
  }

  static func line(_ second: Int, pid: Int, _ tagAndMessage: String) -> String {
    let clock = [second / 3600, second / 60 % 60, second % 60].map { String($0).leftPadded(to: 2) }
    return "01-01 \(clock.joined(separator: ":")).000  \(pid)  \(pid + 1) D \(tagAndMessage)\n"
  }

  static let log: String = {
    var log = ""
    var second = 0
    for index in 0..<works {
      log += line(second, pid: 100, "WM-GreedyScheduler: Starting work for \(work(index, app: 100))")
      log += line(second + 1, pid: 300, "WM-GreedyScheduler: Starting work for \(work(index, app: 300))")
      log += line(
        second + 2, pid: 100,
        "WM-WorkerWrapper: Worker result SUCCESS for Work [ id=\(work(index, app: 100)), tags={ A } ]")
      second += 3
      if index == malformedAfter { log += line(second, pid: 100, "WM-WorkerWrapper: Worker result MAYBE for x") }
    }
    return log + line(second, pid: 1500, "ActivityManager: Process com.example (pid 100) has died: cch")
  }()

  @Test func everyEventOfTheChosenAppComesBackInOrder() throws {
    var expected =
      "bgtrace 1\nmeta platform=android source=android-log process=com.example attempts=from-first-start-seen\n"
    for index in 0..<Self.works {
      let work = Self.work(index, app: 100)
      expected += "\(index * 3) work.start work=\(work) attempt=0\n"
      expected += "\(index * 3 + 2) work.result work=\(work) attempt=0 outcome=success tags=A\n"
    }
    expected += "\(Self.works * 3) app.terminate reason=died\n"
    let result = try imported(Self.log)
    #expect(result.trace == expected)
    #expect(result.summary.apps.map(\.name) == ["com.example", "(unnamed)"])
    #expect(result.summary.malformedLines == 1)
    #expect(result.summary.lines == Self.works * 3 + 2)
    #expect(result.summary.skippedLines == Self.works + 1)
  }

  @Test func strictStopsAtTheFirstMessageThatDoesNotParse() throws {
    var events = 0
    var failure: LogImportError?
    do {
      _ = try LogImporter.run(
        [.bytes(Array(Self.log.utf8), name: "long.log")], options: LogImportOptions(strict: true),
        meta: { _ in }, event: { _ in events += 1 })
    } catch {
      failure = error.importError
    }
    #expect(failure?.kind == .malformedTrace)
    // Each work's start and result (with its tags).
    #expect(events == (Self.malformedAfter + 1) * 2)
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
