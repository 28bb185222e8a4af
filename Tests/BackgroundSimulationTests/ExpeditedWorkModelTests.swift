import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import Testing

/// Expedited work on the Android model: a per-24-hour JobScheduler quota by standby
/// bucket (AOSP `QuotaController.QcConstants.DEFAULT_EJ_LIMIT_*_MS`), and androidx's
/// `OutOfQuotaPolicy` once it is spent.
@Suite struct ExpeditedWorkModelTests {
  /// Works for `duration`, then succeeds; a stop cancels it.
  struct Timed: BackgroundWorker {
    let clock: VirtualClock
    let duration: Duration
    func doWork(_ context: WorkContext) async -> WorkResult {
      do { try await clock.sleep(for: duration) } catch { return .retry }
      return .success
    }
  }

  /// Restricted bucket, `DEFAULT_EJ_LIMIT_RESTRICTED_MS` = 5 minutes: a first 4-minute
  /// expedited work uses 4 of them; the second is stopped when its 3-minute guarantee
  /// is spent, the quota being spent before (`work.stop reason=quota`) and runs on as regular work after its backoff; then
  /// with no quota left `DROP_WORK_REQUEST` drops a request ("no work requests are
  /// enqueued") and `RUN_AS_NON_EXPEDITED_WORK_REQUEST` runs one as regular work, each
  /// recorded as `work.quota` (which the checker reports: `work-expedited-dropped`,
  /// `work-expedited-demoted`). The user never opens the app: on top, and for a minute
  /// after, its expedited time would be free (``ExpeditedQuotaExemption``).
  @Test func theQuotaIsSpentThenEachOutOfQuotaPolicyApplies() throws {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.standbyBucket = .restricted
    configuration.standbyBucketFollowsUse = false
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    let worker = Timed(clock: system.clock, duration: .seconds(240))
    try system.enqueue(WorkRequest(work: "a", expedited: .runAsRegular, worker: worker), policy: nil)
    system.advance(to: TraceTime(.seconds(300)))
    try system.enqueue(WorkRequest(work: "b", expedited: .drop, worker: worker), policy: nil)
    system.advance(to: TraceTime(.seconds(700)))
    try system.enqueue(WorkRequest(work: "c", expedited: .drop, worker: worker), policy: nil)
    try system.enqueue(WorkRequest(work: "d", expedited: .runAsRegular, worker: worker), policy: nil)
    system.advance(to: TraceTime(.seconds(1000)))
    #expect(
      system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") } == [
        "0 work.enqueue work=a expedited=run-as-regular", "0.1 work.start work=a attempt=0",
        "240.1 work.result work=a attempt=0 outcome=success",
        // 60 s of quota left, but Android 14+ guarantees an expedited job 3 minutes
        // (DEFAULT_RUNTIME_MIN_EJ_GUARANTEE_MS): stopped at 480.1; the backoff from
        // 300 (30 s) is past, so it runs on as regular work at once.
        "300 work.enqueue work=b expedited=drop", "300.1 work.start work=b attempt=0",
        "480.1 work.stop work=b attempt=0 reason=quota", "480.2 work.start work=b attempt=1",
        // No quota left: c is dropped, d runs as regular work, each decision recorded.
        "700 work.enqueue work=c expedited=drop", "700 work.quota work=c policy=drop",
        "700 work.enqueue work=d expedited=run-as-regular", "700 work.quota work=d policy=run-as-regular",
        "700.1 work.start work=d attempt=0", "720.2 work.result work=b attempt=1 outcome=success",
        "940.1 work.result work=d attempt=0 outcome=success",
      ])
  }

  /// The active bucket's `DEFAULT_EJ_LIMIT_ACTIVE_MS` is 30 minutes: a 20-minute
  /// expedited work is not stopped by the quota (WorkManager's ten minutes stop it).
  @Test func theActiveBucketHasThirtyMinutes() throws {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.standbyBucket = .active
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launch { _ in }
    try system.enqueue(
      WorkRequest(work: "a", expedited: .drop, worker: Timed(clock: system.clock, duration: .seconds(1200))),
      policy: nil)
    system.advance(to: TraceTime(.seconds(700)))
    #expect(
      system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.stop") } == [
        "600.1 work.stop work=a attempt=0 reason=timeout"
      ])
    #expect(
      StandbyBucket.allCases.map { $0.expeditedQuota(on: AndroidRelease(15)) }
        == [2700, 1800, 1800, 600, 600, 300].map { .seconds($0) })
    #expect(StandbyBucket.exempted.expeditedQuota(on: AndroidRelease(16)) == .seconds(3600))
  }
}

/// The recorded `work.quota` is a decision a replay hands back as recorded.
@Suite struct ExpeditedQuotaReplayTests {
  /// Enqueues a 400-second expedited work named after each delivery that puts the app
  /// on the temporary allowlist, which frees no expedited time in the restricted bucket
  /// (`QuotaController.hasTempAllowlistExemptionLocked`).
  final class App: BackgroundAppDelegate {
    let queue: any WorkQueue
    let clock: VirtualClock
    init(queue: any WorkQueue, clock: VirtualClock) {
      self.queue = queue
      self.clock = clock
    }
    func handleAllowlistedDelivery(_ reason: TemporaryAllowlistReason) {
      let worker = ExpeditedWorkModelTests.Timed(clock: clock, duration: .seconds(400))
      try! queue.enqueue(WorkRequest(work: reason.rawValue, expedited: .drop, worker: worker), policy: nil)
    }
  }

  /// Past the minute's grace after the user leaves the app, an FCM message's work
  /// spends the restricted bucket's 5 minutes; an exact alarm's, later that day, is
  /// dropped.
  @Test func aDroppedRequestReplaysAlike() {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.standbyBucket = .restricted
    configuration.standbyBucketFollowsUse = false  // pinned: opening the app would make it active
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launchApp { App(queue: $0, clock: $0.clock) }
    system.moveToBackground()
    system.advance(by: .seconds(100))
    system.deliverHighPriorityMessage()
    system.advance(by: .seconds(800))
    system.deliverTemporaryAllowlist(.exactAlarm)
    system.advance(by: .seconds(100))
    #expect(system.trace.events.map(handWrittenLine(for:)).contains("900 work.quota work=exact-alarm policy=drop"))
    let replay = Replayer.replay(system.trace, timing: .exact) { App(queue: $0, clock: $0.clock) }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(replay.trace.events == system.trace.events)
  }
}

/// Before Android 12 there are no expedited jobs: androidx runs expedited work as a
/// foreground service from the worker's `getForegroundInfo()`, with no quota and no
/// ten-minute stop; a worker without one fails ("Expedited WorkRequests require a
/// Worker to provide an implementation for `getForegroundInfo()`"), in the replay too.
@Suite struct ExpeditedWorkBeforeAndroid12Tests {
  struct Upload: BackgroundWorker {
    let clock: VirtualClock
    let info: ForegroundInfo?
    func doWork(_ context: WorkContext) async -> WorkResult {
      do { try await clock.sleep(for: .seconds(900)) } catch { return .retry }
      return .success
    }
    func foregroundInfo() -> ForegroundInfo? { info }
  }

  /// Enqueues expedited work named after the action, with foreground info for `with-info`.
  static func app(_ queue: any WorkQueue, _ clock: VirtualClock) -> UserActionApp {
    UserActionApp { action in
      let info = action == "with-info" ? ForegroundInfo(type: .dataSync) : nil
      try! queue.enqueue(
        WorkRequest(work: action, expedited: .drop, worker: Upload(clock: clock, info: info)), policy: nil)
    }
  }

  @Test func anExpeditedWorkerWithoutForegroundInfoFailsOnAndroid11() {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(11)
    configuration.standbyBucket = .restricted
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launchApp { Self.app($0, $0.clock) }
    system.userAction("with-info")
    system.userAction("without-info")
    system.advance(by: .seconds(1000))
    let lines = system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") }
    #expect(
      lines == [
        "0 work.enqueue work=with-info expedited=drop", "0 work.enqueue work=without-info expedited=drop",
        "0.1 work.start work=with-info attempt=0", "0.1 work.start work=without-info attempt=0",
        "0.1 work.result work=without-info attempt=0 outcome=failure",
        // A 15-minute run: no quota (5 minutes restricted on 12+) and no ten-minute stop.
        "900.1 work.result work=with-info attempt=0 outcome=success",
      ])
    let replay = Replayer.replay(system.trace, timing: .exact) { Self.app($0, $0.clock) }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(replay.trace.events == system.trace.events)
  }
}
