import BackgroundTrace
import BackgroundTraceCheck
import Foundation
import TestSupport
import Testing

/// The hand-written rule traces under `Traces/rules/`, found from this file's path.
enum TraceFiles {
  /// The package root.
  static let repositoryRoot = Repository.root

  /// `Traces/rules/`.
  static let rulesDirectory = repositoryRoot.appendingPathComponent("Traces/rules", isDirectory: true)

  /// The absolute path of a trace given relative to `Traces/rules/`.
  static func path(_ relativePath: String) -> String {
    rulesDirectory.appendingPathComponent(relativePath).path
  }

  /// Every `.txt` file under `Traces/rules/`, relative to it, sorted.
  static func allRelativePaths() -> [String] {
    let base = rulesDirectory.standardizedFileURL.path + "/"
    guard let enumerator = FileManager.default.enumerator(at: rulesDirectory, includingPropertiesForKeys: nil)
    else { return [] }
    var paths: [String] = []
    for case let url as URL in enumerator where url.pathExtension == "txt" {
      let full = url.standardizedFileURL.path
      paths.append(full.hasPrefix(base) ? String(full.dropFirst(base.count)) : full)
    }
    return paths.sorted()
  }

  /// The file's lines, 1-based: `lines[0]` is empty so that `lines[n]` is line n.
  static func lines(of relativePath: String) throws -> [String] {
    let text = try String(contentsOfFile: path(relativePath), encoding: .utf8)
    return [""] + text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// Reads a trace file with ``TraceReader`` and feeds it to a ``TraceChecker`` event by
  /// event, so each finding's location is a line number.
  static func check(
    _ relativePath: String, configuration: CheckerConfiguration = CheckerConfiguration()
  ) throws -> [Finding] {
    var reader = try TraceReader(path: path(relativePath))
    var checker = TraceChecker(configuration: configuration, meta: reader.meta)
    var findings: [Finding] = []
    while let located = try reader.next() { checker.check(located, into: &findings) }
    checker.finish(into: &findings)
    return findings
  }
}

/// A finding a trace must produce, written by hand from docs/rules.md.
struct ExpectedFinding: Sendable, CustomStringConvertible {
  /// The rule that fires.
  var rule: Rule
  /// The 1-based line of the event where it shows.
  var line: Int
  /// Text the line holds (a check that the line number points at the intended event).
  var event: String
  /// Substrings the message must contain.
  var message: [String]

  var description: String { "\(rule.id) at line \(line) (\(event))" }
}

/// Shorthand for an ``ExpectedFinding``.
func finding(_ rule: Rule, line: Int, at event: String, _ message: String...) -> ExpectedFinding {
  ExpectedFinding(rule: rule, line: line, event: event, message: message)
}

/// A trace file and everything it must produce (nothing else).
struct TraceCase: Sendable, CustomTestStringConvertible {
  /// The file, relative to `Traces/rules/`.
  var file: String
  /// The findings, in any order within one line.
  var expected: [ExpectedFinding]
  /// The checker configuration to use.
  var configuration = CheckerConfiguration()

  var testDescription: String { file }
}

/// Compares findings with expectations: the same (rule, line) pairs, exactly, and each
/// expected message substring in the matching finding. Findings on one line may come in
/// any order; ``TraceOrderTests`` checks the order across lines.
func expectFindings(
  _ findings: [Finding], match expected: [ExpectedFinding], in file: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  func key(_ rule: Rule, _ line: Int) -> String { "\(line):\(rule.id)" }
  let actualKeys = findings.map { key($0.rule, $0.location) }.sorted()
  let expectedKeys = expected.map { key($0.rule, $0.line) }.sorted()
  let rendered = findings.map { $0.line(path: file) }.joined(separator: "\n")
  #expect(
    actualKeys == expectedKeys, "findings of \(file):\n\(rendered.isEmpty ? "(none)" : rendered)",
    sourceLocation: sourceLocation)
  for expectation in expected {
    guard let actual = findings.first(where: { $0.rule == expectation.rule && $0.location == expectation.line })
    else { continue }  // already reported above
    for part in expectation.message {
      #expect(
        actual.message.contains(part), "\(file):\(expectation.line): message \"\(actual.message)\" lacks \"\(part)\"",
        sourceLocation: sourceLocation)
    }
  }
}
