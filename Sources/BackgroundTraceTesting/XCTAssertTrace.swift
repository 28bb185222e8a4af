public import BackgroundTrace
public import BackgroundTraceCheck
import Foundation
import XCTest

/// Asserts that `trace` matches a golden trace and passes the checker, failing the
/// XCTest at the caller's line with the diff when it does not. The XCTest twin of
/// ``expectTrace(_:matchesGolden:record:diff:checks:directory:artifacts:fileID:filePath:line:column:)``.
///
/// On a mismatch or a missing golden, with an artifacts directory, the SVG timelines
/// `<name>.golden.svg` and `<name>.actual.svg` and the page `<name>.actual.html` are
/// written there beside `.actual` and `.diff`, as `expectTrace` writes them (docs/guides/checking.md,
/// "Pictures and exports"). They are not attached: XCTest on Linux (swift-corelibs-xctest)
/// has no attachments, so the artifacts directory is where a reviewer finds them.
///
/// - Parameters:
///   - trace: the trace the test produced.
///   - name: the golden's name, with or without extension.
///   - record: when to write the golden; `nil` reads `BGTRACE_RECORD`.
///   - diff: how identifiers and times compare.
///   - checks: checker rules that must not fire.
///   - directory: where goldens live, instead of `__Traces__/<TestFile>`.
///   - artifacts: where a failure's `.actual`, `.diff` and timelines go; `nil` reads
///     `BGTRACE_ARTIFACTS`, else `.actual` and `.diff` go beside the golden and no
///     timelines are written.
///   - file: the caller's file path, where the failure is reported; the default golden
///     directory is beside it.
///   - line: the caller's line.
public func XCTAssertTrace(
  _ trace: RecordedTrace, matchesGolden name: String, record: GoldenRecordMode? = nil,
  diff: DiffOptions = DiffOptions(),
  checks: GoldenChecks = .all, directory: String? = nil, artifacts: String? = nil, file: StaticString = #filePath,
  line: UInt = #line
) {
  let verification = GoldenTrace.verify(
    trace, name: name, testFilePath: "\(file)", record: record, diff: diff, checks: checks, directory: directory,
    artifacts: artifacts)
  if let failure = verification.failure {
    XCTFail(failure, file: file, line: line)
  }
}
