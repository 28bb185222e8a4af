import BackgroundTrace

/// The WorkManager rules.
extension CheckerRules {
  @inline(__always)
  private func limit(of life: WorkLife) -> Int? {
    life.enqueue.retryLimit ?? defaultRetryLimit
  }

  private static func limitText(enqueuedAt: TraceTime?, _ limit: Int) -> String {
    enqueuedAt.map { "enqueued at \($0.seconds) with limit=\(limit)" } ?? "default limit \(limit)"
  }

  /// Checks a start against the attempt's limit and backoff. Inlined, with the reports
  /// out of line: the work's life is read where it lies, not copied into a call.
  @inline(__always)
  mutating func attemptStarted(
    _ work: String, attempt: Int, _ life: WorkLife, backoff: BackoffWait?
  ) {
    if let limit = limit(of: life), attempt > limit {
      reportPastLimit(work, attempt: attempt, limit: limit, enqueuedAt: life.enqueuedAt, retried: false)
    }
    if let backoff, now < backoff.allowedAt { reportEarlyStart(work, attempt: attempt, backoff) }
  }

  /// Reports `work` past its attempt limit, once until an enqueue starts it afresh: it
  /// started `attempt`, or returned `retry` at it (`retried`).
  @inline(never)
  private mutating func reportPastLimit(
    _ work: String, attempt: Int, limit: Int, enqueuedAt: TraceTime?, retried: Bool
  ) {
    guard retryLimitReported.insert(work).inserted else { return }
    let what =
      retried
      ? "returned retry at attempt \(attempt), but attempt \(limit) must be its last"
      : "started attempt \(attempt), past its attempt limit"
    report(.workRetryLimit, "work \(work) \(what) (\(Self.limitText(enqueuedAt: enqueuedAt, limit)))")
  }

  @inline(never)
  private mutating func reportEarlyStart(_ work: String, attempt: Int, _ backoff: BackoffWait) {
    report(
      .workBackoffEarly,
      "work \(work) attempt \(attempt) started at \(now.seconds), before its backoff allowed ("
        + (backoff.afterStop ? "stopped; last enqueued at " : "retry at ")
        + "\(backoff.retriedAt.seconds) + \(backoff.wait.seconds) = \(backoff.allowedAt.seconds))")
  }

  /// Checks a `retry` against the attempt's limit (inlined, as ``attemptStarted(_:attempt:_:backoff:)``).
  @inline(__always)
  mutating func attemptResulted(
    _ work: String, attempt: Int, _ outcome: WorkOutcome, _ life: WorkLife
  ) {
    guard outcome == .retry, let limit = limit(of: life), attempt >= limit else { return }
    reportPastLimit(work, attempt: attempt, limit: limit, enqueuedAt: life.enqueuedAt, retried: true)
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
