import BackgroundTrace

/// The standby bucket's quota on the app's regular jobs (AOSP `QuotaController`;
/// docs/platform-model.md, "Standby buckets"): WorkManager's work runs as JobScheduler
/// jobs, whose time running — one timing session while any runs — counts against
/// ``StandbyBucket/jobQuota(on:)`` per rolling ``StandbyBucket/jobQuotaWindow(on:)`` and against
/// ``SimulationConfiguration/maxJobExecutionTime`` per 24 hours, and whose starts and
/// sessions count against ``StandbyBucket/jobCountLimit``,
/// ``SimulationConfiguration/jobRateLimit`` and ``StandbyBucket/sessionCountLimit``.
/// Out of quota, due work waits (`work.wait reasons=quota`, whichever limit it is, as
/// JobScheduler's `PENDING_JOB_REASON_QUOTA` does not say). A job that starts runs its
/// guaranteed time whatever quota is left (`JobServiceContext`: the larger of its
/// maximum and `RUNTIME_MIN_GUARANTEE_MS`), so the quota decides only when jobs start.
/// Expedited work has its own quota, and a worker promoted to a foreground service
/// runs outside both.
extension SimulatedSystem {
  /// Whether the device charges outside the restricted bucket, where `QuotaController`
  /// enforces no quota (`isQuotaFreeLocked`): the regular and the expedited timers stop.
  var quotaIsFree: Bool { charging && standbyBucket != .restricted }

  /// Whether the job quota applies now: on Android, and not while ``quotaIsFree``.
  var jobQuotaApplies: Bool { configuration.platform == .android && !quotaIsFree }

  /// The job quota's execution time left at `time` (now by default), the running
  /// session's `running` time taken off: the smaller of what is left of the bucket's
  /// quota in its window (for a bucket that limits jobs) and of
  /// ``SimulationConfiguration/maxJobExecutionTime`` in 24 hours
  /// (`getRemainingExecutionTimeLocked`); `nil` when neither limits it.
  func jobTimeLeft(at time: TraceTime, running: Duration) -> Duration? {
    var left: Duration?
    let release = configuration.androidRelease
    if standbyBucket.limitsJobs(on: release) {
      left = standbyBucket.jobQuota(on: release) - jobBudget.used(at: time) - running
    }
    if let maximum = configuration.maxJobExecutionTime {
      let day = maximum - jobBudget.used(in: RollingBudget.day, at: time) - running
      left = min(left ?? day, day)
    }
    return left
  }

  /// How long the regular job of `item` starting now may run (`JobServiceContext`: the
  /// larger of its maximum and its guarantee, ``SimulationConfiguration/workTimeout``).
  /// From Android 14 its maximum is `QuotaController.getMaxJobExecutionTimeMsLocked`'s,
  /// at most `RUNTIME_FREE_QUOTA_MAX_LIMIT_MS` (``SimulationConfiguration/workTimeoutWhileCharging``):
  /// all of that while charging, or while the app is in the foreground
  /// (``inForegroundForQuota``) if the job is important there
  /// (``jobIsImportantInForeground(_:)``; AOSP
  /// `QuotaControllerTest.testGetMaxJobExecutionTimeLocked_Regular`); in a bucket whose
  /// window is its quota (`active` and `exempted` before Android 16), what is left of the
  /// 24-hour maximum (`testGetMaxJobExecutionTimeLocked_Regular_Active`); in another,
  /// what is left of the bucket's quota (``StandbyBucket/jobQuota(on:)``), and at least
  /// the guarantee. Before Android 14, 10 minutes.
  func regularJobLimit(for item: WorkItem) -> Duration {
    let guarantee = configuration.workTimeout
    guard configuration.platform == .android, configuration.androidRelease.hasJobRuntimeGuarantees else {
      return guarantee
    }
    let freeLimit = configuration.workTimeoutWhileCharging
    if charging || (inForegroundForQuota && jobIsImportantInForeground(item)) { return max(guarantee, freeLimit) }
    let running = jobSessionSince.map { RollingBudget.elapsed(from: $0, to: now) } ?? .zero
    return max(guarantee, min(freeLimit, jobTimeLeft(at: now, running: running) ?? freeLimit))
  }

  /// Whether the job of `item` counts as important for the free runtime in the
  /// foreground: every job before Android 15; from 15 one of `PRIORITY_HIGH`, which
  /// WorkManager never sets, or, before 16, one marked important while foreground, which
  /// WorkManager does for a job scheduled to run at once (androidx `SystemJobInfoConverter`:
  /// `setImportantWhileForeground(true)` when the offset to its next run is 0 and it is
  /// not expedited; `markJobsAsImportantWhileForeground` is on by default).
  func jobIsImportantInForeground(_ item: WorkItem) -> Bool {
    let release = configuration.androidRelease
    guard release.limitsForegroundRuntimeToImportantJobs else { return true }
    return release.honoursImportantWhileForeground && item.eligible <= item.lastEnqueue
  }

  /// Whether a foreground service of the app is in the foreground (a started service
  /// after `startForeground`, or a worker after `setForeground`): its process state is
  /// `PROCESS_STATE_FOREGROUND_SERVICE`, which `QuotaController.isUidInForeground` counts.
  var runsForegroundService: Bool {
    services.values.contains { $0.foregroundSince != nil } || works.values.contains { $0.foregroundSince != nil }
  }

  /// The job quota left now, the running session's time taken off; `nil` when no
  /// quota applies.
  var jobQuotaLeft: Duration? {
    guard jobQuotaApplies else { return nil }
    return jobTimeLeft(at: now, running: jobSessionSince.map { RollingBudget.elapsed(from: $0, to: now) } ?? .zero)
  }

  /// Whether a regular job may start now: at least the in-quota buffer is left
  /// (``SimulationConfiguration/inQuotaBuffer``) and the job and session counts are
  /// under their limits, or no quota applies, or the app counts as in the foreground
  /// (`QuotaController.isWithinQuotaLocked`: `isUidInForeground`, ``inForegroundForQuota``).
  var jobQuotaAllowsStart: Bool {
    guard jobQuotaApplies, !inForegroundForQuota else { return true }
    if configuration.androidRelease.defersJobsByStandbyHeartbeats { return standbyHeartbeatsRelease <= now }
    return (jobQuotaLeft.map { $0 >= configuration.inQuotaBuffer } ?? true) && jobCountsReleased(at: now) == now
  }

  /// The heartbeat (``StandbyBucket/standbyHeartbeat``) a time falls in, counted from the
  /// simulation's start as AOSP counts them from boot.
  private func heartbeat(_ time: TraceTime) -> UInt64 {
    time.nanoseconds / TraceInterval(StandbyBucket.standbyHeartbeat).nanoseconds
  }

  /// On Android 9, when the standby bucket lets the app's next job start: at once if the
  /// app ran no job yet, or one in the current heartbeat; else at the heartbeat
  /// ``StandbyBucket/standbyBeats`` after the one its last job ran in
  /// (`isReadyToBeExecutedLocked`: not ready while `mHeartbeat > appLastRan && mHeartbeat
  /// < appLastRan + STANDBY_BEATS[bucket]`; `heartbeatWhenJobsLastRun` takes an app that
  /// never ran one as having run long ago), or at the bucket's next window, which comes
  /// no later: every job of the bucket may run during each heartbeat that is a multiple
  /// of its beats (`mNextBucketHeartbeat`, which `advanceHeartbeatLocked` moves on by
  /// `STANDBY_BEATS[bucket]` once the heartbeat passes it; the check is skipped while
  /// `mHeartbeat >= mNextBucketHeartbeat[bucket]`).
  var standbyHeartbeatsRelease: TraceTime {
    guard let last = lastJobStart else { return now }
    let beats = UInt64(standbyBucket.standbyBeats)
    let lastBeat = heartbeat(last)
    let current = heartbeat(now)
    // `current < lastBeat + beats` is false for a bucket of no beats: no division by 0.
    guard current > lastBeat, current < lastBeat + beats, !current.isMultiple(of: beats) else { return now }
    // The next window: never after `lastBeat + beats`, since one falls in every run of
    // `beats` heartbeats.
    let window = (current / beats + 1) * beats
    return TraceTime(nanoseconds: window * TraceInterval(StandbyBucket.standbyHeartbeat).nanoseconds)
  }

  /// When the job and session counts next let a job start, from `time` on with no new
  /// start: `time` itself when they do now. A count at its limit frees a place when its
  /// oldest entry leaves the window (an entry at the window's start no longer counts).
  func jobCountsReleased(at time: TraceTime) -> TraceTime {
    var release = time
    func free(_ entries: [TraceTime], limit: Int, window: Duration) {
      let window = TraceInterval(window)
      let inWindow = entries.filter { $0 + window > time }
      guard inWindow.count >= limit else { return }
      release = max(release, inWindow[inWindow.count - limit] + window)
    }
    let bucket = standbyBucket
    let bucketWindow = bucket.jobQuotaWindow(on: configuration.androidRelease)
    free(jobStarts, limit: bucket.jobCountLimit, window: bucketWindow)
    if let rate = configuration.jobRateLimit { free(jobStarts, limit: rate, window: configuration.jobRateLimitWindow) }
    // A job joining the running session opens no new one.
    if jobSessionSince == nil {
      let window = TraceInterval(bucketWindow)
      let sessions = jobBudget.sessions(in: window, at: time, coalescing: configuration.sessionCoalescing)
      // One that ended less than the coalescing time ago is the session a start would continue.
      let continues = sessions.last.map { RollingBudget.elapsed(from: $0, to: time) <= configuration.sessionCoalescing }
      if continues != true { free(sessions, limit: bucket.sessionCountLimit, window: bucketWindow) }
    }
    return release
  }

  /// Whether the restricted bucket lets `request` run with its quota spent: the
  /// device meets every one of ``StandbyBucket/constraintsOutsideQuota(needsNetwork:)``.
  func runsOutsideQuota(_ request: WorkRequest) -> Bool {
    standbyBucket == .restricted && unmetTermsOutsideQuota(of: request).isEmpty
  }

  /// The terms of ``StandbyBucket/constraintsOutsideQuota(needsNetwork:)`` for `request`
  /// that the device does not meet now; none outside the restricted bucket.
  func unmetTermsOutsideQuota(of request: WorkRequest) -> Set<WorkConstraint> {
    let device = deviceConditions
    return standbyBucket.constraintsOutsideQuota(needsNetwork: request.requiresNetwork).filter { !$0.isMet(by: device) }
  }

  /// Whether a job starting now started on top before Android 16, and so runs free of
  /// its quota to its end (``/BackgroundTrace/AndroidRelease/chargesJobsStartedOnTop``).
  var jobStartsFreeOnTop: Bool { appInForeground && !configuration.androidRelease.chargesJobsStartedOnTop }

  /// Whether a regular job for `request` may start now as far as the bucket decides:
  /// within its quota, or outside it on the restricted bucket's terms.
  func jobQuotaAllowsStart(of request: WorkRequest) -> Bool {
    jobQuotaAllowsStart || runsOutsideQuota(request)
  }

  /// Stops each running regular job that started outside its quota and no longer
  /// meets the restricted bucket's terms: JobStatus turns a lost dynamic constraint the
  /// job did not ask for into `STOP_REASON_APP_STANDBY` (`constraintToStopReason`).
  func stopJobsOutsideQuotaNoLongerAllowed() {
    guard configuration.platform == .android, standbyBucket == .restricted else { return }
    for work in workOrder {
      guard let item = works[work], item.phase == .running, item.startedOutsideQuota,
        !runsOutsideQuota(item.request)
      else { continue }
      stop(work, reason: .appStandby, reschedule: true)
    }
  }

  /// Whether the app counts as in the foreground for the job quota (`QuotaController`'s
  /// `mForegroundUids`, `isUidInForeground`): on top, or, before Android 16, running a
  /// foreground service (``/BackgroundTrace/AndroidRelease/chargesJobsBesideForegroundServices``).
  var inForegroundForQuota: Bool { appInForeground || foregroundServiceFreesQuota }

  /// Whether a foreground service of the app frees its quotas: before Android 16, while
  /// one runs in the foreground.
  var foregroundServiceFreesQuota: Bool {
    !configuration.androidRelease.chargesJobsBesideForegroundServices && runsForegroundService
  }

  /// Whether the regular jobs' time is free now, as `QuotaController`'s regular
  /// `Timer.shouldTrackLocked` finds it untracked: ``quotaIsFree``, or the app in the
  /// foreground (``inForegroundForQuota``).
  var jobTimeIsFree: Bool {
    configuration.platform == .android && (quotaIsFree || inForegroundForQuota)
  }

  /// The attempt starts as a regular job: it joins the timing session, or opens one,
  /// unless the jobs' time is free; a start counts against the job counts only then.
  /// Before Android 16 a job started on top stays out of both to its end
  /// (`prepareForExecutionLocked`: "Top jobs won't count towards quota").
  func beginJob(_ item: inout WorkItem) {
    item.countsAsJob = true
    item.startedOutsideQuota = !jobQuotaAllowsStart
    item.startedOnTop = jobStartsFreeOnTop
    lastJobStart = now
    guard !jobTimeIsFree, !item.startedOnTop else { return }
    if jobSessionSince == nil { jobSessionSince = now }
    countJobStarts(1)
  }

  private func countJobStarts(_ count: Int) {
    jobStarts.removeAll { $0 + RollingBudget.day <= now }
    jobStarts.append(contentsOf: repeatElement(now, count: count))
  }

  /// The attempt of `work` stops running as a job (it ended, or went foreground); the
  /// last one ends the timing session, which is charged to the quota.
  func endJob(_ item: inout WorkItem, of work: String) {
    guard item.countsAsJob else { return }
    let wasTimed = item.isTimedAsJob
    item.countsAsJob = false
    item.startedOutsideQuota = false
    item.startedOnTop = false
    guard wasTimed, !works.contains(where: { $0.key != work && $0.value.isTimedAsJob }) else { return }
    if let since = jobSessionSince {
      jobBudget.charge(from: since, to: now)
      jobSessionSince = nil
    }
    scheduleJobQuotaRecheck()
  }

  /// Whether the jobs' time is free changed (the app came to the foreground or left it,
  /// the charger, the standby bucket): the running jobs' timing session ends and is
  /// charged, or a new one begins and counts the running jobs as started, as
  /// `QuotaController`'s timer does on `onStateChangedLocked` ("Start timing from
  /// unplug").
  func reviseJobCharging() {
    guard configuration.platform == .android else { return }
    if jobTimeIsFree {
      guard let since = jobSessionSince else { return }
      jobBudget.charge(from: since, to: now)
      jobSessionSince = nil
    } else if jobSessionSince == nil {
      let running = works.values.reduce(0) { $0 + ($1.isTimedAsJob ? 1 : 0) }
      guard running > 0 else { return }
      jobSessionSince = now
      countJobStarts(running)
    }
  }

  /// The app came to the foreground or left it: in it (``inForegroundForQuota``), work
  /// the quota held may start (``jobQuotaAllowsStart``); leaving, work that waits for the
  /// quota is rechecked when it frees.
  func noteForegroundForJobs() {
    guard configuration.platform == .android else { return }
    if inForegroundForQuota {
      startEligibleWork()
    } else {
      scheduleJobQuotaRecheck()
    }
  }

  /// A foreground service of the app (a started service or a promoted worker) came to
  /// the foreground or left it: before Android 16 that moves the app in or out of the
  /// quotas' foreground (``inForegroundForQuota``), as the app's place on top does, for
  /// regular and expedited jobs alike.
  func noteForegroundServiceForJobs() {
    reviewBackgroundRestriction()
    guard configuration.platform == .android, !configuration.androidRelease.chargesJobsBesideForegroundServices,
      processRunning
    else { return }
    reviseJobCharging()
    reviseExpeditedCharging()
    noteForegroundForJobs()
  }

  /// Starts the waiting work again when the job quota lets a job start: the in-quota
  /// buffer back and the counts under their limits, as `QuotaController` re-evaluates an
  /// app out of quota when it comes back in. While a session runs, its end reschedules
  /// this if time is what is short.
  func scheduleJobQuotaRecheck() {
    guard jobQuotaApplies, !jobQuotaAllowsStart,
      works.values.contains(where: { $0.phase == .waiting && !$0.expedited })
    else { return }
    if configuration.androidRelease.defersJobsByStandbyHeartbeats {
      return scheduleJobQuotaRecheck(at: standbyHeartbeatsRelease)
    }
    var time = jobCountsReleased(at: now)
    if let left = jobTimeLeft(at: now, running: .zero), left < configuration.inQuotaBuffer {
      guard jobSessionSince == nil else { return }
      time = max(time, firstTimeWithBuffer(from: now))
      // Counts freed by then may have changed what the time frees: look again from there.
      time = max(time, jobCountsReleased(at: time))
    }
    scheduleJobQuotaRecheck(at: time)
  }

  private func scheduleJobQuotaRecheck(at time: TraceTime) {
    if let timer = jobQuotaRecheck { scheduler.cancel(timer) }
    jobQuotaRecheck = scheduler.schedule(at: time) { [self] in
      jobQuotaRecheck = nil
      startEligibleWork()
    }
  }

  /// The first time from `time` on at which the in-quota buffer is left of the
  /// execution time, with no new use: the sessions age out of the windows bit by bit.
  private func firstTimeWithBuffer(from time: TraceTime) -> TraceTime {
    let needed = configuration.inQuotaBuffer
    var low = time.nanoseconds
    var high = time.nanoseconds + RollingBudget.day.nanoseconds
    while low < high {
      let middle = low + (high - low) / 2
      if (jobTimeLeft(at: TraceTime(nanoseconds: middle), running: .zero) ?? needed) >= needed {
        high = middle
      } else {
        low = middle + 1
      }
    }
    return TraceTime(nanoseconds: high)
  }
}
