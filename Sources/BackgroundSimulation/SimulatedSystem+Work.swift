public import BackgroundTrace

/// One unique work in the simulated queue.
struct WorkItem {
  /// `blocked`: waiting for its prerequisites to succeed (androidx `BLOCKED`).
  enum Phase { case blocked, waiting, running, finished }
  /// How a finished work ended.
  enum Ending { case succeeded, failed, cancelled }

  /// The request, its ``WorkRequest/id`` given.
  var request: WorkRequest
  /// The request's number in the queue, its identity: a replacement under the same
  /// unique name is another request (androidx: another id).
  let number: Int
  /// Whether the attempt numbered ``attempt`` has started: androidx counts a run
  /// attempt (``WorkInfo/runAttemptCount``) when it starts.
  var started = false
  /// Why its last attempt was stopped (``WorkInfo/stopReason``), as its code: the item
  /// is copied on every change, and a code copies no strings.
  var stopReasonCode = WorkStopReason.notStopped.code
  /// How many times it was updated (``WorkInfo/generation``).
  var generation = 0
  /// How many periods of periodic work have ended (androidx `periodCount`): the first
  /// waits for the initial delay and the flex, the later ones for the interval.
  var periods = 0
  var phase = Phase.waiting
  /// How it ended, once finished.
  var ending: Ending?
  /// The runAttemptCount of the next (or current) start.
  var attempt = 0
  /// When the next start may happen.
  var eligible: TraceTime
  /// Periodic work's next schedule time override (androidx `nextScheduleTimeOverride`):
  /// the request's, until a run ends with a success, a failure or a retry.
  var scheduleOverride: TraceTime?
  /// Whether an update set or cleared the override while an attempt ran: androidx's
  /// override generation changed, so the attempt's end leaves the new one in place.
  var overrideChangedInRun = false
  /// androidx's `lastEnqueueTime`: the enqueue, or the last retry. A stopped attempt
  /// keeps it, so the next start waits until it plus the backoff.
  var lastEnqueue: TraceTime
  var timer: VirtualTimeScheduler.TimerID?
  var timeout: VirtualTimeScheduler.TimerID?
  /// Whether it runs as expedited work, drawing on the app's expedited quota.
  var expedited = false
  /// When its running attempt began drawing on the quota (`nil` while its time is
  /// free, ``SimulatedSystem/expeditedTimeIsFree``).
  var expeditedSince: TraceTime?
  /// When its running attempt reaches its time limit as a job (`nil` when it runs as
  /// none: on iOS, or as a foreground service).
  var limitEnd: TraceTime?
  /// When its running expedited attempt's guarantee ends: the quota stops it no sooner.
  var guaranteeEnd: TraceTime?
  /// Whether its running attempt runs as a regular job, in the app's timing session
  /// (``SimulatedSystem/jobSessionSince``).
  var countsAsJob = false
  /// Whether its running attempt started with the app on top before Android 16, which
  /// keeps it out of the timing sessions and the job counts, or off the expedited quota,
  /// to its end (``/BackgroundTrace/AndroidRelease/chargesJobsStartedOnTop``).
  var startedOnTop = false
  /// Whether the running attempt is timed by the job quota: a regular job not started
  /// on top before Android 16.
  var isTimedAsJob: Bool { countsAsJob && !startedOnTop }
  /// Whether that job started with the quota spent, on the restricted bucket's terms
  /// (``SimulatedSystem/runsOutsideQuota(_:)``).
  var startedOutsideQuota = false
  /// When its running attempt went foreground (`setForeground`), drawing on its type's
  /// foreground-service budget on Android 15+ (`dataSync`, `mediaProcessing`).
  var foregroundSince: TraceTime?
  /// The foreground-service type its running attempt went foreground with (`nil`:
  /// untyped, before Android 14).
  var foregroundType: ForegroundServiceType?
  var task: Task<Void, Never>?
  /// The works it was enqueued after (``/BackgroundTrace/WorkContinuation``).
  var prerequisites: [String] = []
  /// The prerequisites that have not succeeded yet; the work is ``Phase/blocked``
  /// until none is left.
  var blockedOn: [String] = []
  /// `append` and `appendOrReplace` enqueues waiting for this work to finish, in order.
  var queued: [(request: WorkRequest, policy: ExistingWorkPolicy)] = []
  /// The output of each work it waited for that has succeeded, in the order they did:
  /// merged into its input after its own (androidx `WorkerWrapper.runWorker`).
  var prerequisiteOutputs: [WorkData] = []
  /// The output of its last success or failure, one-time work only (``WorkInfo/outputData``).
  var outputData = WorkData.empty
  /// What its running attempt last set with `setProgress` (``WorkInfo/progress``).
  var progress = WorkData.empty

  /// The backoff before the next attempt, from the request's own settings.
  var backoff: TraceInterval {
    WorkBackoff.backoff(
      beforeAttempt: attempt, policy: request.backoff, delay: request.backoffDelay.map(TraceInterval.init))
  }

  init(request: WorkRequest, number: Int, at time: TraceTime) {
    self.request = request
    self.number = number
    self.eligible = WorkSchedule.firstRun(of: request.enqueueEvent(policy: nil), enqueuedAt: time)
    self.lastEnqueue = time
    self.scheduleOverride = request.period != nil ? request.nextScheduleTimeOverride : nil
  }

  /// androidx `WorkerWrapper` at a run's end (success, failure or retry):
  /// `resetWorkSpecNextScheduleTimeOverride` clears the override unless its generation
  /// changed since the run began.
  mutating func endRunClearingOverride() {
    if !overrideChangedInRun { scheduleOverride = nil }
    overrideChangedInRun = false
  }
}

/// A WorkManager-style queue: attempts, backoff as androidx computes it, constraints,
/// periodic work and unique-work policies. On Android it is WorkManager itself (it
/// starts the app's process, keeps it running and stops a worker at its job time limit); on
/// iOS an in-process queue that runs only while the app runs (``SimulatedPlatform``).
extension SimulatedSystem: WorkQueue {
  /// Records `work.enqueue` and schedules the work's first start. When unfinished work
  /// with the same id exists, `keep` ignores the request and returns false, `append`
  /// and `appendOrReplace` queue it behind that work, and `replace` (or `nil`) stops it
  /// and starts afresh.
  /// A request androidx refuses to build (``/BackgroundTrace/WorkRequestCheck``)
  /// throws, and nothing is recorded.
  @discardableResult
  public func enqueue(_ request: WorkRequest, policy: ExistingWorkPolicy?) throws(WorkRequestError) -> Bool {
    try request.validate(policy: policy)
    if let policy, policy != .update, request.uniqueName == nil, uniqueWorks[request.work] != nil {
      // The name holds works of their own: the policy acts on them all.
      return try !enqueueUniqueWork(request.work, policy: policy, [request]).works.isEmpty
    }
    var request = request
    if request.id == nil { request.id = nextWorkRequestID() }
    if policy == .update, uniqueWorks[request.work] != nil {
      throw WorkRequestError(.updateChain, work: request.work)  // the name holds several works
    }
    if policy == .update, let existing = works[request.work], existing.ending != .cancelled {
      // androidx WorkerUpdater.enqueueUniquelyNamedPeriodic: UPDATE acts on the one
      // request the name holds, of the same type; over cancelled work, or none, it enqueues.
      guard workInfos(forUniqueWork: request.work).count == 1 else {
        throw WorkRequestError(.updateChain, work: request.work)
      }
      guard (existing.request.period != nil) == (request.period != nil) else {
        throw WorkRequestError(.updateType, work: request.work)
      }
      if existing.phase != .finished {
        // The update keeps the current request's id (androidx copies the WorkSpec with it).
        request.id = existing.request.id
        record(.workEnqueue(request.enqueueEvent(policy: .update)))
        update(request.work, with: request)
      }
      return existing.phase != .finished  // finished one-time work takes no update
    }
    record(.workEnqueue(request.enqueueEvent(policy: policy)))
    if var existing = works[request.work], existing.phase != .finished {
      switch policy {
      case .keep?:
        return false
      case .append?, .appendOrReplace?:
        // Pending appends queue in order, each behind the one before (androidx chains them).
        existing.queued.append((request, policy!))
        works[request.work] = existing
        return true
      case .replace?, nil, .update?:  // `update` of unfinished work returned above
        // androidx stops it with STOP_REASON_CANCELLED_BY_APP (CancelWorkRunnable).
        stop(request.work, reason: .cancelledByApp, reschedule: false)
      }
    } else if let existing = works[request.work], policy == .append,
      let ending = existing.ending, ending != .succeeded
    {
      // androidx EnqueueRunnable: an APPEND onto failed or cancelled work is inserted
      // already failed or cancelled; it never runs.
      var finished = WorkItem(request: request, number: nextWorkRequestNumber(), at: now)
      finished.phase = .finished
      finished.ending = ending
      retiredWorks.append(existing)  // androidx keeps the finished prerequisite
      works[request.work] = finished
      return true
    }
    var item = WorkItem(request: request, number: nextWorkRequestNumber(), at: now)
    if let existing = works[request.work], existing.ending == .succeeded,
      policy == .append || policy == .appendOrReplace
    {
      retiredWorks.append(existing)  // androidx keeps the finished prerequisite
      item.prerequisiteOutputs = [existing.outputData]
    } else {
      // androidx EnqueueRunnable: REPLACE, and KEEP or APPEND_OR_REPLACE over finished
      // work, delete every request of the name before inserting.
      retiredWorks.removeAll { $0.request.work == request.work }
    }
    admit(item)
    return true
  }

  /// Enqueues `request` as work of its own that runs once every work in
  /// `prerequisites` has succeeded (androidx `EnqueueRunnable.enqueueWorkWithPrerequisites`):
  /// blocked while any is unfinished, failed or cancelled at once when one failed or was
  /// cancelled. Records `work.enqueue` and a `work.after` per prerequisite.
  public func enqueue(_ request: WorkRequest, after prerequisites: [String]) throws(WorkRequestError) {
    guard !prerequisites.isEmpty || request.uniqueName != nil else {
      try enqueue(request, policy: nil)
      return
    }
    try request.validate(prerequisites: prerequisites)
    guard prerequisites.allSatisfy({ works[$0] != nil }) else {
      throw WorkRequestError(.prerequisiteUnknown, work: request.work)
    }
    var request = request
    if request.id == nil { request.id = nextWorkRequestID() }
    record(.workEnqueue(request.enqueueEvent(policy: nil)))
    admit(request, after: prerequisites)
  }

  /// Records a `work.after` per prerequisite and puts the request in the queue, blocked
  /// while a prerequisite is unfinished, its `work.enqueue` recorded already. A request
  /// with a unique name (``/BackgroundTrace/WorkRequest/uniqueName``) joins its name's works.
  func admit(_ request: WorkRequest, after prerequisites: [String]) {
    for prerequisite in prerequisites { record(.workAfter(work: request.work, prerequisite: prerequisite)) }
    if let name = request.uniqueName { uniqueWorks[name, default: []].append(request.work) }
    var item = WorkItem(request: request, number: nextWorkRequestNumber(), at: now)
    item.prerequisites = prerequisites
    item.prerequisiteOutputs = prerequisites.compactMap {
      works[$0]?.ending == .succeeded ? works[$0]?.outputData : nil
    }
    let endings = prerequisites.compactMap { works[$0]?.ending }
    if let ending = endings.first(where: { $0 == .failed }) ?? endings.first(where: { $0 == .cancelled }) {
      item.phase = .finished
      item.ending = ending
    } else {
      item.blockedOn = prerequisites.filter { works[$0]?.phase != .finished }
      if !item.blockedOn.isEmpty { item.phase = .blocked }
      for prerequisite in item.blockedOn { workDependents[prerequisite, default: []].append(request.work) }
    }
    admit(item)
  }

  /// Puts a new request in the queue: a waiting one is scheduled, and an expedited one
  /// draws on the quota; a blocked or finished one only takes its place.
  func admit(_ item: WorkItem) {
    var item = item
    let request = item.request
    if item.phase != .finished {
      recordedWaits[.work(request.work)] = nil  // a new request: its wait is recorded afresh
      if let policy = request.expedited, configuration.platform == .android {
        // androidx OutOfQuotaPolicy: with no expedited quota left, RUN_AS_NON_EXPEDITED_WORK_REQUEST
        // "will fallback to a regular work request"; DROP_WORK_REQUEST "will be dropped and no
        // work requests are enqueued".
        // Android 11 and earlier have no expedited jobs: WorkManager runs the work as a
        // foreground service instead, with no quota. JobScheduler takes an expedited job
        // while its time is free as well (QuotaController.isWithinEJQuotaLocked).
        if expeditedQuotaLeft > .zero || expeditedTimeIsFree
          || configuration.androidRelease.runsExpeditedWorkAsForegroundService
        {
          item.expedited = true
        } else {
          record(.workQuota(work: request.work, policy: policy))
          if policy == .drop { return }
        }
      }
    }
    if workPosition[request.work] == nil {
      workPosition[request.work] = workOrder.count
      workOrder.append(request.work)
    }
    works[request.work] = item
    guard item.phase != .finished else { return }
    markUnfinished(request.work)
    scheduleStart(request.work, notingWaits: false)
    // The system notes the wait once the app's call has returned: an app that enqueues
    // several requests in one call records them all first, in a replay as here.
    scheduler.schedule(after: .zero) { [self] in noteWaits() }
  }

  /// Updates the request with `request`'s id to `request`'s settings (androidx
  /// `updateWork`, `WorkerUpdater.updateWorkImpl`): it keeps its id, state, attempts and
  /// enqueue time, its generation grows by one, and it records `work.enqueue
  /// policy=update` with the request's id. A request appended behind unfinished work is
  /// updated where it waits.
  ///
  /// - Returns: what the update did: nothing for finished work; the next attempt's
  ///   settings for a running one; the next run's for a waiting one.
  /// - Throws: ``/BackgroundTrace/WorkRequestError`` for a request the queue does not
  ///   hold (``/BackgroundTrace/WorkRequestCheck/updateUnknown``), one that would change
  ///   one-time work to periodic or back (``/BackgroundTrace/WorkRequestCheck/updateType``),
  ///   or one WorkManager refuses to build.
  @discardableResult
  public func updateWork(_ request: WorkRequest) throws(WorkRequestError) -> WorkUpdateResult {
    try request.validate()
    guard let id = request.id, let info = workInfo(id: id) else {
      throw WorkRequestError(.updateUnknown, work: request.work)
    }
    if info.state.isFinished { return .notApplied }
    guard (info.periodicity != nil) == (request.period != nil) else {
      throw WorkRequestError(.updateType, work: info.work)
    }
    var updated = request
    updated.work = info.work
    record(.workEnqueue(updated.enqueueEvent(policy: .update)))
    if var item = works[info.work], let index = item.queued.firstIndex(where: { $0.request.id == id }) {
      item.queued[index].request = updated
      works[info.work] = item
      return .appliedImmediately
    }
    return update(info.work, with: updated)
  }

  /// Gives the current request of `work` the settings of `request`, as
  /// `WorkerUpdater.updateWorkImpl` copies them: id, state, run attempt count, last
  /// enqueue time and period count stay; a running attempt runs on.
  @discardableResult
  private func update(_ work: String, with request: WorkRequest) -> WorkUpdateResult {
    guard var item = works[work] else { return .notApplied }
    var request = request
    request.id = item.request.id
    item.request = request
    item.generation += 1
    // androidx updateWorkImpl: a request that set or cleared the override replaces it
    // (its override generation grows); one that did neither keeps the work's.
    if request.changesNextScheduleTimeOverride {
      item.scheduleOverride = request.period != nil ? request.nextScheduleTimeOverride : nil
      if item.phase == .running { item.overrideChangedInRun = true }
    }
    guard item.phase == .waiting else {
      works[work] = item
      return .appliedForNextRun
    }
    item.eligible = nextRun(of: item)
    works[work] = item
    scheduleStart(work)
    return .appliedImmediately
  }

  /// When a waiting request may run next, from its settings (androidx
  /// `WorkSpec.calculateNextRunTime`): with a next schedule time override, at it; after
  /// a retry or a stop, its backoff from the last enqueue time; periodic work past its
  /// first period, an interval after it; otherwise its first run
  /// (``/BackgroundTrace/WorkSchedule``).
  private func nextRun(of item: WorkItem) -> TraceTime {
    if let override = item.scheduleOverride {
      return WorkSchedule.overriddenRun(at: override, periods: item.periods, lastEnqueue: item.lastEnqueue)
    }
    if item.attempt > 0 { return max(now, item.lastEnqueue + item.backoff) }
    if let period = item.request.period, item.periods > 0 {
      return item.lastEnqueue + WorkSchedule.interval(TraceInterval(period))
    }
    return WorkSchedule.firstRun(of: item.request.enqueueEvent(policy: nil), enqueuedAt: item.lastEnqueue)
  }

  /// Records `work.cancel`, stops a running attempt (`work.stop reason=cancelled`) and
  /// drops any request appended behind the work.
  public func cancel(work: String) {
    record(.workCancel(work: work))
    if !uniqueWorks.isEmpty { cancelWorks(ofUniqueName: work) }
    guard works[work]?.phase != .finished else { return }
    endCancelled(work)
    noteWaits()
  }

  /// Ends `work` as cancelled by the app: a running attempt is stopped
  /// (`STOP_REASON_CANCELLED_BY_APP`, recorded), and the work finishes cancelled.
  func endCancelled(_ work: String) {
    stop(work, reason: .cancelledByApp, reschedule: false)
    finish(work, ending: .cancelled)
  }

  /// Adds `work` to ``unfinishedWorks`` in its place, unless it is there.
  private func markUnfinished(_ work: String) {
    guard !unfinishedWorks.contains(work), let position = workPosition[work] else { return }
    let index = unfinishedWorks.firstIndex { workPosition[$0]! > position } ?? unfinishedWorks.endIndex
    unfinishedWorks.insert(work, at: index)
  }

  /// The next id the queue gives a request that has none: drawn from the run's seed, in
  /// the order of the enqueues.
  func nextWorkRequestID() -> WorkRequestID {
    WorkRequestID(random: workIDRandom.next(), workIDRandom.next())
  }

  /// The next request's number (``WorkItem/number``).
  func nextWorkRequestNumber() -> Int {
    workRequestCount += 1
    return workRequestCount
  }

  private func scheduleStart(_ work: String, notingWaits: Bool = true) {
    guard var item = works[work], item.phase == .waiting else { return }
    if let timer = item.timer { scheduler.cancel(timer) }
    let time = max(item.eligible, now).adding(nanoseconds: TraceTime(configuration.workDispatchDelay).nanoseconds)
    item.timer = scheduler.schedule(at: time) { [self] in
      works[work]?.timer = nil
      startIfEligible(work)
    }
    works[work] = item
    if notingWaits { noteWaits() }
    noteWaits(at: item.eligible)
  }

  /// iOS: the app runs again (launched, woken or opened), so its in-process queue
  /// starts the work that became due while it could not run — as app code, after the
  /// app code that was waiting to resume (a timer at this instant runs after the jobs
  /// already queued).
  func startInProcessWork() {
    guard configuration.platform == .ios else { return }
    scheduler.schedule(after: .zero) { [self] in
      guard appRuns else { return }
      stopWorkMissingConstraints()
      startEligibleWork()
    }
  }

  func startEligibleWork() {
    // Only unfinished work can start: walking every work ever enqueued copied each.
    for work in unfinishedWorks where works[work]?.phase == .waiting && works[work]?.timer == nil {
      startIfEligible(work)
    }
    noteWaits()
  }

  /// The first constraint of `request` the device does not meet now, in declaration
  /// order, and each after it to `body`; nothing is built when none is unmet.
  func forEachUnmetConstraint(of request: WorkRequest, _ body: (WorkConstraint, DeviceConditions) -> Void) {
    guard
      request.requiredNetworkType != nil || request.requiresCharging || request.requiresBatteryNotLow
        || request.requiresStorageNotLow || request.requiresDeviceIdle
    else { return }
    let device = deviceConditions
    for constraint in WorkConstraint.allCases where request.needs(constraint) && !constraint.isMet(by: device) {
      body(constraint, device)
    }
  }

  /// The first constraint of `request` the device does not meet now, if any.
  func firstUnmetConstraint(of request: WorkRequest) -> WorkConstraint? {
    var first: WorkConstraint?
    forEachUnmetConstraint(of: request) { constraint, _ in if first == nil { first = constraint } }
    return first
  }

  /// Starts the work when nothing holds it back (``waitReasons(for:)-(WorkItem)``); otherwise
  /// records why it waits.
  private func startIfEligible(_ work: String) {
    guard var item = works[work], item.phase == .waiting, item.timer == nil else { return }
    guard let reasons = waitReasons(for: item), reasons.isEmpty else {
      if waitReasons(for: item)?.contains(.quota) == true { scheduleJobQuotaRecheck() }
      return noteWaits()
    }
    recordedWaits[.work(work)] = nil
    // WorkManager (through JobScheduler) starts or wakes the app's process; an iOS
    // in-process queue starts work only while the app runs (a reason above).
    if !appRuns {
      wakeForBackgroundWork()
      // Starting the process may have started other work, which may have used up what
      // this start needs (the job counts): decide again, as the process now runs.
      if appRuns { return startIfEligible(work) }
    }
    let attempt = item.attempt
    item.phase = .running
    item.started = true
    record(.workStart(work: work, attempt: attempt))
    let worker = item.request.worker
    let number = item.number
    guard let input = item.request.input(after: item.prerequisiteOutputs) else {
      // androidx WorkerWrapper: inputs the merger refuses (or merges past the size
      // limit) fail the work before its worker is created.
      works[work] = item
      returned(work, attempt: attempt, result: .failure)
      return
    }
    let context = WorkContext(
      work: work, runAttemptCount: attempt,
      foreground: { [self] (info) throws(ForegroundServiceError) in
        try promoteWorker(work, request: number, attempt: attempt, info: info)
      },
      inputData: input,
      progress: { [self] data in setProgress(data, of: work, request: number, attempt: attempt) })
    if configuration.platform == .android && item.expedited
      && configuration.androidRelease.runsExpeditedWorkAsForegroundService
    {
      // androidx runs expedited work as a foreground service before Android 12, from the
      // worker's getForegroundInfo(); without one the run fails ("Expedited WorkRequests
      // require a Worker to provide an implementation for `getForegroundInfo()`").
      guard worker.foregroundInfo() != nil else {
        works[work] = item
        returned(work, attempt: attempt, result: .failure)
        return
      }
      item.task = Task(executorPreference: scheduler.executor) { [self] in
        let result = await worker.result(of: context)
        returned(work, attempt: attempt, result: result)
      }
      works[work] = item
      return
    }
    if configuration.platform == .android {
      // JobServiceContext: a job runs at most the larger of its maximum and its
      // guarantee. An expedited job's maximum is the expedited quota it has left, with
      // a 3-minute guarantee from Android 14; then it is stopped (STOP_REASON_QUOTA)
      // and runs on as regular work. A regular job's is regularJobLimit(for:).
      let release = configuration.androidRelease
      var limit = configuration.workTimeout
      if item.expedited {
        let guarantee = release.hasJobRuntimeGuarantees ? configuration.expeditedGuarantee : .zero
        item.guaranteeEnd = now + TraceInterval(guarantee)
        item.startedOnTop = jobStartsFreeOnTop
        item.expeditedSince = expeditedTimeIsFree || item.startedOnTop ? nil : now
      } else {
        limit = regularJobLimit(for: item)
        beginJob(&item)
      }
      item.limitEnd = now + TraceInterval(limit)
    }
    item.task = Task(executorPreference: scheduler.executor) { [self] in
      let result = await worker.result(of: context)
      returned(work, attempt: attempt, result: result)
    }
    works[work] = item
    if item.expedited {
      reviseExpeditedCharging()
    } else {
      scheduleJobLimit(work)
    }
  }

  /// The running attempt set its progress: WorkInfo reports it until the worker returns
  /// (androidx `WorkProgressUpdater`, which ignores progress of work not running).
  private func setProgress(_ data: WorkData, of work: String, request number: Int, attempt: Int) {
    guard var item = works[work], item.number == number, item.phase == .running, item.attempt == attempt else {
      return
    }
    item.progress = data
    works[work] = item
    if !workInfoWatches.isEmpty { readWatchedWorkInfosSoon() }
  }

  /// Schedules the running attempt's stop as a job: at its time limit (`timeout`), or,
  /// for expedited work whose time is charged, when the quota left runs out, no sooner
  /// than its guarantee (`quota`; it then runs on as regular work), whichever comes
  /// first.
  func scheduleJobLimit(_ work: String) {
    guard var item = works[work], item.phase == .running, let limitEnd = item.limitEnd else { return }
    if let timeout = item.timeout { scheduler.cancel(timeout) }
    var end = limitEnd
    var reason = WorkStopReason.timeout
    if item.expedited, item.expeditedSince != nil {
      let quotaEnd = max(item.guaranteeEnd ?? now, now + TraceInterval(max(expeditedQuotaLeft, .zero)))
      if quotaEnd < limitEnd {
        end = quotaEnd
        reason = .quota
      }
    }
    item.timeout = scheduler.schedule(at: end) { [self, reason] in stop(work, reason: reason, reschedule: true) }
    works[work] = item
  }

  /// The running attempt called `setForeground(info)`: `work.foreground`, and WorkManager
  /// starts its `SystemForegroundService` for it (androidx `Processor.startForeground`:
  /// `ContextCompat.startForegroundService`), which calls `startForeground` with the
  /// info's type (`SystemForegroundService.startForeground`). Then, as the service would:
  ///
  /// - from the background on Android 12+, outside the exemptions, the start throws
  ///   `ForegroundServiceStartNotAllowedException` to the worker (androidx
  ///   `WorkForegroundUpdater`: "This will fail when the process is subject to
  ///   foreground service restrictions. Propagate the exception to the caller."):
  ///   `work.refuse reason=background`, and `setForeground` throws;
  /// - with no type on Android 14+ `startForeground` throws
  ///   `MissingForegroundServiceTypeException` on the main thread, which
  ///   `SystemForegroundService` does not catch (it catches only
  ///   `ForegroundServiceStartNotAllowedException`): `work.refuse reason=no-type`, and
  ///   the app crashes;
  /// - with the type's daily time spent `startForeground` throws "Time limit already
  ///   exhausted", which `SystemForegroundService` catches and logs ("Unable to start
  ///   foreground service"): `work.refuse reason=exhausted`, and the worker stays a job;
  /// - otherwise it runs as a foreground service, no longer stopped at its job time limit:
  ///   androidx `Processor.stopWork` ignores the job's stop for it ("Ignored stopWork.
  ///   WorkerWrapper … is in foreground"); on Android 15+ a `dataSync` or
  ///   `mediaProcessing` worker draws on its type's daily time.
  ///
  /// A refused worker keeps its job time limit and its quota. A call after the attempt
  /// ended — the worker returned, was stopped, or its request was replaced or cancelled
  /// (the request's number, not its unique name, says which) — is refused
  /// `not-running` and throws, as androidx `WorkForegroundUpdater` throws
  /// `IllegalStateException` ("Calls to setForegroundAsync() must complete before a
  /// ListenableWorker signals completion of work").
  private func promoteWorker(
    _ work: String, request: Int, attempt: Int, info: ForegroundInfo
  ) throws(ForegroundServiceError) {
    guard processRunning, !unwindingCrash else { return }
    record(.workForeground(work: work, attempt: attempt))
    guard var item = works[work], item.number == request, item.phase == .running, item.attempt == attempt else {
      record(.workRefuse(work: work, attempt: attempt, reason: .notRunning))
      throw ForegroundServiceError(.notRunning, service: work)
    }
    let release = configuration.androidRelease
    if refusesBackgroundStart {
      record(.workRefuse(work: work, attempt: attempt, reason: .background))
      throw ForegroundServiceError(.background, service: work)
    }
    if info.type == nil && release.requiresServiceType {
      record(.workRefuse(work: work, attempt: attempt, reason: .noType))
      let process = processNumber
      scheduler.schedule(after: .zero) { [self] in
        guard processRunning && processNumber == process else { return }
        crash("MissingForegroundServiceTypeException: Starting FGS without a type (work \(work))")
      }
      return
    }
    if let type = info.type, let reason = missingPermission(for: type) {
      // SystemForegroundService's startForeground throws SecurityException, which it
      // does not catch.
      record(.workRefuse(work: work, attempt: attempt, reason: reason))
      let process = processNumber
      let error = ForegroundServiceError(reason, service: work, type: type)
      scheduler.schedule(after: .zero) { [self] in
        guard processRunning && processNumber == process else { return }
        crash(error.description)
      }
      return
    }
    if let type = info.type {
      resetBudgetIfOnTop(type)
      if let left = timeLeft(for: type), left <= .zero {
        record(.workRefuse(work: work, attempt: attempt, reason: .exhausted))
        return
      }
      item = works[work] ?? item
    }
    if let timeout = item.timeout { scheduler.cancel(timeout) }
    item.timeout = nil
    item.limitEnd = nil
    chargeExpedited(&item)  // a foreground worker runs as a foreground service, not on the quota
    endJob(&item, of: work)
    item.expedited = false
    item.foregroundType = info.type
    item.foregroundSince = now
    works[work] = item
    scheduleForegroundLimit(work)
    noteForegroundServiceForJobs()
  }

  /// A promoted worker's time limit: its type's daily time on Android 15+, a
  /// `shortService`'s 3 minutes on Android 14+. When it is spent, androidx
  /// `SystemForegroundDispatcher.onTimeout` ("Foreground service timed out") stops the
  /// works of that type with `STOP_REASON_FOREGROUND_SERVICE_TIMEOUT` (`work.stop
  /// reason=foreground-timeout`) and stops the service, so the app does not crash; the
  /// work runs again after its backoff.
  func scheduleForegroundLimit(_ work: String) {
    guard var item = works[work], item.phase == .running, item.foregroundSince != nil, let type = item.foregroundType
    else { return }
    let limit: Duration
    if type == .shortService && configuration.androidRelease.hasShortServices {
      limit = configuration.shortServiceLimit
    } else if let left = timeLeft(for: type) {
      limit = left
    } else {
      return
    }
    if let timeout = item.timeout { scheduler.cancel(timeout) }
    item.timeout = scheduler.schedule(after: max(limit, .zero)) { [self] in
      stop(work, reason: .foregroundServiceTimeout, reschedule: true)
    }
    works[work] = item
  }

  /// Adds the running attempt's foreground time to its type's daily budget.
  private func chargeForeground(_ item: inout WorkItem) {
    guard let since = item.foregroundSince, let type = item.foregroundType else { return }
    item.foregroundSince = nil
    item.foregroundType = nil
    if timeLeft(for: type) != nil { charge(type, from: since) }
  }

  /// A worker returned: record it unless the system already stopped that attempt. Its
  /// progress is cleared (androidx `WorkerWrapper.onWorkFinished`), and one-time work
  /// keeps a success's or failure's output. Output WorkManager cannot take fails the
  /// attempt, as the `IllegalStateException` building it would in `doWork`.
  private func returned(_ work: String, attempt: Int, result: WorkResult) {
    guard var item = works[work], item.phase == .running, item.attempt == attempt else { return }
    let result = result.takenByWorkManager
    item.progress = .empty
    if let output = item.request.keptOutput(of: result) { item.outputData = output }
    record(.workResult(work: work, attempt: attempt, outcome: result.outcome, tags: item.request.traceTags))
    if let timeout = item.timeout { scheduler.cancel(timeout) }
    item.timeout = nil
    let wasForeground = item.foregroundSince != nil
    defer { if wasForeground { noteForegroundServiceForJobs() } }
    chargeExpedited(&item)
    chargeForeground(&item)
    endJob(&item, of: work)
    item.task = nil
    defer { suspendIfIdle(after: idleSuspensionDelay) }
    switch result.outcome {
    case .retry:
      item.phase = .waiting
      item.attempt += 1
      item.started = false
      item.lastEnqueue = now
      item.endRunClearingOverride()
      item.eligible = nextRun(of: item)
      works[work] = item
      scheduleStart(work)
    case .success, .failure:
      if item.request.period != nil, item.queued.isEmpty {
        // Periodic work: the next period starts afresh (the attempt count resets).
        item.phase = .waiting
        item.attempt = 0
        item.started = false
        item.periods += 1
        item.lastEnqueue = now
        item.endRunClearingOverride()
        item.eligible = nextRun(of: item)
        works[work] = item
        scheduleStart(work)
      } else {
        works[work] = item
        finish(work, ending: result.outcome == .failure ? .failed : .succeeded)
      }
    }
  }

  /// Stops a running attempt (`work.stop`); with `reschedule` it runs again with the
  /// next attempt number once eligible.
  func stop(_ work: String, reason: WorkStopReason, reschedule: Bool) {
    guard var item = works[work] else { return }
    let wasForeground = item.phase == .running && item.foregroundSince != nil
    defer { if wasForeground { noteForegroundServiceForJobs() } }
    if let timer = item.timer { scheduler.cancel(timer) }
    item.timer = nil
    if item.phase == .running {
      record(.workStop(work: work, attempt: item.attempt, reason: reason.word!, tags: item.request.traceTags))
      if let timeout = item.timeout { scheduler.cancel(timeout) }
      item.timeout = nil
      chargeExpedited(&item)
      chargeForeground(&item)
      endJob(&item, of: work)
      if reason == .quota { item.expedited = false }
      item.stopReasonCode = reason.code
      item.started = false
      item.task?.cancel()
      item.task = nil
      item.attempt += 1
      item.phase = .waiting
      // androidx resetWorkerStatus keeps lastEnqueueTime and the override, and
      // calculateNextRunTime holds an attempt past the first until the override, or
      // else lastEnqueueTime + backoff(runAttemptCount).
      item.eligible = nextRun(of: item)
    }
    works[work] = item
    if reschedule { scheduleStart(work) }
  }

  /// Ends a work. After a success the first request appended behind it takes its
  /// place (the others stay queued behind that one); after a failure or a cancel the
  /// requests queued behind it end the same way and never run, as androidx fails or
  /// cancels a work's dependents. The works waiting for it (`work.after`) are released
  /// once its last request has ended, as the lifecycle model releases them.
  func finish(_ work: String, ending: WorkItem.Ending) {
    guard var item = works[work] else { return }
    item.phase = .finished
    item.ending = ending
    if let timer = item.timer { scheduler.cancel(timer) }
    item.timer = nil
    let queued = item.queued
    item.queued.removeAll()
    works[work] = item
    let output = item.outputData
    guard ending == .succeeded, let next = queued.first else {
      unfinishedWorks.removeAll { $0 == work }
      for entry in queued {  // androidx fails or cancels the dependents; they stay to be read
        var dependent = WorkItem(request: entry.request, number: nextWorkRequestNumber(), at: now)
        dependent.phase = .finished
        dependent.ending = ending
        retiredWorks.append(dependent)
      }
      // The work's chain has ended: what waits for it waits for its last request
      // (androidx makes a step after the name's chain depend on its leaf).
      releaseDependents(of: work, ending: ending, output: output)
      return
    }
    retiredWorks.append(item)
    var successor = WorkItem(request: next.request, number: nextWorkRequestNumber(), at: now)
    successor.queued = Array(queued.dropFirst())
    successor.prerequisiteOutputs = [output]  // androidx appends it after the work's leaves
    works[work] = successor
    scheduleStart(work)
  }

  /// A prerequisite ended: after its success each dependent no longer blocked is
  /// enqueued (androidx `WorkerWrapper`: ENQUEUED, its `lastEnqueueTime` now, so its
  /// initial delay counts from here); after its failure or cancel each dependent ends
  /// the same way, and theirs after them (`iterativelyFailWorkAndDependents`,
  /// `CancelWorkRunnable`). The trace records nothing for them: `work.after` said it.
  private func releaseDependents(of work: String, ending: WorkItem.Ending, output: WorkData) {
    guard !workDependents.isEmpty, let dependents = workDependents.removeValue(forKey: work) else { return }
    for dependent in dependents {
      guard var item = works[dependent], item.phase == .blocked else { continue }
      guard ending == .succeeded else {
        finish(dependent, ending: ending)
        continue
      }
      item.blockedOn.removeAll { $0 == work }
      item.prerequisiteOutputs.append(output)
      guard item.blockedOn.isEmpty else {
        works[dependent] = item
        continue
      }
      item.phase = .waiting
      item.lastEnqueue = now
      item.eligible = WorkSchedule.firstRun(of: item.request.enqueueEvent(policy: nil), enqueuedAt: now)
      works[dependent] = item
      scheduleStart(dependent)
    }
  }

  func stopAllWork(reason: WorkStopReason) {
    for work in unfinishedWorks where works[work]?.phase == .running {
      stop(work, reason: reason, reschedule: true)
    }
  }

  func stopWorkMissingConstraints() {
    // An iOS in-process queue notices a lost constraint only while the app runs.
    if configuration.platform == .ios && !appRuns { return }
    for work in unfinishedWorks {
      guard let item = works[work], item.phase == .running, let lost = firstUnmetConstraint(of: item.request)
      else { continue }
      stop(work, reason: lost.stopReason, reschedule: true)
    }
    stopJobsOutsideQuotaNoLongerAllowed()
  }
}
