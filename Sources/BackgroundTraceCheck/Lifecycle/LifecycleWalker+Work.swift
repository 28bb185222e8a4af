import BackgroundTrace
import _BackgroundTraceStorage

/// WorkManager work: it outlives processes; unique-work policies decide whether an
/// enqueue starts afresh, is kept out, queues behind unfinished work, or is finished at
/// once; one-time work stays finished until an enqueue starts it afresh
/// (docs/rules.md#work, docs/rules.md#finished-work).
///
/// Each step takes the work id's ``StableHash`` beside it: a compact event's id was
/// hashed once, as its reader interned it.
extension LifecycleWalker {
  /// Whether `work` is unfinished: enqueued, blocked, running or waiting for a retry
  /// (what `keep` keeps).
  package func isUnfinished(_ work: String) -> Bool {
    works.index(forKey: work, StableHash(work)) != nil
  }

  /// Whether a work of the unique name `name` holds it: the name's own work or one of
  /// its works of their own, unfinished and not cancelled. What `keep` keeps out for.
  package func holdsWork(uniqueName name: String) -> Bool {
    holdsItsName(name) || (uniqueWorks[name] ?? []).contains(where: holdsItsName)
  }

  /// Whether `work` is unfinished and not cancelled: a work the app cancelled while its
  /// attempt runs no longer holds its unique name (androidx marks it CANCELLED at once).
  private func holdsItsName(_ work: String) -> Bool {
    guard let life = works[work] else { return false }  // a copy, for a name's own works only
    return life.cancelledAt == nil
  }

  /// How `work`'s last request finished, when it did and is not unfinished again;
  /// `nil` for unfinished work and work never enqueued or started. After a success an
  /// `append` or `appendOrReplace` waits for it and merges its output into its input;
  /// over failed or cancelled work an `append` finishes at once and an
  /// `appendOrReplace` starts afresh (androidx `EnqueueRunnable`).
  package func ending(of work: String) -> FinishedWork.Ending? {
    isUnfinished(work) ? nil : finishedWorks[StableHash(work).bits]?.ending
  }

  mutating func enqueue(
    _ enqueue: consuming WorkEnqueue, _ hash: StableHash, into observer: inout some LifecycleObserver
  ) {
    if backoffSettingsUnknown { Self.assumeLeastBackoff(&enqueue) }
    if enqueue.uniqueName != nil || !uniqueWorks.isEmpty || !failedUniqueNames.isEmpty,
      isKeptByItsName(enqueue, into: &observer)
    {
      return
    }
    let work = enqueue.work
    // Read and changed in place, and moved, not copied: the existing work's life stays
    // in the table, and the enqueue moves into the life built below; both are large.
    if let index = works.index(forKey: work, hash) {
      let cancelledAt = works.update(at: index) { $0.cancelledAt }
      switch (enqueue.policy, cancelledAt) {
      case (.keep?, nil):
        observer.observe(.workEnqueued(enqueue, .kept), in: process)
        return
      case (.append?, nil), (.appendOrReplace?, nil):
        let queued = copy enqueue  // a closure captures no consuming parameter
        let position = works.update(at: index) { life in
          life.queued.append(queued)
          return life.queued.count
        }
        observer.observe(.workEnqueued(enqueue, .queued(position: position)), in: process)
        return
      case (.update?, nil):
        let settings = copy enqueue
        works.update(at: index) { life in
          // An update names its request (`request=`): one queued behind the running
          // request takes the new settings where it waits.
          if let request = settings.request, request != life.enqueue.request,
            let position = life.queued.firstIndex(where: { $0.request == request })
          {
            life.queued[position] = settings
            return
          }
          // androidx updateWorkImpl: an update without an override keeps the work's.
          let kept = life.enqueue.nextScheduleTimeOverride
          life.enqueue = settings
          if settings.nextScheduleTimeOverride == nil {
            life.enqueue.nextScheduleTimeOverride = kept
          } else if life.running != nil {
            life.overrideChangedInRun = true
          }
        }
        observer.observe(.workEnqueued(enqueue, .updated), in: process)
        return
      case (.append?, let cancelledAt?):
        // Behind work cancelled while its attempt still runs: finished with it.
        let finished = FinishedWork(time: cancelledAt, ending: .cancelled, appended: true)
        works.update(at: index) { $0.queued.removeAll() }
        finishedWorks[hash.bits] = finished
        observer.observe(.workEnqueued(enqueue, .finishedAtOnce(finished)), in: process)
        return
      default:
        break  // replace, no policy, or anything behind cancelled work: afresh
      }
    } else if enqueue.policy == .append, let finished = finishedWorks[hash.bits], finished.ending != .succeeded {
      // androidx inserts the dependent of a failed or cancelled work already finished.
      let appended = FinishedWork(time: finished.time, ending: finished.ending, appended: true)
      finishedWorks[hash.bits] = appended
      observer.observe(.workEnqueued(enqueue, .finishedAtOnce(appended)), in: process)
      return
    }
    finishedWorks[hash.bits] = nil
    // A REPLACE of work whose attempt runs: androidx cancels that request; its stop or a
    // late result is about it, not the new request.
    let replaced: (attempt: Int, at: TraceTime)? =
      enqueue.policy == .replace
      ? works.index(forKey: work, hash).flatMap { works.update(at: $0) { $0.running } }.map { ($0.attempt, now) }
      : nil
    if let replaced { observer.observe(.attemptReplaced(work: work, attempt: replaced.attempt), in: process) }
    observer.observeWorkEnqueuedAfresh(enqueue, in: process)
    // Built in the call that stores it: built in a variable first, the life is copied.
    works.insert(
      WorkLife(enqueue: enqueue, enqueuedAt: now, lastEnqueueAt: now, replacedRunning: replaced), for: work, hash)
  }

  /// The policy of an enqueue applied to the works of its unique name that hold their
  /// own ids (`unique=`), as androidx `EnqueueRunnable` applies it to every request of
  /// the name: `keep` keeps the request out while any is unfinished (returns true);
  /// `replace`, and `appendOrReplace` once a work of the name failed or was cancelled,
  /// cancel them (androidx `CancelWorkRunnable.forName`); so does `keep` over finished
  /// ones, which androidx deletes. A work of its own then joins its name: with no
  /// policy it is another request of the same step, and an `append` waits for the
  /// name's leaves through the `work.after` lines that follow it.
  private mutating func isKeptByItsName(_ enqueue: WorkEnqueue, into observer: inout some LifecycleObserver) -> Bool {
    let name = enqueue.uniqueName ?? enqueue.work
    let ownWork = enqueue.uniqueName != nil && name != enqueue.work
    var others = (uniqueWorks[name] ?? []).filter { $0 != enqueue.work && holdsItsName($0) }
    // androidx APPEND_OR_REPLACE deletes every request of the name when one of its
    // leaves failed or was cancelled (a failure or cancel ends what follows it too).
    let afresh =
      enqueue.policy == .appendOrReplace
      && (failedUniqueNames.contains(name) || ending(of: name).map { $0 != .succeeded } ?? false)
    if (ownWork || afresh) && holdsItsName(name) { others.append(name) }
    switch enqueue.policy {
    case .keep? where !others.isEmpty:
      observer.observe(.workEnqueued(enqueue, .kept), in: process)
      return true
    case .replace?,
      .appendOrReplace? where afresh, .keep? where !isUnfinished(name):
      // Cancelled and deleted (`keep` over finished works deletes them too).
      uniqueWorks[name] = nil
      failedUniqueNames.remove(name)
      for other in others { cancel(other, StableHash(other), into: &observer) }
      others = []
    default:
      break
    }
    others.removeAll { $0 == name }
    if ownWork { others.append(enqueue.work) }
    uniqueWorks[name] = others.isEmpty ? nil : others
    return false
  }

  /// A request whose backoff the trace does not know waits the least WorkManager
  /// allows: linear, `MIN_BACKOFF_MILLIS` (10 s) times the attempt. An attempt counted
  /// from the first start a log shows is at most the device's `runAttemptCount`, and
  /// both policies wait at least that long (exponential 10 s × 2^(n-1) ≥ 10 s × n), so
  /// an earlier start is one no request's settings allow. androidx
  /// `work/work-runtime/src/main/java/androidx/work/WorkRequest.kt` (`MIN_BACKOFF_MILLIS`,
  /// `setBackoffCriteria` clamps below it) and `impl/model/WorkSpec.kt`
  /// (`calculateNextRunTime`).
  static func assumeLeastBackoff(_ enqueue: inout WorkEnqueue) {
    guard enqueue.backoff == nil, enqueue.backoffDelay == nil else { return }
    enqueue.backoff = .linear
    enqueue.backoffDelay = WorkBackoff.minimumDelay
  }

  mutating func start(_ work: String, _ hash: StableHash, attempt: Int, into observer: inout some LifecycleObserver) {
    if let index = works.index(forKey: work, hash), works.update(at: index, { $0.cancelledAt != nil }) {
      finish(work, hash, at: index, ending: .cancelled, into: &observer)  // started again after its cancel
    }
    if let index = works.index(forKey: work, hash) {
      works.update(at: index) { life in
        // Only attempt K+1 right after a retried or stopped attempt K waits for a backoff.
        let next = life.nextBackoff
        let backoff = next?.attempt == attempt ? next?.wait : nil
        life.stoppedAttempt = nil
        life.running = (attempt, now)
        observer.observeAttemptStarted(work: work, attempt: attempt, life, backoff: backoff, in: process)
      }
    } else if var finished = finishedWorks[hash.bits] {
      observer.observe(
        .startAfterFinish(work: work, attempt: attempt, finished, first: !finished.restarted), in: process)
      finished.restarted = true
      finishedWorks[hash.bits] = finished
    } else {
      // Work the trace never enqueued (it began after the enqueue): the defaults apply.
      var enqueue = WorkEnqueue(work: work)
      if backoffSettingsUnknown { Self.assumeLeastBackoff(&enqueue) }
      var life = WorkLife(enqueue: enqueue, enqueuedAt: nil)
      life.running = (attempt, now)
      works[work, hash] = life
      observer.observeAttemptStarted(work: work, attempt: attempt, life, backoff: nil, in: process)
    }
  }

  mutating func result(
    _ work: String, _ hash: StableHash, attempt: Int, outcome: WorkOutcome, into observer: inout some LifecycleObserver
  ) {
    guard let index = works.index(forKey: work, hash) else {
      let quiet = finishedWorks[hash.bits]?.restarted == true
      observer.observe(
        .resultUnmatched(work: work, attempt: attempt, outcome, quiet ? .afterFinish : .notRunning), in: process)
      return
    }
    // Why the result matches no running attempt, or nil and whether the work was
    // cancelled while the attempt ran: one visit to the work's life, in place.
    let (mismatch, cancelled): (WorkResultMismatch?, Bool) = works.update(at: index) { life in
      guard let running = life.running, running.attempt == attempt else {
        if let replaced = life.replacedRunning, replaced.attempt == attempt {
          life.replacedRunning = nil
          return (.replaced(at: replaced.at), false)
        }
        if let running = life.running {
          return (.otherAttemptRunning(attempt: running.attempt, since: running.since), false)
        } else if let last = life.lastResult, last.attempt == attempt {
          return (.secondResult(first: last.outcome, at: last.time), false)
        } else {
          return (.notRunning, false)
        }
      }
      life.running = nil
      life.lastResult = (attempt, outcome, now)
      // androidx WorkerWrapper clears the override at a run's end, unless an update
      // changed it during the run.
      if !life.overrideChangedInRun { life.enqueue.nextScheduleTimeOverride = nil }
      life.overrideChangedInRun = false
      if outcome == .retry { life.lastEnqueueAt = now }
      observer.observeAttemptResulted(work: work, attempt: attempt, outcome, life, in: process)
      return (nil, life.cancelledAt != nil)
    }
    if let mismatch {
      observer.observe(.resultUnmatched(work: work, attempt: attempt, outcome, mismatch), in: process)
      return
    }
    if cancelled {
      finish(work, hash, at: index, ending: .cancelled, into: &observer)
    } else if outcome != .retry {
      finish(work, hash, at: index, ending: outcome == .success ? .succeeded : .failed, into: &observer)
    }
  }

  mutating func stop(
    _ work: String, _ hash: StableHash, attempt: Int, reason: String, into observer: inout some LifecycleObserver
  ) {
    guard let index = works.index(forKey: work, hash),
      works.update(at: index, { $0.running?.attempt == attempt })
    else {
      // The stop of a replaced request's attempt (androidx cancelled it): it ends there.
      if let index = works.index(forKey: work, hash) {
        works.update(at: index) { life in
          if life.replacedRunning?.attempt == attempt { life.replacedRunning = nil }
        }
      }
      observer.observe(.stopUnmatched(work: work, attempt: attempt), in: process)
      return
    }
    let (cancelled, demoted) = works.update(at: index) { life in
      life.running = nil
      life.lastResult = nil  // a stopped attempt returned nothing
      life.stoppedAttempt = attempt  // the next start still waits for its backoff
      // STOP_REASON_QUOTA stops expedited work when its quota runs out, and regular
      // work when the standby bucket's job quota does.
      let demoted = reason == "quota" && life.enqueue.expedited != nil && !life.runsAsRegular
      if demoted { life.runsAsRegular = true }
      return (life.cancelledAt != nil, demoted)
    }
    observer.observe(.attemptStopped(work: work, attempt: attempt, reason: reason), in: process)
    if demoted { observer.observe(.expeditedDemoted(work: work, attempt: attempt), in: process) }
    if cancelled { finish(work, hash, ending: .cancelled, into: &observer) }
  }

  mutating func cancel(_ work: String, _ hash: StableHash, into observer: inout some LifecycleObserver) {
    // Cancelling a unique name cancels every work of it (androidx `cancelUniqueWork`).
    if !uniqueWorks.isEmpty, let others = uniqueWorks.removeValue(forKey: work) {
      for other in others where isUnfinished(other) { cancel(other, StableHash(other), into: &observer) }
    }
    observer.observe(.workCancelled(work: work), in: process)
    guard let index = works.index(forKey: work, hash) else {
      if finishedWorks[hash.bits] == nil { finishedWorks[hash.bits] = FinishedWork(time: now, ending: .cancelled) }
      return
    }
    let running = works.update(at: index) { life in
      if life.cancelledAt == nil { life.cancelledAt = now }
      return life.running != nil
    }
    if !running { finish(work, hash, ending: .cancelled, into: &observer) }
  }

  /// Ends a work's run: the first work queued behind a success takes its place; periodic
  /// work starts its next period afresh; otherwise the work, with everything queued
  /// behind it, is finished. `hash` is the work id's.
  mutating func finish(
    _ work: String, _ hash: StableHash, ending: FinishedWork.Ending, into observer: inout some LifecycleObserver
  ) {
    guard let index = works.index(forKey: work, hash) else { return }
    finish(work, hash, at: index, ending: ending, into: &observer)
  }

  /// Ends the run of the work whose life is at `index` of ``works``, as
  /// ``finish(_:_:ending:into:)`` does.
  ///
  /// The life is read and changed where it is, and a finished work's is destroyed where
  /// it is: removing it returned a copy of its 200-odd bytes, only for the copy to be
  /// destroyed.
  mutating func finish(
    _ work: String, _ hash: StableHash, at index: Int, ending: FinishedWork.Ending,
    into observer: inout some LifecycleObserver
  ) {
    let released: WorkEnqueue? = works.update(at: index) { life in
      guard ending == .succeeded, !life.queued.isEmpty else { return nil }
      var queued = life.queued
      let next = queued.removeFirst()
      life = WorkLife(enqueue: next, enqueuedAt: now, queued: queued, lastEnqueueAt: now)
      return next
    }
    if let released {
      observer.observeWorkFinished(work: work, FinishedWork(time: now, ending: ending), in: process)
      observer.observe(.queuedWorkReleased(released), in: process)
      return
    }
    let (periodic, cancelledAt) = works.update(at: index) { life in
      let periodic = life.enqueue.period != nil && ending != .cancelled
      if periodic {
        life = WorkLife(enqueue: life.enqueue, enqueuedAt: life.enqueuedAt, queued: life.queued, lastEnqueueAt: now)
      }
      return (periodic, life.cancelledAt)
    }
    if periodic {
      observer.observe(.periodEnded(work: work), in: process)
      return
    }
    works.remove(at: index)
    let finished = FinishedWork(time: cancelledAt ?? now, ending: ending)
    finishedWorks[hash.bits] = finished
    if ending != .succeeded, !uniqueWorks.isEmpty {
      for (name, own) in uniqueWorks where own.contains(work) { failedUniqueNames.insert(name) }
    }
    observer.observeWorkFinished(work: work, finished, in: process)
    if !blockedDependents.isEmpty, let dependents = blockedDependents.removeValue(forKey: work) {
      release(dependents, of: work, ending: ending, into: &observer)
    }
  }

  /// `work.after`: `work`, just enqueued, is blocked until `prerequisite` succeeds. A
  /// prerequisite that already failed or was cancelled ends it the same way at once,
  /// as androidx `EnqueueRunnable` inserts it; one that succeeded, or that the trace
  /// does not know, blocks nothing.
  mutating func block(
    _ work: String, _ hash: StableHash, on prerequisite: String, into observer: inout some LifecycleObserver
  ) {
    guard let index = works.index(forKey: work, hash) else { return }
    let prerequisiteHash = StableHash(prerequisite)
    if works.index(forKey: prerequisite, prerequisiteHash) != nil {
      works.update(at: index) { $0.blockedOn.append(prerequisite) }
      blockedDependents[prerequisite, default: []].append(work)
    } else if let finished = finishedWorks[prerequisiteHash.bits], finished.ending != .succeeded {
      finish(work, hash, at: index, ending: finished.ending, into: &observer)
    }
  }

  /// A prerequisite ended: after its success, each dependent no longer blocked is
  /// enqueued afresh (androidx `WorkerWrapper`: ENQUEUED, `lastEnqueueTime` now); after
  /// its failure or cancel, each dependent ends the same way, and theirs after them.
  private mutating func release(
    _ dependents: [String], of prerequisite: String, ending: FinishedWork.Ending,
    into observer: inout some LifecycleObserver
  ) {
    for dependent in dependents {
      let hash = StableHash(dependent)
      guard let index = works.index(forKey: dependent, hash) else { continue }
      if ending == .succeeded {
        let now = now
        works.update(at: index) { life in
          life.blockedOn.removeAll { $0 == prerequisite }
          if life.blockedOn.isEmpty, life.running == nil {
            life.enqueuedAt = now
            life.lastEnqueueAt = now
          }
        }
      } else {
        finish(dependent, hash, at: index, ending: ending, into: &observer)
      }
    }
  }
}
