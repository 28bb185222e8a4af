import BackgroundSimulation
import BackgroundTrace
public import BackgroundTraceReplay
import Foundation
import Testing

/// Explores `scenario` inside a `@Test` and records an `Issue` for each distinct
/// failure it finds, with the minimal trace attached (docs/guides/exploration.md).
///
/// ```swift
/// @Test func savingExploresClean() {
///   expectNoTimingBugs(in: DocumentSaveScenario.scenario(fixed: true))
/// }
/// ```
///
/// Each issue reads `RULE: seed S, shrunk from A events to B events` (or `could not shrink
/// its A events`), how many runs failed,
/// the first finding's message and the Swift line that reproduces the minimal run; the
/// minimal trace is attached as `SCENARIO.RULE.seedS.txt`. The exploration is deterministic, so
/// the same test finds the same failures on every machine.
///
/// - Parameters:
///   - scenario: the scenario to explore.
///   - exploration: how many runs, from which seed, which shard.
///   - goldenDirectory: when set, each minimal trace is also written there as
///     `SCENARIO.RULE.seedS.txt`, to keep as a golden for a regression test (compare
///     `scenario.replay(choices:seed:)`'s trace with `expectTrace(_:matchesGolden:)`).
///   - fileID: the caller's file, where the issues are recorded.
///   - filePath: the caller's file's path.
///   - line: the caller's line.
///   - column: the caller's column.
/// - Returns: the exploration's report.
@discardableResult
public func expectNoTimingBugs(
  in scenario: ExplorationScenario, exploration: Exploration = Exploration(), goldenDirectory: String? = nil,
  fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) -> ExplorationReport {
  let sourceLocation = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  let report = exploration.explore(scenario)
  for failure in report.failures {
    Attachment.record(failure.minimalTraceText, named: failure.fileName, sourceLocation: sourceLocation)
    var text =
      "\(failure.headline) (\(failure.failingSeeds.count) of \(report.seeds.count) runs failed)\n"
      + "\(failure.message)\nreproduce: \(failure.reproduction)"
    if let goldenDirectory {
      let path = (goldenDirectory as NSString).appendingPathComponent(failure.fileName)
      do {
        try FileManager.default.createDirectory(atPath: goldenDirectory, withIntermediateDirectories: true)
        try failure.minimalTraceText.write(toFile: path, atomically: true, encoding: .utf8)
        text += "\nwrote the minimal trace to \(path)"
      } catch {
        text += "\ncould not write the minimal trace to \(path): \(error)"
      }
    }
    Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
  }
  return report
}
