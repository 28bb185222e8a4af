import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// The simulation says why a due request waits (`work.wait`, `sched.wait`), and
/// ``RequestHistory`` (`bgtrace explain --why`) reads it back as sentences. Each
/// expected trace and history below is written out by hand from the model's rules.
@Suite struct WaitReasonTests {
  /// Returns at once, successfully, after `duration` of virtual time.
  struct TimedWorker: BackgroundWorker {
    let clock: VirtualClock
    let duration: Duration
    func doWork(_ context: WorkContext) async -> WorkResult {
      try? await clock.sleep(for: duration)
      return .success
    }
  }

  private func lines(_ trace: RecordedTrace, _ prefixes: String...) -> [String] {
    trace.events.map(handWrittenLine(for:)).filter { line in
      prefixes.contains { line.split(separator: " ").dropFirst().first.map(String.init)?.hasPrefix($0) == true }
    }
  }

  /// Android, WorkManager's network constraint (androidx `ConstraintTracker`; JobScheduler
  /// `PENDING_JOB_REASON_CONSTRAINT_CONNECTIVITY` while it waits and
  /// `STOP_REASON_CONSTRAINT_CONNECTIVITY` when the network goes): offline until 600 s,
  /// a 60 s upload that loses the network 30 s in, online again at 900 s. The stop's
  /// backoff ran from the enqueue (0 + 30 s), so the work is due again at once.
  @Test func aWorkerWaitsForTheNetworkAndIsStoppedWhenItGoes() throws {
    var configuration = SimulationConfiguration()
    configuration.platform = .android
    configuration.networkAvailable = false
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    try system.enqueue(
      WorkRequest(
        work: "upload", requiresNetwork: true, worker: TimedWorker(clock: system.clock, duration: .seconds(60))),
      policy: nil)
    system.advance(to: TraceTime(seconds: 600))
    system.setEnvironment(network: true)
    system.advance(to: TraceTime(seconds: 630))
    system.setEnvironment(network: false)
    system.advance(to: TraceTime(seconds: 900))
    system.setEnvironment(network: true)
    system.advance(to: TraceTime(seconds: 1000))
    #expect(
      lines(system.trace, "work.", "env.") == [
        "0 work.enqueue work=upload needs=network",
        "0 work.wait work=upload reasons=network",
        "600 env.set network=online",
        "600 work.start work=upload attempt=0",
        "630 env.set network=offline",
        "630 work.stop work=upload attempt=0 reason=constraint",
        "630 work.wait work=upload reasons=network",
        "900 env.set network=online",
        "900 work.start work=upload attempt=1",
        "960 work.result work=upload attempt=1 outcome=success",
      ])
    let history = try #require(RequestHistory(of: "upload", in: system.trace))
    #expect(history.recordsReasons)
    #expect(
      history.lines == [
        "work upload",
        "  0s: enqueued (needs network).",
        "  0s to 600s (600s): waited: it needs a network connection of the type it asks for, and there was none.",
        "  600s: attempt 0 started.",
        "  630s: attempt 0 stopped: a constraint it needs was lost (STOP_REASON_CONSTRAINT_*).",
        "  630s to 900s (270s): waited: it needs a network connection of the type it asks for, and there was none.",
        "  900s: attempt 1 started.",
        "  960s: attempt 1 returned success.",
      ])
  }

  /// iOS, `BGProcessingTaskRequest.requiresExternalPower`: due at its earliest date
  /// (60 s), it waits on battery until the charger is plugged in at 600 s. With the
  /// immediate policy the launch needs only the background and the power.
  @Test func aProcessingRequestWaitsForPower() throws {
    var configuration = SimulationConfiguration()
    configuration.launchPolicy = .immediate
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launchApp { LaunchPolicyTests.App(scheduler: $0) }
    try system.submit(.processing("process", earliestBeginDelay: .seconds(60), requiresExternalPower: true))
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 600))
    system.setEnvironment(charging: true)
    system.advance(to: TraceTime(seconds: 700))
    #expect(
      lines(system.trace, "sched.submit", "sched.wait", "sched.launch", "sched.complete", "env.") == [
        "0 sched.submit ident=process type=processing earliest=60 power=true",
        "60 sched.wait ident=process reasons=power",
        "600 env.set charging=true",
        "600 sched.launch ident=process run=1",
        "600 sched.complete run=1 success=true",
      ])
    let history = try #require(RequestHistory(of: "process", in: system.trace))
    #expect(
      history.lines == [
        "scheduler request process",
        "  0s: submitted (processing, earliest begin date 60s, needs external power).",
        "  0s to 60s (60s): not due: its earliest begin date (60s) had not come.",
        "  60s to 600s (540s): waited: it needs external power and the device was not charging.",
        "  600s: launched as run 1.",
        "  600s: run 1 completed (success=true).",
      ])
  }

  /// A force-quit app gets no launches until the user opens it again (Apple Developer
  /// Forums, "iOS Background Execution Limits"; docs/platform-model.md). The user quits
  /// the app at 10 s; its refresh, due at 60 s, waits (`quit`) until the user opens the
  /// app at 300 s, then for the background (`foreground`), and launches when the user
  /// leaves at 310 s.
  @Test func aForceQuitAppsRequestWaitsForTheUser() throws {
    var configuration = SimulationConfiguration()
    configuration.launchPolicy = .immediate
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launchApp { LaunchPolicyTests.App(scheduler: $0) }
    try system.submit(.refresh("refresh", earliestBeginDelay: .seconds(60)))
    system.advance(to: TraceTime(seconds: 10))
    system.terminate(reason: "user")
    system.advance(to: TraceTime(seconds: 300))
    system.launchApp { LaunchPolicyTests.App(scheduler: $0) }
    system.advance(to: TraceTime(seconds: 310))
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 400))
    #expect(
      lines(system.trace, "sched.submit", "sched.wait", "sched.launch", "sched.complete") == [
        "0 sched.submit ident=refresh type=refresh earliest=60",
        "60 sched.wait ident=refresh reasons=quit",
        "300 sched.wait ident=refresh reasons=foreground",
        "310 sched.launch ident=refresh run=1",
        "310 sched.complete run=1 success=true",
      ])
    #expect(
      RequestHistory(of: "refresh", in: system.trace)?.lines.dropFirst(3).first
        == "  60s to 300s (240s): waited: the user had stopped the app (closed it from the app switcher on iOS, "
        + "force-stopped it on Android), and nothing of it runs until they open it again.")
  }

  /// `BGTaskRequest.h` (`BGProcessingTaskRequest`): the system fulfils a processing
  /// request "as long as the user has used your app within the past week". Left at
  /// 0 s, the app's request due at 8 days waits (`unused`) until the user opens the app
  /// at 9 days; in the foreground it waits for the background, and launches when the
  /// user leaves at 9 days and 10 s.
  @Test func aProcessingRequestWaitsForAUseInThePastWeek() throws {
    var configuration = SimulationConfiguration()
    configuration.launchPolicy = .immediate
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launchApp { LaunchPolicyTests.App(scheduler: $0) }
    try system.submit(.processing("process", earliestBeginDelay: .seconds(8 * 86_400)))
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 9 * 86_400))
    system.moveToForeground()
    system.advance(by: .seconds(10))
    system.moveToBackground()
    system.advance(by: .seconds(10))
    #expect(
      lines(system.trace, "sched.submit", "sched.wait", "sched.launch") == [
        "0 sched.submit ident=process type=processing earliest=691200",
        "691200 sched.wait ident=process reasons=unused",
        "777600 sched.wait ident=process reasons=foreground",
        "777610 sched.launch ident=process run=1",
      ])
    #expect(
      RequestHistory(of: "process", in: system.trace)?.lines.contains(
        "  691200s to 777600s (86400s): waited: the user had not used the app in the past week, and processing "
          + "tasks launch only for apps used in it.") == true)
  }

  /// A request opened in the foreground and left there past its earliest date waits
  /// for the background; the reasons change when the app leaves, and only then.
  @Test func theReasonsAreWrittenAgainOnlyWhenTheyChange() throws {
    let system = SimulatedSystem(seed: 1)  // realistic: launches 15 min to 8 h after the earliest date
    system.launchApp { LaunchPolicyTests.App(scheduler: $0) }
    try system.submit(.refresh("refresh", earliestBeginDelay: .seconds(60)))
    system.advance(to: TraceTime(seconds: 120))
    system.setEnvironment(network: false)  // a refresh needs no network: nothing new to say
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 200))
    #expect(
      lines(system.trace, "sched.wait", "app.state", "env.") == [
        "0 app.state to=active",
        "60 sched.wait ident=refresh reasons=foreground+scheduler",
        "120 env.set network=offline",
        "120 app.state to=inactive",
        "120 app.state to=background",
        "120 sched.wait ident=refresh reasons=scheduler",
        "123 app.state to=suspended",  // 3 s later, with nothing open
      ])
  }

  /// The work queue's own dispatch (``SimulationConfiguration/workDispatchDelay``) is no
  /// reason: work that nothing holds back starts with no `work.wait`.
  @Test func workThatNothingHoldsBackWritesNoWait() throws {
    var configuration = SimulationConfiguration()
    configuration.platform = .android
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    try system.enqueueTimed("sync", seconds: 1)
    system.advance(to: TraceTime(seconds: 10))
    #expect(lines(system.trace, "work.wait").isEmpty)
    #expect(
      RequestHistory(of: "sync", in: system.trace)?.lines == [
        "work sync", "  0s: enqueued.", "  0.1s: attempt 0 started.", "  1.1s: attempt 0 returned success.",
      ])
  }
}

/// The standby bucket's quota on regular jobs (AOSP `QuotaController.QcConstants`:
/// `DEFAULT_ALLOWED_TIME_PER_PERIOD_RARE_MS` 10 minutes per `DEFAULT_WINDOW_SIZE_RARE_MS`
/// 24 hours, `DEFAULT_IN_QUOTA_BUFFER_MS` 30 s; JobScheduler `PENDING_JOB_REASON_QUOTA`,
/// `JobParameters.STOP_REASON_QUOTA`).
@Suite struct JobQuotaTests {
  /// In the rare bucket, on battery: `first` runs 8 minutes; `second`, enqueued at
  /// 600 s with 2 minutes of quota left (more than the 30 s buffer), starts and runs its
  /// 5 minutes (a job's 10-minute guarantee, `DEFAULT_RUNTIME_MIN_GUARANTEE_MS`, whatever
  /// quota is left). That is 13 minutes used: `third`, enqueued at 1000 s, waits until
  /// the use is down to 9.5 minutes, when 210 s of the first run (0.1–480.1 s) have aged
  /// out of the 24 hours: 86400.1 + 210 = 86610.1 s.
  @Test func aRareAppsWorkWaitsForItsQuota() throws {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.standbyBucket = .rare
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    try system.enqueueTimed("first", seconds: 480)
    system.advance(to: TraceTime(seconds: 600))
    try system.enqueueTimed("second", seconds: 300)
    system.advance(to: TraceTime(seconds: 1000))
    try system.enqueueTimed("third", seconds: 60)
    system.advance(to: TraceTime(seconds: 90_000))
    #expect(
      system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") } == [
        "0 work.enqueue work=first",
        "0.1 work.start work=first attempt=0",
        "480.1 work.result work=first attempt=0 outcome=success",
        "600 work.enqueue work=second",
        "600.1 work.start work=second attempt=0",
        "900.1 work.result work=second attempt=0 outcome=success",
        "1000 work.enqueue work=third",
        "1000 work.wait work=third reasons=quota",
        "86610.1 work.start work=third attempt=0",
        "86670.1 work.result work=third attempt=0 outcome=success",
      ])
    #expect(TraceChecker.check(system.trace).isEmpty)
    #expect(
      RequestHistory(of: "third", in: system.trace)?.lines == [
        "work third",
        "  1000s: enqueued.",
        "  1000s to 86610.1s (85610.1s): waited: the app had spent the job quota of its standby bucket (rare since 0s).",
        "  86610.1s: attempt 0 started.",
        "  86670.1s: attempt 0 returned success.",
      ])
  }

  /// From Android 14 a regular job runs up to 30 minutes while the device charges
  /// (`DEFAULT_RUNTIME_FREE_QUOTA_MAX_LIMIT_MS`), 10 on battery in a bucket whose quota
  /// limits it (`DEFAULT_RUNTIME_MIN_GUARANTEE_MS`; here `working_set`, pinned); before
  /// 14, 10 either way. (`JobRuntimeLimitTests` has the other cases.)
  @Test func onTheChargerAJobRunsThirtyMinutes() throws {
    func run(charging: Bool, release: Int) throws -> [String] {
      var configuration = SimulationConfiguration(platform: .android)
      configuration.charging = charging
      configuration.androidRelease = AndroidRelease(release)
      configuration.standbyBucket = .workingSet
      configuration.standbyBucketFollowsUse = false
      let system = SimulatedSystem(seed: 1, configuration: configuration)
      try system.enqueueTimed("long", seconds: 1200)
      system.advance(to: TraceTime(seconds: 1300))
      return system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") }.prefix(3).map { $0 }
    }
    #expect(
      try run(charging: true, release: 16) == [
        "0 work.enqueue work=long", "0.1 work.start work=long attempt=0",
        "1200.1 work.result work=long attempt=0 outcome=success",
      ])
    #expect(
      try run(charging: false, release: 16) == [
        "0 work.enqueue work=long", "0.1 work.start work=long attempt=0",
        "600.1 work.stop work=long attempt=0 reason=timeout",
      ])
    #expect(
      try run(charging: true, release: 13) == [
        "0 work.enqueue work=long", "0.1 work.start work=long attempt=0",
        "600.1 work.stop work=long attempt=0 reason=timeout",
      ])
  }

  /// `QuotaController.isQuotaFreeLocked`: while charging, jobs outside the restricted
  /// bucket are not held by the quota; the same run on the charger is never stopped.
  @Test func onTheChargerTheRareBucketsJobsAreNotLimited() throws {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.standbyBucket = .rare
    configuration.charging = true
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    try system.enqueueTimed("first", seconds: 480)
    system.advance(to: TraceTime(seconds: 600))
    try system.enqueueTimed("second", seconds: 300)
    system.advance(to: TraceTime(seconds: 1000))
    #expect(
      system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") }.suffix(2) == [
        "600.1 work.start work=second attempt=0",
        "900.1 work.result work=second attempt=0 outcome=success",
      ])
  }

  /// The `active` bucket's window is its quota (10 minutes): its jobs are not limited by
  /// it (only by the 4 hours a day every bucket has, `JobLimitTests`).
  @Test func theActiveBucketsJobsAreNotLimited() throws {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    try system.enqueueTimed("long", seconds: 540)
    system.advance(to: TraceTime(seconds: 600))
    try system.enqueueTimed("next", seconds: 540)
    system.advance(to: TraceTime(seconds: 1200))
    #expect(
      system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") }.suffix(2) == [
        "600.1 work.start work=next attempt=0",
        "1140.1 work.result work=next attempt=0 outcome=success",
      ])
  }
}

/// Doze (AOSP `DeviceIdleController.Constants`: `DEFAULT_LIGHT_IDLE_AFTER_INACTIVE_TIMEOUT`
/// 1 min, `DEFAULT_LIGHT_IDLE_TIMEOUT` 5 min, `DEFAULT_LIGHT_IDLE_MAINTENANCE_MIN_BUDGET`
/// 1 min, `DEFAULT_INACTIVE_TIMEOUT` + `DEFAULT_IDLE_AFTER_INACTIVE_TIMEOUT` 60 min,
/// `DEFAULT_IDLE_TIMEOUT` 1 h, `DEFAULT_IDLE_PENDING_TIMEOUT` 5 min): `DeviceIdleJobsController`
/// defers regular jobs in light and deep idle and lets them run in maintenance windows.
@Suite struct DozeTests {
  private func lines(_ system: SimulatedSystem) -> [String] {
    system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") || $0.contains(" env.set") }
  }

  private func android() -> SimulatedSystem {
    SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
  }

  /// Screen off on battery at 0: light idle from 60 s to 360 s. Work enqueued at 120 s
  /// waits for the maintenance window at 360 s, and runs in it.
  @Test func workEnqueuedInLightDozeWaitsForTheMaintenanceWindow() throws {
    let system = android()
    system.setDeviceState(screenOn: false)
    system.advance(to: TraceTime(seconds: 120))
    try system.enqueueTimed("sync", seconds: 30)
    system.advance(to: TraceTime(seconds: 400))
    #expect(
      lines(system) == [
        "0 env.set screen=off",
        "60 env.set doze=light",
        "120 work.enqueue work=sync",
        "120 work.wait work=sync reasons=doze",
        "360 env.set doze=light-maintenance",
        "360 work.start work=sync attempt=0",
        "390 work.result work=sync attempt=0 outcome=success",
      ])
    #expect(
      RequestHistory(of: "sync", in: system.trace)?.lines == [
        "work sync",
        "  120s: enqueued.",
        "  120s to 360s (240s): waited: the device was in Doze, and jobs wait for its next maintenance window.",
        "  360s: attempt 0 started.",
        "  390s: attempt 0 returned success.",
      ])
  }

  /// A job running when light idle begins is stopped (STOP_REASON_DEVICE_STATE); its
  /// backoff (30 s from the enqueue) has passed, so it waits only for the window, and
  /// the one-minute window stops it again.
  @Test func aRunningJobIsStoppedWhenTheDeviceDozes() throws {
    let system = android()
    system.setDeviceState(screenOn: false)
    try system.enqueueTimed("sync", seconds: 100)
    system.advance(to: TraceTime(seconds: 430))
    #expect(
      lines(system) == [
        "0 env.set screen=off",
        "0 work.enqueue work=sync",
        "0.1 work.start work=sync attempt=0",
        "60 env.set doze=light",
        "60 work.stop work=sync attempt=0 reason=doze",
        "60 work.wait work=sync reasons=doze",
        "360 env.set doze=light-maintenance",
        "360 work.start work=sync attempt=1",
        "420 env.set doze=light",
        "420 work.stop work=sync attempt=1 reason=doze",
        "420 work.wait work=sync reasons=doze",
      ])
    // The second stop in a row is the policy's visible mistake (docs/rules.md).
    #expect(TraceChecker.check(system.trace).map(\.rule) == [.workOutlastsDozeWindow])
  }

  /// A device with its screen off and lying still from 0 s, deep idle from 3600 s, and
  /// work of 30 s enqueued at 3700 s.
  private func deepDozingWithWork() throws -> SimulatedSystem {
    let system = android()
    system.setDeviceState(screenOn: false, stationary: true)
    system.advance(to: TraceTime(seconds: 3700))
    try system.enqueueTimed("sync", seconds: 30)
    return system
  }

  /// Stationary too: deep idle from 3600 s (light Doze until then) to 7200 s, then a
  /// 5-minute maintenance window. Work enqueued at 3700 s runs at 7200 s.
  @Test func inDeepDozeWorkWaitsAnHour() throws {
    let system = try deepDozingWithWork()
    system.advance(to: TraceTime(seconds: 7300))
    let shown = lines(system).filter { !$0.contains("doze=light") }
    #expect(
      shown == [
        "0 env.set screen=off stationary=true",
        "3600 env.set doze=deep",
        "3700 work.enqueue work=sync",
        "3700 work.wait work=sync reasons=doze",
        "7200 env.set doze=deep-maintenance",
        "7200 work.start work=sync attempt=0",
        "7230 work.result work=sync attempt=0 outcome=success",
      ])
  }

  /// Motion in deep idle (AOSP `DeviceIdleController.handleMotionDetectedLocked`): the
  /// device becomes active and at once inactive again (`becomeActiveLocked`, then
  /// `becomeInactiveIfAppropriateLocked`), and light idle, which deep idle overrode
  /// (`LIGHT_STATE_OVERRIDE`), starts over `LIGHT_IDLE_AFTER_INACTIVE_TIMEOUT` (60 s)
  /// later. The work deep idle held runs at the motion; deep idle needs the device
  /// stationary again.
  @Test func motionEndsDeepDozeAndLightDozeStartsOver() throws {
    let system = try deepDozingWithWork()
    system.advance(to: TraceTime(seconds: 4000))
    system.setDeviceState(stationary: false)
    system.advance(to: TraceTime(seconds: 4100))
    #expect(
      lines(system).filter { Double($0.prefix { $0 != " " })! >= 3600 } == [
        "3600 env.set doze=deep",
        "3700 work.enqueue work=sync",
        "3700 work.wait work=sync reasons=doze",
        "4000 env.set stationary=false",
        "4000 env.set doze=off",
        "4000 work.start work=sync attempt=0",
        "4030 work.result work=sync attempt=0 outcome=success",
        "4060 env.set doze=light",
      ])
  }

  /// The near miss: motion in light idle leaves light idle as it is ("Motion shouldn't
  /// affect light state"): its maintenance window still comes at 360 s.
  @Test func motionInLightDozeChangesNothing() throws {
    let system = android()
    system.setDeviceState(screenOn: false, stationary: true)
    system.advance(to: TraceTime(seconds: 200))
    system.setDeviceState(stationary: false)
    system.advance(to: TraceTime(seconds: 400))
    #expect(
      lines(system) == [
        "0 env.set screen=off stationary=true", "60 env.set doze=light", "200 env.set stationary=false",
        "360 env.set doze=light-maintenance",
      ])
  }

  /// Plugging in ends Doze at once, and the waiting work starts.
  @Test func theChargerEndsDoze() throws {
    let system = android()
    system.setDeviceState(screenOn: false)
    system.advance(to: TraceTime(seconds: 120))
    try system.enqueueTimed("sync", seconds: 30)
    system.advance(to: TraceTime(seconds: 200))
    system.setEnvironment(charging: true)
    system.advance(to: TraceTime(seconds: 300))
    #expect(
      lines(system).suffix(4) == [
        "200 env.set charging=true",
        "200 env.set doze=off",
        "200 work.start work=sync attempt=0",
        "230 work.result work=sync attempt=0 outcome=success",
      ])
  }
}

extension SimulatedSystem {
  /// Enqueues the work `work`, whose worker returns success after `seconds` of virtual time.
  fileprivate func enqueueTimed(_ work: String, seconds: Int64) throws {
    try enqueue(
      WorkRequest(work: work, worker: WaitReasonTests.TimedWorker(clock: clock, duration: .seconds(seconds))),
      policy: nil)
  }
}
