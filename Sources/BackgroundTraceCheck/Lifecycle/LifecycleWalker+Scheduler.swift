import BackgroundTrace

/// BGTaskScheduler: registrations belong to a process; requests and run numbers
/// outlive it; a run is open from its launch to its completion or its process's end.
extension LifecycleWalker {
  mutating func register(_ ident: String, ok: Bool, into transitions: inout [LifecycleTransition]) {
    let first = registrations[ident]
    if first == nil && ok { registrations[ident] = now }
    transitions.append(.registered(ident: ident, ok: ok, first: first))
  }

  mutating func submit(_ submission: SchedulerSubmission, into transitions: inout [LifecycleTransition]) {
    requests[submission.ident] = PendingRequest(
      type: submission.type, earliest: submission.earliest, submittedAt: now)
    submittedTypes[submission.ident] = submission.type
    for (run, open) in runs where open.ident == submission.ident { runs[run]!.resubmitted = true }
    transitions.append(.submitted(submission, registered: registrations[submission.ident] != nil))
  }

  mutating func cancelRequests(_ target: SchedulerCancelTarget, into transitions: inout [LifecycleTransition]) {
    switch target {
    case .identifier(let ident): requests[ident] = nil
    case .all: requests.removeAll()
    }
    transitions.append(.requestsCancelled(target))
  }

  mutating func launch(_ ident: String, run: Int, into transitions: inout [LifecycleTransition]) {
    let request = requests.removeValue(forKey: ident)
    guard isRunning, registrations[ident] != nil else {
      transitions.append(.runLaunchedUnregistered(ident: ident, run: run))
      return
    }
    let life = RunLife(ident: ident, type: submittedTypes[ident], launchedAt: now)
    runs[run] = life
    completedRuns.reopen(run)
    transitions.append(.runLaunched(run: run, life, request: request))
  }

  mutating func expireRun(_ run: Int, into transitions: inout [LifecycleTransition]) {
    guard var life = runs[run], life.expiredAt == nil else {
      transitions.append(.runExpireUnmatched(run: run))
      return
    }
    life.expiredAt = now
    runs[run] = life
    transitions.append(.runExpired(run: run, life))
  }

  mutating func complete(_ run: Int, success: Bool, into transitions: inout [LifecycleTransition]) {
    if let life = runs.removeValue(forKey: run) {
      completedRuns.end(run, at: now)
      transitions.append(.runCompleted(run: run, life, success: success))
    } else {
      let mismatch: RunCompleteMismatch =
        switch completedRuns.endUnmatched(run, at: now) {
        case .closedEarlier: .closedEarlier
        case .alreadyEnded(let firstAt): .alreadyCompleted(firstAt: firstAt)
        case .unknown: .neverLaunched
        }
      transitions.append(.runCompleteUnmatched(run: run, mismatch))
    }
  }
}
