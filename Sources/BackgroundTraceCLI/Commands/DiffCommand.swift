import BackgroundTrace
import BackgroundTraceCheck

/// `bgtrace diff EXPECTED ACTUAL`: the first divergence and a unified diff.
enum DiffCommand {
  static func run(expected: String, actual: String, options: DiffOptions, console: some Console) throws -> ExitStatus {
    var expectedReader = try TraceReader(path: expected)
    let expectedTrace = try expectedReader.readAll()
    var actualReader = try TraceReader(path: actual)
    let actualTrace = try actualReader.readAll()
    let damage = expectedReader.damage + actualReader.damage
    let diff = TraceDiff(
      expected: expectedTrace, actual: actualTrace, options: options, expectedName: expectedReader.file,
      actualName: actualReader.file)
    console.write(diff.unified)
    if BGTrace.reportDamage(damage, console: console) != .success { return .badInput }
    return diff.isEqual ? .success : .findings
  }
}
