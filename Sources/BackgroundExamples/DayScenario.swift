package import BackgroundSimulation
package import BackgroundTrace

/// A virtual day of the sample app, for the simulation's speed benchmark: five-minute
/// cycles of a minute in the foreground (short named tasks, analytics syncs that
/// retry) and four in the background (a document save, refreshes every 30 s or so).
package enum DayScenario: Sendable {
  /// What a run produced.
  package struct Summary: Sendable {
    /// Virtual time simulated.
    package var virtualSeconds: Double
    /// UIKit tasks begun, scheduler runs launched, work items enqueued, retries.
    package var tasks = 0, runs = 0, workItems = 0, retries = 0, events = 0
  }

  /// Simulates `cycles` five-minute cycles (288 make a day) and returns the system.
  package static func run(seed: UInt64 = 1, cycles: Int = 288) -> SimulatedSystem {
    // A load test, not a fidelity test: refreshes launch within 20 s and get their
    // full 30 s, so a day holds many runs (LaunchPolicy.immediate, plus a delay).
    var configuration = SimulationConfiguration()
    configuration.launchPolicy = .immediate
    configuration.launchPolicy.refreshDelay = .seconds(0) ... .seconds(20)
    let system = SimulatedSystem(seed: seed, configuration: configuration, meta: ["app": "sample-day"])
    let context = AsyncContext(simulation: system.scheduler)
    let app = SampleApp(host: system, scheduler: system, work: system, context: context, guardsInvalidID: true)
    app.refresh.refreshInterval = .seconds(30)
    app.refresh.fetchDuration = .seconds(3)
    system.launch { _ in app.didFinishLaunching() }
    for cycle in 0..<cycles {
      system.moveToForeground()
      for index in 0..<36 {
        app.quickTask(named: "Job\(index % 6)", taking: .milliseconds(300 + (cycle * 37 + index * 53) % 900))
        if index % 9 == 0 { app.sync(failures: (cycle + index) % 3) }
        system.advance(by: .milliseconds(1_650))
      }
      system.moveToBackground()
      app.didEnterBackground(saveDuration: .seconds(5 + cycle % 20))
      system.advance(by: .seconds(240))
    }
    return system
  }

  /// Counts what a run's trace holds.
  package static func summarize(_ trace: RecordedTrace) -> Summary {
    var summary = Summary(virtualSeconds: trace.events.last?.time.seconds ?? 0)
    summary.events = trace.events.count
    for event in trace.events {
      switch event.kind {
      case .taskBegin: summary.tasks += 1
      case .schedLaunch: summary.runs += 1
      case .workEnqueue: summary.workItems += 1
      case .workResult(_, _, .retry, _): summary.retries += 1
      default: break
      }
    }
    return summary
  }
}
