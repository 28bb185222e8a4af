public import BackgroundTrace

/// An iPhone's or an Android device's background execution, simulated on a virtual
/// clock and recorded into a trace: UIKit background tasks, BGTaskScheduler and an
/// in-process work queue on iOS; WorkManager on Android (``SimulatedPlatform``).
///
/// App code written against ``/BackgroundTrace/BackgroundTaskHost``, ``/BackgroundTrace/TaskScheduling`` and
/// ``/BackgroundTrace/WorkQueue`` runs against the system as it would against a device, while the test
/// drives the app's life: launch, background, foreground, time passing, terminations,
/// network changes and the faults of a ``FaultPlan``. Every call and every system
/// decision lands in ``trace``. The same seed gives the same trace, byte for byte.
///
/// ```swift
/// let system = SimulatedSystem(seed: 7)
/// system.launch { system in app.didFinishLaunching(scheduler: system) }
/// system.moveToBackground()
/// system.advance(by: .seconds(60))
/// let findings = TraceChecker.check(system.trace)
/// ```
///
/// The system is single-threaded: call it from the thread that drives it. Async
/// workers run as tasks on its scheduler's executor, on that same thread.
public final class SimulatedSystem: @unchecked Sendable {
  /// The virtual-time scheduler everything runs on.
  public let scheduler: VirtualTimeScheduler
  /// The simulation's configuration.
  public let configuration: SimulationConfiguration
  /// The faults it injects.
  public let faults: FaultPlan
  /// The recorder that holds the trace.
  public let recorder: TraceRecorder

  var random: SplitMix64
  var faultRandom: SplitMix64
  /// When set, every random decision draws from it instead of the generators.
  var choices: Choices?
  /// The app's own random choices (``appChoices``).
  let appChoiceStream: Choices

  // The app's process.
  var appEntry: ((SimulatedSystem) -> Void)?
  var appDelegate: (any BackgroundAppDelegate)?
  var processRunning = false
  var launching = false
  var appState: AppLifecycleState?
  var backgroundSince: TraceTime?
  var suspensionTimer: VirtualTimeScheduler.TimerID?
  var expirationTimer: VirtualTimeScheduler.TimerID?
  var watchdogTimer: VirtualTimeScheduler.TimerID?

  // UIKit tasks of the current process.
  var nextTaskID = 1
  var openTasks: [Int: OpenTask] = [:]

  // The scheduler (requests persist across processes; handlers do not).
  var launchHandlers: [String: LaunchRegistration] = [:]
  var pendingRequests: [String: PendingRequest] = [:]
  var runningTasks: [Int: SchedulerRun] = [:]
  var nextRun = 1
  /// The next continued-processing request's place in the queue.
  var nextQueued = 0
  /// The user quit the app (`app.terminate reason=user`) and has not opened it since:
  /// iOS launches no scheduled tasks for it until then.
  var quitByUser = false

  /// Why the app crashed, one line per `app.terminate reason=crash`, in order: the
  /// exception or trap iOS would report ("No launch handler registered for task with
  /// identifier refresh").
  public internal(set) var crashReports: [String] = []
  /// The process crashed inside a call of the app's: the app code that made it cannot be
  /// unwound, so until the next process starts its calls change and record nothing.
  var unwindingCrash = false

  // Work persists across processes.
  var works: [String: WorkItem] = [:]
  /// The works blocked on each unfinished prerequisite (``WorkContinuation``), by the
  /// prerequisite's id.
  var workDependents: [String: [String]] = [:]
  /// The works of their own enqueued under each unique name
  /// (``/BackgroundTrace/WorkRequest/uniqueName``), in order, until a policy deletes them.
  var uniqueWorks: [String: [String]] = [:]
  /// Android: the device rebooted (``reboot(downtime:)``) or the user force-stopped the
  /// app (``forceStop()``), and no process of the app has run since, so WorkManager has
  /// not scheduled its work again.
  var workAwaitsReschedule = false
  /// Android: the user force-stopped the app (``forceStop()``) and has not opened it
  /// since: it is in the stopped state, and nothing but the user starts it.
  var forceStopped = false
  /// Android: the user has restricted the app's background use
  /// (``setBackgroundRestricted(_:)``).
  var backgroundRestricted = false
  /// Android: until when the app's uid stays active after it left the foreground
  /// (``SimulationConfiguration/backgroundSettleTime``).
  var uidActiveUntil: TraceTime?
  /// The reasons last recorded (`sched.wait`, `work.wait`) for each request still waiting.
  var recordedWaits: [WaitingRequest: Set<WaitReason>] = [:]
  /// The file locks the running process holds, by path: whether each file is in a
  /// shared container.
  var heldFileLocks: [String: Bool] = [:]
  /// How many requests the queue has taken, to number each (``WorkItem/request``'s
  /// identity, as androidx's request id: a late call of a replaced request's worker
  /// never reaches its replacement).
  var workRequestCount = 0
  /// Draws the ids of requests enqueued without one (``/BackgroundTrace/WorkRequest/id``):
  /// a stream of its own, so ids change no other choice.
  var workIDRandom: SplitMix64
  /// Requests no longer in ``works`` that WorkManager still holds: finished work that
  /// appended work took the place of, and appended work failed or cancelled with what
  /// it was appended to (``pruneWork()`` drops them).
  var retiredWorks: [WorkItem] = []
  /// The requests whose WorkInfo a test watches (``watchWorkInfo(id:)``).
  var workInfoWatches: [WorkInfoChanges] = []
  /// Whether the watched WorkInfos are to be read once the current step has run.
  var workInfoReadPending = false
  /// The expedited quota used in the current 24 hours (Android).
  var expeditedBudget = RollingBudget()
  /// Until when the app's expedited time is free after it left the top
  /// (``ExpeditedQuotaExemption/topAppGrace``).
  var topGraceEnd: TraceTime?
  /// The next moment a grace of ``ExpeditedQuotaExemption`` ends while expedited work
  /// runs free, when its time starts to be charged.
  var expeditedRevision: VirtualTimeScheduler.TimerID?
  /// The regular jobs' execution quota of the app's standby bucket.
  var jobBudget: RollingBudget
  /// Since when regular jobs have been running, without a break: QuotaController's
  /// timing session, charged to ``jobBudget`` when the last of them ends.
  var jobSessionSince: TraceTime?
  /// When the app's regular jobs started in the last 24 hours, oldest first: the job
  /// counts' record (``StandbyBucket/jobCountLimit``, ``SimulationConfiguration/jobRateLimit``).
  var jobStarts: [TraceTime] = []
  /// When the app's last regular job started (Android 9's standby deferral counts
  /// heartbeats from it, ``standbyHeartbeatsRelease``).
  var lastJobStart: TraceTime?
  /// Whether the screen is on (Android; ``setDeviceState(screenOn:stationary:)``).
  var screenOn: Bool
  /// Since when the device has lain still, or `nil` while it moves.
  var stationarySince: TraceTime?
  /// Since when the screen has been off and the device unplugged: the way into Doze.
  var inactiveSince: TraceTime?
  /// Where the device is in Doze.
  var dozePhase = DozePhase.awake
  /// The timer of the next Doze phase change.
  var dozeTimer: VirtualTimeScheduler.TimerID?
  /// When an alarm clock last made the dozing device active (``AlarmPolicy/deviceIdleFuzz``),
  /// and the alarm clock's time: the way into Doze starts again from then.
  var alarmClockWake: (at: TraceTime, alarmClock: TraceTime)?
  /// The timer that starts waiting work when the job quota is back.
  var jobQuotaRecheck: VirtualTimeScheduler.TimerID?
  /// The ids of work enqueued without a unique name (``/BackgroundTrace/WorkQueue/enqueue(_:)``).
  public let workIDs = WorkIDs()
  var workOrder: [String] = []
  /// Each work's place in ``workOrder``.
  var workPosition: [String: Int] = [:]
  /// The works not finished, in ``workOrder``'s order: what can wait.
  var unfinishedWorks: [String] = []

  // Background URL sessions: transfers run out of process and outlive it; the
  // sessions (their delegates) belong to the process that created them.
  var transfers: [SimulatedTransfer] = []
  var sessionDelegates: [String: any BackgroundSessionDelegate] = [:]
  var transferCounters: [String: Int] = [:]
  /// The resume rate limiter's delay (``SimulationConfiguration/transferResumeDelay``):
  /// zero until the first wake of the app for a session, and its reset timer.
  var transferRequestDelay = Duration.zero
  var transferDelayReset: VirtualTimeScheduler.TimerID?
  /// Sessions whose wake is in progress, with the wake's number: their events go to the
  /// delegate once the app creates the session, and the app stays awake until it calls
  /// that wake's handler. The number keeps an earlier wake's handler or background time
  /// from ending a later wake of the same session.
  var wokenSessions: [String: Int] = [:]
  /// The wakes so far, to number them.
  var wakeCount = 0
  /// Woken sessions whose `urlSessionDidFinishEvents` is still to come.
  var eventsOwed: Set<String> = []
  /// Sessions the system is launching or resuming the app for: their results wait.
  var wakingSessions: Set<String> = []
  /// Woken sessions whose events are being delivered: the timer of the next one.
  var deliveries: [String: VirtualTimeScheduler.TimerID] = [:]
  /// The SwiftUI-style URL-session actions the current process registered
  /// (``BackgroundTransfers/backgroundTask(_:action:)``).
  let sessionActions = SessionActions()
  /// The task running a wake's SwiftUI-style actions, by the wake's number, until they
  /// return: the wake's time running out cancels it.
  var sessionActionTasks: [Int: Task<Void, Never>] = [:]

  // Android's foreground services: the running ones belong to the process; the
  // budgets of the types with a daily limit outlive it.
  var services: [String: SimulatedService] = [:]
  var serviceBudgets: [ForegroundServiceType: RollingBudget] = [:]
  /// When the app last left the foreground for the background (the grace for starting
  /// a foreground service after).
  var leftForegroundAt: TraceTime?
  /// Since when the app is on top (`active`), for the expedited quota's rewards.
  var onTopSince: TraceTime?
  /// Until when the app is on the temporary allowlist (`app.allowlist`), by the reason
  /// of the delivery: it may start foreground services from the background until then
  /// (`BOOT_COMPLETED` allows fewer types from Android 15, and only a tapped notification
  /// lends the while-in-use permissions). The system keeps it by the app's uid, so it
  /// outlives a process.
  var allowlistedUntil: [TemporaryAllowlistReason: TraceTime] = [:]
  /// The alarms set and not yet gone off, by name (``AlarmScheduling``): the system
  /// keeps them across processes, until a reboot.
  var alarms: [String: SimulatedAlarm] = [:]
  /// Whether the app may set exact alarms now: ``SimulationConfiguration/exactAlarmsPermitted``
  /// until ``revokeExactAlarmPermission()``.
  var exactAlarmsPermitted: Bool
  /// When the app's alarms that count against its standby bucket's alarm quota went off
  /// in the last day, oldest first.
  var alarmDeliveries: [TraceTime] = []
  /// When the app's last alarm that is not an alarm clock went off (Android 9's standby
  /// delay counts from it).
  var lastAlarmDelivery: TraceTime?
  /// When its allow-while-idle alarms went off in deep Doze in the last hour, oldest
  /// first, and whether each was exact: their idle quotas' record.
  var idleAlarmDeliveries: [(time: TraceTime, exact: Bool)] = []
  /// Counts processes, so a timer set in one process does nothing in the next.
  var processNumber = 0

  // The environment.
  var networkAvailable: Bool
  var charging: Bool
  /// Whether the network is metered, and roaming (``setEnvironment(network:charging:metered:roaming:batteryLevel:storageLow:)``).
  var networkMetered: Bool
  var networkRoaming: Bool
  /// Whether the connection is temporarily not metered (``setNetworkTemporarilyUnmetered(_:)``).
  var networkTemporarilyUnmetered: Bool
  /// The battery's level, in percent, and whether Android counts it as low (``BatteryLevel``).
  var batteryLevel: Int
  var batteryLow: Bool
  var storageLow: Bool
  /// When the user last had the app in the foreground; `nil`: not since the simulation
  /// started (``SimulationConfiguration/lastUsedBeforeStart`` says when before).
  var lastUsedAt: TraceTime?
  /// Since when the screen has been off (Android), for the idle constraint.
  var screenOffSince: TraceTime?
  /// The app's standby bucket now (``SimulationConfiguration/standbyBucketFollowsUse``),
  /// and the timer of its next move.
  var standbyBucket: StandbyBucket
  var standbyBucketTimer: VirtualTimeScheduler.TimerID?
  /// The screen-on time: what went before the screen last came on, since when it is
  /// on, and the total when the user last used the app.
  var screenOnAccumulated = Duration.zero
  var screenOnSince: TraceTime?
  var screenOnAtLastUse = Duration.zero
  /// The timer that makes the device idle for jobs.
  var deviceIdleTimer: VirtualTimeScheduler.TimerID?
  /// Whether the device was idle for jobs at the last ``updateIdleForJobs()``.
  var wasIdleForJobs = false

  /// Creates a system.
  ///
  /// - Parameters:
  ///   - seed: the seed for every random choice (launch delays, faults).
  ///   - configuration: the platform model's numbers.
  ///   - faults: the faults to inject.
  ///   - meta: extra trace metadata (the seed and budget are added).
  public convenience init(
    seed: UInt64, configuration: SimulationConfiguration = SimulationConfiguration(), faults: FaultPlan = .none,
    meta: TraceMetadata = TraceMetadata()
  ) {
    self.init(seed: seed, choices: nil, configuration: configuration, faults: faults, meta: meta)
  }

  /// Creates a system whose random decisions (launch delays, random terminations,
  /// network flaps, extra launch delays) draw from `choices`, the stream the exploring
  /// scenario draws its own timing from (docs/guides/exploration.md).
  ///
  /// - Parameters:
  ///   - choices: the run's choice stream; its seed is recorded as `meta seed=`.
  ///   - configuration: the platform model's numbers.
  ///   - faults: the faults to inject.
  ///   - meta: extra trace metadata (the seed and budget are added).
  public convenience init(
    choices: Choices, configuration: SimulationConfiguration = SimulationConfiguration(),
    faults: FaultPlan = .none, meta: TraceMetadata = TraceMetadata()
  ) {
    self.init(seed: choices.seed, choices: choices, configuration: configuration, faults: faults, meta: meta)
  }

  private init(
    seed: UInt64, choices: Choices?, configuration: SimulationConfiguration, faults: FaultPlan, meta: TraceMetadata
  ) {
    self.choices = choices
    appChoiceStream = choices ?? Choices(seed: seed, stream: Self.appChoiceStreamKey)
    self.configuration = configuration
    self.faults = faults
    scheduler = VirtualTimeScheduler(drivesMainActor: configuration.drivesMainActor)
    random = SplitMix64(seed: seed)
    faultRandom = SplitMix64(seed: seed ^ 0xFA01_7FA0_17FA_017F)
    workIDRandom = SplitMix64(seed: seed ^ 0x3D0B_1D5E_ED1D_5EED)
    var meta = meta
    meta["platform"] = configuration.platform.rawValue
    meta["seed"] = String(seed)
    // The background budget is UIKit's: an Android trace carries none.
    if configuration.platform == .ios { meta["budget"] = TraceTime(configuration.budget).description }
    if configuration.platform == .ios && !configuration.launchEntersBackground {
      meta[TraceMetadata.launchEntersBackgroundSetting.key] = "false"
    }
    if configuration.platform == .android && configuration.androidRelease != .current {
      meta["android"] = String(configuration.androidRelease.major)
    }
    if configuration.platform == .android && !configuration.backgroundStartExemptions.isEmpty {
      meta["fgs-exempt"] = configuration.backgroundStartExemptions.metaValue
    }
    recorder = TraceRecorder(meta: meta)
    networkAvailable = configuration.networkAvailable
    exactAlarmsPermitted = configuration.exactAlarmsPermitted
    standbyBucket = configuration.initialStandbyBucket
    jobBudget = RollingBudget(
      window: TraceInterval(configuration.initialStandbyBucket.jobQuotaWindow(on: configuration.androidRelease)),
      kept: RollingBudget.day)
    screenOnSince = configuration.screenOn ? TraceTime(nanoseconds: 0) : nil
    charging = configuration.charging
    networkMetered = configuration.networkMetered
    networkRoaming = configuration.networkRoaming
    networkTemporarilyUnmetered = configuration.networkTemporarilyUnmetered
    batteryLevel = configuration.batteryLevel
    batteryLow = BatteryLevel.isLow(level: configuration.batteryLevel, wasLow: false, charging: configuration.charging)
    storageLow = configuration.storageLow
    screenOn = configuration.screenOn
    screenOffSince = configuration.screenOn ? nil : TraceTime(nanoseconds: 0)
    stationarySince = configuration.stationary ? TraceTime(nanoseconds: 0) : nil
    // The bucket the app starts in, when it is not the default's: what explains the
    // limits on its jobs and alarms until it moves (`env.set bucket=`).
    if configuration.platform == .android && standbyBucket != .active {
      record(.envSet([EnvironmentSetting(key: "bucket", value: standbyBucket.traceName)]))
    }
    if configuration.platform == .android && configuration.backgroundRestricted {
      backgroundRestricted = true
      record(.envSet([Self.backgroundRestrictedSetting(true)]))
    }
    planFaults()
    updateDoze()
    updateIdleForJobs()
    noteWaitsWhenUseLapses()
    updateStandbyBucket()
  }

  /// The trace so far.
  public var trace: RecordedTrace { recorder.trace }

  /// The running process's app delegate (made by ``launchApp(_:)`` for this process),
  /// for a test to look at: `system.app(as: MyApp.self)?.uploads`. `nil` while no
  /// process runs.
  public func app<App: BackgroundAppDelegate>(as type: App.Type) -> App? {
    processRunning ? appDelegate as? App : nil
  }

  /// A clock on the simulation's virtual time, for async app code.
  public var clock: VirtualClock { scheduler.clock }

  /// The current virtual time.
  public var now: TraceTime { scheduler.now }

  /// The app's current state (`nil` when it is not running).
  public var state: AppLifecycleState? { processRunning ? appState : nil }

  func record(_ kind: TraceEvent.Kind) {
    // A crashed process runs no code: what its unwound caller still does is not an action.
    if unwindingCrash && kind.side == .app { return }
    recorder.record(kind, at: scheduler.now)
    if !workInfoWatches.isEmpty { readWatchedWorkInfosSoon() }
  }

  // MARK: Driving time

  /// Moves virtual time forward by `delay`, running everything due on the way.
  public func advance(by delay: Duration) { scheduler.advance(by: delay) }

  /// Moves virtual time forward to `time`, running everything due on the way.
  public func advance(to time: TraceTime) { scheduler.advance(to: time) }

  /// Runs until nothing is scheduled, or until the point `deadline`.
  public func runUntilIdle(until deadline: TraceTime) { scheduler.runUntilIdle(until: deadline) }

  /// Runs until nothing is scheduled, or until `span` of virtual time has passed.
  ///
  /// The default of a day stops periodic work, which never runs out of timers.
  public func runUntilIdle(for span: Duration = .seconds(86_400)) { scheduler.runUntilIdle(for: span) }

  // MARK: The app's life

  /// Launches the app in the foreground: `app.launch`, then `didFinishLaunching` (where
  /// launch handlers must be registered), then `app.state to=active`. The same entry
  /// point runs whenever the system launches the app in the background later.
  public func launch(_ didFinishLaunching: @escaping (SimulatedSystem) -> Void) {
    appEntry = didFinishLaunching
    startProcess(inBackground: false)
  }

  /// Launches the app in the foreground with a delegate made afresh for each process
  /// (`makeApp`), whose callbacks the system calls: `didFinishLaunching` at every
  /// launch, `didEnterBackground` and `willEnterForeground` as the app moves.
  public func launchApp(_ makeApp: @escaping (SimulatedSystem) -> any BackgroundAppDelegate) {
    appEntry = { system in
      let delegate = makeApp(system)
      system.appDelegate = delegate
      delegate.didFinishLaunching()
    }
    startProcess(inBackground: false)
  }

  /// The user does something in the app (taps "Sync"): records
  /// `mark label=user:<action>` and tells the app's delegate, so a replay of the trace
  /// performs the same action at the same time.
  public func userAction(_ action: String) {
    record(.mark(label: userActionMarkPrefix + action))
    noteUserInteraction()
    appDelegate?.perform(userAction: action)
    scheduler.runPending()
  }

  /// Nondeterministic inputs for app code: operations run on the virtual clock and
  /// their results are recorded as `input` events, so the run replays.
  public var inputs: any RecordedInputs { SimulatedInputs(system: self) }

  /// Starts a process: in the background when the system launches it for a scheduled
  /// task or work.
  func startProcess(inBackground: Bool) {
    if !inBackground {
      if !screenOn { setDeviceState(screenOn: true) }  // the user wakes the device to open the app
      quitByUser = false
      forceStopped = false
      resetTransferRequestDelay()
    }
    unwindingCrash = false
    record(.appLaunch)
    if workAwaitsReschedule {
      // WorkManager initializes in every new process, and its ForceStopRunnable
      // schedules the unfinished work again.
      workAwaitsReschedule = false
      scheduler.schedule(after: .zero) { [self] in startEligibleWork() }
    }
    processNumber += 1
    processRunning = true
    launching = true
    appState = nil
    nextTaskID = 1
    openTasks.removeAll()
    launchHandlers.removeAll()
    forgetSessions()
    appEntry?(self)
    launching = false
    guard processRunning else { return }  // killed while launching (a duplicate registration)
    if inBackground {
      setState(.background)
      if configuration.platform == .android || configuration.launchEntersBackground {
        appDelegate?.didEnterBackground()
      }
    } else {
      setState(.active)
      updateStandbyBucket()
      appDelegate?.didBecomeActive()
      startInProcessWork()
    }
    scheduler.runPending()
  }

  func setState(_ state: AppLifecycleState) {
    record(.appState(to: state))
    let entersForeground = state == .active || state == .inactive
    if appInForeground && !entersForeground {
      uidActiveUntil = now + TraceInterval(configuration.backgroundSettleTime)
    } else if entersForeground {
      uidActiveUntil = nil
    }
    appState = state
    reviseJobCharging()
    noteOnTop(state == .active)
    if processRunning { noteForegroundForJobs() }
    reviewBackgroundRestriction()
    noteWaits()
    // A suspended app runs no code: its async work waits until it is woken.
    if state == .suspended {
      scheduler.executor.pause()
    } else {
      scheduler.executor.resume()
    }
  }

  /// The user leaves the app: `inactive`, then `background`. Open tasks start using
  /// the background budget; with none open the app is suspended shortly.
  public func moveToBackground() {
    guard appInForeground else { return }
    lastUsedAt = now  // the user has used the app until now
    screenOnAtLastUse = screenOnTotal
    if appState == .active {
      setState(.inactive)
      appDelegate?.willResignActive()
    }
    setState(.background)
    backgroundSince = now
    leftForegroundAt = now
    noteWaitsWhenUseLapses()
    updateStandbyBucket()
    appDelegate?.didEnterBackground()
    scheduleExpiration()
    suspendIfIdle(after: idleSuspensionDelay)
    launchEligibleRequests()
    scheduler.runPending()
  }

  /// The user returns to the app: `active`. Background time stops counting.
  public func moveToForeground() {
    guard processRunning, appState != .active else { return }
    if !screenOn { setDeviceState(screenOn: true) }  // the user wakes the device to open the app
    let wasInBackground = appState == .background || appState == .suspended
    resetTransferRequestDelay()  // the user brings the app to the front
    if wasInBackground {
      // UIKit calls willEnterForeground during background → inactive, and then
      // didBecomeActive at active; code that waited while suspended runs as the app
      // becomes inactive, before it is active.
      setState(.inactive)
      backgroundSince = nil
      cancelBackgroundTimers()
      appDelegate?.willEnterForeground()
      scheduler.runPending()
    }
    setState(.active)
    backgroundSince = nil
    leftForegroundAt = nil
    cancelBackgroundTimers()
    resetServiceBudgets()
    expireProcessingRunsIfDeviceBusy()
    updateStandbyBucket()
    appDelegate?.didBecomeActive()
    startInProcessWork()
    scheduler.runPending()
  }

  /// The system (or a fault) terminates the app: `app.terminate`. Its tasks and
  /// handlers are gone; scheduler requests and work persist.
  public func terminate(reason: String) {
    guard processRunning else { return }
    // UIKit tells a running app the user quit it; a suspended app, or one killed, hears nothing.
    if reason == "user" && appState != .suspended { appDelegate?.willTerminate() }
    record(.appTerminate(reason: reason))
    if reason == "user" {
      quitByUser = true
      dropQueuedContinuedRequests()
    }
    processRunning = false
    appDelegate = nil
    appState = nil
    noteOnTop(false)  // its activities are destroyed
    backgroundSince = nil
    cancelBackgroundTimers()
    openTasks.removeAll()
    heldFileLocks.removeAll()
    launchHandlers.removeAll()
    runningTasks.removeAll()
    forgetSessions()
    endServices()
    leftForegroundAt = nil
    uidActiveUntil = nil  // the uid is gone with its process
    if reason == "user" { cancelTransfers() }
    stopAllWork(reason: .unknown)
    noteWaits()
    // The process is gone: its async code (an upload in flight) never resumes.
    scheduler.retireExecutor()
  }

  /// Launches the app again after a termination (in the foreground).
  public func relaunch() {
    if processRunning { terminate(reason: "user") }
    startProcess(inBackground: false)
  }

  /// Changes the environment: `env.set`. Waiting requests and work re-check their
  /// requirements; running work whose constraint is lost is stopped.
  ///
  /// - Parameters:
  ///   - network: whether there is a network connection (`network=online|offline`).
  ///   - charging: whether the device is on external power (`charging=`).
  ///   - metered: whether the connection is metered, cellular data rather than Wi-Fi
  ///     (`metered=`).
  ///   - roaming: whether the connection is roaming (`roaming=`).
  ///   - batteryLevel: the battery's level in percent, 0 to 100 (`battery=`); whether
  ///     it counts as low follows ``/BackgroundTrace/BatteryLevel``.
  ///   - storageLow: whether the device's storage is low (`storage=low|ok`).
  public func setEnvironment(
    network: Bool? = nil, charging: Bool? = nil, metered: Bool? = nil, roaming: Bool? = nil,
    batteryLevel: Int? = nil, storageLow: Bool? = nil
  ) {
    var settings: [EnvironmentSetting] = []
    if let network, network != networkAvailable {
      networkAvailable = network
      settings.append(EnvironmentSetting(key: "network", value: network ? "online" : "offline"))
    }
    if let charging, charging != self.charging {
      self.charging = charging
      settings.append(EnvironmentSetting(key: "charging", value: charging ? "true" : "false"))
    }
    if let metered, metered != networkMetered {
      networkMetered = metered
      settings.append(EnvironmentSetting(key: "metered", value: metered ? "true" : "false"))
    }
    if let roaming, roaming != networkRoaming {
      networkRoaming = roaming
      settings.append(EnvironmentSetting(key: "roaming", value: roaming ? "true" : "false"))
    }
    if let batteryLevel, batteryLevel != self.batteryLevel {
      self.batteryLevel = min(max(batteryLevel, 0), 100)
      settings.append(EnvironmentSetting(key: "battery", value: String(self.batteryLevel)))
    }
    if let storageLow, storageLow != self.storageLow {
      self.storageLow = storageLow
      settings.append(EnvironmentSetting(key: "storage", value: storageLow ? "low" : "ok"))
    }
    guard !settings.isEmpty else { return }
    batteryLow = BatteryLevel.isLow(level: self.batteryLevel, wasLow: batteryLow, charging: self.charging)
    record(.envSet(settings))
    environmentChanged()
    scheduler.runPending()
  }

  func environmentChanged() {
    reviseJobCharging()
    startWaitingTransfers()
    expireProcessingRunsIfDeviceBusy()
    stopWorkMissingConstraints()
    launchEligibleRequests()
    startEligibleWork()
    updateDoze()
    reviseExpeditedCharging()
    noteWaits()
  }

  // MARK: Suspension

  /// Suspends the app after `delay` if it is in the background with nothing running.
  func suspendIfIdle(after delay: Duration) {
    if let timer = suspensionTimer { scheduler.cancel(timer) }
    suspensionTimer = nil
    guard isIdleInBackground else { return }
    suspensionTimer = scheduler.schedule(after: delay) { [self] in
      suspensionTimer = nil
      guard isIdleInBackground else { return }
      setState(.suspended)
      cancelBackgroundTimers()
      terminateIfSuspendedHoldingFileLocks()
    }
  }

  /// How long an app idle in the background runs before it is suspended: iOS's
  /// ``SimulationConfiguration/suspensionDelay``, or the Android release's cached-apps
  /// freezer delay.
  var idleSuspensionDelay: Duration {
    configuration.platform == .android
      ? configuration.androidRelease.cachedAppFreezeDelay : configuration.suspensionDelay
  }

  /// Whether the app's code can run: a process runs and is not suspended.
  var appRuns: Bool { processRunning && appState != .suspended }

  /// Whether the user is using the app: it runs in the foreground (active or inactive).
  var appInForeground: Bool { processRunning && (appState == .active || appState == .inactive) }

  /// Whether the app is in the background with nothing that keeps it running: what the
  /// system suspends. On iOS that is no task open and no scheduled task launched (an
  /// in-process worker does not keep an app running); on Android, no worker running.
  var isIdleInBackground: Bool {
    guard processRunning, appState == .background else { return false }
    switch configuration.platform {
    case .ios: return openTasks.isEmpty && runningTasks.isEmpty && wokenSessions.isEmpty
    case .android: return services.isEmpty && !works.values.contains { $0.phase == .running }
    }
  }

  /// Wakes a suspended app into the background (for a launch or a worker).
  func wakeForBackgroundWork() {
    if !processRunning {
      startProcess(inBackground: true)
      backgroundSince = now
    } else if appState == .suspended {
      setState(.background)
      backgroundSince = now
    }
    if let timer = suspensionTimer {
      scheduler.cancel(timer)
      suspensionTimer = nil
    }
  }

  // MARK: Faults

  private func planFaults() {
    for termination in faults.terminations {
      scheduler.schedule(at: TraceTime(termination.at)) { [self] in terminate(reason: termination.reason) }
    }
    if let interval = faults.randomTerminationInterval { scheduleRandomTermination(interval) }
    if let flaps = faults.networkFlaps { scheduleNetworkFlap(flaps.interval, outage: flaps.outage) }
  }

  private func scheduleRandomTermination(_ interval: Duration) {
    let delay = randomDuration(in: interval / 2...interval * 3 / 2, using: &faultRandom)
    scheduler.schedule(after: delay) { [self] in
      if processRunning { terminate(reason: "memory") }
      scheduleRandomTermination(interval)
    }
  }

  private func scheduleNetworkFlap(_ interval: Duration, outage: Duration) {
    let delay = randomDuration(in: interval / 2...interval * 3 / 2, using: &faultRandom)
    scheduler.schedule(after: delay) { [self] in
      setEnvironment(network: false)
      scheduler.schedule(after: outage) { [self] in
        setEnvironment(network: true)
        scheduleNetworkFlap(interval, outage: outage)
      }
    }
  }

  /// A duration drawn uniformly from `range`, to the millisecond (virtual clocks tick in ms).
  func randomDuration(in range: ClosedRange<Duration>, using generator: inout SplitMix64) -> Duration {
    if let choices { return choices.duration(in: range) }
    let low = TraceTime(range.lowerBound).nanoseconds / 1_000_000
    let high = TraceTime(range.upperBound).nanoseconds / 1_000_000
    guard high > low else { return range.lowerBound }
    return .milliseconds(Int64(UInt64.random(in: low...high, using: &generator)))
  }
}

/// Inputs in the simulation: the operation runs (on the virtual clock) and its result
/// is recorded when it completes.
struct SimulatedInputs: RecordedInputs {
  let system: SimulatedSystem

  func value(for key: String, _ operation: @escaping @Sendable () async -> String) async -> String {
    let value = await operation()
    system.record(.input(key: key, value: value))
    return value
  }

  func valueNow(for key: String, _ make: () -> String) -> String {
    let value = make()
    system.record(.input(key: key, value: value))
    return value
  }
}

extension SimulatedSystem {
  /// Ends the process as an uncaught exception or a trap does: `app.terminate
  /// reason=crash`, with `report` kept in ``crashReports``. The app code running then
  /// cannot be unwound, so until the next process starts nothing it does reaches the
  /// system or the trace. Every crash the model decides goes through here.
  func crash(_ report: String) {
    guard processRunning else { return }
    crashReports.append(report)
    terminate(reason: "crash")
    unwindingCrash = true
  }
}
