public import BackgroundTrace
public import BackgroundTraceCheck
import Foundation
import Testing

/// Expects `trace` to match a golden trace and to pass the checker, recording an
/// `Issue` at the caller's source location (with the diff) when it does not.
///
/// ```swift
/// @Test func saveDocumentEndsItsTask() {
///   let trace = runSaveDocumentScenario()
///   expectTrace(trace, matchesGolden: "save-document")
/// }
/// ```
///
/// The golden lives at `__Traces__/<TestFile>/<name>.txt` beside the test file (or
/// `<name>.bgtrace` for the binary form; `BGTRACE_GOLDENS` replaces `__Traces__`). On a
/// mismatch `<golden>.actual` and `<golden>.diff` are written beside it, or under the
/// artifacts directory (`artifacts:` or `BGTRACE_ARTIFACTS`) as
/// `<TestFile>/<name>.txt.actual` and `.diff`. An unknown `BGTRACE_RECORD` fails the
/// test, naming the values it takes (docs/guides/golden-traces.md).
///
/// On a mismatch the SVG timelines of both traces are attached as `<name>.golden.svg`
/// and `<name>.actual.svg`, and the actual trace's HTML page as `<name>.actual.html`
/// (for a missing golden, only the actual ones); with an artifacts directory they are
/// also written there beside `.actual` and `.diff` (docs/guides/checking.md, "Pictures and exports").
/// Where the runner keeps attachments (Xcode, `swift test --attachments-path`) a
/// reviewer sees the difference without running anything.
///
/// - Parameters:
///   - trace: the trace the test produced.
///   - name: the golden's name, with or without extension.
///   - record: when to write the golden; `nil` reads `BGTRACE_RECORD` (default `missing`,
///     or `never` when `CI` is set).
///   - diff: how identifiers and times compare (ids up to renaming, times exact).
///   - checks: checker rules that must not fire (all by default).
///   - directory: where goldens live, instead of `__Traces__/<TestFile>`.
///   - artifacts: where a failure's `.actual`, `.diff` and timelines go; `nil` reads
///     `BGTRACE_ARTIFACTS`, else `.actual` and `.diff` go beside the golden and the
///     timelines are only attached.
///   - fileID: the caller's file, where the issue is recorded.
///   - filePath: the caller's file's path; the default golden directory is beside it.
///   - line: the caller's line.
///   - column: the caller's column.
public func expectTrace(
  _ trace: RecordedTrace, matchesGolden name: String, record: GoldenRecordMode? = nil,
  diff: DiffOptions = DiffOptions(),
  checks: GoldenChecks = .all, directory: String? = nil, artifacts: String? = nil, fileID: String = #fileID,
  filePath: String = #filePath, line: Int = #line, column: Int = #column
) {
  let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  let verification = GoldenTrace.verify(
    trace, name: name, testFilePath: filePath, record: record, diff: diff, checks: checks, directory: directory,
    artifacts: artifacts)
  guard let failure = verification.failure else { return }
  Attachment.record(trace.text, named: (verification.goldenPath as NSString).lastPathComponent + ".actual")
  for timeline in verification.timelines {
    Attachment.record(timeline.text, named: timeline.fileName, sourceLocation: location)
  }
  Issue.record(Comment(rawValue: failure), sourceLocation: location)
}
