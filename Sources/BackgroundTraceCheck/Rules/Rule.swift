/// A checker rule: what it is called, how serious it is, and what it means. Each is
/// declared once, with its severity, summary and fix; docs/rules.md explains each.
public enum Rule: String, Sendable, Hashable, CaseIterable, Codable {
  /// `task-leaked`: ``Rule/summary`` says when it fires (docs/rules.md#task-leaked).
  case taskLeaked = "task-leaked"
  /// `task-double-end`: ``Rule/summary`` says when it fires (docs/rules.md#task-double-end).
  case taskDoubleEnd = "task-double-end"
  /// `task-unknown-end`: ``Rule/summary`` says when it fires (docs/rules.md#task-unknown-end).
  case taskUnknownEnd = "task-unknown-end"
  /// `task-expired-not-ended`: ``Rule/summary`` says when it fires (docs/rules.md#task-expired-not-ended).
  case taskExpiredNotEnded = "task-expired-not-ended"
  /// `task-over-budget`: ``Rule/summary`` says when it fires (docs/rules.md#task-over-budget).
  case taskOverBudget = "task-over-budget"
  /// `sched-unregistered`: ``Rule/summary`` says when it fires (docs/rules.md#sched-unregistered).
  case schedUnregistered = "sched-unregistered"
  /// `sched-duplicate-register`: ``Rule/summary`` says when it fires (docs/rules.md#sched-duplicate-register).
  case schedDuplicateRegister = "sched-duplicate-register"
  /// `sched-late-register`: ``Rule/summary`` says when it fires (docs/rules.md#sched-late-register).
  case schedLateRegister = "sched-late-register"
  /// `sched-not-completed`: ``Rule/summary`` says when it fires (docs/rules.md#sched-not-completed).
  case schedNotCompleted = "sched-not-completed"
  /// `sched-double-complete`: ``Rule/summary`` says when it fires (docs/rules.md#sched-double-complete).
  case schedDoubleComplete = "sched-double-complete"
  /// `sched-refresh-not-rescheduled`: ``Rule/summary`` says when it fires (docs/rules.md#sched-refresh-not-rescheduled).
  case schedRefreshNotRescheduled = "sched-refresh-not-rescheduled"
  /// `sched-progress-stalled`: ``Rule/summary`` says when it fires (docs/rules.md#sched-progress-stalled).
  case schedProgressStalled = "sched-progress-stalled"
  /// `work-retry-limit`: ``Rule/summary`` says when it fires (docs/rules.md#work-retry-limit).
  case workRetryLimit = "work-retry-limit"
  /// `work-backoff-early`: ``Rule/summary`` says when it fires (docs/rules.md#work-backoff-early).
  case workBackoffEarly = "work-backoff-early"
  /// `work-result-mismatch`: ``Rule/summary`` says when it fires (docs/rules.md#work-result-mismatch).
  case workResultMismatch = "work-result-mismatch"
  /// `work-after-finish`: ``Rule/summary`` says when it fires (docs/rules.md#work-after-finish).
  case workAfterFinish = "work-after-finish"
  /// `event-after-terminate`: ``Rule/summary`` says when it fires (docs/rules.md#event-after-terminate).
  case eventAfterTerminate = "event-after-terminate"
  /// `net-handler-not-called`: ``Rule/summary`` says when it fires (docs/rules.md#net-handler-not-called).
  case netHandlerNotCalled = "net-handler-not-called"
  /// `net-handler-early`: ``Rule/summary`` says when it fires (docs/rules.md#net-handler-early).
  case netHandlerEarly = "net-handler-early"
  /// `net-handler-unknown`: ``Rule/summary`` says when it fires (docs/rules.md#net-handler-unknown).
  case netHandlerUnknown = "net-handler-unknown"
  /// `net-session-duplicate`: ``Rule/summary`` says when it fires (docs/rules.md#net-session-duplicate).
  case netSessionDuplicate = "net-session-duplicate"
  /// `net-not-recreated`: ``Rule/summary`` says when it fires (docs/rules.md#net-not-recreated).
  case netNotRecreated = "net-not-recreated"
  /// `fgs-not-promoted`: ``Rule/summary`` says when it fires (docs/rules.md#fgs-not-promoted).
  case fgsNotPromoted = "fgs-not-promoted"
  /// `fgs-timeout-ignored`: ``Rule/summary`` says when it fires (docs/rules.md#fgs-timeout-ignored).
  case fgsTimeoutIgnored = "fgs-timeout-ignored"
  /// `fgs-started-in-background`: ``Rule/summary`` says when it fires (docs/rules.md#fgs-started-in-background).
  case fgsStartedInBackground = "fgs-started-in-background"
  /// `fgs-untyped`: ``Rule/summary`` says when it fires (docs/rules.md#fgs-untyped).
  case fgsUntyped = "fgs-untyped"
  /// `fgs-budget-exhausted`: ``Rule/summary`` says when it fires (docs/rules.md#fgs-budget-exhausted).
  case fgsBudgetExhausted = "fgs-budget-exhausted"
  /// `work-foreground-refused`: ``Rule/summary`` says when it fires (docs/rules.md#work-foreground-refused).
  case workForegroundRefused = "work-foreground-refused"
  /// `work-expedited-dropped`: ``Rule/summary`` says when it fires (docs/rules.md#work-expedited-dropped).
  case workExpeditedDropped = "work-expedited-dropped"
  /// `work-expedited-demoted`: ``Rule/summary`` says when it fires (docs/rules.md#work-expedited-demoted).
  case workExpeditedDemoted = "work-expedited-demoted"
  /// `file-locked-at-suspension`: ``Rule/summary`` says when it fires (docs/rules.md#file-locked-at-suspension).
  case fileLockedAtSuspension = "file-locked-at-suspension"
  /// `work-outlasts-doze-window`: ``Rule/summary`` says when it fires (docs/rules.md#work-outlasts-doze-window).
  case workOutlastsDozeWindow = "work-outlasts-doze-window"
  /// `work-period-outpaced`: ``Rule/summary`` says when it fires (docs/rules.md#work-period-outpaced).
  case workPeriodOutpaced = "work-period-outpaced"
  /// `alarm-exact-deferred`: ``Rule/summary`` says when it fires (docs/rules.md#alarm-exact-deferred).
  case alarmExactDeferred = "alarm-exact-deferred"
  /// `net-one-transfer-per-wake`: ``Rule/summary`` says when it fires (docs/rules.md#net-one-transfer-per-wake).
  case netOneTransferPerWake = "net-one-transfer-per-wake"
  /// `fgs-boot-completed-type`: ``Rule/summary`` says when it fires (docs/rules.md#fgs-boot-completed-type).
  case fgsBootCompletedType = "fgs-boot-completed-type"
  /// `fgs-missing-permission`: ``Rule/summary`` says when it fires (docs/rules.md#fgs-missing-permission).
  case fgsMissingPermission = "fgs-missing-permission"
  /// `fgs-while-in-use-from-background`: ``Rule/summary`` says when it fires (docs/rules.md#fgs-while-in-use-from-background).
  case fgsWhileInUseFromBackground = "fgs-while-in-use-from-background"
  /// `alarm-repeat-clamped`: ``Rule/summary`` says when it fires (docs/rules.md#alarm-repeat-clamped).
  case alarmRepeatClamped = "alarm-repeat-clamped"

  /// The rule's id, as printed in brackets after each finding.
  public var id: String { rawValue }

  /// How serious a finding of this rule is.
  public var severity: Severity { declaration.severity }

  /// One line saying when the rule fires: docs/rules.md's table, without its Markdown.
  public var summary: String { declaration.summary.filter { $0 != "`" } }
}

/// How serious a finding is: errors fail `bgtrace check`; warnings only with `--strict`.
public enum Severity: String, Sendable, Hashable, Codable {
  /// `error`: a bug, which fails `bgtrace check`; `warning`: a risk, which fails it only
  /// with `--strict`.
  case error, warning
}
