import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import Foundation
import TestSupport
import Testing

/// Changing the app's code makes its replay report the first divergence: both events
/// and the recorded event number.
@Suite struct ReplayDivergenceTests {
  static let goldens = Repository.goldens

  @Test func endingATaskTwiceIsTheFirstDivergence() throws {
    // Recorded with the guarded DocumentManager; replayed with the seed's unguarded one,
    // whose late save ends `.invalid` a second time when the user returns at 62 s.
    var reader = try TraceReader(path: Self.goldens.appendingPathComponent("ios/document-manager-guarded.txt").path)
    let recorded = try reader.readAll()
    let result = Replayer.replay(recorded, timing: .exact) {
      SavingApp(platform: $0, guards: false, save: .seconds(45))
    }
    let divergence = try #require(result.divergence)
    #expect(divergence.expected == nil)
    #expect(divergence.actual == "62 task.end id=0")
    #expect(divergence.eventNumber == nil)  // past the recording's last action
    #expect(divergence.context.last == "7: 31 task.end id=1")
    #expect(result.findings.map(\.rule.id) == ["task-unknown-end"])
  }

  /// Records a sync that fails twice, then replays it with a worker that fails once more.
  @Test func retryingOnceMoreIsTheFirstDivergence() throws {
    let system = SimulatedSystem(seed: 5)
    system.launchApp { system in SyncingApp(queue: system, scheduler: system.scheduler, failures: 2) }
    system.runUntilIdle(for: .seconds(600))
    let recorded = system.trace
    #expect(recorded.events.contains { $0.kind == .workResult(work: "sync-1", attempt: 2, outcome: .success) })

    let same = Replayer.replay(recorded, timing: .exact) { SyncingApp(queue: $0, scheduler: $0.scheduler, failures: 2) }
    #expect(same.divergence == nil)
    #expect(same.unapplied.isEmpty)

    let result = Replayer.replay(recorded, timing: .exact) {
      SyncingApp(queue: $0, scheduler: $0.scheduler, failures: 3)
    }
    let divergence = try #require(result.divergence)
    let number =
      try #require(recorded.events.firstIndex { $0.kind == .workResult(work: "sync-1", attempt: 2, outcome: .success) })
      + 1
    #expect(divergence.eventNumber == number)
    #expect(divergence.expected?.hasSuffix("work.result work=sync-1 attempt=2 outcome=success") == true)
    #expect(divergence.actual?.hasSuffix("work.result work=sync-1 attempt=2 outcome=retry") == true)
    // The recording has no fourth start, so the replay's worker is never started again.
    #expect(result.trace.events.filter { if case .workStart = $0.kind { true } else { false } }.count == 3)
  }
}

/// Enqueues the seed's DataSyncWorker at launch; its upload fails on the first `failures` attempts.
final class SyncingApp: BackgroundAppDelegate {
  let queue: any WorkQueue
  let worker: DataSyncWorker

  init(queue: any WorkQueue, scheduler: VirtualTimeScheduler, failures: Int) {
    self.queue = queue
    worker = DataSyncWorker(context: AsyncContext(simulation: scheduler)) { attempt in attempt >= failures }
  }

  func didFinishLaunching() {
    try! queue.enqueue(worker.request(work: "sync-1"), policy: nil)
  }
}
