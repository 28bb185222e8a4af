import BackgroundTrace
import BackgroundTraceCLI
import BackgroundTraceCheck
import Foundation
import TraceWorkloads

/// `bgtrace check DIR` over 1,000 traces: all cores against one.
///
/// - Returns: the speed-up of the parallel check over the sequential one.
func runDirectoryCheckBenchmark() throws -> Double {
  print("\n[check DIR] 1,000 binary traces of about 2,000 events, checked as bgtrace check does")
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgtrace-dir-\(getpid())")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  var files: [String] = []
  for index in 0..<1_000 {
    let trace = WorkloadGenerator.trace(eventCount: 2_000, seed: UInt64(index))
    let path = directory.appendingPathComponent(String(format: "trace-%04d.bgtrace", index)).path
    try Data(try trace.binary()).write(to: URL(fileURLWithPath: path))
    files.append(path)
  }
  let configuration = CheckerConfiguration()
  var findings = 0
  let sequential = measure(repeats: 2) {
    findings = files.map { CheckCommand.check($0, configuration: configuration).findings.count }.reduce(0, +)
  }
  let parallel = measure(repeats: 2) {
    findings = CheckCommand.checkAll(files, configuration: configuration, progress: nil).map(\.findings.count)
      .reduce(0, +)
  }
  let cores = ProcessInfo.processInfo.activeProcessorCount
  row("one core (sequential)", "\(format(sequential / 1e6)) ms")
  row(
    "all \(cores) cores (bgtrace check)", "\(format(parallel / 1e6)) ms",
    "\(format(sequential / parallel, 2))x faster, \(findings) findings")
  return sequential / parallel
}
