import BackgroundTraceCLI
import Foundation
import TestSupport
import Testing

/// An import that finds no background work fails (exit 2) unless `--allow-empty`: a CI
/// gate that imports a log captured with the wrong settings must not pass on an empty
/// trace (docs/import.md, "Capturing a log").
@Suite struct ImportEmptyTests {
  /// A line from no source the import reads, verbatim from
  /// transistorsoft/react-native-background-geolocation#599
  /// (`Traces/import/android/threadtime-pidge-killing-swipeupclean.log`).
  static let unrelatedLine =
    "11-16 16:35:04.259  2037  6626 D ProcessManager: update DY:[com.facemoji.lite.xiaomi, com.miui.voip]"

  /// WorkManager 1.0.0-alpha11's result line, as android/codelab-android-workmanager#109
  /// pasted it, cut after "for Work": a WorkManager line (the tag before the `WM-`
  /// prefix) that does not parse.
  static let cutResultLine = "11-26 12:12:03.693  6820  6852 I WorkerWrapper: Worker result SUCCESS for Work"

  @Test func aLogWithNoBackgroundWorkIsAnErrorNamingWhatToCapture() throws {
    let directory = try TemporaryDirectory()
    let log = directory.path("device.log")
    let out = directory.path("run.txt")
    try Self.unrelatedLine.appending("\n").write(toFile: log, atomically: true, encoding: .utf8)
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

  /// A log whose only WorkManager line does not parse is empty too, and says so.
  @Test func aLogWhoseWorkManagerLinesDoNotParseIsEmptyToo() throws {
    let directory = try TemporaryDirectory()
    let log = directory.path("device.log")
    try Self.cutResultLine.appending("\n").write(toFile: log, atomically: true, encoding: .utf8)
    let result = run("import", log)
    #expect(result.status == .badInput)
    #expect(result.errors.contains("bgtrace: lines: 1 read, 1 skipped (1 not parsed)\n"))
    #expect(
      result.errors.contains(
        "found no background work to import (1 line read, 1 from WorkManager, JobScheduler or ActivityManager, "
          + "none of them an event of the app imported)"))
  }

  @Test func allowEmptyWritesTheEmptyTraceAndSucceeds() throws {
    let directory = try TemporaryDirectory()
    let log = directory.path("device.log")
    try Self.unrelatedLine.appending("\n").write(toFile: log, atomically: true, encoding: .utf8)
    let result = run("import", log, "--allow-empty")
    #expect(result.status == .success)
    #expect(result.output == "bgtrace 1\nmeta platform=android source=android-log attempts=from-first-start-seen\n")
  }
}
