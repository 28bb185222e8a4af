import BackgroundTrace

/// Why each request waits (``/BackgroundTrace/WaitReason``): the conditions the
/// simulated scheduler and work queue launch and start by, declared once here, and the
/// `sched.wait` and `work.wait` events that say them in the trace.
extension SimulatedSystem {
  /// Why the pending scheduler request has not launched: `nil` before its earliest
  /// date (it is not due), empty when it launches now. A continued-processing request
  /// waits only for a slot (and a user's quit); the others wait for the system's chosen
  /// time (``LaunchPolicy``), the background, and a processing request's requirements.
  func waitReasons(for pending: PendingRequest) -> Set<WaitReason>? {
    guard now >= pending.earliest else { return nil }
    var reasons = Set<WaitReason>()
    let request = pending.request
    if quitByUser { reasons.insert(.quit) }
    if request.type == .continued {
      if !continuedSlotFree() { reasons.insert(.slot) }
      return reasons
    }
    if pending.timer != nil, let launchAt = pending.launchAt, launchAt > now { reasons.insert(.scheduler) }
    if appInForeground { reasons.insert(.foreground) }
    if request.type == .processing {
      if !usedRecently { reasons.insert(.unused) }
      if request.requiresNetworkConnectivity && !networkAvailable { reasons.insert(.network) }
      if request.requiresExternalPower && !charging { reasons.insert(.power) }
      if configuration.launchPolicy.processingNeedsIdleDevice && !deviceIdle { reasons.insert(.idle) }
    }
    return reasons
  }

  /// Why the waiting work has not started: `nil` before its delay, backoff or period
  /// has passed (it is not due), empty when it starts now (after the queue's dispatch
  /// delay, which is not a reason).
  func waitReasons(for item: WorkItem) -> Set<WaitReason>? {
    guard now >= item.eligible else { return nil }
    var reasons = Set<WaitReason>()
    forEachUnmetConstraint(of: item.request) { constraint, device in reasons.insert(constraint.waitReason(on: device)) }
    if configuration.platform == .android && !item.expedited && !jobQuotaAllowsStart(of: item.request) {
      reasons.insert(.quota)
      // JobStatus.getPendingJobReasons: an unmet restricted-bucket term the job did not
      // ask for is PENDING_JOB_REASON_APP_STANDBY; its network is connectivity.
      let device = deviceConditions
      for term in unmetTermsOutsideQuota(of: item.request) where !item.request.constraints.contains(term) {
        reasons.insert(term.waitReason(on: device) == .network ? .network : .standby)
      }
    }
    if configuration.platform == .android && !item.expedited && dozeDefersJobs { reasons.insert(.doze) }
    if backgroundRestrictionHoldsJobs { reasons.insert(.backgroundRestriction) }
    if forceStopped {
      reasons.insert(.quit)
    } else if workAwaitsReschedule {
      reasons.insert(.rebooted)
    }
    // WorkManager starts the app's process; an iOS in-process queue waits for the app.
    if configuration.platform == .ios && !appRuns { reasons.insert(.notRunning) }
    return reasons
  }

  /// Whether the user has used the app recently enough for its processing tasks to
  /// launch (``SimulationConfiguration/processingUseWindow``): in the foreground now, or
  /// within the window.
  var usedRecently: Bool {
    guard let window = configuration.processingUseWindow, !appInForeground else { return true }
    let sinceUse: Duration =
      lastUsedAt.map { RollingBudget.elapsed(from: $0, to: now) }
      ?? .nanoseconds(Int64(now.nanoseconds)) + configuration.lastUsedBeforeStart
    return sinceUse <= window
  }

  /// Notes the waits again when the app's last use falls out of the processing window.
  func noteWaitsWhenUseLapses() {
    guard configuration.platform == .ios, let window = configuration.processingUseWindow else { return }
    let lapse =
      (lastUsedAt ?? .zero) + TraceInterval(window - (lastUsedAt == nil ? configuration.lastUsedBeforeStart : .zero))
    noteWaits(at: lapse.adding(nanoseconds: 1))
  }

  /// Records `sched.wait` and `work.wait` for each waiting request whose reasons
  /// differ from those last recorded for it, and forgets the requests no longer
  /// waiting. Nothing is recorded when nothing changed.
  func noteWaits() {
    guard !pendingRequests.isEmpty || !unfinishedWorks.isEmpty || !recordedWaits.isEmpty else { return }
    var waiting: [WaitingRequest: Set<WaitReason>] = [:]
    for identifier in pendingRequests.keys.sorted() {
      if let reasons = waitReasons(for: pendingRequests[identifier]!), !reasons.isEmpty {
        waiting[.taskRequest(identifier)] = reasons
      }
    }
    for work in unfinishedWorks {
      guard let item = works[work], item.phase == .waiting else { continue }
      if let reasons = waitReasons(for: item), !reasons.isEmpty { waiting[.work(work)] = reasons }
    }
    for identifier in pendingRequests.keys.sorted() {
      guard let reasons = waiting[.taskRequest(identifier)], recordedWaits[.taskRequest(identifier)] != reasons
      else { continue }
      record(.schedWait(identifier: identifier, reasons: reasons))
    }
    for work in unfinishedWorks {
      guard let reasons = waiting[.work(work)], recordedWaits[.work(work)] != reasons else { continue }
      record(.workWait(work: work, reasons: reasons))
    }
    recordedWaits = waiting
  }

  /// Notes the waits again at `time`, when a request falls due there (its earliest
  /// date, its delay) with no other event.
  func noteWaits(at time: TraceTime) {
    guard time > now else { return }
    scheduler.schedule(at: time) { [self] in noteWaits() }
  }
}
