import BackgroundTraceCLI
import Foundation
import TestSupport
import Testing

/// `explain`, `stats`, `export` and `diff` read a device log as `check` does: imported in
/// memory, a note on standard error (docs/import.md). The log is Android Studio's Logcat
/// of the Paho MQTT client's ping worker: line 4 cancels work 40669dfb…, line 5 stops
/// its attempt, line 7 schedules work 792c6da1… (its `.expected.txt` is the import).
@Suite struct LogCommandsTests {
  private let log = Repository.traces.appendingPathComponent("import/android/studio-new-paho-pingworker-cancelled.log")
    .path
  private let imported = Repository.traces.appendingPathComponent(
    "import/android/studio-new-paho-pingworker-cancelled.expected.txt"
  ).path

  private var note: String {
    "bgtrace: \(log): a device log (android-studio), read as the trace `bgtrace import` writes: 3 events of (unnamed)"
  }

  @Test func explainWalksTheLogAtItsLines() {
    let result = run("explain", log)
    #expect(result.status == .success)
    #expect(result.errors == note + "; locations are the log's lines\n")
    #expect(
      result.output == """
        4: 0.018 work.cancel work=40669dfb-b0cf-4f14-8c9c-2aeadc2ccb4e
        5: 0.024 work.stop work=40669dfb-b0cf-4f14-8c9c-2aeadc2ccb4e attempt=0 reason=interrupted tags=info.mqtt.android.service.ping.PingWorker
        7: 0.051 work.enqueue work=792c6da1-ab12-4ae0-adae-c0f6f25b71eb
              + work 792c6da1-ab12-4ae0-adae-c0f6f25b71eb: enqueued

        """)
  }

  @Test func diffComparesTheLogWithItsImport() {
    let result = run("diff", log, imported)
    #expect(result.status == .success)
    #expect(result.errors.hasPrefix(note + "\n"))
  }

  @Test func statsCountTheLogsEvents() {
    let result = run("stats", log)
    #expect(result.status == .success)
    #expect(result.output.hasPrefix("\(log) (device log)\n  events      3\n  duration    0.033s\n"))
    #expect(result.errors == note + "\n")
  }

  @Test func exportRendersTheLog() {
    let fromLog = run("export", log, "--format", "jsonl")
    let fromTrace = run("export", imported, "--format", "jsonl")
    #expect(fromLog.status == .success)
    #expect(fromLog.output == fromTrace.output)
    #expect(fromLog.errors == note + "\n")
  }

  /// `--platform` forces the log's platform on every command that reads one: the
  /// detected one reads it as before; the other is an error naming what was expected,
  /// never a trace of the wrong platform (`import --from` is its earlier name).
  @Test func platformForcesTheLogsPlatform() {
    let android = run("stats", log, "--platform", "android")
    #expect(android.status == .success)
    #expect(android.output == run("stats", log).output)
    let expected =
      "bgtrace: \(log): no line is in a known log style: expected an iOS log (Xcode's console, Console.app's "
      + "copy, or log show / log stream in any style)\n"
    for command in [["explain", log], ["check", log], ["stats", log], ["export", log, "--format", "jsonl"]] {
      let result = run(command + ["--platform", "ios"])
      #expect(result.status == .badInput, "\(command)")
      #expect(result.errors.hasSuffix(expected), "\(command): \(result.errors)")
    }
    #expect(run("diff", log, imported, "--platform", "ios").status == .badInput)
    #expect(run("import", log, "--from", "ios").errors == expected)
    #expect(run("import", log, "--platform", "ios").errors == expected)
    #expect(
      run("stats", log, "--platform", "windows").errors
        == "bgtrace: '--platform' takes 'ios' or 'android', not 'windows'\n")
  }
}
