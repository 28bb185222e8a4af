import BackgroundTrace
import _BackgroundTraceStorage

/// BGTaskScheduler: registrations belong to a process; requests and run numbers
/// outlive it; a run is open from its launch to its completion or its process's end.
///
/// Steps that look an identifier up take its ``StableHash`` beside it: a compact event's
/// identifier was hashed once, as its reader interned it.
extension LifecycleWalker {
  mutating func register(_ ident: String, _ hash: StableHash, ok: Bool, into observer: inout some LifecycleObserver) {
    let first = registrations[ident, hash]
    if first == nil && ok { registrations[ident, hash] = now }
    observer.observeRegistered(identifier: ident, ok: ok, first: first, in: process)
  }

  mutating func submit(
    _ submission: SchedulerSubmission, _ hash: StableHash, into observer: inout some LifecycleObserver
  ) {
    requests[submission.identifier, hash] = PendingRequest(
      type: submission.type, earliest: submission.earliest, submittedAt: now)
    submittedTypes[submission.identifier, hash] = submission.type
    // By value index, in place: iterating the table held a copy of its storage, so the
    // first write copied the whole table.
    for index in 0..<runs.count {
      runs.update(at: index) { if $0.identifier == submission.identifier { $0.resubmitted = true } }
    }
    observer.observeSubmitted(submission, registered: registrations[submission.identifier, hash] != nil, in: process)
  }

  mutating func reject(_ ident: String, _ error: SchedulerRejection, into observer: inout some LifecycleObserver) {
    requests[ident] = nil
    observer.observe(.rejected(identifier: ident, error), in: process)
  }

  mutating func cancelRequests(_ target: SchedulerCancelTarget, into observer: inout some LifecycleObserver) {
    switch target {
    case .identifier(let ident): requests[ident] = nil
    case .all: requests.removeAll()
    }
    observer.observe(.requestsCancelled(target), in: process)
  }

  mutating func launch(_ ident: String, _ hash: StableHash, run: Int, into observer: inout some LifecycleObserver) {
    let request = requests.removeValue(forKey: ident, hash)
    guard isRunning, registrations[ident, hash] != nil else {
      observer.observe(.runLaunchedUnregistered(identifier: ident, run: run), in: process)
      return
    }
    let life = RunLife(identifier: ident, type: submittedTypes[ident, hash], launchedAt: now)
    runs.updateValue(life, forKey: run)
    completedRuns.reopen(run)
    observer.observeRunLaunched(run: run, life, request: request, in: process)
  }

  mutating func expireRun(_ run: Int, reason: ExpirationReason?, into observer: inout some LifecycleObserver) {
    guard var life = runs[run], life.expiredAt == nil else {
      observer.observe(.runExpireUnmatched(run: run), in: process)
      return
    }
    life.expiredAt = now
    life.expiredBy = reason
    runs.updateValue(life, forKey: run)
    observer.observe(.runExpired(run: run, life), in: process)
  }

  /// A continued-processing run's progress: a move of an open run not yet expired; the
  /// same counts again, or a report for no such run, change nothing.
  mutating func progressRun(_ run: Int, completed: Int, total: Int, into observer: inout some LifecycleObserver) {
    guard var life = runs[run], life.expiredAt == nil else { return }
    if let last = life.progress, last == (completed, total) { return }
    life.progress = (completed, total)
    life.progressedAt = now
    runs.updateValue(life, forKey: run)
    observer.observe(.runProgressed(run: run, life), in: process)
  }

  mutating func complete(_ run: Int, success: Bool, into observer: inout some LifecycleObserver) {
    if let life = runs.removeValue(forKey: run) {
      completedRuns.end(run, at: now)
      observer.observeRunCompleted(run: run, life, success: success, in: process)
    } else {
      let mismatch: RunCompleteMismatch =
        switch completedRuns.endUnmatched(run, at: now) {
        case .closedEarlier: .closedEarlier
        case .alreadyEnded(let firstAt): .alreadyCompleted(firstAt: firstAt)
        case .unknown: .neverLaunched
        }
      observer.observe(.runCompleteUnmatched(run: run, mismatch), in: process)
    }
  }
}
