package import BackgroundTrace

/// One change in what is alive, as ``LifecycleWalker`` decides it from an event.
///
/// Consumers (the checker's rules, the replay timeline, the exports' timeline, the
/// statistics, the replayer) switch over these exhaustively, so a new case is a
/// compile error in every one of them until it is handled.
///
/// Only the two cases that carry a ``WorkLife`` are `indirect`, so that the enum stays
/// about 100 bytes: an indirect case allocates a box each time the walker builds it,
/// which is dearer than passing a larger enum.
package enum LifecycleTransition: Sendable {
  // MARK: Processes

  /// A process started: at `app.launch`, or at the first event of a trace that does not
  /// start with one (`implicit`).
  case processStarted(ProcessLife)
  /// The app moved to another state.
  case stateChanged(from: AppLifecycleState?, to: AppLifecycleState)
  /// The process ended (terminated, relaunched, or the trace ended while it ran), after
  /// the tasks, runs and attempts it held were closed.
  case processEnded(ProcessEnd)
  /// An app action came while no process runs (after `app.terminate`, before the next
  /// `app.launch`); nothing it says is applied.
  case actionWithoutProcess(TraceEvent.Kind, terminatedAt: TraceTime, reason: String?)

  // MARK: UIKit tasks

  /// `task.begin` with a positive id.
  case taskBegun(id: Int, TaskLife)
  /// `task.begin id=0`: the system refused the task.
  case taskRefused(name: String?)
  /// `task.end` of an open task.
  case taskEnded(id: Int, TaskLife)
  /// `task.end` that matches no open task.
  case taskEndUnmatched(id: Int, TaskEndMismatch)
  /// `task.expire` of an open task that had not expired.
  case taskExpired(id: Int, TaskLife)
  /// `task.expire` for no open task, or for one that had already expired.
  case taskExpireUnmatched(id: Int)
  /// An open task its process can no longer end: it is closed here, and a later
  /// `task.end` of it is ``TaskEndMismatch/closedEarlier``.
  case taskClosed(id: Int, TaskLife, ProcessEnd)

  // MARK: BGTaskScheduler

  /// `sched.register`; `first` is the earlier successful registration in this process.
  case registered(identifier: String, ok: Bool, first: TraceTime?)
  /// `sched.submit`; `registered` tells whether the identifier has a handler in this process.
  case submitted(SchedulerSubmission, registered: Bool)
  /// `sched.reject`.
  case rejected(identifier: String, SchedulerRejection)
  /// `sched.cancel`.
  case requestsCancelled(SchedulerCancelTarget)
  /// `sched.launch` of a registered identifier; `request` is the pending submission it
  /// answers, when there was one.
  case runLaunched(run: Int, RunLife, request: PendingRequest?)
  /// `sched.launch` of an identifier with no launch handler in this process: no run is
  /// tracked.
  case runLaunchedUnregistered(identifier: String, run: Int)
  /// `sched.expire` of an open run that had not expired.
  case runExpired(run: Int, RunLife)
  /// `sched.progress` that moved an open, unexpired run's progress (a report of the
  /// counts it had is no progress).
  case runProgressed(run: Int, RunLife)
  /// `sched.expire` for no open run, or for one that had already expired.
  case runExpireUnmatched(run: Int)
  /// `sched.complete` of an open run.
  case runCompleted(run: Int, RunLife, success: Bool)
  /// `sched.complete` that matches no open run.
  case runCompleteUnmatched(run: Int, RunCompleteMismatch)
  /// An open run its process can no longer complete.
  case runClosed(run: Int, RunLife, ProcessEnd)

  // MARK: WorkManager

  /// `work.enqueue`, and what it did.
  case workEnqueued(WorkEnqueue, EnqueueEffect)
  /// A `policy=replace` enqueue took the place of the request whose attempt `attempt`
  /// runs (androidx cancels it): its stop or a late result is about it, not the new
  /// request. Comes just before the enqueue's own transition.
  case attemptReplaced(work: String, attempt: Int)
  /// `work.start` of unfinished work; `backoff` is the backoff the start had to wait
  /// for, when the attempt right before it returned `retry`.
  indirect case attemptStarted(work: String, attempt: Int, WorkLife, backoff: BackoffWait?)
  /// `work.start` of one-time work that had finished. Only the first such start after a
  /// finish has `first == true`; the work stays finished.
  case startAfterFinish(work: String, attempt: Int, FinishedWork, first: Bool)
  /// `work.result` of the running attempt.
  indirect case attemptResulted(work: String, attempt: Int, WorkOutcome, WorkLife)
  /// `work.result` that matches no running attempt.
  case resultUnmatched(work: String, attempt: Int, WorkOutcome, WorkResultMismatch)
  /// `work.stop` of the running attempt.
  case attemptStopped(work: String, attempt: Int, reason: String)
  /// `work.stop reason=quota` of an attempt that ran as expedited work: the expedited
  /// quota ran out, and the work runs on as regular work (after ``attemptStopped``).
  case expeditedDemoted(work: String, attempt: Int)
  /// `work.stop` that matches no running attempt.
  case stopUnmatched(work: String, attempt: Int)
  /// A running attempt whose process ended (terminated, relaunched) or that was still
  /// running when the trace ended.
  case attemptClosed(work: String, attempt: Int, ProcessEnd)
  /// `work.cancel`.
  case workCancelled(work: String)
  /// One-time work finished (success, failure, cancellation), with the work queued
  /// behind it finished too when it did not succeed.
  case workFinished(work: String, FinishedWork)
  /// Periodic work ended one period: the next starts afresh.
  case periodEnded(work: String)
  /// A work queued behind one that succeeded takes its place.
  case queuedWorkReleased(WorkEnqueue)

  // MARK: Background URLSession transfers

  /// `net.create`; `first` is when this process created the session before, if it did.
  case sessionCreated(session: String, first: TraceTime?)
  /// `net.submit`.
  case transferSubmitted(session: String, task: Int, TransferKind, discretionary: Bool?)
  /// `net.finish`.
  case transferFinished(session: String, task: Int, TransferOutcome)
  /// `net.wake`: the app owes the session's completion handler a call.
  case sessionWoken(session: String)
  /// `net.events-done`; `wokenAt` is the wake it ends, if one is outstanding.
  case sessionEventsDone(session: String, wokenAt: TraceTime?)
  /// `net.handler`: the wake it answers (`nil`: none is outstanding), and when the
  /// session's events were done (`nil`: not yet).
  case handlerCalled(session: String, wokenAt: TraceTime?, eventsDoneAt: TraceTime?)
  /// A wake whose handler the app did not call before its process was suspended or
  /// ended: the wake is over.
  case handlerNotCalled(session: String, wokenAt: TraceTime, eventsDoneAt: TraceTime?, ProcessEnd)
  /// A session the system woke the process for and the process never created, when
  /// it ended: its events could not be delivered.
  case sessionNotRecreated(session: String, wokenAt: TraceTime, ProcessEnd)

  // MARK: Foreground services (Android)

  /// `fgs.start`: the service must go foreground; `inBackground` when the app was in
  /// the background then, outside every exemption the model knows.
  case serviceStarted(service: String, inBackground: Bool)
  /// `fgs.foreground`: the service runs in the foreground with `type` (`nil`: none).
  case servicePromoted(service: String, type: ForegroundServiceType?)
  /// `fgs.stop`: `life` is what the service was (`nil`: not running).
  case serviceStopped(service: String, ServiceLife?)
  /// `fgs.refuse`: the start threw; the service does not run.
  case serviceRefused(service: String, ForegroundServiceRefusal)
  /// `fgs.timeout`: the service's type's time is spent; it must stop.
  case serviceTimedOut(service: String, ForegroundServiceType)
  /// `work.foreground`: the running attempt asked to run as a foreground service;
  /// `inBackground` as for ``serviceStarted(service:inBackground:)``.
  case workPromoted(work: String, attempt: Int, inBackground: Bool)
  /// `work.refuse`: the system refused the attempt's `setForeground`; it stays a job.
  case workRefused(work: String, attempt: Int, ForegroundServiceRefusal)
  /// `work.quota`: an expedited request came with the quota spent; `policy` says what
  /// the system did (`drop`: it never runs; `runAsRegular`: it runs as regular work).
  case expeditedOutOfQuota(work: String, policy: ExpeditedPolicy)
  /// `file.lock`: the app took a lock on the file at `path`.
  case fileLocked(path: String, shared: Bool)
  /// `file.unlock`: the app released its lock on the file at `path`.
  case fileUnlocked(path: String)
  /// The app was suspended while it held the lock on the file at `path`, taken at
  /// `lockedAt` (iOS terminates it: `0xdead10cc`).
  case suspendedHoldingFileLock(path: String, lockedAt: TraceTime, shared: Bool)
  /// `wait`: the system says why `request` has not started (``/BackgroundTrace/WaitReason``).
  case requestWaits(WaitingRequest, reasons: Set<WaitReason>)
  /// A service still running when its process ended: it ends with it.
  case serviceClosed(service: String, ServiceLife, ProcessEnd)
  /// `alarm.fire`: the alarm went off; `due` and `type` as its `alarm.set` said (`nil`
  /// when the trace shows no set).
  case alarmWentOff(alarm: String, due: TraceTime?, type: AlarmType?)
  /// `alarm.set type=repeating` whose `interval` is under ``/BackgroundTrace/RepeatingAlarm/minimumInterval``:
  /// Android repeats it at that minimum.
  case alarmRepeatClamped(alarm: String, asked: TraceInterval)
}

/// A service of the current process that was started to go foreground or runs in the
/// foreground (`fgs.start`, `fgs.foreground`), until `fgs.stop` or the process ends.
package struct ServiceLife: Sendable, Hashable {
  /// When `fgs.start` started it and it has not called `startForeground` since.
  package var awaitingForegroundSince: TraceTime?
  /// When it went foreground (`fgs.foreground`).
  package var foregroundAt: TraceTime?
  /// When the system called its `onTimeout` (`fgs.timeout`), if it has.
  package var timedOutAt: TraceTime?
}

/// A background URL session in the current process: whether and when the process
/// created it, and the wake it owes a completion handler call, if any.
package struct SessionLife: Sendable {
  /// When this process first created the session (`net.create`).
  package var createdAt: TraceTime?
  /// The outstanding wake (`net.wake` with no `net.handler` yet).
  package var wokenAt: TraceTime?
  /// When the outstanding wake's events were done (`net.events-done`).
  package var eventsDoneAt: TraceTime?
  /// The first wake of this process, kept after its handler call: a process woken for
  /// a session must create it.
  package var firstWakeAt: TraceTime?
  /// Whether ``LifecycleTransition/sessionNotRecreated(session:wokenAt:_:)`` was handed
  /// on for this process: once per session and process.
  package var notRecreatedReported = false
}

/// Why a process's open tasks and runs can no longer finish.
package enum ProcessEnd: Sendable, Hashable {
  /// The app was suspended: its open tasks and runs are over, the process lives on.
  case suspended
  /// `app.terminate`.
  case terminated(reason: String?)
  /// Another `app.launch` with no `app.terminate` before it.
  case relaunched
  /// The trace ended.
  case traceEnded

  /// `before the app was suspended`, … — how the checker's messages say it.
  package var phrase: String {
    switch self {
    case .suspended: "before the app was suspended"
    case .terminated: "before the app terminated"
    case .relaunched: "before the app was launched again"
    case .traceEnded: "before the trace ended"
    }
  }
}

/// One app process.
package struct ProcessLife: Sendable {
  /// Counts processes from 0, in launch order.
  package var number: Int
  /// When it started.
  package var launchedAt: TraceTime
  /// Whether the trace did not start with `app.launch` and this process is implied.
  package var implicit: Bool
  /// When it left launch: its first `app.state`.
  package var leftLaunchAt: TraceTime?
  /// Its current state (`nil` while launching).
  package var state: AppLifecycleState?
  /// When its current stay in the background began (`nil` outside the background).
  package var backgroundSince: TraceTime?
  /// Counts moves into and out of the background.
  package var backgroundEpoch = 0
}

/// An open UIKit background task.
package struct TaskLife: Sendable {
  /// Its name, when given.
  package var name: String? {
    get { storedName.name }
    set { storedName = TaskName(newValue) }
  }
  /// When it began.
  package var begin: TraceTime
  /// When its expiration handler ran.
  package var expiredAt: TraceTime?
  /// The name: one read from a binary trace is held in place when short (a `String?`
  /// field is retained and released by the runtime at every copy of a task).
  private var storedName: TaskName

  /// A task named `name` that began at `begin`.
  package init(name: consuming String?, begin: TraceTime, expiredAt: TraceTime? = nil) {
    self.init(name: TaskName(name), begin: begin, expiredAt: expiredAt)
  }

  /// A task named `name` that began at `begin`.
  package init(name: consuming TaskName, begin: TraceTime, expiredAt: TraceTime? = nil) {
    storedName = name
    self.begin = begin
    self.expiredAt = expiredAt
  }

  /// `task 3 ("Upload")`, or `task 3`.
  package func describe(id: Int) -> String {
    name.map { "task \(id) (\(TextTraceWriter.quoted($0)))" } ?? "task \(id)"
  }
}

/// Why a `task.end` matches no open task.
package enum TaskEndMismatch: Sendable {
  /// `id=0`: `.invalid`.
  case invalid
  /// The task ended before; `firstAt` when that end is recent enough to remember.
  case alreadyEnded(firstAt: TraceTime?)
  /// The task was closed when its process stopped being able to end it; this end is
  /// its first and is quiet.
  case closedEarlier
  /// No task with that id began in this process.
  case neverBegun(processLaunchedAt: TraceTime)
}

/// A pending `sched.submit`.
package struct PendingRequest: Sendable {
  /// Refresh or processing.
  package var type: SchedulerRequestType
  /// Its earliest begin date.
  package var earliest: TraceTime?
  /// When it was submitted.
  package var submittedAt: TraceTime
}

/// A launched scheduler run that has not completed.
package struct RunLife: Sendable {
  /// The task identifier.
  package var identifier: String
  /// The type of the latest submission for the identifier.
  package var type: SchedulerRequestType?
  /// When it launched.
  package var launchedAt: TraceTime
  /// When its expiration handler ran.
  package var expiredAt: TraceTime?
  /// Why, when the trace says (`sched.expire reason=`).
  package var expiredBy: ExpirationReason?
  /// Whether a `sched.submit` for its identifier came after the launch.
  package var resubmitted = false
  /// When its progress last moved (`sched.progress`), or when it launched.
  package var progressedAt: TraceTime
  /// The counts of its latest `sched.progress`, if any.
  package var progress: (completed: Int, total: Int)?

  init(identifier: String, type: SchedulerRequestType?, launchedAt: TraceTime) {
    self.identifier = identifier
    self.type = type
    self.launchedAt = launchedAt
    self.progressedAt = launchedAt
  }
}

/// Why a `sched.complete` matches no open run.
package enum RunCompleteMismatch: Sendable {
  /// The run completed before; `firstAt` when that is recent enough to remember.
  case alreadyCompleted(firstAt: TraceTime?)
  /// The run was closed when its process stopped; this complete is quiet.
  case closedEarlier
  /// No such run was launched (or its launch was of an unregistered identifier).
  case neverLaunched
}

/// Unfinished work: enqueued, running, or waiting for a retry.
package struct WorkLife: Sendable {
  /// The enqueue it came from.
  package var enqueue: WorkEnqueue
  /// When that enqueue was applied (or when it was released from the queue); `nil`
  /// for work the trace starts without enqueueing.
  package var enqueuedAt: TraceTime?
  /// The running attempt.
  package var running: (attempt: Int, since: TraceTime)?
  /// The latest result.
  package var lastResult: (attempt: Int, outcome: WorkOutcome, time: TraceTime)?
  /// When the app cancelled it while an attempt ran (it finishes when the attempt stops).
  package var cancelledAt: TraceTime?
  /// Enqueues with `append` or `appendOrReplace` waiting behind it, in order.
  package var queued: [WorkEnqueue] = []
  /// androidx's `lastEnqueueTime`: the enqueue, then each `retry` result; a stop keeps it.
  package var lastEnqueueAt: TraceTime?
  /// The attempt the system stopped last, until the next start.
  package var stoppedAttempt: Int?
  /// The prerequisites (`work.after`) that have not succeeded yet: until they have,
  /// the work is blocked (androidx `BLOCKED`).
  package var blockedOn: [String] = []
  /// Whether expedited work runs as regular work now: its expedited quota was spent at
  /// the enqueue (`work.quota policy=run-as-regular`) or ran out during an attempt.
  package var runsAsRegular = false
  /// Whether an update set the next schedule time override while an attempt ran, so
  /// that the attempt's end keeps it (``WorkEnqueue/nextScheduleTimeOverride`` holds the
  /// override in force).
  package var overrideChangedInRun = false
  /// The attempt of the request this one replaced (`policy=replace`) that was running
  /// when it was replaced, and when: androidx cancelled it, and its stop or a late
  /// result still names it.
  package var replacedRunning: (attempt: Int, at: TraceTime)?

  /// The attempt that must wait for a backoff next, and the wait: after a stop, from
  /// androidx's `lastEnqueueTime`; after a `retry`, from the result. `nil` when neither
  /// came last, or for periodic work with a next schedule time override (docs/rules.md#work).
  @inline(__always)  // read in place where a start changes the life: a call copies it
  package var nextBackoff: (attempt: Int, wait: BackoffWait)? {
    // The override, not the backoff, decides when periodic work with one runs next.
    if enqueue.period != nil, enqueue.nextScheduleTimeOverride != nil { return nil }
    let attempt: Int
    let since: TraceTime
    let afterStop: Bool
    if let stopped = stoppedAttempt, let base = lastEnqueueAt {
      (attempt, since, afterStop) = (stopped + 1, base, true)
    } else if let last = lastResult, last.outcome == .retry {
      (attempt, since, afterStop) = (last.attempt + 1, last.time, false)
    } else {
      return nil
    }
    let wait = WorkBackoff.backoff(beforeAttempt: attempt, policy: enqueue.backoff, delay: enqueue.backoffDelay)
    return (attempt, BackoffWait(retriedAt: since, afterStop: afterStop, wait: wait, allowedAt: since + wait))
  }

  /// When the enqueue lets the first attempt start (``WorkSchedule/firstRun(of:enqueuedAt:)``:
  /// its initial delay, a periodic request's flex), while no attempt has run since it.
  package var firstRunAllowed: TraceTime? {
    guard running == nil, lastResult == nil, stoppedAttempt == nil, let enqueuedAt else { return nil }
    return WorkSchedule.firstRun(of: enqueue, enqueuedAt: enqueuedAt)
  }

  /// The next attempt and when its backoff allows it, while no attempt runs.
  package var retryAllowed: (attempt: Int, at: TraceTime)? {
    guard running == nil, let next = nextBackoff else { return nil }
    return (next.attempt, next.wait.allowedAt)
  }
}

/// What a `work.enqueue` did.
package enum EnqueueEffect: Sendable {
  /// The work starts afresh with this enqueue's settings.
  case fresh
  /// `keep`: the unfinished work stays as it was.
  case kept
  /// `append`/`appendOrReplace` behind unfinished work: it runs after that work
  /// succeeds; `position` counts from 1.
  case queued(position: Int)
  /// `append` behind work that failed or was cancelled: finished at once with it.
  case finishedAtOnce(FinishedWork)
  /// `update` of unfinished work: it takes this enqueue's settings and keeps its
  /// attempts, enqueue time and any running attempt (androidx `WorkerUpdater`).
  case updated

  /// Whether the enqueue's request is now the work's current one: it starts the work
  /// afresh or updates it, where a kept, queued or at once finished request does not run.
  package var startsRequest: Bool {
    switch self {
    case .fresh, .updated: true
    case .kept, .queued, .finishedAtOnce: false
    }
  }
}

/// The backoff a retried work's next attempt had to wait for.
package struct BackoffWait: Sendable {
  /// When the wait counts from: the retried attempt's return, or — after a stopped
  /// attempt — androidx's `lastEnqueueTime` (the enqueue, or the last retry).
  package var retriedAt: TraceTime
  /// Whether the attempt before was stopped by the system rather than retried.
  package var afterStop = false
  /// The backoff, from the work's own settings.
  package var wait: TraceInterval
  /// The earliest allowed start.
  package var allowedAt: TraceTime
}

/// How a one-time work finished.
///
/// The walker keeps one per finished work id for the rest of the trace, so it is kept to
/// 16 bytes: the stored fields are a time and three one-byte flags.
package struct FinishedWork: Sendable {
  /// Succeeded, failed or was cancelled.
  package enum Ending: Sendable { case succeeded, failed, cancelled }
  /// When the work it finished with succeeded, failed or was cancelled.
  package var time: TraceTime
  /// How it finished.
  package var ending: Ending
  /// Whether it was appended behind a failed or cancelled work and finished at once.
  package var appended = false
  /// Whether it has started again since it finished (later starts are quiet).
  package var restarted = false

  /// `it succeeded at 3s`, `it was appended behind work that failed at 3s`.
  package var phrase: String {
    let how =
      switch ending {
      case .succeeded: "succeeded at \(time.seconds)"
      case .failed: "failed at \(time.seconds)"
      case .cancelled: "was cancelled at \(time.seconds)"
      }
    if appended { return "it was appended behind work that \(how)" }
    return "it \(how)"
  }
}

/// Why a `work.result` matches no running attempt.
package enum WorkResultMismatch: Sendable {
  /// Nothing runs.
  case notRunning
  /// Another attempt runs.
  case otherAttemptRunning(attempt: Int, since: TraceTime)
  /// The attempt already returned.
  case secondResult(first: WorkOutcome, at: TraceTime)
  /// The work finished and has started again since: it stays finished, and this result
  /// is quiet.
  case afterFinish
  /// The attempt was running when a REPLACE enqueue cancelled its request, at `at`:
  /// WorkManager drops its result.
  case replaced(at: TraceTime)
}
