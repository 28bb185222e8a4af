import BackgroundTraceCLI
import TestSupport
import Testing

/// `bgtrace stats` counts background sessions, transfers and wakes when a trace has
/// them (and prints no such row when it has none).
@Suite struct TransferStatsTests {
  @Test func statsCountsSessionsTransfersAndWakes() {
    let path = Repository.path("Traces/format/background-transfers.txt")
    let result = run("stats", path)
    #expect(result.status == .success)
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        "  transfers   sessions created 2, submitted 3, success 1, failed 1, cancelled 1, wakes 1, handlers called 1"))
    #expect(lines.contains("    net.submit      3"))
    let plain = run("stats", Repository.path("Traces/format/minimal.txt"))
    #expect(!plain.output.contains("transfers"))
  }
}
