/// A checker rule: what it is called, how serious it is, and what it means.
public enum Rule: String, Sendable, Hashable, CaseIterable, Codable {
  /// A begun task is not ended before the trace ends, the app is suspended, or it
  /// terminates.
  case taskLeaked = "task-leaked"
  /// A task is ended a second time.
  case taskDoubleEnd = "task-double-end"
  /// The app ends an id never begun in this process, or `.invalid` (0).
  case taskUnknownEnd = "task-unknown-end"
  /// A task is not ended within the grace period after its expiration handler ran: on a
  /// device the watchdog kills the app.
  case taskExpiredNotEnded = "task-expired-not-ended"
  /// A task stays open in the background longer than the budget, with no expiration.
  case taskOverBudget = "task-over-budget"
  /// A request is submitted or launched for an identifier with no handler registered in
  /// this process.
  case schedUnregistered = "sched-unregistered"
  /// An identifier is registered twice in one process: iOS kills the app.
  case schedDuplicateRegister = "sched-duplicate-register"
  /// A handler is registered after the app finished launching.
  case schedLateRegister = "sched-late-register"
  /// A launched run is never completed, or not within the grace period after it expires.
  case schedNotCompleted = "sched-not-completed"
  /// A run is completed twice.
  case schedDoubleComplete = "sched-double-complete"
  /// A refresh run completes without submitting the next refresh.
  case schedRefreshNotRescheduled = "sched-refresh-not-rescheduled"
  /// A continued-processing run goes the stall window (30 s) with no progress: iOS may
  /// expire it.
  case schedProgressStalled = "sched-progress-stalled"
  /// Work retries at or past its attempt limit, or starts past it.
  case workRetryLimit = "work-retry-limit"
  /// A retried work starts before its backoff allows.
  case workBackoffEarly = "work-backoff-early"
  /// A worker result with no matching running attempt, or a second one for an attempt.
  case workResultMismatch = "work-result-mismatch"
  /// One-time work starts again after it succeeded, failed or was cancelled.
  case workAfterFinish = "work-after-finish"
  /// An app action after `app.terminate` and before the next `app.launch`.
  case eventAfterTerminate = "event-after-terminate"
  /// A background session's wake whose completion handler is not called before the
  /// app is suspended or ends, or within the budget after its events are done.
  case netHandlerNotCalled = "net-handler-not-called"
  /// A background session's completion handler called before its events are done.
  case netHandlerEarly = "net-handler-early"
  /// A completion handler called with no wake outstanding for its session.
  case netHandlerUnknown = "net-handler-unknown"
  /// A background session created twice in one process.
  case netSessionDuplicate = "net-session-duplicate"
  /// A process woken for a background session that never creates it.
  case netNotRecreated = "net-not-recreated"
  /// A service started with `startForegroundService` does not call `startForeground`
  /// within the deadline, or stops before it does: Android stops it, and the app gets
  /// an ANR or crashes.
  case fgsNotPromoted = "fgs-not-promoted"
  /// A foreground service whose `onTimeout` ran does not stop within 10 s: the app
  /// crashes.
  case fgsTimeoutIgnored = "fgs-timeout-ignored"
  /// A foreground service started while the app is in the background, on Android 12 or
  /// later, outside the exemptions: the start throws.
  case fgsStartedInBackground = "fgs-started-in-background"
  /// `startForeground` without a type on Android 14 or later: it throws.
  case fgsUntyped = "fgs-untyped"
  /// A foreground service refused because its type's daily time is spent (Android 15+,
  /// "Time limit already exhausted"): the start throws.
  case fgsBudgetExhausted = "fgs-budget-exhausted"
  /// A worker's `setForeground` from the background on Android 12 or later outside the
  /// exemptions, or refused by the system: it throws, crashes the app, or leaves the
  /// worker a job stopped at ten minutes.
  case workForegroundRefused = "work-foreground-refused"
  /// An expedited request dropped because the expedited quota was spent
  /// (`DROP_WORK_REQUEST`): the work never runs.
  case workExpeditedDropped = "work-expedited-dropped"
  /// Expedited work that ran out of quota and runs as regular work, later
  /// (`RUN_AS_NON_EXPEDITED_WORK_REQUEST`, or stopped when the quota ran out).
  case workExpeditedDemoted = "work-expedited-demoted"

  /// The rule's id, as printed in brackets after each finding.
  public var id: String { rawValue }

  /// How serious a finding of this rule is.
  public var severity: Severity {
    switch self {
    case .taskOverBudget, .schedRefreshNotRescheduled, .schedProgressStalled, .netHandlerEarly, .netSessionDuplicate,
      .workExpeditedDemoted:
      .warning
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
    case .schedProgressStalled:
      "a continued-processing run with no sched.progress moving it for the stall window (30 s)"
    case .workRetryLimit: "work retries at or past its attempt limit, or starts past it"
    case .workBackoffEarly: "a retried work starts before its backoff allows"
    case .workResultMismatch: "work.result with no matching running attempt, or twice for one attempt"
    case .workAfterFinish: "one-time work starts again after it succeeded, failed or was cancelled"
    case .eventAfterTerminate: "an app action after app.terminate and before the next app.launch"
    case .netHandlerNotCalled:
      "no net.handler after net.wake before the app is suspended or ends, or within the budget after net.events-done"
    case .netHandlerEarly: "net.handler before the session's net.events-done"
    case .netHandlerUnknown: "net.handler with no net.wake outstanding for its session"
    case .netSessionDuplicate: "net.create of a session already created in this process"
    case .netNotRecreated: "net.wake in a process that never creates the session before it ends"
    case .fgsNotPromoted:
      "fgs.start without fgs.foreground for that service within the deadline (10 s), or fgs.stop first"
    case .fgsTimeoutIgnored: "fgs.timeout without fgs.stop for that service within 10 s"
    case .fgsStartedInBackground: "fgs.start while the app is in the background on Android 12+, outside the exemptions"
    case .fgsUntyped: "fgs.foreground without a type on Android 14+"
    case .fgsBudgetExhausted: "fgs.refuse reason=exhausted: the service type's daily time was already spent"
    case .workForegroundRefused:
      "work.foreground while the app is in the background on Android 12+, outside the exemptions, or a work.refuse"
    case .workExpeditedDropped: "work.quota policy=drop: an expedited request dropped, its quota spent"
    case .workExpeditedDemoted:
      "work.quota policy=run-as-regular, or work.stop reason=quota: expedited work runs as regular work"
    }
  }
}

/// How serious a finding is: errors fail `bgtrace check`; warnings only with `--strict`.
public enum Severity: String, Sendable, Hashable, Codable {
  /// `error`: a bug, which fails `bgtrace check`; `warning`: a risk, which fails it only
  /// with `--strict`.
  case error, warning
}
