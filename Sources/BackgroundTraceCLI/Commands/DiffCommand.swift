import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceImport

/// `bgtrace diff EXPECTED ACTUAL`: the first divergence and a unified diff; a note on
/// standard error when the meta lines differ and are not compared.
enum DiffCommand {
  static func run(
    expected: String, actual: String, options: DiffOptions, platform: LogPlatform? = nil, console: some Console
  ) throws -> ExitStatus {
    // Either side may be a device log, imported in memory.
    let (expectedTrace, expectedDamage) = try InMemoryImport.trace(at: expected, platform: platform, console: console)
    let (actualTrace, actualDamage) = try InMemoryImport.trace(at: actual, platform: platform, console: console)
    let damage = expectedDamage + actualDamage
    let diff = TraceDiff(
      expected: expectedTrace, actual: actualTrace, options: options, expectedName: TraceFiles.name(of: expected),
      actualName: TraceFiles.name(of: actual))
    console.write(diff.unified)
    if let meta = diff.metaDifference {
      console.writeError("bgtrace: note: \(meta); pass --meta to compare them\n")
    }
    if BGTrace.reportDamage(damage, console: console) != .success { return .badInput }
    return diff.isEqual ? .success : .findings
  }
}
