import Foundation
import Testing

/// Runs the built `bgtrace` executable as a user would, checking exit codes and that
/// errors are one line on standard error.
@Suite struct ExecutableTests {
  /// The `bgtrace` binary beside the test bundle in the build products directory.
  static var executable: URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    #if os(macOS)
      for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        directory = bundle.bundleURL.deletingLastPathComponent()
      }
    #endif
    return directory.appendingPathComponent("bgtrace")
  }

  func run(_ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String, errors: String) {
    let process = Process()
    process.executableURL = Self.executable
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    let standardInput = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = standardInput
    try process.run()
    if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
    try standardInput.fileHandleForWriting.close()
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    let errData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self)
    )
  }

  @Test func badInputExitsTwoWithOneLineAndNoStackTrace() throws {
    let result = try run(["dump", "-"], input: "bgtrace 1\n0 task.bgin id=1\n")
    #expect(result.status == 2)
    #expect(result.errors == "bgtrace: <stdin>:2:3: unknown event kind 'task.bgin'; did you mean 'task.begin'?\n")
  }

  @Test func unknownOptionExitsTwo() throws {
    let result = try run(["stats", "--nope", "x"])
    #expect(result.status == 2)
    #expect(result.output == "")
    #expect(result.errors == "bgtrace: unknown option '--nope' for 'bgtrace stats'; see 'bgtrace help stats'\n")
  }

  @Test func dumpReadsStandardInput() throws {
    let result = try run(["dump", "-"], input: "bgtrace 1\n0 app.launch\n")
    #expect(result.status == 0)
    #expect(result.output == "bgtrace 1\n0 app.launch\n")
    #expect(result.errors == "")
  }

  @Test func versionPrintsAndExitsZero() throws {
    let result = try run(["--version"])
    #expect(result.status == 0)
    #expect(result.output == "bgtrace 0.2.0\n")
    #expect(result.errors == "")
  }
}
