import BackgroundExamples
import BackgroundSimulation
import BackgroundTraceReplay
import BackgroundTraceTesting
import Foundation
import Testing

/// `expectNoTimingBugs` (BackgroundTraceTesting): an issue per distinct failure, with the
/// minimal trace attached and optionally written as a golden.
@Suite struct ExpectExplorationTests {
  @Test func aFixedScenarioRecordsNoIssue() {
    let report = expectNoTimingBugs(
      in: DocumentSaveScenario.scenario(fixed: true), exploration: Exploration(runs: 200))
    #expect(report.isClean)
    #expect(report.seeds.count == 200)
  }

  @Test func aBuggyScenarioRecordsAnIssueAndWritesTheMinimalTrace() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("explore-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var report: ExplorationReport?
    withKnownIssue {
      report = expectNoTimingBugs(
        in: DocumentSaveScenario.scenario(fixed: false), exploration: Exploration(runs: 50),
        goldenDirectory: directory)
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.hasPrefix("task-unknown-end: seed ")
          && $0.rawValue.contains("reproduce: scenario.replay(choices: [")
          && $0.rawValue.contains(#"  // scenario "document-save""#)
      }
    }
    let failure = try #require(report?.failures.first)
    let written = try String(
      contentsOfFile: directory + "/document-save.task-unknown-end.seed\(failure.seed).txt", encoding: .utf8)
    #expect(written == failure.minimalTraceText)
    #expect(written.contains("choices="))
  }
}
