import BackgroundTrace
import _BackgroundTraceStorage

extension TraceExplainer {
  /// What one lifecycle change did to what is alive, as one line for the timeline, or
  /// `nil` for a change that opens or closes nothing (a refused task, an end that
  /// matches nothing, a state change).
  ///
  /// Lines start with `+` for what began (a task, a run, an attempt, fresh work), `-`
  /// for what ended, completed, finished or was closed by its process, and `~` for an
  /// expiration. Read after the event is applied: a begun task's budget and a retried
  /// attempt's backoff are the walker's.
  func change(_ transition: LifecycleTransition) -> String? {
    let now = walker.now
    switch transition {
    case .taskBegun(let id, let task):
      let budget = budgetEnd(of: task).map { now < $0 ? ", \(seconds(now, $0)) of budget left" : ", budget spent" }
      return "+ \(describe(task: id, task)): begun" + (budget ?? "")
    case .taskEnded(let id, let task):
      return "- \(describe(task: id, task)): ended after \(seconds(task.begin, now))"
    case .taskExpired(let id, let task):
      return "~ \(describe(task: id, task)): expired after \(seconds(task.begin, now))"
    case .taskClosed(let id, let task, let end):
      return "- \(describe(task: id, task)): closed after \(seconds(task.begin, now)), not ended \(end.phrase)"
    case .runLaunched(let run, let life, _):
      return "+ run \(run) (\(life.identifier)): launched"
    case .runExpired(let run, let life):
      let expired = CheckerRules.expiredPhrase(life.expiredBy)
      return "~ run \(run) (\(life.identifier)): \(expired) after \(seconds(life.launchedAt, now))"
    case .runCompleted(let run, let life, _):
      return "- run \(run) (\(life.identifier)): completed after \(seconds(life.launchedAt, now))"
    case .runClosed(let run, let life, let end):
      return
        "- run \(run) (\(life.identifier)): closed after \(seconds(life.launchedAt, now)), not completed \(end.phrase)"
    case .workEnqueued(let enqueue, .fresh):
      return "+ work \(enqueue.work): enqueued"
    case .workEnqueued(let enqueue, .queued(let position)):
      return "+ work \(enqueue.work): queued, \(position) behind the running work"
    case .workEnqueued(let enqueue, .updated):
      return "~ work \(enqueue.work): updated, its attempts and enqueue time kept"
    case .queuedWorkReleased(let enqueue):
      return "+ work \(enqueue.work): released from its queue"
    case .attemptStarted(let work, let attempt, _, _):
      return "+ work \(work): attempt \(attempt) running"
    case .attemptResulted(let work, let attempt, let outcome, _):
      return "- work \(work): attempt \(attempt) returned \(outcome.rawValue)" + backoff(of: work)
    case .attemptStopped(let work, let attempt, _):
      return "- work \(work): attempt \(attempt) stopped" + backoff(of: work)
    case .attemptClosed(let work, let attempt, let end):
      return "- work \(work): attempt \(attempt) closed, not returned \(end.phrase)"
    case .workFinished(let work, let finished):
      return "- work \(work): finished, \(finished.phrase)"
    case .transferSubmitted(let session, let task, let kind, _):
      return "+ transfer \(task) (\(session)): \(kind.rawValue) submitted"
    case .transferFinished(let session, let task, let outcome):
      return "- transfer \(task) (\(session)): \(outcome.rawValue)"
    case .sessionWoken(let session):
      return "+ session \(session): woken, its completion handler owed"
    case .handlerCalled(let session, let wokenAt?, _):
      return "- session \(session): completion handler called after \(seconds(wokenAt, now))"
    case .handlerNotCalled(let session, let wokenAt, _, let end):
      return "- session \(session): woken \(seconds(wokenAt, now)) ago, handler not called \(end.phrase)"
    case .serviceStarted(let service, _):
      return "+ service \(service): started, startForeground owed"
    case .servicePromoted(let service, let type):
      return "+ service \(service): foreground" + (type.map { " (\($0.rawValue))" } ?? ", untyped")
    case .serviceStopped(let service, _?):
      return "- service \(service): stopped"
    case .serviceRefused(let service, let reason):
      return "- service \(service): refused (\(reason.rawValue))"
    case .serviceTimedOut(let service, let type):
      return "~ service \(service): \(type.rawValue) time spent, stop owed"
    case .workPromoted(let work, let attempt, _):
      return "+ work \(work): attempt \(attempt) in the foreground"
    case .workRefused(let work, let attempt, let reason):
      return "- work \(work): attempt \(attempt) refused the foreground (\(reason.rawValue)), still a job"
    case .expeditedOutOfQuota(let work, let policy):
      return policy == .drop
        ? "- work \(work): expedited quota spent, dropped"
        : "~ work \(work): expedited quota spent, runs as regular work"
    case .serviceClosed(let service, _, let end):
      return "- service \(service): closed, not stopped \(end.phrase)"
    case .fileLocked(let path, _):
      return "+ file lock \(path)"
    case .fileUnlocked(let path):
      return "- file lock \(path)"
    case .suspendedHoldingFileLock(let path, let lockedAt, _):
      return "! file lock \(path): held since \(lockedAt.seconds) at the suspension"
    case .alarmWentOff(let alarm, let due, _):
      guard let due, now > due else { return "- alarm \(alarm): went off" }
      return "- alarm \(alarm): went off \(seconds(due, now)) after it was due"
    case .alarmRepeatClamped(let alarm, let asked):
      return "~ alarm \(alarm): repeats every \(RepeatingAlarm.minimumInterval)s, not the \(asked)s asked"
    case .expeditedDemoted(let work, _):
      return "~ work \(work): expedited quota ran out, runs as regular work"
    case .requestWaits(let request, let reasons):
      let what = if case .work = request { "work" } else { "request" }
      return "~ \(what) \(request.name): waits (\(WaitReason.field(reasons)))"
    case .serviceStopped(_, nil):
      return nil
    case .processStarted, .stateChanged, .processEnded, .actionWithoutProcess, .taskRefused, .taskEndUnmatched,
      .taskExpireUnmatched, .registered, .submitted, .rejected, .requestsCancelled, .runLaunchedUnregistered,
      .runExpireUnmatched, .runProgressed, .runCompleteUnmatched, .workEnqueued, .attemptReplaced, .startAfterFinish,
      .resultUnmatched,
      .stopUnmatched,
      .workCancelled, .periodEnded, .sessionCreated, .sessionEventsDone, .handlerCalled(_, nil, _),
      .sessionNotRecreated:
      return nil
    }
  }

  /// `task 1 Save`, or `task 1`.
  private func describe(task id: Int, _ task: TaskLife) -> String {
    "task \(id)" + (task.name.map { " \(TextTraceWriter.quotedIfNeeded($0))" } ?? "")
  }

  /// `, attempt 2 may start at 34s` while work backs off, else empty.
  private func backoff(of work: String) -> String {
    guard let retry = walker.works[work]?.retryAllowed else { return "" }
    return ", attempt \(retry.attempt) may start at \(retry.at)s"
  }
}
