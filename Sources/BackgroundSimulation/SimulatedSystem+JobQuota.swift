import BackgroundTrace

/// The standby bucket's quota on the app's regular jobs (AOSP `QuotaController`;
/// docs/platform-model.md, "Standby buckets"): WorkManager's work runs as JobScheduler
/// jobs, whose time running — one timing session while any runs — counts against
/// ``StandbyBucket/jobQuota`` per rolling ``StandbyBucket/jobQuotaWindow``. Out of
/// quota, due work waits (`work.wait reasons=quota`). A job that starts runs its
/// guaranteed time whatever quota is left (`JobServiceContext`: the larger of its
/// maximum and `RUNTIME_MIN_GUARANTEE_MS`), so the quota decides only when jobs start.
/// Expedited work has its own quota, and a worker promoted to a foreground service
/// runs outside both.
extension SimulatedSystem {
  /// Whether the job quota applies now: on Android, in a bucket that limits jobs, and
  /// not while charging outside the restricted bucket (`QuotaController.isQuotaFreeLocked`).
  var jobQuotaApplies: Bool {
    let bucket = standbyBucket
    return configuration.platform == .android && bucket.limitsJobs && !(charging && bucket != .restricted)
  }

  /// The job quota left now, the running session's time taken off; `nil` when no
  /// quota applies.
  var jobQuotaLeft: Duration? {
    guard jobQuotaApplies else { return nil }
    let running = jobSessionSince.map { RollingBudget.elapsed(from: $0, to: now) } ?? .zero
    return jobBudget.left(of: standbyBucket.jobQuota, at: now, running: running)
  }

  /// Whether a regular job may start now: at least the in-quota buffer is left
  /// (``SimulationConfiguration/inQuotaBuffer``), or no quota applies.
  var jobQuotaAllowsStart: Bool {
    jobQuotaLeft.map { $0 >= configuration.inQuotaBuffer } ?? true
  }

  /// Whether the restricted bucket lets `request` run with its quota spent: the
  /// device meets every one of ``StandbyBucket/constraintsOutsideQuota(needsNetwork:)``.
  func runsOutsideQuota(_ request: WorkRequest) -> Bool {
    let constraints = standbyBucket.constraintsOutsideQuota(needsNetwork: request.requiresNetwork)
    guard !constraints.isEmpty else { return false }
    let device = deviceConditions
    return constraints.allSatisfy { $0.isMet(by: device) }
  }

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

  /// The attempt starts as a regular job: it joins the timing session, or opens one.
  func beginJob(_ item: inout WorkItem) {
    item.countsAsJob = true
    item.startedOutsideQuota = !jobQuotaAllowsStart
    if jobSessionSince == nil { jobSessionSince = now }
  }

  /// The attempt of `work` stops running as a job (it ended, or went foreground); the
  /// last one ends the timing session, which is charged to the quota.
  func endJob(_ item: inout WorkItem, of work: String) {
    guard item.countsAsJob else { return }
    item.countsAsJob = false
    item.startedOutsideQuota = false
    guard !works.contains(where: { $0.key != work && $0.value.countsAsJob }), let since = jobSessionSince else {
      return
    }
    jobBudget.charge(from: since, to: now)
    jobSessionSince = nil
    scheduleJobQuotaRecheck()
  }

  /// Starts the waiting work again when the job quota has the in-quota buffer back,
  /// as `QuotaController` re-evaluates an app out of quota when it comes back in.
  func scheduleJobQuotaRecheck() {
    guard jobSessionSince == nil, !jobQuotaAllowsStart,
      works.values.contains(where: { $0.phase == .waiting && !$0.expedited })
    else { return }
    let time = jobBudget.firstTime(
      withLeft: configuration.inQuotaBuffer, of: standbyBucket.jobQuota, from: now)
    if let timer = jobQuotaRecheck { scheduler.cancel(timer) }
    jobQuotaRecheck = scheduler.schedule(at: time) { [self] in
      jobQuotaRecheck = nil
      startEligibleWork()
    }
  }
}
