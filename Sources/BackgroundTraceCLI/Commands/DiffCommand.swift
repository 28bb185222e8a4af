import BackgroundTrace
import BackgroundTraceCheck

/// `bgtrace diff EXPECTED ACTUAL`: the first divergence and a unified diff; a note on
/// standard error when the meta lines differ and are not compared.
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
    if let meta = diff.metaDifference {
      console.writeError("bgtrace: note: \(meta); pass --meta to compare them\n")
    }
    if BGTrace.reportDamage(damage, console: console) != .success { return .badInput }
    return diff.isEqual ? .success : .findings
  }
}
