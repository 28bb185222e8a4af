import BackgroundTrace

/// The WorkManager rules.
extension CheckerRules {
  private func limit(of life: WorkLife) -> Int? {
    life.enqueue.retryLimit ?? defaultRetryLimit
  }

  private func limitText(_ life: WorkLife, _ limit: Int) -> String {
    life.enqueuedAt.map { "enqueued at \($0.seconds) with limit=\(limit)" } ?? "default limit \(limit)"
  }

  mutating func attemptStarted(
    _ work: String, attempt: Int, _ life: WorkLife, backoff: BackoffWait?
  ) {
    if let limit = limit(of: life), attempt > limit, retryLimitReported.insert(work).inserted {
      report(
        .workRetryLimit,
        "work \(work) started attempt \(attempt), past its attempt limit (\(limitText(life, limit)))")
    }
    if let backoff, now < backoff.allowedAt {
      report(
        .workBackoffEarly,
        "work \(work) attempt \(attempt) started at \(now.seconds), before its backoff allowed ("
          + (backoff.afterStop ? "stopped; last enqueued at " : "retry at ")
          + "\(backoff.retriedAt.seconds) + \(backoff.wait.seconds) = \(backoff.allowedAt.seconds))")
    }
  }

  mutating func attemptResulted(
    _ work: String, attempt: Int, _ outcome: WorkOutcome, _ life: WorkLife
  ) {
    guard outcome == .retry, let limit = limit(of: life), attempt >= limit, retryLimitReported.insert(work).inserted
    else { return }
    report(
      .workRetryLimit,
      "work \(work) returned retry at attempt \(attempt), but attempt \(limit) must be its last (\(limitText(life, limit)))"
    )
  }

  mutating func resultUnmatched(
    _ work: String, attempt: Int, _ outcome: WorkOutcome, _ mismatch: WorkResultMismatch
  ) {
    let message: String
    switch mismatch {
    case .notRunning:
      guard !resultOfAttemptBeforeLog(work) else { return }
      message = "work \(work) returned \(outcome.rawValue) for attempt \(attempt), but it is not running"
    case .otherAttemptRunning(let running, let since):
      message =
        "work \(work) returned \(outcome.rawValue) for attempt \(attempt), but attempt \(running) is running (started at \(since.seconds))"
    case .secondResult(let first, let at):
      message =
        "work \(work) returned a second result for attempt \(attempt) (first: \(first.rawValue) at \(at.seconds))"
    case .afterFinish:
      return  // the work finished and its restart was reported: one root cause, one finding
    case .replaced(let at):
      message =
        "work \(work) returned \(outcome.rawValue) for attempt \(attempt), which a REPLACE enqueue cancelled at "
        + "\(at.seconds): WorkManager drops its result, and the worker went on after isStopped"
    }
    report(.workResultMismatch, message)
  }
}

extension CheckerRules {
  /// Forgets that `work` was reported past its limit (the set is nearly always empty:
  /// skip hashing then).
  mutating func forgetRetryLimit(of work: String) {
    if !retryLimitReported.isEmpty { retryLimitReported.remove(work) }
  }
}
