import BackgroundTrace
import BackgroundTraceCLI
import BackgroundTraceCheck
import Foundation
import Testing

/// `bgtrace explore` (docs/guides/exploration.md): one line per
/// distinct failure, the minimal traces written under --out, exit 1 on failures, 0 when
/// clean, 2 on bad usage, and the same output every time.
@Suite struct ExploreCommandTests {
  let directory: String

  init() throws {
    directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("bgtrace-explore-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  @Test func listPrintsTheShippedScenariosOneAName() {
    let result = run("explore", "--list")
    #expect(result.status == .success)
    #expect(
      result.output
        == "document-save\ndocument-save-fixed\ncritical-send\ncritical-send-fixed\nsample-app\nsample-app-fixed\nbackground-download\nbackground-download-fixed\nbackground-transfer\nbackground-transfer-fixed\nsync-service\nsync-service-fixed\nnotification-refresh\nnotification-refresh-fixed\nlong-upload\nlong-upload-fixed\ncontinued-upload\ncontinued-upload-fixed\nswiftui-download\nswiftui-download-fixed\nexposure-tasks\nexposure-tasks-fixed\n"
    )
    #expect(result.errors.isEmpty)
  }

  @Test func aBuggyScenarioPrintsOneLinePerRuleAndExitsOne() throws {
    let result = run("explore", "critical-send", "--runs", "200", "--out", directory)
    #expect(result.status == .findings)
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(lines.map { $0.prefix { $0 != ":" } } == ["task-leaked", "task-unknown-end", "task-expired-not-ended"])
    for line in lines {
      let rule = String(line.prefix { $0 != ":" })
      let match = try #require(
        line.firstMatch(of: #/^[a-z-]+: seed (\d+), shrunk from (\d+) events to (\d+) events: /#))
      let path = (directory as NSString).appendingPathComponent("critical-send.\(rule).seed\(match.1).txt")
      #expect(line.hasSuffix(": " + path))
      #expect(Int(match.2)! > Int(match.3)!)
      // The minimal trace shows the same rule under check.
      let trace = try RecordedTrace(text: String(contentsOfFile: path, encoding: .utf8))
      #expect(TraceChecker.check(trace).contains { $0.rule.id == rule })
      #expect(trace.events.count == Int(match.3)!)
    }
    #expect(result.errors.contains("reproduce with 'bgtrace explore critical-send --seed "))
  }

  @Test func aSecondRunPrintsTheSame() {
    let first = run("explore", "document-save", "--runs", "100", "--seed", "7", "--out", directory)
    let second = run("explore", "document-save", "--runs", "100", "--seed", "7", "--out", directory)
    #expect(first.status == .findings)
    #expect(first.output == second.output)
    #expect(first.errors == second.errors)
  }

  @Test func theFirstFailingSeedReproducesAlone() throws {
    let all = run("explore", "document-save", "--runs", "100", "--out", directory)
    let line = try #require(all.output.split(separator: "\n").first)
    let seed = try #require(line.firstMatch(of: #/seed (\d+),/#)).1
    let alone = run("explore", "document-save", "--runs", "1", "--seed", String(seed), "--out", directory)
    #expect(alone.output.split(separator: "\n").first == line)
  }

  @Test func aFixedScenarioPrintsNothingAndExitsZero() {
    for name in [
      "document-save-fixed", "critical-send-fixed", "sample-app-fixed", "background-download-fixed",
      "background-transfer-fixed", "sync-service-fixed", "notification-refresh-fixed", "long-upload-fixed",
      "continued-upload-fixed", "swiftui-download-fixed", "exposure-tasks-fixed",
    ] {
      let result = run("explore", name, "--runs", "300", "--out", directory)
      #expect(result.status == .success, "\(name)")
      #expect(result.output.isEmpty, "\(name)")
    }
  }

  @Test func shardsPrintLinesThatMergeIntoTheUnshardedOnes() {
    let whole = run("explore", "critical-send", "--runs", "90", "--out", directory).output
    let shards = (1...3).map {
      run("explore", "critical-send", "--runs", "90", "--shard", "\($0)/3", "--out", directory)
    }
    #expect(shards.allSatisfy { $0.status == .findings })
    // The shards share the directory; per rule, the shard line with the lowest seed is
    // the unsharded line, path and all.
    var best: [String: (seed: Int, line: String)] = [:]
    for line in shards.flatMap({ $0.output.split(separator: "\n").map(String.init) }) {
      let rule = String(line.prefix { $0 != ":" })
      let seed = Int(line.firstMatch(of: #/seed (\d+),/#)!.1)!
      if seed < best[rule]?.seed ?? .max { best[rule] = (seed, line) }
    }
    #expect(Set(best.values.map(\.line)) == Set(whole.split(separator: "\n").map(String.init)))
  }

  @Test func badUsageExitsTwoWithOneSentence() {
    let cases: [([String], String)] = [
      (["explore"], "'bgtrace explore' needs a scenario NAME (bgtrace explore --list); see 'bgtrace help explore'"),
      (
        ["explore", "nope"],
        "unknown scenario 'nope'; the scenarios are document-save, document-save-fixed, critical-send, critical-send-fixed, sample-app, sample-app-fixed, background-download, background-download-fixed, background-transfer, background-transfer-fixed, sync-service, sync-service-fixed, notification-refresh, notification-refresh-fixed, long-upload, long-upload-fixed, continued-upload, continued-upload-fixed, swiftui-download, swiftui-download-fixed, exposure-tasks, exposure-tasks-fixed"
      ),
      (["explore", "document-save", "--runs", "0"], "'--runs' takes a positive integer, not '0'"),
      (["explore", "document-save", "--seed", "-1"], "'--seed' takes a non-negative integer below 2^64, not '-1'"),
      (["explore", "document-save", "--shard", "3/2"], "'--shard' takes K/N with 1 ≤ K ≤ N (like 2/4), not '3/2'"),
      (
        ["explore", "--list", "document-save"],
        "'bgtrace explore --list' takes no scenario and no other option, not 'document-save'"
      ),
      (["explore", "document-save", "--rusn", "5"], "unknown option '--rusn'; did you mean '--runs'?"),
    ]
    for (arguments, message) in cases {
      let console = CapturingConsole()
      #expect(BGTrace.run(arguments, console: console) == .badInput, "\(arguments)")
      #expect(console.errors == "bgtrace: \(message)\n", "\(arguments)")
      #expect(console.output.isEmpty)
    }
  }
}
