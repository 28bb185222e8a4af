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

/// A trace written by `bgtrace import` notes each event's log line, and `bgtrace check`
/// on it later cites that line beside the trace's (docs/import.md).
@Suite struct ImportedTraceSourceTests {
  /// The log's line 4 is UIKit's `Can't end BackgroundTask: … identifier 3`; the trace's
  /// double end is its line 4 too (header, meta, the first end), by coincidence of the
  /// excerpt: the note is what says which log line it is.
  @Test func checkingTheImportedTraceCitesTheLogLine() throws {
    let log = "Traces/import/ios/xcode-bggeo-cant-end-noise.log"
    let imported = run("import", Repository.path(log))
    #expect(imported.status == .success)
    let lines = imported.output.split(separator: "\n")
    #expect(lines.count == 4)
    #expect(lines[2].hasSuffix(" task.end id=3 # from \(Repository.path(log)):4"))
    #expect(lines[3].hasSuffix(" task.end id=3 # from \(Repository.path(log)):4"))

    let folder = try TraceFolder()
    let trace = try folder.write(imported.output, to: "imported.txt")
    let check = run("check", trace)
    #expect(check.status == .findings)
    #expect(
      check.output
        == "\(trace):4: error: task 3 ended twice (first end at 0.568586s) [task-double-end]\n"
        + "\(Repository.path(log)):4: note: the log line this event was imported from\n")
    let json = run("check", "--format", "jsonl", trace)
    #expect(json.output.hasSuffix(#","source":"\#(Repository.path(log)):4"}"# + "\n"))
  }

  /// The binary form has no place for the note: the events are the same, the lines lost.
  @Test func theBinaryFormKeepsNoLogLines() throws {
    let log = Repository.path("Traces/import/ios/xcode-bggeo-cant-end-noise.log")
    let folder = try TraceFolder()
    let trace = folder.path + "/imported.bgtrace"
    #expect(run("import", log, "--out", trace).status == .success)
    let check = run("check", trace)
    #expect(check.output == "\(trace):2: error: task 3 ended twice (first end at 0.568586s) [task-double-end]\n")
  }
}
