import BackgroundTrace
import BackgroundTraceCheck
import Foundation
import TraceWorkloads

/// The checker's figures for the summary, as multiples of the decoder's cost per event.
struct CheckerCost {
  /// Checking as `bgtrace check` does it — decoding plus `TraceChecker` — over decoding
  /// alone: the summary's "checker vs decoder per event".
  var withDecoding: Double
  /// The checker's own share of that loop (the loop's time less decoding's) over
  /// decoding alone.
  var alone: Double
}

/// The checker's cost per event against the streaming decoder's, on the codec
/// benchmark's virtual-clock workload in its canonical binary form, in one process with
/// no file I/O.
///
/// The summary's pair is what `bgtrace check` does with a binary trace
/// (``checkAsTheCommandDoes(_:meta:)``): it decodes with
/// `BinaryTraceReader.nextCompactBatch(into:)` in batches of 64 over the bytes in
/// memory, and checks each event of a batch in turn. The summary's ratio is that
/// loop's time over the same decoding loop's alone; the checker's own cost is the
/// difference, printed beside it. (Checking events decoded beforehand
/// into an array instead streamed 56 MB of events through the cache, which the
/// decoder's batches of 64 never do.) The same pair with `next()`'s events is printed
/// as rows, for comparison.
func runCheckerCostBenchmark(_ options: Options) throws -> CheckerCost {
  print("\n[checker cost] \(options.events) virtual-clock events, canonical binary, decoded and checked in memory")
  let trace = WorkloadGenerator.trace(eventCount: options.events, seed: 42, timing: .virtualMilliseconds)
  let bytes = try BinaryTraceEncoder.encode(trace)
  let meta = trace.meta

  // Each loop keeps its findings in a local: a nested function that wrote to a
  // captured variable had every access checked for exclusivity at run time.
  func decode() throws {
    var reader = try BinaryTraceReader(source: MemoryByteSource(bytes), file: nil)
    var count = 0
    while let located = try reader.next() { count &+= located.location > 0 ? 1 : 0 }
    precondition(count == trace.events.count && reader.damage.isEmpty, "the workload does not decode")
  }
  func decodeAndCheck() throws -> [Finding] {
    var reader = try BinaryTraceReader(source: MemoryByteSource(bytes), file: nil)
    var checker = TraceChecker(meta: meta)
    var findings: [Finding] = []
    while let located = try reader.next() { checker.check(located, into: &findings) }
    checker.finish(into: &findings)
    return findings
  }
  func decodeCompact() throws {
    let (count, times) = try decodeAsTheCheckerReads(bytes)
    precondition(count == trace.events.count && times > 0, "the workload does not decode")
  }
  // The four loops in alternation, best of nine each, timed by this thread's CPU clock:
  // on a shared machine the load changes from second to second, and wall time counts
  // the time other processes hold the core.
  var decodeNanos = Double.infinity
  var checkedNanos = Double.infinity
  var compactDecodeNanos = Double.infinity
  var compactCheckedNanos = Double.infinity
  var findings: [Finding] = []
  var compactFindings: [Finding] = []
  for _ in 0..<9 {
    decodeNanos = min(decodeNanos, try measureThreadCPU { try decode() })
    checkedNanos = min(checkedNanos, try measureThreadCPU { findings = try decodeAndCheck() })
    compactDecodeNanos = min(compactDecodeNanos, try measureThreadCPU { try decodeCompact() })
    compactCheckedNanos = min(
      compactCheckedNanos, try measureThreadCPU { compactFindings = try checkAsTheCommandDoes(bytes, meta: meta) })
  }
  precondition(compactFindings == findings, "the compact events' findings differ")
  let count = Double(trace.events.count)
  let checkNanos = checkedNanos - decodeNanos
  let compactCheckNanos = compactCheckedNanos - compactDecodeNanos
  row("decode with next(), in memory", "\(format(decodeNanos / count)) ns/event", "thread CPU time")
  row(
    "decode + TraceChecker, next()", "\(format(checkedNanos / count)) ns/event",
    "\(format(checkedNanos / decodeNanos))x decode")
  row(
    "  of which TraceChecker", "\(format(checkNanos / count)) ns/event",
    "\(format(checkNanos / decodeNanos))x decode, \(findings.count) findings")
  row(
    "decode compact batches of 64, in memory", "\(format(compactDecodeNanos / count)) ns/event",
    "\(format(decodeNanos / compactDecodeNanos, 2))x faster than next()")
  row(
    "decode + check, compact (bgtrace check)", "\(format(compactCheckedNanos / count)) ns/event",
    "\(format(compactCheckedNanos / compactDecodeNanos))x decode")
  row(
    "  of which TraceChecker", "\(format(compactCheckNanos / count)) ns/event",
    "\(format(compactCheckNanos / compactDecodeNanos))x decode, \(compactFindings.count) findings")
  return CheckerCost(
    withDecoding: compactCheckedNanos / compactDecodeNanos, alone: compactCheckNanos / compactDecodeNanos)
}

/// Runs `body` once and returns the CPU time this thread spent in it, in nanoseconds.
func measureThreadCPU(_ body: () throws -> Void) rethrows -> Double {
  func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
  }
  let start = now()
  try body()
  return now() - start
}

/// The findings of `bytes`, a binary trace with `meta`, decoded and checked as
/// `bgtrace check` does it (`TraceChecker.checkRemainingEvents(of:into:)`).
func checkAsTheCommandDoes(_ bytes: [UInt8], meta: TraceMetadata) throws -> [Finding] {
  var reader = try TraceReader(source: MemoryByteSource(bytes), file: "workload")
  var checker = TraceChecker(meta: meta)
  var findings: [Finding] = []
  try checker.checkRemainingEvents(of: &reader, into: &findings)
  checker.finish(into: &findings)
  return findings
}

/// Decodes and checks the checker-cost workload `repeats` times as `bgtrace check`
/// does, and prints the time per event (for profilers: the decoder's symbols and the
/// checker's are apart).
func profileChecker(_ options: Options, repeats: Int) throws {
  let trace = WorkloadGenerator.trace(eventCount: options.events, seed: 42, timing: .virtualMilliseconds)
  let bytes = try BinaryTraceEncoder.encode(trace)
  var findingCount = 0
  let nanos = try measureCPU(repeats: repeats) {
    findingCount = try checkAsTheCommandDoes(bytes, meta: trace.meta).count
  }
  print("decode and check: \(format(nanos / Double(trace.events.count))) ns/event, \(findingCount) findings")
}

/// Times `bgtrace check`'s loop on the checker-cost workload with the events of one
/// group of kinds left unchecked at a time (decoded, not handed to the checker), and
/// prints each time per event: what a group costs the checker is roughly the full
/// loop's time less that row's. Skipping a group changes what the checker sees (a
/// `task.end` left out leaves its task open), so the rows point where to look; they are
/// no exact split.
func profileCheckerByKind(_ options: Options) throws {
  let trace = WorkloadGenerator.trace(eventCount: options.events, seed: 42, timing: .virtualMilliseconds)
  let bytes = try BinaryTraceEncoder.encode(trace)
  let groups: [(name: String, tags: [EventTag])] = [
    ("nothing", []),
    ("task.*", [.taskBegin, .taskEnd, .taskExpire]),
    (
      "sched.*", [.schedRegister, .schedSubmit, .schedReject, .schedCancel, .schedLaunch, .schedExpire, .schedComplete]
    ),
    ("work.*", [.workEnqueue, .workStart, .workResult, .workStop, .workCancel]),
    ("app.*", [.appLaunch, .appState, .appTerminate]),
    ("env.set, input, mark", [.envSet, .input, .mark]),
    ("everything", EventTag.allCases),
  ]
  for group in groups {
    // A bit per kind: a set's hashing would cost more than some kinds' checks.
    let skipped = group.tags.reduce(UInt64(0)) { $0 | 1 << UInt64($1.rawValue) }
    let shares = Double(trace.events.filter { skipped & 1 << UInt64($0.kind.tag.rawValue) != 0 }.count)
    let nanos = try measureCPU(repeats: 5) {
      var reader = try BinaryTraceReader(source: MemoryByteSource(bytes), file: nil)
      reader.stringLimit = TraceChecker.readerStringLimit
      var checker = TraceChecker(meta: trace.meta)
      var findings: [Finding] = []
      try withUnsafeTemporaryAllocation(of: CompactEvent.self, capacity: 64) { batch in
        while case let read = try reader.nextCompactBatch(into: batch), read > 0 {
          let first = reader.eventNumber &- read &+ 1
          for index in 0..<read where skipped & 1 << UInt64(batch[index].tag.rawValue) == 0 {
            checker.check(batch[index], location: first &+ index, strings: reader.strings, into: &findings)
          }
        }
      }
      checker.finish(into: &findings)
    }
    print(
      "unchecked \(group.name): \(format(nanos / Double(trace.events.count))) ns/event "
        + "(\(format(100 * shares / Double(trace.events.count)))% of events unchecked)")
  }
}
