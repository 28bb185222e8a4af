import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// WorkManager's constraints beyond the network and the charger, each waited for, and
/// stopped for when lost, as JobScheduler decides it on the device; each test cites the
/// AOSP or androidx source of what it holds. Expected lines are worked out by hand: work
/// due at an instant starts 0.1 s later; work that was waiting starts at the instant its
/// constraint is met.
@Suite struct WorkConstraintTests {
  private func system(_ configure: (inout SimulationConfiguration) -> Void = { _ in }) -> SimulatedSystem {
    var configuration = SimulationConfiguration(platform: .android)
    configure(&configuration)
    return SimulatedSystem(seed: 1, configuration: configuration)
  }

  private func lines(_ system: SimulatedSystem) -> [String] {
    system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") || $0.contains(" env.set") }
  }

  /// AOSP `BatteryService.processValuesLocked`: unplugged at or below
  /// `config_lowBatteryWarningLevel` (15 %) the battery is low, and JobScheduler's
  /// `BatteryStateTracker` (`JobSchedulerService.java`) flips battery-not-low only on
  /// `ACTION_BATTERY_LOW` and `ACTION_BATTERY_OKAY`, which comes at 15 % +
  /// `config_lowBatteryCloseWarningBump` (20 %): plugging in does not end it.
  @Test func batteryNotLowWaitsUntilTheBatteryIsOkayAgain() throws {
    let system = system { $0.batteryLevel = 14 }
    try system.enqueue(
      WorkRequest(
        work: "backup", requiresBatteryNotLow: true, worker: TimedWorker(clock: system.clock, duration: .seconds(60))),
      policy: nil)
    system.advance(to: TraceTime(seconds: 100))
    system.setEnvironment(charging: true)
    system.advance(to: TraceTime(seconds: 200))
    system.setEnvironment(batteryLevel: 19)
    system.advance(to: TraceTime(seconds: 300))
    system.setEnvironment(batteryLevel: 20)
    system.advance(to: TraceTime(seconds: 400))
    #expect(
      lines(system) == [
        "0 work.enqueue work=backup needs=battery-not-low",
        "0 work.wait work=backup reasons=battery",
        "100 env.set charging=true",
        "200 env.set battery=19",
        "300 env.set battery=20",
        "300 work.start work=backup attempt=0",
        "360 work.result work=backup attempt=0 outcome=success",
      ])
  }

  /// The battery falling to 15 % unplugged stops a running worker that needs it not low:
  /// `STOP_REASON_CONSTRAINT_BATTERY_NOT_LOW` (5, androidx `WorkInfo.kt`).
  @Test func aLowBatteryStopsTheWorker() throws {
    let system = system { $0.batteryLevel = 16 }
    try system.enqueue(
      WorkRequest(
        work: "backup", requiresBatteryNotLow: true, worker: TimedWorker(clock: system.clock, duration: .seconds(60))),
      policy: nil)
    system.advance(to: TraceTime(seconds: 10))
    system.setEnvironment(batteryLevel: 15)
    system.advance(to: TraceTime(seconds: 40))
    // The stopped attempt's backoff runs from the enqueue (androidx keeps
    // lastEnqueueTime): due again at 30 s, when it starts to wait for the battery.
    #expect(
      lines(system) == [
        "0 work.enqueue work=backup needs=battery-not-low",
        "0.1 work.start work=backup attempt=0",
        "10 env.set battery=15",
        "10 work.stop work=backup attempt=0 reason=constraint",
        "30 work.wait work=backup reasons=battery",
      ])
    let info = try #require(system.workInfos(forUniqueWork: "backup").first)
    #expect(info.stopReason == .constraintBatteryNotLow && info.stopReason.code == 5)
    #expect(info.state == .enqueued && info.runAttemptCount == 1)
  }

  /// AOSP `BatteryController`: the charging constraint asks for "stable power",
  /// `isBatteryCharging() && isBatteryNotLow()`: on the charger with a low battery, work
  /// that needs charging waits for the battery.
  @Test func chargingOnALowBatteryIsNotStablePower() throws {
    let system = system {
      $0.batteryLevel = 10
      $0.charging = false
    }
    system.setEnvironment(charging: true)
    try system.enqueue(
      WorkRequest(
        work: "sync", requiresCharging: true, worker: TimedWorker(clock: system.clock, duration: .seconds(60))),
      policy: nil)
    system.advance(to: TraceTime(seconds: 100))
    system.setEnvironment(batteryLevel: 25)
    system.advance(to: TraceTime(seconds: 200))
    #expect(
      lines(system) == [
        "0 env.set charging=true",
        "0 work.enqueue work=sync needs=charging",
        "0 work.wait work=sync reasons=battery",
        "100 env.set battery=25",
        "100 work.start work=sync attempt=0",
        "160 work.result work=sync attempt=0 outcome=success",
      ])
  }

  /// AOSP `StorageController`: storage-not-low follows `ACTION_DEVICE_STORAGE_LOW` and
  /// `_OK`; low storage stops the worker with `STOP_REASON_CONSTRAINT_STORAGE_NOT_LOW` (9).
  @Test func lowStorageHoldsAndStopsTheWorker() throws {
    let system = system { $0.storageLow = true }
    try system.enqueue(
      WorkRequest(
        work: "cache", requiresStorageNotLow: true, worker: TimedWorker(clock: system.clock, duration: .seconds(60))),
      policy: nil)
    system.advance(to: TraceTime(seconds: 50))
    system.setEnvironment(storageLow: false)
    system.advance(to: TraceTime(seconds: 70))
    system.setEnvironment(storageLow: true)
    #expect(
      lines(system) == [
        "0 work.enqueue work=cache needs=storage-not-low",
        "0 work.wait work=cache reasons=storage",
        "50 env.set storage=ok",
        "50 work.start work=cache attempt=0",
        "70 env.set storage=low",
        "70 work.stop work=cache attempt=0 reason=constraint",
        "70 work.wait work=cache reasons=storage",
      ])
    #expect(system.workInfos(forUniqueWork: "cache").first?.stopReason.code == 9)
  }

  /// AOSP `DeviceIdlenessTracker`: the device is idle for jobs 31 minutes
  /// (`config_jobSchedulerInactivityIdleThreshold`, 1,860,000 ms) after the screen goes
  /// off, and the screen coming on ends it: `STOP_REASON_CONSTRAINT_DEVICE_IDLE` (8). On
  /// the charger, so that Doze stays out of it.
  @Test func deviceIdleWaitsThirtyOneMinutesAfterTheScreenGoesOff() throws {
    let system = system { $0.charging = true }
    try system.enqueue(
      WorkRequest(
        work: "index", requiresDeviceIdle: true, worker: TimedWorker(clock: system.clock, duration: .seconds(600))),
      policy: nil)
    system.advance(to: TraceTime(seconds: 100))
    system.setDeviceState(screenOn: false)
    system.advance(to: TraceTime(seconds: 2000))
    system.setDeviceState(screenOn: true)
    #expect(
      lines(system) == [
        "0 work.enqueue work=index needs=device-idle",
        "0 work.wait work=index reasons=device-idle",
        "100 env.set screen=off",
        "1960 work.start work=index attempt=0",
        "2000 env.set screen=on",
        "2000 work.stop work=index attempt=0 reason=constraint",
        "2000 work.wait work=index reasons=device-idle",
      ])
    #expect(system.workInfos(forUniqueWork: "index").first?.stopReason == .constraintDeviceIdle)
  }

  /// androidx `NetworkType`: `UNMETERED` waits on cellular data and runs on Wi-Fi;
  /// `METERED` the other way round; `NOT_ROAMING` waits while roaming.
  @Test func networkTypesWaitForTheirNetwork() throws {
    let system = system {
      $0.networkMetered = true
      $0.networkRoaming = true
    }
    let worker = TimedWorker(clock: system.clock, duration: .seconds(5))
    try system.enqueue(WorkRequest(work: "photos", requiredNetworkType: .unmetered, worker: worker), policy: nil)
    try system.enqueue(WorkRequest(work: "ping", requiredNetworkType: .metered, worker: worker), policy: nil)
    try system.enqueue(WorkRequest(work: "feed", requiredNetworkType: .notRoaming, worker: worker), policy: nil)
    system.advance(to: TraceTime(seconds: 10))
    system.setEnvironment(metered: false, roaming: false)
    system.advance(to: TraceTime(seconds: 20))
    #expect(
      lines(system) == [
        "0 work.enqueue work=photos needs=unmetered",
        "0 work.enqueue work=ping needs=metered",
        "0 work.enqueue work=feed needs=not-roaming",
        "0 work.wait work=photos reasons=network",
        "0 work.wait work=feed reasons=network",
        "0.1 work.start work=ping attempt=0",
        "5.1 work.result work=ping attempt=0 outcome=success",
        "10 env.set metered=false roaming=false",
        "10 work.start work=photos attempt=0",
        "10 work.start work=feed attempt=0",
        "15 work.result work=photos attempt=0 outcome=success",
        "15 work.result work=feed attempt=0 outcome=success",
      ])
  }

  /// androidx `WorkRequest.Builder.build()`: expedited work takes "only network and
  /// storage constraints"; battery-not-low and device-idle are refused, storage-not-low
  /// and a network type are not.
  @Test func expeditedWorkTakesOnlyNetworkAndStorageConstraints() throws {
    let system = system()
    let worker = TimedWorker(clock: system.clock, duration: .seconds(60))
    #expect(throws: WorkRequestError(.expeditedConstraints, work: "a")) {
      try system.enqueue(
        WorkRequest(work: "a", expedited: .drop, requiresBatteryNotLow: true, worker: worker), policy: nil)
    }
    #expect(throws: WorkRequestError(.expeditedConstraints, work: "b")) {
      try system.enqueue(
        WorkRequest(work: "b", expedited: .drop, requiresDeviceIdle: true, worker: worker), policy: nil)
    }
    try system.enqueue(
      WorkRequest(
        work: "c", expedited: .drop, requiredNetworkType: .unmetered, requiresStorageNotLow: true, worker: worker),
      policy: nil)
    #expect(system.workInfos(forUniqueWork: "c").count == 1)
  }

  /// AOSP `JobStatus`: a restricted app's regular job is ready within its quota *or*
  /// with `DYNAMIC_RESTRICTED_CONSTRAINTS` met (battery not low, charging, idle, and
  /// for a job that needs a network, connectivity, which out of quota must be unmetered:
  /// `ConnectivityController.isStrictSatisfied`); losing one it did not ask for stops
  /// it with `STOP_REASON_APP_STANDBY` (12, `constraintToStopReason`). The first job
  /// leaves 10 s of the 10-minute quota, under the 30 s in-quota buffer; the second
  /// runs once the device is charging and idle (31 minutes after the screen goes off);
  /// the third also waits for Wi-Fi, and stops when the charger comes out. The waits
  /// name the reasons `getPendingJobReasons` gives: `PENDING_JOB_REASON_QUOTA`, and
  /// `PENDING_JOB_REASON_APP_STANDBY` (`standby`) for the unmet terms the job did not
  /// ask for, but connectivity (`network`) for the unmetered network.
  @Test func aRestrictedAppsJobRunsOutsideItsQuotaOnlyOnTheRestrictedTerms() throws {
    let system = system {
      $0.standbyBucket = .restricted
      $0.networkMetered = true
    }
    func enqueue(_ work: String, seconds: Int64, network: Bool = false) throws {
      try system.enqueue(
        WorkRequest(
          work: work, requiresNetwork: network, worker: TimedWorker(clock: system.clock, duration: .seconds(seconds))),
        policy: nil)
    }
    try enqueue("first", seconds: 590)
    system.advance(to: TraceTime(seconds: 1000))
    try enqueue("second", seconds: 300)
    system.advance(to: TraceTime(seconds: 2000))
    system.setEnvironment(charging: true)
    system.advance(to: TraceTime(seconds: 2100))
    system.setDeviceState(screenOn: false)
    system.advance(to: TraceTime(seconds: 5000))
    try enqueue("third", seconds: 300, network: true)
    system.advance(to: TraceTime(seconds: 5500))
    system.setEnvironment(metered: false)
    system.advance(to: TraceTime(seconds: 5600))
    system.setEnvironment(charging: false)
    #expect(
      lines(system).filter { $0.contains(" work.") } == [
        "0 work.enqueue work=first",
        "0.1 work.start work=first attempt=0",
        "590.1 work.result work=first attempt=0 outcome=success",
        "1000 work.enqueue work=second",
        "1000 work.wait work=second reasons=quota+standby",
        "3960 work.start work=second attempt=0",
        "4260 work.result work=second attempt=0 outcome=success",
        "5000 work.enqueue work=third needs=network",
        "5000 work.wait work=third reasons=network+quota",
        "5500 work.start work=third attempt=0",
        "5600 work.stop work=third attempt=0 reason=standby",
        "5600 work.wait work=third reasons=quota+standby",
      ])
    let third = try #require(system.workInfos(forUniqueWork: "third").first)
    #expect(third.stopReason == .appStandby && third.stopReason.code == 12)
  }

  /// AOSP `QuotaController`: the rare bucket's 10 minutes per 24 hours hold a periodic
  /// sync of 9-minute runs every 15 minutes. Run 1 (0.1 s to 540.1 s) leaves 60 s of
  /// quota, so run 2 starts at 1440.2 s and runs 540 s more; run 3, due at 2880.2 s,
  /// waits until the first run's time ages out of the window far enough to leave the 30 s
  /// in-quota buffer, at 86910.1 s, and `work-period-outpaced` reports it there.
  @Test func aRareAppsPeriodicSyncCannotKeepItsPeriod() throws {
    let system = system { $0.standbyBucket = .rare }
    try system.enqueue(
      WorkRequest(
        work: "sync", period: .seconds(900), worker: TimedWorker(clock: system.clock, duration: .seconds(540))),
      policy: nil)
    system.advance(to: TraceTime(seconds: 87_000))
    let starts = lines(system).filter { $0.contains(" work.start ") }
    #expect(
      starts == [
        "0.1 work.start work=sync attempt=0", "1440.2 work.start work=sync attempt=0",
        "86910.1 work.start work=sync attempt=0",
      ])
    let findings = TraceChecker.check(system.trace)
    #expect(findings.map(\.rule) == [.workPeriodOutpaced])
    #expect(
      findings.first?.message.hasPrefix(
        "periodic work sync (every 900s) waited 84029.9s for its standby bucket's job quota") == true)
  }

  /// Android 16 counts the jobs of an app running a foreground service against its
  /// quota (AOSP flag `enforce_quota_policy_to_fgs_jobs`); before 16 they ran free
  /// (`QuotaForegroundTests`). With a player in the foreground and its quota spent, a
  /// rare app's second job waits.
  @Test func aForegroundServiceDoesNotFreeTheJobQuota() throws {
    let system = system {
      $0.standbyBucket = .rare
      $0.standbyBucketFollowsUse = false  // pinned: opening the app would make it active
    }
    system.launch { _ in }
    try system.startForegroundService("player", MediaPlayer())
    system.moveToBackground()
    try system.enqueue(
      WorkRequest(work: "first", worker: TimedWorker(clock: system.clock, duration: .seconds(590))), policy: nil)
    system.advance(to: TraceTime(seconds: 1000))
    try system.enqueue(
      WorkRequest(work: "second", worker: TimedWorker(clock: system.clock, duration: .seconds(60))), policy: nil)
    system.advance(to: TraceTime(seconds: 2000))
    #expect(
      lines(system).filter { $0.contains(" work.") } == [
        "0 work.enqueue work=first", "0.1 work.start work=first attempt=0",
        "590.1 work.result work=first attempt=0 outcome=success", "1000 work.enqueue work=second",
        "1000 work.wait work=second reasons=quota",
      ])
  }
}
