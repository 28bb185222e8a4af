import BackgroundTraceCLI
import TestSupport
import Testing

/// `bgtrace stats` counts foreground services and promoted workers when a trace has
/// them (and prints no such row when it has none).
@Suite struct ForegroundServiceStatsTests {
  @Test func statsCountsServicesAndPromotedWorkers() {
    let result = run("stats", Repository.path("Traces/format-v4/foreground-services.txt"))
    #expect(result.status == .success)
    let line =
      "  services    started 3, foreground 2, refused 2 (background 1, no-type 1, exhausted 0, boot-completed 0, "
      + "permission 0, while-in-use 0), timed out 1, stopped 1, workers promoted 1"
    #expect(result.output.split(separator: "\n").map(String.init).contains(line))
    #expect(!run("stats", Repository.path("Traces/format/minimal.txt")).output.contains("services"))
  }
}
