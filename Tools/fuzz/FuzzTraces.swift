// libFuzzer target for the trace readers and everything downstream of them. Built by
// Tools/fuzz/run.sh against the BackgroundTrace, checker, simulation and CLI modules,
// so it needs no SwiftPM support for fuzzing.
//
// Properties checked on every input, besides "never crash, hang or over-allocate":
// - the binary reader reports damage instead of failing, except for a wrong magic or
//   version;
// - whatever it recovers re-encodes and decodes back to the same events;
// - read as compact events (`nextCompact`, what `bgtrace check` reads), it gives the
//   same events, event numbers, damage and findings as read with `next()`;
// - every trace whose header ``TraceReader`` accepts goes through the bgtrace commands
//   as a user runs them — `check`, `explain`, `stats`, `dump`, and `export` to chrome,
//   jsonl, svg and html, with options and windows picked from the input — and
//   each exits as the reader's verdict says: bad input exactly when reading failed or
//   found damage (a windowed jsonl export may stop before what is wrong);
// - every input imported as a device log (`bgtrace import`: detected, and strictly as
//   iOS and as Android) gives a trace whose times never go back, which the
//   checker reads, or a LogImportError.

import BackgroundTrace
import BackgroundTraceCLI
import BackgroundTraceCheck
import BackgroundTraceImport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// libFuzzer's entry point: reads one input with the binary reader and with
/// ``TraceReader``, then runs the commands on it.
///
/// - Parameters:
///   - start: the input's first byte; may be `nil` for an empty input.
///   - count: how many bytes the input has.
/// - Returns: 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTraces(_ start: UnsafeRawPointer?, _ count: Int) -> Int32 {
  let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
  checkBinary(bytes)
  checkCompact(bytes)
  if let reading = checkAnyForm(bytes) { checkCommands(bytes, reading) }
  checkImport(bytes)
  return 0
}

/// Imports the input as a device log, as each platform and strictly: a trace whose
/// events the checker then reads, or a clear error; never a crash or a hang.
private func checkImport(_ bytes: [UInt8]) {
  // Detected and lenient, then each platform strictly: three imports, not six, to keep
  // the CI smoke run quick.
  let runs: [(platform: LogPlatform?, strict: Bool)] = [(nil, false), (.ios, true), (.android, true)]
  for run in runs {
    var events: [TraceEvent] = []
    var meta = TraceMetadata()
    do {
      _ = try LogImporter.run(
        [.bytes(bytes, name: "fuzz.log")], options: LogImportOptions(platform: run.platform, strict: run.strict),
        meta: { meta = $0 }, event: { events.append($0) })
    } catch {
      continue  // a LogImportError: with output that cannot throw, the only failure
    }
    for (earlier, later) in zip(events, events.dropFirst()) where later.time < earlier.time {
      fatalError("import wrote \(later) after \(earlier)")
    }
    _ = TraceChecker.check(RecordedTrace(meta: meta, events: events))
  }
}

private func checkBinary(_ bytes: [UInt8]) {
  guard let (trace, _) = try? RecordedTrace.decode(binary: bytes, file: "fuzz") else { return }
  guard let again = try? trace.binary(), let (back, damage) = try? RecordedTrace.decode(binary: again) else {
    fatalError("a recovered trace failed to re-encode")
  }
  guard damage.isEmpty && back == trace else { fatalError("re-encoding a recovered trace changed it") }
}

/// Reads a binary input with `next()` and as compact events side by side, checking each
/// way's events as it goes: both must agree on every event, its number, the damage and
/// the findings.
private func checkCompact(_ bytes: [UInt8]) {
  guard var full = try? BinaryTraceReader(source: MemoryByteSource(bytes), file: "fuzz"),
    var compact = try? BinaryTraceReader(source: MemoryByteSource(bytes), file: "fuzz")
  else { return }
  compact.stringLimit = 2  // starts its strings afresh between most chunks, as bgtrace check may
  var checker = TraceChecker(meta: full.meta)
  var compactChecker = TraceChecker(meta: compact.meta)
  var findings: [Finding] = []
  var compactFindings: [Finding] = []
  var event = CompactEvent(time: 0, tag: .appLaunch)
  do {
    while true {
      let located = try full.next()
      let read = try compact.nextCompact(into: &event)
      guard let located else {
        guard !read else { fatalError("nextCompact read an event past next()'s end") }
        break
      }
      guard read else { fatalError("nextCompact ended before event \(located.location)") }
      guard compact.eventNumber == located.location, TraceEvent(event, strings: compact.strings) == located.event
      else { fatalError("nextCompact read event \(compact.eventNumber) unlike next()'s \(located.location)") }
      checker.check(located, into: &findings)
      compactChecker.check(event, location: compact.eventNumber, strings: compact.strings, into: &compactFindings)
    }
  } catch {
    fatalError("reading bytes in memory failed: \(error)")
  }
  checker.finish(into: &findings)
  compactChecker.finish(into: &compactFindings)
  guard compact.damage == full.damage else { fatalError("nextCompact reported other damage than next()") }
  guard compactFindings == findings else { fatalError("the compact events' findings differ") }
}

/// What ``TraceReader`` made of an input.
private struct Reading {
  /// Whether it read to the end without an error or loss (an unsealed tail is a note).
  var clean: Bool
  /// The last event's time.
  var end: TraceTime
}

/// Reads the input with ``TraceReader``; `nil` when it rejects the header.
private func checkAnyForm(_ bytes: [UInt8]) -> Reading? {
  guard var reader = try? TraceReader(source: MemoryByteSource(bytes), file: "fuzz") else { return nil }
  var end = TraceTime.zero
  do {
    while let located = try reader.next() {
      guard located.location > 0 else { fatalError("an event at location \(located.location)") }
      end = located.event.time
    }
  } catch {
    return Reading(clean: false, end: end)
  }
  return Reading(clean: !reader.damage.contains(where: \.isLoss), end: end)
}

/// Runs the commands on the input, written to a file as a user would give it.
private func checkCommands(_ bytes: [UInt8], _ reading: Reading) {
  let path = inputFile.replace(with: bytes)
  var choices = Choices(bytes)
  let console = DiscardingConsole()
  let findingsAllowed: Set<ExitStatus> = reading.clean ? [.success, .findings] : [.badInput]
  let successOnly: Set<ExitStatus> = reading.clean ? [.success] : [.badInput]

  func expect(_ arguments: [String], _ allowed: Set<ExitStatus>) {
    let status = BGTrace.run(arguments, console: console)
    guard allowed.contains(status) else {
      fatalError(
        "'bgtrace \(arguments.joined(separator: " "))' exited \(status) on a trace read "
          + (reading.clean ? "cleanly" : "with an error or damage"))
    }
  }

  // Each command runs once per input, with options picked from the input's hash (half
  // the time none), so the options' paths are covered without running everything twice.
  var check = ["check", path]
  if choices.below(2) == 0 {
    check += [
      "--strict", "--format", choices.pick(["text", "json"]), "--retry-limit", String(choices.below(6)),
      "--budget", choices.time(upTo: reading.end).description,
      "--grace", choices.time(upTo: reading.end).description,
    ]
  }
  expect(check, findingsAllowed)
  // `replay` is `explain`'s earlier name.
  var explain = [choices.pick(["explain", "explain", "explain", "replay"]), path]
  if choices.below(2) == 0 { explain += ["--until", choices.time(upTo: reading.end).description] }
  expect(explain, findingsAllowed)
  expect(["stats", path], successOnly)
  expect(["dump", path], successOnly)
  for format in ["chrome", "jsonl", "svg", "html"] {
    let window = choices.window(upTo: reading.end)
    // jsonl streams and stops at the window's end, before what is wrong past it.
    let stopsEarly = format == "jsonl" && window.contains("--to") && !reading.clean
    expect(["export", path, "--format", format] + window, stopsEarly ? [.success, .badInput] : successOnly)
  }
}

/// A console that drops everything, so nothing is printed per input.
private final class DiscardingConsole: Console {
  func write(_ text: String) {}
  func writeError(_ text: String) {}
}

/// Option values picked from a hash of the input, so a crash reproduces from the input alone.
private struct Choices {
  private var state: UInt64

  init(_ bytes: [UInt8]) {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    state = hash
  }

  /// A number in `0..<bound` (SplitMix64).
  mutating func below(_ bound: UInt64) -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return (z ^ (z >> 31)) % bound
  }

  mutating func pick(_ values: [String]) -> String { values[Int(below(UInt64(values.count)))] }

  /// A time around the trace's span: its start, a quarter point, its end, just past it,
  /// or a nanosecond.
  mutating func time(upTo end: TraceTime) -> TraceTime {
    let ns = end.nanoseconds
    let limit = TraceTime.max.nanoseconds / 1_000_000_000 * 1_000_000_000
    switch below(7) {
    case 0: return .zero
    case 1: return TraceTime(nanoseconds: ns / 4)
    case 2: return TraceTime(nanoseconds: ns / 2)
    case 3: return TraceTime(nanoseconds: ns - ns / 4)
    case 4: return end
    case 5: return TraceTime(nanoseconds: min(ns &+ 1_000_000_000, limit))
    default: return TraceTime(nanoseconds: 1)
    }
  }

  /// No window, or `--from` and/or `--to` in order, within or around the trace's span.
  mutating func window(upTo end: TraceTime) -> [String] {
    let a = time(upTo: end)
    let b = time(upTo: end)
    let (from, to) = (min(a, b), max(a, b))
    switch below(4) {
    case 0: return []
    case 1: return ["--from", from.description]
    case 2: return ["--to", to.description]
    default: return ["--from", from.description, "--to", to.description]
    }
  }
}

/// The one file the commands read: this process's, overwritten for every input and
/// removed at exit.
private let inputFile = InputFile()

private final class InputFile: Sendable {
  let path = "/tmp/bgtrace-fuzz-\(getpid()).trace"

  init() {
    atexit { unlink(inputFile.path) }
  }

  /// Replaces the file's content with `bytes`.
  ///
  /// - Returns: the file's path.
  func replace(with bytes: [UInt8]) -> String {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { fatalError("cannot create \(path)") }
    defer { close(descriptor) }
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { fatalError("cannot write \(path)") }
        offset += written
      }
    }
    return path
  }
}
