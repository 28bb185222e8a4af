import BackgroundTraceImport
import TestSupport
import Testing

/// The import's summary says what was read in words a newcomer understands, and only
/// what the log really could not tell (docs/import.md, "The summary").
@Suite struct ImportSummaryTests {
  static let registration =
    "2024-05-01 10:00:00.000000+0000 App[100:200] registerForTaskWithIdentifier: com.example.refresh\n"
  static let launch =
    "2024-05-01 10:00:05.000000+0000 App[100:200] Starting task: <BGAppRefreshTask: com.example.refresh>\n"

  /// BackgroundTasks writes `registerForTaskWithIdentifier:` at DEBUG: a log that holds
  /// it told the registrations, and the summary does not say it could not.
  @Test func aLogWithItsRegistrationLineDoesNotSayItCouldNotTellRegistrations() throws {
    let withLine = try imported(Self.registration + Self.launch).summary
    #expect(!withLine.text.contains("launch handler registrations"))
    let without = try imported(Self.launch).summary
    #expect(
      without.text.contains(
        "the log could not tell: launch handler registrations: BackgroundTasks logs them only at DEBUG, so each "
          + "identifier launched is written registered at its first launch (iOS runs a task only through its handler)\n"
      ))
  }

  @Test func processesNameTheirPidsAndCountTheirMessages() throws {
    let summary = try imported(Self.registration + Self.launch).summary
    #expect(summary.text.contains("bgtrace: processes: App (pid 100, 2 background-work messages)\n"))
    #expect(try imported(Self.launch).summary.text.contains("App (pid 100, 1 background-work message)"))
  }
}
