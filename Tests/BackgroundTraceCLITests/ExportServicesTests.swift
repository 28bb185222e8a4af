import BackgroundTraceCLI
import TestSupport
import Testing

/// `bgtrace export` draws foreground services: a lane per service in the SVG timeline,
/// orange while it owes `startForeground`, then green to its stop (red when refused or
/// ended by its process), and a track per service in the Chrome export.
@Suite struct ExportServicesTests {
  @Test func theSVGTimelineHasALanePerService() {
    let result = run("export", Repository.path("Traces/rules/fgs-timeout-ignored.fires.txt"), "--format", "svg")
    #expect(result.status == .success)
    #expect(result.output.contains(">Foreground services (Android) (1)<"))
    #expect(
      result.output.contains(
        "<title>sync started at 1s, startForeground at 1.5s; stopped at 21612s</title>"))
    #expect(
      result.output.contains(
        "<title>sync in the foreground (dataSync) from 1.5s; onTimeout at 21601.5s; stopped at 21612s</title>"))
  }

  @Test func theChromeExportHasATrackPerService() {
    let result = run(
      "export", Repository.path("Traces/golden/android/sync-service-untyped-crashes.txt"), "--format", "chrome")
    #expect(result.status == .success)
    #expect(result.output.contains("\"args\":{\"name\":\"Service SyncService\"}"))
    #expect(result.output.contains("{\"name\":\"service SyncService\",\"cat\":\"fgs\",\"ph\":\"X\""))
    #expect(result.output.contains("\"ending\":\"refused (no-type)\""))
  }
}
