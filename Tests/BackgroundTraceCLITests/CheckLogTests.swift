import BackgroundTraceCLI
import TestSupport
import Testing

/// `bgtrace check LOG`: a device log is imported in memory and checked, each finding at
/// the log line its event came from (docs/import.md).
@Suite struct CheckLogTests {
  /// The double end is UIKit's line 4 of the log (`Can't end BackgroundTask: … identifier
  /// 3`), not a line of the trace `bgtrace import` would write.
  @Test func aFindingNamesTheLogAndItsLine() {
    let log = Repository.path("Traces/import/ios/xcode-bggeo-cant-end-noise.log")
    let result = run("check", log)
    #expect(result.status == .findings)
    #expect(result.output == "\(log):4: error: task 3 ended twice (first end at 0.568586s) [task-double-end]\n")
    #expect(
      result.errors
        == "bgtrace: \(log): a device log (xcode-console), checked as the trace `bgtrace import` writes: "
        + "2 events of flawk; findings cite the log's lines\n")
  }

  /// A log with no background work is the import's error, without `--allow-empty`'s
  /// hint, which `check` does not take.
  @Test func aLogWithNoBackgroundWorkIsAnError() {
    let log = Repository.path("Traces/import/ios/xcode-workmanager-simulate-launch.log")
    let result = run("check", log)
    #expect(result.status == .badInput)
    #expect(result.errors.hasPrefix("bgtrace: \(log): found no background work to import (2 lines read, "))
    #expect(!result.errors.contains("--allow-empty"))
  }
}
