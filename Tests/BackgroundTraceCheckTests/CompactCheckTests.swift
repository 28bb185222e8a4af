import BackgroundTrace
import BackgroundTraceCheck
import Foundation
import Testing
import TraceWorkloads

/// `bgtrace check` reads a binary trace as compact events (`BinaryTraceReader.nextCompact`)
/// and checks those; these tests hold that path to the findings of checking the same
/// trace's full events, on every trace the repository has and on generated traces
/// broken at random.
@Suite struct CompactCheckTests {
  /// The findings of checking `bytes` (a binary trace) event by event, read with
  /// `next()` or as compact events (the reader keeping at most `stringLimit` strings
  /// across chunks); locations are event numbers either way.
  static func findings(ofBinary bytes: [UInt8], compact: Bool, stringLimit: Int? = nil) throws -> [Finding] {
    var reader = try BinaryTraceReader(source: MemoryByteSource(bytes), file: nil)
    reader.stringLimit = stringLimit
    var checker = TraceChecker(meta: reader.meta)
    var findings: [Finding] = []
    if compact {
      var event = CompactEvent(time: 0, tag: .appLaunch)
      while try reader.nextCompact(into: &event) {
        checker.check(event, location: reader.eventNumber, strings: reader.strings, into: &findings)
      }
    } else {
      while let located = try reader.next() { checker.check(located, into: &findings) }
    }
    checker.finish(into: &findings)
    return findings
  }

  /// Every trace file under `Traces/` that reads without error, relative to the
  /// repository root.
  static let traceFiles: [String] = {
    let root = TraceFiles.repositoryRoot.appendingPathComponent("Traces")
    let base = root.deletingLastPathComponent().standardizedFileURL.path + "/"
    guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
    var paths: [String] = []
    for case let url as URL in enumerator where ["txt", "bgtrace"].contains(url.pathExtension) {
      paths.append(String(url.standardizedFileURL.path.dropFirst(base.count)))
    }
    return paths.sorted()
  }()

  @Test func theRepositoryHasTracesToCheck() {
    #expect(Self.traceFiles.count > 100)
  }

  /// Each trace, written in the binary form, gives the same findings read either way,
  /// and the same as ``TraceChecker/check(_:configuration:)`` on the whole trace (whose
  /// locations are event numbers too).
  @Test(arguments: traceFiles)
  func compactEventsGiveTheSameFindings(_ relativePath: String) throws {
    let path = TraceFiles.repositoryRoot.appendingPathComponent(relativePath).path
    guard var reader = try? TraceReader(path: path), let trace = try? reader.readAll() else {
      return  // a deliberately malformed trace: the readers' tests cover it
    }
    let bytes = try BinaryTraceEncoder.encode(trace)
    let expected = TraceChecker.check(trace)
    #expect(try Self.findings(ofBinary: bytes, compact: false) == expected)
    #expect(try Self.findings(ofBinary: bytes, compact: true) == expected)
  }

  /// A hand-written trace whose findings are known: a task left open at suspension,
  /// an end of a task never begun, and work retried past its limit, read as compact
  /// events (docs/rules.md).
  @Test func compactEventsReportTheRulesFindings() throws {
    let text = """
      bgtrace 1
      0 app.launch
      0 app.state to=active
      1 task.begin id=1 name="Upload"
      2 task.end id=7
      3 work.enqueue work=sync limit=1
      4 work.start work=sync attempt=0
      5 work.result work=sync attempt=0 outcome=retry
      40 work.start work=sync attempt=1
      41 work.result work=sync attempt=1 outcome=retry
      42 app.state to=background
      43 app.state to=suspended

      """
    let trace = try RecordedTrace(text: text)
    let findings = try Self.findings(ofBinary: try BinaryTraceEncoder.encode(trace), compact: true)
    #expect(findings.map(\.rule.id) == ["task-unknown-end", "work-retry-limit", "task-leaked"])
    #expect(findings.map(\.location) == [4, 9, 11])
    #expect(findings == TraceChecker.check(trace))
  }

  /// Generated traces broken at random (events dropped, repeated and moved a little),
  /// whose findings cover most rules: the same findings read either way, also in small
  /// chunks by a reader that starts its strings afresh every few chunks, as
  /// `bgtrace check` may.
  @Test(arguments: 0..<24)
  func brokenWorkloadsGiveTheSameFindings(_ seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    var events = WorkloadGenerator.trace(eventCount: 2_000, seed: seed).events
    for _ in 0..<60 {
      let index = Int.random(in: 0..<events.count, using: &random)
      switch Int.random(in: 0..<3, using: &random) {
      case 0: events.remove(at: index)
      case 1: events.insert(events[index], at: index)
      default:
        let other = min(events.count - 1, index + Int.random(in: 1...4, using: &random))
        let (first, second) = (events[index], events[other])
        events[index] = TraceEvent(time: first.time, second.kind)
        events[other] = TraceEvent(time: second.time, first.kind)
      }
    }
    let trace = RecordedTrace(meta: WorkloadGenerator.meta, events: events)
    let expected = TraceChecker.check(trace)
    #expect(expected.count > 10)
    #expect(try Self.findings(ofBinary: try BinaryTraceEncoder.encode(trace), compact: true) == expected)
    let small = try BinaryTraceEncoder.encode(trace, chunkPayloadLimit: 256)
    #expect(try Self.findings(ofBinary: small, compact: true, stringLimit: 8) == expected)
  }
}
