import BackgroundTraceCLI
import Foundation
import Testing

/// Every command exits 2 on bad input and bad option values, with one line on standard
/// error that names the file or the option, and nothing on standard output (README.md,
/// "The command line": exit status 0, 1 findings or differences, 2 bad input).
@Suite struct BadInputExitCodeTests {
  let directory: String
  let good: String
  let malformed: String
  let missing: String

  init() throws {
    directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("bgtrace-bad-input-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    good = (directory as NSString).appendingPathComponent("good.txt")
    malformed = (directory as NSString).appendingPathComponent("bad.txt")
    missing = (directory as NSString).appendingPathComponent("nope.txt")
    try "bgtrace 1\n0 app.launch\n0.5 task.begin id=1 name=Save\n2 task.end id=1\n".write(
      toFile: good, atomically: true, encoding: .utf8)
    try "bgtrace 1\n0 task.begin id=x\n".write(toFile: malformed, atomically: true, encoding: .utf8)
  }

  func run(_ arguments: [String]) -> (status: BackgroundTraceCLI.ExitStatus, output: String, errors: String) {
    let console = CapturingConsole()
    let status = BGTrace.run(arguments, console: console)
    return (status, console.output, console.errors)
  }

  var malformedMessage: String { "bgtrace: \(malformed):2:17: expected a non-negative integer for 'id', found 'x'\n" }
  var missingMessage: String { "bgtrace: \(missing): cannot open: No such file or directory\n" }

  @Test(arguments: [["stats"], ["explain"], ["replay"], ["convert"]])
  func aMalformedTraceExitsTwo(command: [String]) {
    let out = (directory as NSString).appendingPathComponent("out.bgtrace")
    let result = run(command + [malformed] + (command == ["convert"] ? [out] : []))
    #expect(result.status == .badInput)
    #expect(result.output == "")
    #expect(result.errors == malformedMessage)
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test(arguments: [["explain"], ["replay"], ["convert"]])
  func aMissingTraceExitsTwo(command: [String]) {
    let out = (directory as NSString).appendingPathComponent("out.bgtrace")
    let result = run(command + [missing] + (command == ["convert"] ? [out] : []))
    #expect(result.status == .badInput)
    #expect(result.output == "")
    #expect(result.errors == missingMessage)
  }

  @Test func aMissingTraceForStatsExitsTwo() {
    let result = run(["stats", missing])
    #expect(result.status == .badInput)
    #expect(result.output == "")
    #expect(result.errors == "bgtrace: \(missing): cannot open: No such file or directory\n")
  }

  @Test func convertWithoutAnOutputIsAUsageError() {
    let result = run(["convert", good])
    #expect(result.status == .badInput)
    #expect(result.errors == "bgtrace: 'bgtrace convert' needs IN and OUT; see 'bgtrace help convert'\n")
  }

  @Test func demoIntoAFileOrWithAnUnknownOptionExitsTwo() {
    let intoFile = run(["demo", "--out", good])
    #expect(intoFile.status == .badInput)
    #expect(intoFile.output == "")
    #expect(intoFile.errors == "bgtrace: \(good): cannot create the output directory\n")
    let unknown = run(["demo", "--bogus"])
    #expect(unknown.status == .badInput)
    #expect(unknown.errors == "bgtrace: unknown option '--bogus' for 'bgtrace demo'; see 'bgtrace help demo'\n")
  }

  /// A bad option value is a usage error naming the option and what it takes.
  @Test(arguments: [
    (["check", "--budget", "abc"], "'--budget' takes seconds (like 30 or 0.5), not 'abc'"),
    (["check", "--budget", "-1"], "'--budget' takes seconds (like 30 or 0.5), not '-1'"),
    (["check", "--retry-limit", "x"], "'--retry-limit' takes a non-negative integer, not 'x'"),
    (["diff", "--ids", "bogus"], "'--ids' takes 'exact' or 'renamed', not 'bogus'"),
    (["diff", "--time", "bogus"], "'--time' takes 'exact', 'order' or 'tolerance=SECONDS', not 'bogus'"),
    (["explain", "--until", "x"], "'--until' takes seconds (like 30 or 0.5), not 'x'"),
    (["replay", "--until", "1s"], "'--until' takes seconds (like 30 or 0.5), not '1s'"),
    (["export", "--format", "bogus"], "'--format' takes chrome, jsonl, svg or html, not 'bogus'"),
    (["export", "--format", "jsonl", "--from", "x"], "'--from' takes seconds (like 30 or 0.5), not 'x'"),
    (["export", "--format", "jsonl", "--to", "x"], "'--to' takes seconds (like 30 or 0.5), not 'x'"),
    (
      ["export", "--format", "jsonl", "--until", "3"],
      "unknown option '--until' for 'bgtrace export'; see 'bgtrace help export'"
    ),
  ])
  func aBadOptionValueIsAUsageErrorNamingTheOption(arguments: [String], message: String) {
    let paths = arguments.first == "diff" ? [good, good] : [good]
    let result = run(Array(arguments.prefix(1)) + paths + arguments.dropFirst())
    #expect(result.status == .badInput)
    #expect(result.output == "")
    #expect(result.errors == "bgtrace: \(message)\n")
  }

  @Test func diffWithExactIdsOfIdenticalTracesSucceeds() {
    let result = run(["diff", "--ids", "exact", good, good])
    #expect(result.status == .success)
    #expect(result.output == "")
    #expect(result.errors == "")
  }
}
