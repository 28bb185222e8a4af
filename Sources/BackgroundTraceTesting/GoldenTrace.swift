public import BackgroundTrace
public import BackgroundTraceCheck
import Foundation

/// The core of golden-trace assertions: compares a trace with a golden file, records
/// according to the mode, writes `<golden>.actual` and `<golden>.diff` on failure (or
/// the same names under an artifacts directory), and returns the failure message (`nil`
/// when the assertion holds). On a mismatch or a missing golden, with an artifacts
/// directory, it also writes the SVG timelines `<name>.golden.svg` and `<name>.actual.svg`
/// and the page `<name>.actual.html` there (docs/guides/checking.md, "Pictures and exports").
///
/// ``expectTrace(_:matchesGolden:record:diff:checks:directory:artifacts:fileID:filePath:line:column:)``
/// and ``XCTAssertTrace(_:matchesGolden:record:diff:checks:directory:artifacts:file:line:)`` report
/// that message to their test framework.
public enum GoldenTrace: Sendable {
  /// What a verification concluded.
  public struct Verification: Sendable, Hashable {
    /// The failure message, or `nil` when the trace matches and is clean.
    public var failure: String?
    /// The golden file's location.
    public var goldenPath: String
    /// Whether the golden file was written.
    public var recorded: Bool
    /// The timelines of a mismatch or a missing golden, for the assertions to attach.
    package var timelines: [GoldenTimeline] = []
  }

  /// The golden's location: `<directory>/<name>` when a directory is given, else
  /// `<goldens>/<TestFile>/<name>` when a goldens root is given (`BGTRACE_GOLDENS`), else
  /// `__Traces__/<TestFile>/<name>` beside the test file.
  ///
  /// A name without an extension gets `.txt`; `.bgtrace` selects the binary form.
  ///
  /// - Parameters:
  ///   - name: the golden's name, with or without extension.
  ///   - testFilePath: the test file's path (`#filePath`).
  ///   - directory: the folder that holds this golden, as the assertions' `directory:`.
  ///   - goldens: a root that replaces the `__Traces__` folder (docs/guides/golden-traces.md,
  ///     "On a device": for runs where the test file's folder is not readable).
  public static func path(
    for name: String, testFilePath: String, directory: String? = nil, goldens: String? = nil
  ) -> String {
    let file = URL(fileURLWithPath: testFilePath)
    let base =
      directory.map { URL(fileURLWithPath: $0) }
      ?? (goldens.map { URL(fileURLWithPath: $0) }
      ?? file.deletingLastPathComponent().appendingPathComponent("__Traces__"))
      .appendingPathComponent(file.deletingPathExtension().lastPathComponent)
    return base.appendingPathComponent(fileName(name)).path
  }

  /// Where a failure's `.actual` and `.diff` go when an artifacts directory is given:
  /// `<artifacts>/<TestFile>/<name>`, the layout of `__Traces__`, so a CI job uploads
  /// the folder and the source tree stays clean. Append `.actual` or `.diff`.
  public static func artifactPath(for name: String, testFilePath: String, artifacts: String) -> String {
    let file = URL(fileURLWithPath: testFilePath)
    return URL(fileURLWithPath: artifacts).appendingPathComponent(file.deletingPathExtension().lastPathComponent)
      .appendingPathComponent(fileName(name)).path
  }

  /// `name` with `.txt` unless it names the form already.
  private static func fileName(_ name: String) -> String {
    name.hasSuffix(".txt") || name.hasSuffix(".bgtrace") ? name : name + ".txt"
  }

  /// Resolves the golden's and the artifacts' locations and the recording mode from the
  /// arguments, falling back to the environment (`BGTRACE_RECORD`, `CI`,
  /// `BGTRACE_GOLDENS`, `BGTRACE_ARTIFACTS`), then verifies: what both assertions run.
  ///
  /// An environment variable that holds no usable value is the verification's failure.
  package static func verify(
    _ actual: RecordedTrace, name: String, testFilePath: String, record: GoldenRecordMode?, diff: DiffOptions,
    checks: GoldenChecks, directory: String?, artifacts: String?,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Verification {
    func variable(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
    let goldenPath = path(
      for: name, testFilePath: testFilePath, directory: directory, goldens: variable("BGTRACE_GOLDENS"))
    let mode: GoldenRecordMode
    do {
      mode = try record ?? GoldenRecordMode.fromEnvironment(environment)
    } catch {
      return Verification(failure: "\(error)", goldenPath: goldenPath, recorded: false)
    }
    let artifactBase = (artifacts ?? variable("BGTRACE_ARTIFACTS")).map {
      artifactPath(for: name, testFilePath: testFilePath, artifacts: $0)
    }
    return verify(
      actual, goldenPath: goldenPath, record: mode, diff: diff, checks: checks, artifactPath: artifactBase)
  }

  /// Verifies `actual` against the golden file at `goldenPath`.
  ///
  /// - Parameters:
  ///   - actual: the trace the test produced.
  ///   - goldenPath: the golden file (text or binary by its extension).
  ///   - record: when to write the golden.
  ///   - diff: how identifiers and times compare.
  ///   - checks: the checker rules that must not fire on `actual`.
  ///   - artifactPath: where a failure's `.actual` and `.diff` go, before those
  ///     extensions (``artifactPath(for:testFilePath:artifacts:)``); `nil` puts them
  ///     beside the golden. The timelines of a mismatch or a missing golden go into
  ///     its folder, and only when it is given: the source tree gets no pictures.
  public static func verify(
    _ actual: RecordedTrace, goldenPath: String, record: GoldenRecordMode, diff: DiffOptions = DiffOptions(),
    checks: GoldenChecks = .all, artifactPath: String? = nil
  ) -> Verification {
    var verification = Verification(failure: nil, goldenPath: goldenPath, recorded: false)
    var problems: [String] = []
    let findings = TraceChecker.check(actual, configuration: CheckerConfiguration(rules: checks.rules))
      .filter { $0.severity == .error || checks.strict }
    if !findings.isEmpty {
      problems.append(
        "the trace has \(findings.count) checker finding(s):\n"
          + findings.map {
            "  event \($0.location) at \($0.time)s: \($0.severity.rawValue): \($0.message) [\($0.rule.id)]"
          }.joined(separator: "\n"))
    }
    let fileManager = FileManager.default
    let actualPath = (artifactPath ?? goldenPath) + ".actual"
    let diffPath = (artifactPath ?? goldenPath) + ".diff"
    let goldenFileName = (goldenPath as NSString).lastPathComponent
    do {
      if !fileManager.fileExists(atPath: goldenPath) {
        verification.timelines = GoldenTimeline.pictures(golden: nil, actual: actual, goldenFileName: goldenFileName)
        if record == .never {
          try write(actual, to: actualPath)
          problems.append(
            "no golden trace at \(goldenPath) (recording is off: BGTRACE_RECORD=never or CI is set); the actual trace is in \(actualPath)"
          )
        } else {
          try write(actual, to: goldenPath)
          verification.recorded = true
          problems.append("recorded a new golden trace at \(goldenPath); review it, commit it and run the test again")
        }
      } else if record == .all {
        try write(actual, to: goldenPath)
        verification.recorded = true
        problems.append("re-recorded the golden trace at \(goldenPath) (BGTRACE_RECORD=all); review the change")
      } else {
        var reader = try TraceReader(path: goldenPath)
        let golden = try reader.readAll()
        let comparison = TraceDiff(
          expected: golden, actual: actual, options: diff, expectedName: goldenPath, actualName: actualPath)
        if comparison.isEqual {
          try? fileManager.removeItem(atPath: actualPath)
          try? fileManager.removeItem(atPath: diffPath)
          if let artifactPath {
            GoldenTimeline.remove(
              goldenFileName: goldenFileName, from: (artifactPath as NSString).deletingLastPathComponent)
          }
        } else {
          verification.timelines = GoldenTimeline.pictures(
            golden: golden, actual: actual, goldenFileName: goldenFileName)
          try write(actual, to: actualPath)
          try Data(comparison.unified.utf8).write(to: URL(fileURLWithPath: diffPath), options: .atomic)
          var message = "the trace does not match the golden \(goldenPath):\n" + excerpt(comparison.unified)
          if record == .failed {
            try write(actual, to: goldenPath)
            verification.recorded = true
            message += "\nre-recorded the golden (BGTRACE_RECORD=failed); review the change"
          } else {
            message += "\nthe actual trace is in \(actualPath), the diff in \(diffPath)"
          }
          problems.append(message)
        }
      }
    } catch let error as any BackgroundTraceError where error.file == goldenPath {
      // The error names the golden and where in it: the path once.
      problems.append("golden trace \(error)")
    } catch {
      problems.append("golden trace \(goldenPath): \(error)")
    }
    if let artifactPath, !verification.timelines.isEmpty {
      let directory = (artifactPath as NSString).deletingLastPathComponent
      do {
        try GoldenTimeline.write(verification.timelines, goldenFileName: goldenFileName, to: directory)
      } catch {
        problems.append("could not write the timelines to \(directory): \(error)")
      }
    }
    verification.failure = problems.isEmpty ? nil : problems.joined(separator: "\n")
    return verification
  }

  /// The first lines of a long diff, so a failure message stays readable.
  static func excerpt(_ diff: String, lines limit: Int = 80) -> String {
    let lines = diff.split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.count > limit else { return diff }
    return lines.prefix(limit).joined(separator: "\n") + "\n… \(lines.count - limit) more lines in the .diff file"
  }

  /// Writes a trace in the form its extension names (`.bgtrace` binary, else text).
  static func write(_ trace: RecordedTrace, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let isBinary = path.hasSuffix(".bgtrace") || path.hasSuffix(".bgtrace.actual")
    let bytes = isBinary ? try trace.binary() : Array(trace.text.utf8)
    try Data(bytes).write(to: url, options: .atomic)
  }
}
