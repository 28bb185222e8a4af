import BackgroundSimulation
import BackgroundTrace

/// A worker for the WorkManager model's tests: it works for `duration` of virtual time
/// (none by default) and returns `result`. A stop cancels its wait, and it returns
/// `retry`, which the queue ignores for an attempt it stopped.
struct TimedWorker: BackgroundWorker {
  let clock: VirtualClock
  var duration: Duration = .zero
  var result: WorkResult = .success

  func doWork(_ context: WorkContext) async -> WorkResult {
    if duration > .zero {
      do { try await clock.sleep(for: duration) } catch { return .retry }
    }
    return result
  }
}

extension SimulatedSystem {
  /// Enqueues `work` as expedited work that drops when the quota is spent, a
  /// ``TimedWorker`` of `seconds`.
  func enqueueExpedited(_ work: String, for seconds: Int64) throws {
    try enqueue(
      WorkRequest(work: work, expedited: .drop, worker: TimedWorker(clock: clock, duration: .seconds(seconds))),
      policy: nil)
  }
}
