import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Foundation

/// One virtual day of the sample app in the simulation: wall time and virtual seconds
/// per wall second.
///
/// - Returns: the wall seconds the day took.
func runSimulationBenchmark() -> Double {
  print("\n[simulation] one virtual day of the sample app")
  var system: SimulatedSystem?
  let nanos = measure(repeats: 3) { system = DayScenario.run() }
  let summary = DayScenario.summarize(system!.trace)
  let wall = nanos / 1e9
  row(
    "one virtual day", "\(format(wall, 3)) s wall",
    "\(format(summary.virtualSeconds / wall, 0)) virtual s per wall s")
  row(
    "  it holds", "\(summary.events) events",
    "\(summary.tasks) tasks, \(summary.runs) scheduler runs, \(summary.workItems) work items, \(summary.retries) retries"
  )
  let findings = TraceChecker.check(system!.trace)
  row(
    "  checker findings on it", "\(findings.count)", findings.first.map { "first: \($0.rule.id) \($0.message)" } ?? "")
  return wall
}
