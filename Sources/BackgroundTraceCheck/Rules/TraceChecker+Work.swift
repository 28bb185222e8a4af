import BackgroundTrace

/// The WorkManager rules.
extension TraceChecker {
  mutating func enqueue(_ enqueue: WorkEnqueue) {
    let hash = stableHash(enqueue.work)
    if var existing = works[enqueue.work], existing.cancelledAt == nil {
      switch enqueue.policy {
      case .keep?:
        return  // the unfinished work stays as it is
      case .append?, .appendOrReplace?:
        existing.queued = enqueue  // runs when the current work finishes
        works[enqueue.work] = existing
        return
      case .replace?, nil:
        break
      }
    }
    finishedWorks[hash] = nil
    works[enqueue.work] = fresh(enqueue)
  }

  private func fresh(_ enqueue: WorkEnqueue) -> WorkState {
    WorkState(
      enqueuedAt: now, limit: enqueue.limit ?? configuration.defaultRetryLimit, backoff: enqueue.backoff,
      delay: enqueue.delay, periodic: enqueue.period != nil)
  }

  private func limitText(_ state: WorkState, _ limit: Int) -> String {
    let origin = state.enqueuedAt.map { "enqueued at \($0.seconds) with limit=\(limit)" } ?? "default limit \(limit)"
    return origin
  }

  mutating func start(_ work: String, attempt: Int, into findings: inout [Finding]) {
    var state: WorkState
    if let existing = works[work] {
      state = existing
      if let cancelledAt = state.cancelledAt {
        report(
          .workAfterFinish, "work \(work) started again after it was cancelled at \(cancelledAt.seconds)",
          into: &findings)
        state.cancelledAt = nil
      }
    } else {
      if let finished = finishedWorks.removeValue(forKey: stableHash(work)) {
        let how =
          switch finished.ending {
          case .succeeded: "it succeeded"
          case .failed: "it failed"
          case .cancelled: "it was cancelled"
          }
        report(.workAfterFinish, "work \(work) started again after \(how) at \(finished.time.seconds)", into: &findings)
      }
      state = WorkState(limit: configuration.defaultRetryLimit, periodic: false)
    }
    if let limit = state.limit, attempt > limit, !state.retryLimitReported {
      state.retryLimitReported = true
      report(
        .workRetryLimit,
        "work \(work) started attempt \(attempt), past its attempt limit (\(limitText(state, limit)))",
        into: &findings)
    }
    // Backoff is checked only after a retry result of the attempt just before this one.
    if attempt >= 1, let last = state.lastResult, last.outcome == .retry, last.attempt == attempt - 1 {
      let wait = WorkBackoff.backoff(beforeAttempt: attempt, policy: state.backoff, delay: state.delay)
      let allowed = last.time.adding(nanoseconds: wait.nanoseconds)
      if now < allowed {
        report(
          .workBackoffEarly,
          "work \(work) attempt \(attempt) started at \(now.seconds), before its backoff allowed (retry at \(last.time.seconds) + \(wait.seconds) = \(allowed.seconds))",
          into: &findings)
      }
    }
    state.running = (attempt, now)
    works[work] = state
  }

  mutating func result(_ work: String, attempt: Int, outcome: WorkOutcome, into findings: inout [Finding]) {
    guard var state = works[work] else {
      report(
        .workResultMismatch, "work \(work) returned \(outcome.rawValue) for attempt \(attempt), but it is not running",
        into: &findings)
      return
    }
    guard let running = state.running, running.attempt == attempt else {
      let message: String
      if let running = state.running {
        message =
          "work \(work) returned \(outcome.rawValue) for attempt \(attempt), but attempt \(running.attempt) is running (started at \(running.startedAt.seconds))"
      } else if let last = state.lastResult, last.attempt == attempt {
        message =
          "work \(work) returned a second result for attempt \(attempt) (first: \(last.outcome.rawValue) at \(last.time.seconds))"
      } else {
        message = "work \(work) returned \(outcome.rawValue) for attempt \(attempt), but it is not running"
      }
      report(.workResultMismatch, message, into: &findings)
      return
    }
    state.running = nil
    state.lastResult = (attempt, outcome, now)
    if outcome == .retry, let limit = state.limit, attempt >= limit, !state.retryLimitReported {
      state.retryLimitReported = true
      report(
        .workRetryLimit,
        "work \(work) returned retry at attempt \(attempt), but attempt \(limit) must be its last (\(limitText(state, limit)))",
        into: &findings)
    }
    works[work] = state
    if outcome != .retry { finish(work, state, ending: outcome == .success ? .succeeded : .failed) }
  }

  mutating func stop(_ work: String, attempt: Int) {
    guard var state = works[work], let running = state.running, running.attempt == attempt else { return }
    state.running = nil
    state.lastResult = nil  // a stopped attempt returned nothing: no backoff follows it
    works[work] = state
    if state.cancelledAt != nil { finish(work, state, ending: .cancelled) }
  }

  mutating func cancel(_ work: String) {
    guard var state = works[work] else {
      finishedWorks[stableHash(work)] = FinishedWork(ending: .cancelled, time: now)
      return
    }
    state.cancelledAt = now
    state.queued = nil
    works[work] = state
    if state.running == nil { finish(work, state, ending: .cancelled) }
  }

  /// Ends a work's run: periodic work starts its next period afresh, one-time work is
  /// remembered as finished (unless an appended enqueue takes its place).
  private mutating func finish(_ work: String, _ state: WorkState, ending: FinishedWork.Ending) {
    if let queued = state.queued {
      works[work] = fresh(queued)
      return
    }
    if state.periodic && ending != .cancelled {
      var next = state
      next.lastResult = nil
      next.retryLimitReported = false
      works[work] = next
      return
    }
    works[work] = nil
    finishedWorks[stableHash(work)] = FinishedWork(ending: ending, time: state.cancelledAt ?? now)
  }
}
