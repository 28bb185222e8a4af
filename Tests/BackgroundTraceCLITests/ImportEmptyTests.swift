import BackgroundTraceCLI
import Foundation
import TestSupport
import Testing

/// An import that finds no background work fails (exit 2) unless `--allow-empty`: a CI
/// gate that imports a log captured with the wrong settings must not pass on an empty
/// trace (docs/import.md, "Capturing a log").
@Suite struct ImportEmptyTests {
  /// WorkManager before 2.1 logged under tags without the `WM-` prefix, and at INFO only
  /// its results; this line, verbatim from android/codelab-android-workmanager#109
  /// (WorkManager 1.0.0-alpha11), is in no source the import reads.
  static let preWorkManager21Line = "11-26 12:12:03.693  6820  6852 I WorkerWrapper: Worker result SUCCESS for Work"

  @Test func aLogWithNoBackgroundWorkIsAnErrorNamingWhatToCapture() throws {
    let directory = try TemporaryDirectory()
    let log = directory.path("device.log")
    let out = directory.path("run.txt")
    try Self.preWorkManager21Line.appending("\n").write(toFile: log, atomically: true, encoding: .utf8)
    let result = run("import", log, "--out", out)
    #expect(result.status == .badInput)
    #expect(
      result.errors.hasSuffix(
        "bgtrace: \(log): found no background work to import (1 line read, none from WorkManager, JobScheduler or "
          + "ActivityManager): turn WorkManager's debug logging on "
          + "(Configuration.Builder().setMinimumLoggingLevel(Log.DEBUG)) and capture the whole buffer "
          + "(`adb logcat -v threadtime`); --allow-empty accepts an empty trace\n"))
    #expect(result.errors.contains("bgtrace: imported 0 events of no app from \(log) (logcat-threadtime)\n"))
    #expect(!FileManager.default.fileExists(atPath: out), "the empty trace is not kept")
  }

  @Test func allowEmptyWritesTheEmptyTraceAndSucceeds() throws {
    let directory = try TemporaryDirectory()
    let log = directory.path("device.log")
    try Self.preWorkManager21Line.appending("\n").write(toFile: log, atomically: true, encoding: .utf8)
    let result = run("import", log, "--allow-empty")
    #expect(result.status == .success)
    #expect(result.output == "bgtrace 1\nmeta platform=android source=android-log attempts=from-first-start-seen\n")
  }
}
