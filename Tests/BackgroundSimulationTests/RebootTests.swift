import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// An Android device rebooting under WorkManager's work (`SimulatedSystem.reboot`).
/// androidx `SystemJobInfoConverter` does not persist WorkManager's jobs
/// (`setPersisted(false)`: "we reschedule these jobs on BOOT_COMPLETED");
/// `RescheduleReceiver` (enabled while work is unfinished, `UnfinishedWorkListener`)
/// starts the process on `BOOT_COMPLETED`; `ForceStopRunnable.cleanUp` sets RUNNING work
/// back to ENQUEUED with `STOP_REASON_UNKNOWN`, its run attempt already counted and its
/// `lastEnqueueTime` kept, so `calculateNextRunTime` holds it for its backoff from then.
/// Work runs 0.1 s after it is due; after a boot, WorkManager starts what is due as its
/// process starts, before the broadcast reaches the receiver (`app.allowlist`).
@Suite struct RebootTests {
  private func lines(_ system: SimulatedSystem) -> [String] {
    system.trace.events.map(handWrittenLine(for:)).filter {
      $0.contains(" work.") || $0.contains(" app.terminate") || $0.contains(" app.allowlist")
        || $0.contains(" app.launch")
    }
  }

  /// A worker running at the reboot (60 s) is stopped with it; its next attempt waits
  /// through the downtime for the process to run (`reasons=rebooted`), and starts when
  /// `BOOT_COMPLETED` starts the process at 120 s: its backoff (30 s from its enqueue at
  /// 10 s) has long passed.
  @Test func aRunningWorkerRunsAgainAfterTheBoot() throws {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    system.launch { _ in }
    system.advance(to: TraceTime(seconds: 10))
    try system.enqueue(
      WorkRequest(work: "sync", worker: TimedWorker(clock: system.clock, duration: .seconds(300))), policy: nil)
    system.advance(to: TraceTime(seconds: 60))
    system.reboot()
    system.advance(to: TraceTime(seconds: 500))
    #expect(
      lines(system) == [
        "0 app.launch", "10 work.enqueue work=sync", "10.1 work.start work=sync attempt=0",
        "60 app.terminate reason=reboot", "60 work.stop work=sync attempt=0 reason=terminated",
        "60 work.wait work=sync reasons=rebooted", "120 app.launch", "120 work.start work=sync attempt=1",
        "120 app.allowlist reason=boot-completed duration=20",
        "420 work.result work=sync attempt=1 outcome=success",
      ])
    #expect(system.workInfos(forUniqueWork: "sync").first?.runAttemptCount == 2)
    #expect(TraceChecker.check(system.trace).isEmpty)
    let history = try #require(RequestHistory(of: "sync", in: system.trace))
    #expect(
      history.lines.contains(
        "  60s to 120s (60s): waited: the device had rebooted, and WorkManager schedules work again only once the "
          + "app's process runs (BOOT_COMPLETED)."), "\(history.lines)")
  }

  /// A one-time request with a 5-minute delay, enqueued at 0 s, keeps its schedule
  /// across a reboot at 60 s with 10 minutes down: it is due at 300 s, while the device
  /// is down, and runs when the boot starts the process at 660 s.
  @Test func workDueWhileTheDeviceIsDownRunsAtTheBoot() throws {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    try system.enqueue(
      WorkRequest(work: "later", initialDelay: .seconds(300), worker: TimedWorker(clock: system.clock)), policy: nil)
    system.advance(to: TraceTime(seconds: 60))
    system.reboot(downtime: .seconds(600))
    system.advance(to: TraceTime(seconds: 700))
    #expect(
      lines(system) == [
        "0 work.enqueue work=later initial=300", "300 work.wait work=later reasons=rebooted", "660 app.launch",
        "660 work.start work=later attempt=0", "660 work.result work=later attempt=0 outcome=success",
        "660 app.allowlist reason=boot-completed duration=20",
      ])
  }
}
