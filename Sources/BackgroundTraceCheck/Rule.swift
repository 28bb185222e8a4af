/// A checker rule: what it is called, how serious it is, and what it means.
public enum Rule: String, Sendable, Hashable, CaseIterable, Codable {
  case taskLeaked = "task-leaked"
  case taskDoubleEnd = "task-double-end"
  case taskUnknownEnd = "task-unknown-end"
  case taskExpiredNotEnded = "task-expired-not-ended"
  case taskOverBudget = "task-over-budget"
  case schedUnregistered = "sched-unregistered"
  case schedDuplicateRegister = "sched-duplicate-register"
  case schedLateRegister = "sched-late-register"
  case schedNotCompleted = "sched-not-completed"
  case schedDoubleComplete = "sched-double-complete"
  case schedRefreshNotRescheduled = "sched-refresh-not-rescheduled"
  case workRetryLimit = "work-retry-limit"
  case workBackoffEarly = "work-backoff-early"
  case workResultMismatch = "work-result-mismatch"
  case workAfterFinish = "work-after-finish"
  case eventAfterTerminate = "event-after-terminate"

  /// The rule's id, as printed in brackets after each finding.
  public var id: String { rawValue }

  /// How serious a finding of this rule is.
  public var severity: Severity {
    switch self {
    case .taskOverBudget, .schedRefreshNotRescheduled: .warning
    default: .error
    }
  }

  /// One line saying when the rule fires.
  public var summary: String {
    switch self {
    case .taskLeaked: "a begun task is not ended before the trace ends, the app is suspended, or it terminates"
    case .taskDoubleEnd: "task.end for a task already ended"
    case .taskUnknownEnd: "task.end for an id never begun in this process, or for .invalid (0)"
    case .taskExpiredNotEnded: "no task.end within the grace period after the task's expiration"
    case .taskOverBudget: "a task stays open longer than the background budget with no expiration"
    case .schedUnregistered: "sched.submit or sched.launch for an identifier not registered in this process"
    case .schedDuplicateRegister: "the same identifier registered twice in one process (iOS kills the app)"
    case .schedLateRegister: "sched.register after the app finished launching"
    case .schedNotCompleted: "a launched run is never completed, or not within the grace period after expiring"
    case .schedDoubleComplete: "sched.complete twice for one run"
    case .schedRefreshNotRescheduled: "a refresh run completes without submitting a new request"
    case .workRetryLimit: "work retries at or past its attempt limit, or starts past it"
    case .workBackoffEarly: "a retried work starts before its backoff allows"
    case .workResultMismatch: "work.result with no matching running attempt, or twice for one attempt"
    case .workAfterFinish: "one-time work starts again after it succeeded, failed or was cancelled"
    case .eventAfterTerminate: "an app action after app.terminate and before the next app.launch"
    }
  }
}

/// How serious a finding is: errors fail `bgtrace check`; warnings only with `--strict`.
public enum Severity: String, Sendable, Hashable, Codable {
  case error, warning
}
