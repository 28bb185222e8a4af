import BackgroundTrace
import BackgroundTraceExport
import BackgroundTraceTesting
import Foundation
import XCTest

/// The XCTest flavour, including its failure path: failures are captured by
/// overriding `recordFailure` instead of failing this test.
final class XCTAssertTraceTests: XCTestCase {
  private var captured: [(description: String, line: Int)] = []
  private var capturing = false

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
  ) {
    if capturing {
      captured.append((description, lineNumber))
    } else {
      super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
  }

  func testAMatchingTracePasses() throws {
    let directory = try GoldenFixtures.temporaryDirectory()
    try GoldenFixtures.save.write(toFile: directory + "/save.txt", atomically: true, encoding: .utf8)
    XCTAssertTrace(
      try GoldenFixtures.trace(GoldenFixtures.saveRenumbered), matchesGolden: "save", record: .never,
      directory: directory)
  }

  func testAMismatchFailsAtTheCallersLineWithTheDiff() throws {
    let directory = try GoldenFixtures.temporaryDirectory()
    try GoldenFixtures.save.write(toFile: directory + "/save.txt", atomically: true, encoding: .utf8)
    let slower = try GoldenFixtures.trace(GoldenFixtures.saveSlower)
    capturing = true
    let line = #line + 1
    XCTAssertTrace(slower, matchesGolden: "save", record: .never, directory: directory)
    capturing = false
    XCTAssertEqual(captured.count, 1)
    XCTAssertEqual(captured.first?.line, line)
    XCTAssertTrue(captured.first?.description.contains("-12.25 task.end id=7\n+12.75 task.end id=7") ?? false)
    XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/save.txt.diff"))
  }

  func testAMismatchWritesTheTimelinesOfBothTracesUnderTheArtefacts() throws {
    let directory = try GoldenFixtures.temporaryDirectory()
    try GoldenFixtures.save.write(toFile: directory + "/save.txt", atomically: true, encoding: .utf8)
    let slower = try GoldenFixtures.trace(GoldenFixtures.saveSlower)
    capturing = true
    XCTAssertTrace(slower, matchesGolden: "save", record: .never, directory: directory, artifacts: directory + "/out")
    capturing = false
    XCTAssertEqual(captured.count, 1)
    let pictures = directory + "/out/XCTAssertTraceTests/save"
    XCTAssertEqual(
      try String(contentsOfFile: pictures + ".golden.svg", encoding: .utf8),
      ExportFormat.svg.render(try GoldenFixtures.trace(GoldenFixtures.save), named: "save.txt"))
    XCTAssertEqual(
      try String(contentsOfFile: pictures + ".actual.svg", encoding: .utf8),
      ExportFormat.svg.render(slower, named: "save.txt.actual"))
    XCTAssertEqual(
      try String(contentsOfFile: pictures + ".actual.html", encoding: .utf8),
      ExportFormat.html.render(slower, named: "save.txt.actual"))
  }

  func testACheckerFindingFails() throws {
    let directory = try GoldenFixtures.temporaryDirectory()
    try GoldenFixtures.saveEndedTwice.write(toFile: directory + "/twice.txt", atomically: true, encoding: .utf8)
    capturing = true
    XCTAssertTrace(
      try GoldenFixtures.trace(GoldenFixtures.saveEndedTwice), matchesGolden: "twice", record: .never,
      directory: directory)
    capturing = false
    XCTAssertEqual(captured.count, 1)
    XCTAssertTrue(captured.first?.description.contains("[task-double-end]") ?? false)
  }

  func testAMissingGoldenInNeverModeFailsAndWritesOnlyTheActualTrace() throws {
    let directory = try GoldenFixtures.temporaryDirectory()
    capturing = true
    let line = #line + 1
    XCTAssertTrace(
      try GoldenFixtures.trace(GoldenFixtures.save), matchesGolden: "new", record: .never, directory: directory)
    capturing = false
    XCTAssertEqual(captured.map(\.line), [line])
    XCTAssertEqual(
      captured.first?.description,
      "failed - no golden trace at \(directory)/new.txt (recording is off: BGTRACE_RECORD=never or CI is set); the actual trace is in \(directory)/new.txt.actual"
    )
    XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/new.txt"))
    XCTAssertEqual(try String(contentsOfFile: directory + "/new.txt.actual", encoding: .utf8), GoldenFixtures.save)
  }

  func testAMissingGoldenIsRecordedAndFailsForReview() throws {
    let directory = try GoldenFixtures.temporaryDirectory()
    capturing = true
    XCTAssertTrace(
      try GoldenFixtures.trace(GoldenFixtures.save), matchesGolden: "new", record: .missing, directory: directory)
    capturing = false
    XCTAssertEqual(
      captured.map(\.description),
      ["failed - recorded a new golden trace at \(directory)/new.txt; review it, commit it and run the test again"])
    XCTAssertEqual(try String(contentsOfFile: directory + "/new.txt", encoding: .utf8), GoldenFixtures.save)
  }
}
