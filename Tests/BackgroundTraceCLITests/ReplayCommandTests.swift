import BackgroundTraceCLI
import Foundation
import Testing

/// `bgtrace replay`: the model timeline over every shipped trace, and the flagging of
/// decisions the model says could not happen.
@Suite struct ReplayCommandTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static var shippedTraces: [String] {
    let traces = root.appendingPathComponent("Traces").path
    let files = FileManager.default.enumerator(atPath: traces)?.compactMap { $0 as? String } ?? []
    return files.filter { $0.hasSuffix(".txt") || $0.hasSuffix(".bgtrace") }.sorted().map { traces + "/" + $0 }
  }

  func run(_ arguments: String...) -> (status: BackgroundTraceCLI.ExitStatus, output: String, errors: String) {
    let console = CapturingConsole()
    let status = BGTrace.run(arguments, console: console)
    return (status, console.output, console.errors)
  }

  @Test func everyShippedTracePrintsATimeline() {
    #expect(Self.shippedTraces.count > 20)
    for path in Self.shippedTraces {
      let result = run("replay", path)
      #expect(result.status != .badInput, "\(path): \(result.errors)")
      #expect(result.output.contains(" app.launch") || result.output.contains(": 0 "), "\(path)")
    }
  }

  @Test func aTooEarlyRetryIsInconsistentWithTheModel() {
    let path = Self.root.appendingPathComponent("Traces/examples/early-retry.txt").path
    let result = run("replay", path)
    #expect(result.status == .findings)
    #expect(
      result.output.contains(
        "10: 20 work.start work=sync-1 attempt=1\n      · work sync-1: attempt 1 running 0s\n"))
    #expect(
      result.output.contains(
        "!! inconsistent with the model: sync-1 attempt 1 started at 20s, before its backoff allowed it at 34s"))
  }

  @Test func findingsShowInlineAndFailTheRun() {
    let path = Self.root.appendingPathComponent("Traces/examples/double-end.txt").path
    let result = run("replay", path)
    #expect(result.status == .findings)
    #expect(
      result.output.hasSuffix(
        "9: 42.51 task.end id=1\n      >> error: task 1 ended twice (first end at 42.5s) [task-double-end]\n"))
    #expect(
      result.output.contains(
        "6: 12.5 task.begin id=1 name=SaveDocument\n      · task 1 SaveDocument: open 0s, 30s of budget left\n"))
  }

  @Test func untilStopsTheTimeline() {
    let path = Self.root.appendingPathComponent("Traces/examples/double-end.txt").path
    let result = run("replay", "--until", "12.5", path)
    #expect(result.output.contains("12.5 task.begin"))
    #expect(!result.output.contains("42.5 task.expire"))
    #expect(result.status == .findings)  // the whole trace is still checked
  }
}
