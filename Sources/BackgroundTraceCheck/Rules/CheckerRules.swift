import BackgroundTrace
import _BackgroundTraceStorage

/// The rules' side of ``TraceChecker``: it observes the lifecycle walker's transitions
/// as the walker decides them, keeps the deadlines and what was already reported, and
/// collects the findings of the current event.
///
/// What is alive is the walker's: the rules read it from the walker's process they are
/// handed with each transition, and from the walker after the event; they keep no copy
/// (docs/rules.md#how-the-checker-reads-a-trace).
struct CheckerRules: LifecycleObserver, Sendable {
  /// The rules that report.
  let enabled: Set<Rule>
  /// The attempt limit for work whose enqueue declares none.
  let defaultRetryLimit: Int?
  let budget: TraceInterval
  let grace: TraceInterval
  /// What a trace imported from a device log is spared (docs/rules.md#imported-logs).
  var logCapture = LogCapture(isActive: false)
  /// The Android release the trace declares (`meta android=`), for the `fgs-*` rules.
  var androidRelease = AndroidRelease.current
  /// How long after `fgs.start` a service must go foreground (`meta fgs-deadline=`).
  var foregroundDeadline = TraceMetadata.defaultForegroundServiceDeadline
  /// Whether the app holds a standing exemption from the background-start restriction
  /// on its release (`meta fgs-exempt=`).
  var backgroundStartExempt = false
  /// How long a continued-processing run may go with no progress (`meta continued-stall=`).
  var stallWindow = TraceMetadata.defaultContinuedProcessingStallWindow

  // Where we are.
  var now = TraceTime.zero
  var location = 0
  /// The findings of the current event, in order.
  var findings: [Finding] = []

  // What was already reported, so one root cause gives one finding.
  var reportedAfterTerminate = false
  /// Tasks of the current process reported as expired and not ended: their closing is quiet.
  var reportedTasks: Set<Int> = []
  /// Tasks of the current process reported as over budget.
  var overBudgetTasks: Set<Int> = []
  /// Runs reported as not completed: their closing and a later complete are quiet.
  var reportedRuns: Set<Int> = []
  /// Continued-processing runs reported as stalled: once per run.
  var stalledRuns: Set<Int> = []
  /// Each work's attempts stopped by Doze in a row (`work.stop reason=doze`), until one
  /// returns.
  var dozeStops: [String: Int] = [:]
  /// When each work began waiting for its bucket's job quota (`work.wait` with `quota`
  /// among its reasons), until it starts or the quota is no longer a reason.
  var quotaWaitSince: [String: TraceTime] = [:]
  /// A `sched-late-register` finding held until the next event: iOS lets an app register
  /// a continued-processing identifier when the user starts the work, which its
  /// `sched.submit type=continued` then shows (docs/rules.md#sched-late-register).
  var heldLateRegistration: (identifier: String, finding: Finding)?
  /// Works reported past their attempt limit, until an enqueue starts them afresh.
  var retryLimitReported: Set<String> = []
  /// Background sessions whose outstanding wake was reported as not answered: its
  /// closing is quiet, until the next wake.
  var handlerReported: Set<String> = []
  /// Each background session's wakes in a row in which the app started exactly one
  /// transfer from the background, and the transfers started since its last wake
  /// (`net-one-transfer-per-wake`); forgotten when the app comes to the foreground.
  var wakeStreaks: [String: (streak: Int, started: Int)] = [:]
  /// Services of the current process reported as not promoted or as not stopped after
  /// their timeout: their closing is quiet, until they start again.
  var serviceReported: Set<String> = []
  /// Works whose `setForeground` from the background was reported: the `work.refuse`
  /// that answers it is quiet.
  var workForegroundReported: Set<String> = []
  /// Whether the app just moved into the background: the budgets of its open tasks
  /// start once the event is applied (``startOwedBudgets(tasks:process:)``).
  var budgetsOwed = false {
    didSet { if budgetsOwed { owesWork = true } }
  }
  /// Whether the event just applied left findings to collect or budgets to start: one
  /// flag for the checker to test after each event, where testing both read the
  /// findings' buffer at every event.
  var owesWork = false

  var deadlines = DeadlineQueue<TraceTime, Deadline>()
  /// The earliest pending deadline: most events come before it, and comparing with it
  /// spares them a call into the queue.
  var nextDeadline = TraceTime.max

  init(configuration: CheckerConfiguration, budget: TraceInterval, meta: TraceMetadata = TraceMetadata()) {
    self.init(
      enabled: configuration.rules, defaultRetryLimit: configuration.defaultRetryLimit, budget: budget,
      grace: configuration.grace)
    logCapture = LogCapture(meta: meta, workMemory: configuration.finishedWorkMemory)
    androidRelease = meta.androidRelease
    foregroundDeadline = meta.foregroundServiceDeadline
    backgroundStartExempt = meta.backgroundStartExemptions.exempt(on: androidRelease)
    stallWindow = meta.continuedProcessingStallWindow
  }

  private init(enabled: Set<Rule>, defaultRetryLimit: Int?, budget: TraceInterval, grace: TraceInterval) {
    self.enabled = enabled
    self.defaultRetryLimit = defaultRetryLimit
    self.budget = budget
    self.grace = grace
  }

  /// Rules that report nothing, to hold the place of the checker's while they are moved out.
  static var placeholder: CheckerRules {
    CheckerRules(enabled: [], defaultRetryLimit: nil, budget: .zero, grace: .zero)
  }

  /// Reports a finding of `rule` at the current event (messages are built only where a
  /// rule fires).
  mutating func report(_ rule: Rule, _ message: String) {
    guard enabled.contains(rule) else { return }
    findings.append(Finding(rule: rule, location: location, time: now, message: message))
    owesWork = true
  }

  /// Starts the task's budget when the app is in the background.
  @inline(__always)
  mutating func observeTaskBegun(id: Int, _ task: TaskLife, in process: ProcessLife) {
    taskBegun(id, in: process)
  }

  /// Forgets what was reported about the task.
  @inline(__always)
  mutating func observeTaskEnded(id: Int, _ task: TaskLife, in process: ProcessLife) {
    forgetReports(ofTask: id)
  }

  /// Checks the attempt's limit and backoff.
  @inline(__always)
  mutating func observeAttemptStarted(
    work: String, attempt: Int, _ life: WorkLife, backoff: BackoffWait?, in process: ProcessLife
  ) {
    if logCapture.isActive { logCapture.startedWorks.insert(work) }
    attemptStarted(work, attempt: attempt, life, backoff: backoff)
    if !quotaWaitSince.isEmpty, let since = quotaWaitSince.removeValue(forKey: work), let period = life.enqueue.period {
      let interval = WorkSchedule.interval(period)
      if now.interval(since: since) > interval {
        report(
          .workPeriodOutpaced,
          "periodic work \(work) (every \(interval.seconds)) waited \(now.interval(since: since).seconds) for its "
            + "standby bucket's job quota before this attempt: the bucket cannot keep its period (QuotaController)")
      }
    }
  }

  /// Checks a `retry` against the attempt's limit.
  @inline(__always)
  mutating func observeAttemptResulted(
    work: String, attempt: Int, _ outcome: WorkOutcome, _ life: WorkLife, in process: ProcessLife
  ) {
    attemptResulted(work, attempt: attempt, outcome, life)
  }

  /// Forgets that the work went past its attempt limit: it starts afresh.
  @inline(__always)
  mutating func observeWorkEnqueuedAfresh(_ enqueue: WorkEnqueue, in process: ProcessLife) {
    forgetRetryLimit(of: enqueue.work)
  }

  /// Forgets that the work went past its attempt limit: it finished.
  @inline(__always)
  mutating func observeWorkFinished(work: String, _ finished: FinishedWork, in process: ProcessLife) {
    forgetRetryLimit(of: work)
  }

  /// Owes the open tasks their budgets when the app moved into the background.
  @inline(__always)
  mutating func observeStateChanged(
    from previous: AppLifecycleState?, to state: AppLifecycleState, in process: ProcessLife
  ) {
    if state == .background && previous != .background { budgetsOwed = true }
    // The user brought the app to the front: nsurlsessiond resets its delay.
    if state == .active && !wakeStreaks.isEmpty { wakeStreaks.removeAll() }
  }

  /// Checks when and how often the identifier was registered.
  @inline(__always)
  mutating func observeRegistered(identifier: String, ok: Bool, first: TraceTime?, in process: ProcessLife) {
    if logCapture.isActive && !ok { logCapture.failedRegistrations.insert(identifier) }
    registered(identifier, first: first, in: process)
  }

  /// Checks that the submission's identifier is registered.
  @inline(__always)
  mutating func observeSubmitted(_ submission: SchedulerSubmission, registered: Bool, in process: ProcessLife) {
    if !registered { unregistered(submission.identifier, action: "sched.submit", in: process) }
  }

  /// Nothing to check: a launch of an unregistered identifier is another transition.
  @inline(__always)
  mutating func observeRunLaunched(run: Int, _ life: RunLife, request: PendingRequest?, in process: ProcessLife) {
    if life.type == .continued { runProgressed(run, life) }
  }

  /// Checks that a refresh run submitted its next request.
  @inline(__always)
  mutating func observeRunCompleted(run: Int, _ life: RunLife, success: Bool, in process: ProcessLife) {
    if life.type == .continued && life.expiredAt == nil { runStopped(run, life) }
    runCompleted(run, life)
  }

  /// How late an exact alarm may go off before `alarm-exact-deferred` says Doze held it:
  /// a minute, far past a device's delivery delay and short of any Doze idle stretch.
  static let exactAlarmLateness = TraceInterval(.seconds(60))

  /// Applies the rules to one transition.
  mutating func observe(_ transition: LifecycleTransition, in process: ProcessLife) {
    switch transition {
    case .processStarted:
      reportedAfterTerminate = false
      if !reportedTasks.isEmpty { reportedTasks.removeAll() }
      if !overBudgetTasks.isEmpty { overBudgetTasks.removeAll() }
      if !handlerReported.isEmpty { handlerReported.removeAll() }
      if !serviceReported.isEmpty { serviceReported.removeAll() }
      if logCapture.isActive { logCapture.failedRegistrations.removeAll() }
    case .stateChanged(let from, let to): observeStateChanged(from: from, to: to, in: process)
    case .processEnded:
      break
    case .actionWithoutProcess(let kind, let terminatedAt, let reason):
      guard !reportedAfterTerminate else { return }
      reportedAfterTerminate = true  // one root cause: the rest of this process's actions are not checked
      let why = reason.map { " (reason: \($0))" } ?? ""
      report(
        .eventAfterTerminate,
        "\(kind.tag.name) after the app terminated at \(terminatedAt.seconds)\(why) and before a new app.launch")
    case .taskBegun(let id, let task): observeTaskBegun(id: id, task, in: process)
    case .taskEnded(let id, let task): observeTaskEnded(id: id, task, in: process)
    case .taskEndUnmatched(let id, let mismatch): taskEndUnmatched(id, mismatch, in: process)
    case .taskExpired(let id, _):
      insertDeadline(.taskEnd(process: process.number, id: id), at: now + grace)
    case .taskClosed(let id, let task, let end): taskClosed(id, task, end)
    case .taskRefused, .taskExpireUnmatched:
      break
    case .registered(let ident, let ok, let first):
      observeRegistered(identifier: ident, ok: ok, first: first, in: process)
    case .submitted(let submission, let registered):
      observeSubmitted(submission, registered: registered, in: process)
    case .runLaunchedUnregistered(let ident, let run):
      unregistered(ident, action: "sched.launch run=\(run)", in: process)
    case .runExpired(let run, let life):
      if life.type == .continued { runStopped(run, life) }
      insertDeadline(.runComplete(run: run), at: now + grace)
    case .runProgressed(let run, let life): runProgressed(run, life)
    case .runCompleted(let run, let life, let success):
      observeRunCompleted(run: run, life, success: success, in: process)
    case .runCompleteUnmatched(let run, let mismatch): runCompleteUnmatched(run, mismatch)
    case .runClosed(let run, let life, let end): runClosed(run, life, end)
    case .rejected, .requestsCancelled, .runLaunched, .runExpireUnmatched:
      break
    case .workEnqueued(let enqueue, .fresh): observeWorkEnqueuedAfresh(enqueue, in: process)
    case .workEnqueued, .attemptReplaced: break
    case .attemptStarted(let work, let attempt, let life, let backoff):
      observeAttemptStarted(work: work, attempt: attempt, life, backoff: backoff, in: process)
    case .startAfterFinish(let work, _, let finished, let first):
      if first { report(.workAfterFinish, "work \(work) started again after \(finished.phrase)") }
    case .attemptResulted(let work, let attempt, let outcome, let life):
      dozeStops[work] = nil
      observeAttemptResulted(work: work, attempt: attempt, outcome, life, in: process)
    case .resultUnmatched(let work, let attempt, let outcome, let mismatch):
      resultUnmatched(work, attempt: attempt, outcome, mismatch)
    case .workFinished(let work, let finished):
      dozeStops[work] = nil
      quotaWaitSince[work] = nil
      observeWorkFinished(work: work, finished, in: process)
    case .periodEnded(let work): forgetRetryLimit(of: work)
    case .queuedWorkReleased(let enqueue): forgetRetryLimit(of: enqueue.work)
    case .expeditedDemoted(let work, let attempt):
      report(
        .workExpeditedDemoted,
        "expedited work \(work) attempt \(attempt) was stopped when the app's expedited quota ran out: it runs "
          + "again as regular work, deferred (androidx OutOfQuotaPolicy; QuotaController)")
    case .attemptStopped(let work, let attempt, "doze"):
      dozeStops[work, default: 0] += 1
      guard dozeStops[work] == 2 else { break }
      report(
        .workOutlastsDozeWindow,
        "work \(work) attempt \(attempt) was stopped by Doze, as the attempt before it: an attempt longer than a "
          + "maintenance window (a minute in light Doze) never finishes while the device dozes "
          + "(DeviceIdleJobsController; STOP_REASON_DEVICE_STATE)")
    case .attemptStopped, .stopUnmatched, .attemptClosed, .workCancelled:
      break
    case .sessionCreated, .transferSubmitted, .transferFinished, .sessionWoken, .sessionEventsDone, .handlerCalled,
      .handlerNotCalled, .sessionNotRecreated:
      observeTransfer(transition, in: process)
    case .serviceStarted, .servicePromoted, .serviceStopped, .serviceRefused, .serviceTimedOut, .workPromoted,
      .workRefused, .expeditedOutOfQuota, .serviceClosed:
      observeForegroundService(transition, in: process)
    case .suspendedHoldingFileLock(let path, let lockedAt, let shared):
      report(
        .fileLockedAtSuspension,
        "the app was suspended holding the lock it took at \(lockedAt.seconds) on \(path)"
          + (shared ? " (in a shared container)" : "")
          + ": iOS terminates it (0xdead10cc, \"held on to a file lock or SQLite database lock during suspension\")")
    case .requestWaits(.work(let work), let reasons):
      if !reasons.contains(.quota) {
        quotaWaitSince[work] = nil
      } else if quotaWaitSince[work] == nil {
        quotaWaitSince[work] = now
      }
    case .alarmWentOff(let alarm, let due?, .exact?) where now > due + Self.exactAlarmLateness:
      report(
        .alarmExactDeferred,
        "exact alarm \(alarm) was due at \(due)s and went off at \(now)s: setExact does not go off in deep Doze "
          + "(it waits for the maintenance window, AlarmManagerService's mPendingIdleUntil) nor past the standby "
          + "bucket's alarm quota")
    case .alarmRepeatClamped(let alarm, let asked):
      report(
        .alarmRepeatClamped,
        "repeating alarm \(alarm) asked to repeat every \(asked)s: Android repeats it every "
          + "\(RepeatingAlarm.minimumInterval)s at most (AlarmManagerService's MIN_INTERVAL), each up to three "
          + "quarters of that late")
    case .fileLocked, .fileUnlocked, .requestWaits, .alarmWentOff:
      break
    }
  }
}
