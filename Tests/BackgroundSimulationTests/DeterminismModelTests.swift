import BackgroundSimulation
import BackgroundTrace
import Dispatch
import Foundation
import Synchronization
import Testing

/// Uploads for 20 virtual seconds; fails (and retries) while offline mid-way.
private struct SyncWorker: BackgroundWorker {
  let clock: VirtualClock

  func doWork(_ context: WorkContext) async -> WorkResult {
    do { try await clock.sleep(for: .seconds(20)) } catch { return .failure }
    return context.runAttemptCount < 3 ? .success : .failure
  }
}

/// A virtual half day of an app with every source of randomness on: the scheduler's
/// seeded launch delay, an extra launch-delay fault, random terminations and network
/// flaps. The app refreshes (resubmitting first, as the seed does), saves in a UIKit
/// task when backgrounded and syncs periodic work that needs the network.
private func halfDay(seed: UInt64) throws -> RecordedTrace {
  var faults = FaultPlan()
  faults.randomTerminationInterval = .seconds(2 * 3600)
  faults.networkFlaps = (interval: .seconds(1200), outage: .seconds(120))
  faults.extraLaunchDelay = .zero ... .seconds(30)
  let system = SimulatedSystem(seed: seed, faults: faults)
  let clock = system.clock
  system.launch { system in
    system.register(forTaskWithIdentifier: "refresh", using: nil) { task in
      try? system.submit(.refresh("refresh", earliestBeginDelay: .seconds(900)))
      // The executor of the current process: a terminated process's code never resumes.
      Task(executorPreference: system.scheduler.executor) {
        try? await clock.sleep(for: .seconds(5))
        task.setTaskCompleted(success: true)
      }
    }
  }
  try system.submit(.refresh("refresh", earliestBeginDelay: .seconds(900)))
  try system.enqueue(
    WorkRequest(work: "sync", period: .seconds(1800), requiresNetwork: true, worker: SyncWorker(clock: clock)),
    policy: .keep)
  for _ in 0..<12 {
    system.advance(by: .seconds(600))
    if system.state == nil { system.relaunch() }
    if system.state == .active || system.state == .inactive {
      let id = system.beginBackgroundTask(withName: "Save", expirationHandler: nil)
      Task(executorPreference: system.scheduler.executor) {
        try? await clock.sleep(for: .seconds(8))
        system.endBackgroundTask(id)
      }
      system.moveToBackground()
    }
    system.advance(by: .seconds(3000))
    system.moveToForeground()
  }
  return system.trace
}

/// The binary form of ``halfDay(seed:)``'s trace.
private func halfDayTrace(seed: UInt64) throws -> [UInt8] {
  try halfDay(seed: seed).binary()
}

/// The same seed gives the same trace, byte for byte (docs/guides/capturing.md, "In unit tests, with the simulator": "the same seed gives the same trace byte for byte").
@Suite struct DeterminismModelTests {
  @Test func theScenarioExercisesEveryRandomSource() throws {
    let text = try halfDay(seed: 7).text
    #expect(text.contains("app.terminate reason=memory"))
    #expect(text.contains("env.set network=offline"))
    #expect(text.contains("sched.launch ident=refresh"))
    #expect(text.contains("work.start work=sync"))
    #expect(text.contains("task.begin id=1 name=Save"))
  }

  /// Twenty runs in a row. (Load on the machine is the next test's concern: its runs
  /// compete with each other for the cores, with no thread kept spinning.)
  @Test func theSameSeedGivesAByteIdenticalTraceInTwentyRuns() throws {
    let first = try halfDayTrace(seed: 7)
    for run in 2...20 {
      let identical = try halfDayTrace(seed: 7) == first
      #expect(identical, "run \(run) gave a different trace")
      if !identical { break }
    }
  }

  @Test func runsOnManyThreadsAtOnceGiveTheSameTrace() throws {
    let expected = try halfDayTrace(seed: 7)
    let traces = Mutex<[[UInt8]]>([])
    DispatchQueue.concurrentPerform(iterations: 20) { _ in
      let trace = (try? halfDayTrace(seed: 7)) ?? []
      traces.withLock { $0.append(trace) }
    }
    #expect(traces.withLock { $0.count } == 20)
    #expect(traces.withLock { $0.allSatisfy { $0 == expected } })
  }

  @Test func differentSeedsGiveDifferentTraces() throws {
    let traces = try (UInt64(1)...5).map(halfDayTrace(seed:))
    #expect(Set(traces).count == 5)
  }
}
