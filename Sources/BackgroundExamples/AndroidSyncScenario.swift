package import BackgroundSimulation
package import BackgroundTrace

/// The sample's Android side: an app whose background work is the seed's
/// ``DataSyncWorker`` under WorkManager (``SimulatedPlatform/android``).
///
/// The user taps "Sync" at 2 s and leaves the app at 5 s. The first upload fails and
/// the worker retries; the system kills the process (`app.terminate reason=memory`)
/// in the middle of the second attempt; WorkManager starts the process again in the
/// background and runs the third attempt once the second's backoff allows, as androidx
/// does (`ForceStopRunnable` resets the running work, keeping its attempt count;
/// `WorkSpec.calculateNextRunTime` holds it until `lastEnqueueTime` plus the backoff).
package enum AndroidSyncScenario: Sendable {
  /// The scenario's app on a platform (the simulation, or a replay's): `sync` enqueues
  /// `sync-1`, whose upload takes 20 s and succeeds from the third attempt on.
  package static func app(on platform: some WorkQueue, scheduler: VirtualTimeScheduler) -> any BackgroundAppDelegate {
    SyncApp(work: platform, worker: worker(scheduler: scheduler))
  }

  /// The worker: 20 s uploads that fail on attempts 0 and 1.
  package static func worker(scheduler: VirtualTimeScheduler) -> DataSyncWorker {
    DataSyncWorker(context: AsyncContext(simulation: scheduler), uploadDuration: .seconds(20)) { $0 >= 2 }
  }

  /// Runs the scenario and returns the system with its trace.
  package static func run(seed: UInt64 = 2026) -> SimulatedSystem {
    var faults = FaultPlan()
    // Attempt 1 starts at 52.2 s (22.1 s + 30 s backoff + 0.1 s dispatch): killed 10 s in.
    faults.terminations = [(at: .seconds(62.2), reason: "memory")]
    let system = SimulatedSystem(
      seed: seed, configuration: SimulationConfiguration(platform: .android), faults: faults,
      meta: ["app": "sample-android"])
    system.launchApp { system in app(on: system, scheduler: system.scheduler) }
    system.advance(by: .seconds(2))
    system.userAction("sync")
    system.advance(by: .seconds(3))
    system.moveToBackground()
    system.runUntilIdle(for: .seconds(3600))
    return system
  }

  /// The app: enqueues the sync when the user taps "Sync".
  private final class SyncApp: BackgroundAppDelegate, @unchecked Sendable {
    let work: any WorkQueue
    let worker: DataSyncWorker
    init(work: any WorkQueue, worker: DataSyncWorker) {
      self.work = work
      self.worker = worker
    }
    func perform(userAction action: String) {
      // A valid request: like androidx's `build()`, enqueue throws only for one WorkManager refuses.
      if action == "sync" { try! work.enqueue(worker.request(work: "sync-1"), policy: .keep) }
    }
  }
}
