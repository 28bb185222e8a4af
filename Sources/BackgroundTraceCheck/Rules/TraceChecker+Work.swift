import BackgroundTrace

/// The WorkManager rules.
extension TraceChecker {
  private func limit(of life: WorkLife) -> Int? {
    life.enqueue.limit ?? configuration.defaultRetryLimit
  }

  private func limitText(_ life: WorkLife, _ limit: Int) -> String {
    life.enqueuedAt.map { "enqueued at \($0.seconds) with limit=\(limit)" } ?? "default limit \(limit)"
  }

  mutating func attemptStarted(
    _ work: String, attempt: Int, _ life: WorkLife, backoff: BackoffWait?, into findings: inout [Finding]
  ) {
    if let limit = limit(of: life), attempt > limit, retryLimitReported.insert(work).inserted {
      report(
        .workRetryLimit,
        "work \(work) started attempt \(attempt), past its attempt limit (\(limitText(life, limit)))",
        into: &findings)
    }
    if let backoff, now < backoff.allowedAt {
      report(
        .workBackoffEarly,
        "work \(work) attempt \(attempt) started at \(now.seconds), before its backoff allowed ("
          + (backoff.afterStop ? "stopped; last enqueued at " : "retry at ")
          + "\(backoff.retriedAt.seconds) + \(backoff.wait.seconds) = \(backoff.allowedAt.seconds))",
        into: &findings)
    }
  }

  mutating func attemptResulted(
    _ work: String, attempt: Int, _ outcome: WorkOutcome, _ life: WorkLife, into findings: inout [Finding]
  ) {
    guard outcome == .retry, let limit = limit(of: life), attempt >= limit, retryLimitReported.insert(work).inserted
    else { return }
    report(
      .workRetryLimit,
      "work \(work) returned retry at attempt \(attempt), but attempt \(limit) must be its last (\(limitText(life, limit)))",
      into: &findings)
  }

  mutating func resultUnmatched(
    _ work: String, attempt: Int, _ outcome: WorkOutcome, _ mismatch: WorkResultMismatch,
    into findings: inout [Finding]
  ) {
    let message: String
    switch mismatch {
    case .notRunning:
      message = "work \(work) returned \(outcome.rawValue) for attempt \(attempt), but it is not running"
    case .otherAttemptRunning(let running, let since):
      message =
        "work \(work) returned \(outcome.rawValue) for attempt \(attempt), but attempt \(running) is running (started at \(since.seconds))"
    case .secondResult(let first, let at):
      message =
        "work \(work) returned a second result for attempt \(attempt) (first: \(first.rawValue) at \(at.seconds))"
    case .afterFinish:
      return  // the work finished and its restart was reported: one root cause, one finding
    }
    report(.workResultMismatch, message, into: &findings)
  }
}
