import BackgroundTrace
import BackgroundTraceCheck
import Foundation
import TraceWorkloads

/// The checker on N and 4N events: each run in a child process of its own, so its
/// peak resident memory is its own; the trace streams from a file.
///
/// - Returns: the 4N run's peak memory and time as multiples of the N run's.
func runCheckerBenchmark(_ options: Options) throws -> (memory: Double, time: Double) {
  print("\n[checker] streaming from a binary file, one child process per run")
  var figures: [(events: Int, peakKiB: Int, nanos: Double, findings: String)] = []
  for events in [options.events, 4 * options.events] {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bgtrace-check-\(events)-\(getpid()).bgtrace"
    ).path
    try writeWorkload(events: events, to: path)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let (peak, nanos, output) = try measureChild(["--check-file", path])
    figures.append((events, peak, nanos, output))
    row(
      "check \(events) events", "\(format(nanos / Double(events))) ns/event", "peak RSS \(peak / 1024) MiB, \(output)")
  }
  let memory = Double(figures[1].peakKiB) / Double(figures[0].peakKiB)
  let time = figures[1].nanos / figures[0].nanos
  row("4x events: peak memory", "\(format(memory, 2))x", "time \(format(time, 2))x")
  return (memory, time)
}

/// Writes a generated workload of at least `events` events, session by session.
func writeWorkload(events: Int, to path: String) throws {
  let recorder = try TraceRecorder(writingTo: path, replacing: true, meta: WorkloadGenerator.meta)
  var generator = WorkloadGenerator(seed: 42, timing: .virtualMilliseconds)
  var session: [TraceEvent] = []
  var written = 0
  while written < events {
    session.removeAll(keepingCapacity: true)
    generator.appendSession(to: &session)
    for event in session { recorder.record(event.kind, at: event.time) }
    written += session.count
  }
  try recorder.close()
}

/// Child mode: checks a file as `bgtrace check` does (a binary one from its compact
/// events) and prints how many findings it has.
func runCheckFile(_ path: String) throws {
  var reader = try TraceReader(path: path)
  var checker = TraceChecker(meta: reader.meta)
  var findings: [Finding] = []
  let events = try checker.checkRemainingEvents(of: &reader, into: &findings)
  checker.finish(into: &findings)
  for finding in findings.prefix(5) { FileHandle.standardError.write(Data((finding.line(path: path) + "\n").utf8)) }
  print("\(peakResidentKiB()) \(events) events, \(findings.count) findings")
}

/// This process's peak resident set (`VmHWM`), in KiB: of its own address space only,
/// unlike `ru_maxrss`, which counts the parent's pages shared until exec.
func peakResidentKiB() -> Int {
  let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
  let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
  return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

/// Runs this executable with `arguments`; returns its peak RSS (KiB), wall time and the
/// rest of its output.
func measureChild(_ arguments: [String]) throws -> (Int, Double, String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  let start = DispatchTime.now().uptimeNanoseconds
  try process.run()
  let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  let nanos = Double(DispatchTime.now().uptimeNanoseconds - start)
  let words = output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ", maxSplits: 1)
  guard process.terminationStatus == 0, words.count == 2, let peak = Int(words[0]) else {
    throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "checker child failed: \(output)"])
  }
  return (peak, nanos, String(words[1]))
}
