import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceTesting
import Foundation
import Testing

/// Where goldens and failure artifacts go, and the recording mode, from the assertion's
/// arguments and the environment (docs/guides/golden-traces.md).
@Suite struct GoldenEnvironmentTests {
  let directory: String

  init() throws {
    directory = try GoldenFixtures.temporaryDirectory()
  }

  func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

  func write(_ text: String, to name: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path(name) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: path(name), atomically: true, encoding: .utf8)
  }

  func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

  // MARK: BGTRACE_RECORD

  @Test func anUnknownRecordModeIsAnErrorNamingTheModes() {
    let error = GoldenEnvironmentError(
      variable: "BGTRACE_RECORD", message: "is 'al'; it takes one of never, missing, failed, all")
    #expect(throws: error) { try GoldenRecordMode.fromEnvironment(["BGTRACE_RECORD": "al"]) }
    #expect("\(error)" == "BGTRACE_RECORD is 'al'; it takes one of never, missing, failed, all")
    #expect(error.kind == .configuration)
  }

  @Test func recordingDefaultsToMissingLocallyAndNeverOnCI() throws {
    #expect(try GoldenRecordMode.fromEnvironment([:]) == .missing)
    #expect(try GoldenRecordMode.fromEnvironment(["BGTRACE_RECORD": ""]) == .missing)
    #expect(try GoldenRecordMode.fromEnvironment(["CI": "true"]) == .never)
    #expect(try GoldenRecordMode.fromEnvironment(["CI": "1", "BGTRACE_RECORD": ""]) == .never)
    #expect(try GoldenRecordMode.fromEnvironment(["CI": "false"]) == .missing)
    #expect(try GoldenRecordMode.fromEnvironment(["CI": "true", "BGTRACE_RECORD": "failed"]) == .failed)
  }

  @Test func anUnknownRecordModeFailsTheAssertionAndWritesNothing() throws {
    let verification = GoldenTrace.verify(
      try GoldenFixtures.trace(GoldenFixtures.save), name: "save", testFilePath: path("Tests/SaveTests.swift"),
      record: nil, diff: DiffOptions(), checks: .all, directory: nil, artifacts: nil,
      environment: ["BGTRACE_RECORD": "al"])
    #expect(verification.failure == "BGTRACE_RECORD is 'al'; it takes one of never, missing, failed, all")
    #expect(!verification.recorded)
    #expect(!exists("Tests/__Traces__"))
  }

  /// A golden that does not read is named once, with the line and what was expected.
  @Test func aCorruptGoldenIsNamedOnce() throws {
    try write("bgtrace 1\n0 task.bgin id=1\n", to: "save.txt")
    let verification = GoldenTrace.verify(
      try GoldenFixtures.trace(GoldenFixtures.save), goldenPath: path("save.txt"), record: .never, checks: .none)
    #expect(
      verification.failure
        == "golden trace \(path("save.txt")):2:3: unknown event kind 'task.bgin'; did you mean 'task.begin'?")
  }

  // MARK: locations

  @Test func goldenAndArtefactLocations() {
    let test = "/p/Tests/AppTests/SaveTests.swift"
    #expect(GoldenTrace.path(for: "save", testFilePath: test) == "/p/Tests/AppTests/__Traces__/SaveTests/save.txt")
    #expect(GoldenTrace.path(for: "save.bgtrace", testFilePath: test, goldens: "/g") == "/g/SaveTests/save.bgtrace")
    #expect(GoldenTrace.path(for: "save", testFilePath: test, directory: "/d", goldens: "/g") == "/d/save.txt")
    #expect(GoldenTrace.artifactPath(for: "save", testFilePath: test, artifacts: "/a") == "/a/SaveTests/save.txt")
  }

  @Test func goldensAreReadFromBGTRACE_GOLDENS() throws {
    try write(GoldenFixtures.save, to: "goldens/SaveTests/save.txt")
    let verification = GoldenTrace.verify(
      try GoldenFixtures.trace(GoldenFixtures.saveRenumbered), name: "save",
      testFilePath: "/nowhere/SaveTests.swift", record: nil, diff: DiffOptions(), checks: .all, directory: nil,
      artifacts: nil, environment: ["BGTRACE_GOLDENS": path("goldens"), "CI": "true"])
    #expect(verification.failure == nil)
    #expect(verification.goldenPath == path("goldens/SaveTests/save.txt"))
  }

  // MARK: artifacts

  @Test func aMismatchWritesItsArtefactsUnderBGTRACE_ARTIFACTS() throws {
    try write(GoldenFixtures.save, to: "Tests/__Traces__/SaveTests/save.txt")
    let verification = GoldenTrace.verify(
      try GoldenFixtures.trace(GoldenFixtures.saveSlower), name: "save", testFilePath: path("Tests/SaveTests.swift"),
      record: nil, diff: DiffOptions(), checks: .all, directory: nil, artifacts: nil,
      environment: ["BGTRACE_ARTIFACTS": path("artifacts"), "CI": "true"])
    let failure = try #require(verification.failure)
    #expect(
      failure.hasSuffix(
        "the actual trace is in \(path("artifacts/SaveTests/save.txt.actual")), the diff in \(path("artifacts/SaveTests/save.txt.diff"))"
      ))
    #expect(
      try String(contentsOfFile: path("artifacts/SaveTests/save.txt.actual"), encoding: .utf8)
        == GoldenFixtures.saveSlower)
    #expect(
      try String(contentsOfFile: path("artifacts/SaveTests/save.txt.diff"), encoding: .utf8).hasPrefix(
        "first divergence at event 5: expected '12.25 task.end id=7', found '12.75 task.end id=7'\n"))
    #expect(!exists("Tests/__Traces__/SaveTests/save.txt.actual"))
    #expect(!exists("Tests/__Traces__/SaveTests/save.txt.diff"))
  }

  @Test func theArtifactsArgumentWinsOverTheEnvironment() throws {
    try write(GoldenFixtures.save, to: "goldens/save.txt")
    let slower = try GoldenFixtures.trace(GoldenFixtures.saveSlower)
    withKnownIssue {
      expectTrace(slower, matchesGolden: "save", record: .never, directory: path("goldens"), artifacts: path("out"))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().hasSuffix(
        "the actual trace is in \(path("out/GoldenEnvironmentTests/save.txt.actual")), the diff in \(path("out/GoldenEnvironmentTests/save.txt.diff"))"
      )
    }
    #expect(
      try String(contentsOfFile: path("out/GoldenEnvironmentTests/save.txt.actual"), encoding: .utf8)
        == GoldenFixtures.saveSlower)
    #expect(exists("out/GoldenEnvironmentTests/save.txt.diff"))
    #expect(!exists("goldens/save.txt.actual"))
  }

  @Test func aMissingGoldenOnCIWritesItsActualTraceUnderTheArtefacts() throws {
    let verification = GoldenTrace.verify(
      try GoldenFixtures.trace(GoldenFixtures.save), name: "new", testFilePath: path("Tests/SaveTests.swift"),
      record: nil, diff: DiffOptions(), checks: .all, directory: nil, artifacts: path("artifacts"),
      environment: ["CI": "true"])
    #expect(
      verification.failure
        == "no golden trace at \(path("Tests/__Traces__/SaveTests/new.txt")) (recording is off: BGTRACE_RECORD=never or CI is set); the actual trace is in \(path("artifacts/SaveTests/new.txt.actual"))"
    )
    #expect(!verification.recorded)
    #expect(exists("artifacts/SaveTests/new.txt.actual"))
    #expect(!exists("Tests/__Traces__/SaveTests/new.txt"))
  }
}
