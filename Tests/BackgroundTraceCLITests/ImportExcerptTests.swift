import BackgroundTraceCLI
import Foundation
import TestSupport
import Testing

/// The real log excerpts under `Traces/import/` (copied verbatim from public sources,
/// each with its `NAME.source.md`): each imports to its hand-written `NAME.expected.txt`,
/// and `bgtrace check` on that trace prints exactly `NAME.findings` (no `.txt`: the tests that read every trace under Traces/ would take it for one).
/// Each event of an expected trace notes its log line (`# from LOG:LINE`), and the
/// findings cite it beside the trace's line, as `check LOG` does.
@Suite struct ImportExcerptTests {
  static let excerpts: [String] = Repository.files(
    under: Repository.traces.appendingPathComponent("import"), suffix: "log"
  ).map { String($0.path.dropFirst(Repository.root.path.count + 1)) }

  @Test func thereAreAtLeastSixExcerptsOfEachPlatform() {
    #expect(Self.excerpts.filter { $0.hasPrefix("Traces/import/ios/") }.count >= 6)
    #expect(Self.excerpts.filter { $0.hasPrefix("Traces/import/android/") }.count >= 6)
  }

  @Test(arguments: excerpts)
  func excerptImportsToItsExpectedTraceAndFindings(_ log: String) throws {
    let stem = String(log.dropLast(".log".count))
    #expect(FileManager.default.fileExists(atPath: Repository.path(stem + ".source.md")), "\(log) names no source")
    let expected = try String(contentsOfFile: Repository.path(stem + ".expected.txt"), encoding: .utf8)
    // An excerpt whose expected trace has no event is refused without `--allow-empty`.
    let empty = expected.split(separator: "\n").count == 2
    if empty {
      let refused = run("import", Repository.path(log))
      #expect(refused.status == .badInput, "\(log)")
      #expect(refused.errors.contains(": found no background work to import ("), "\(log): \(refused.errors)")
    }
    let result = empty ? run("import", Repository.path(log), "--allow-empty") : run("import", Repository.path(log))
    #expect(result.status == .success, "\(result.errors)")
    #expect(result.output.replacingOccurrences(of: Repository.root.path + "/", with: "") == expected, "\(log)")

    let check = run("check", Repository.path(stem + ".expected.txt"))
    let findings = try String(contentsOfFile: Repository.path(stem + ".findings"), encoding: .utf8)
    #expect(check.output.replacingOccurrences(of: Repository.root.path + "/", with: "") == findings, "\(log)")
    #expect(check.status == (findings.isEmpty ? .success : .findings))

    // `check LOG` gives the same findings, each at a line of the log.
    let checkLog = run("check", Repository.path(log))
    guard !empty else {
      #expect(checkLog.status == .badInput, "\(log)")
      return
    }
    #expect(checkLog.status == check.status, "\(log): \(checkLog.errors)")
    let lineCount = try String(contentsOfFile: Repository.path(log), encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false
    ).count
    func split(_ output: String, path: String) -> [(line: Int, rest: String)] {
      output.split(separator: "\n").map { finding in
        let afterPath = finding.dropFirst(path.count + 1)
        let number = afterPath.prefix { $0.isNumber }
        return (Int(number) ?? 0, String(afterPath.dropFirst(number.count)))
      }
    }
    let fromLog = split(checkLog.output, path: Repository.path(log))
    let checkTrace = check.output.split(separator: "\n")
    let fromTrace = split(
      checkTrace.filter { !$0.contains(": note: ") }.joined(separator: "\n"),
      path: Repository.path(stem + ".expected.txt"))
    #expect(fromLog.map(\.rest) == fromTrace.map(\.rest), "\(log)")
    #expect(fromLog.allSatisfy { (1...lineCount).contains($0.line) }, "\(log): \(checkLog.output)")
    // Checked later, the imported trace cites the same log line for each finding.
    let notes = split(
      checkTrace.filter { $0.contains(": note: the log line this event was imported from") }.joined(separator: "\n"),
      path: log)
    #expect(notes.map(\.line) == fromLog.map(\.line), "\(log): \(check.output)")
  }
}
