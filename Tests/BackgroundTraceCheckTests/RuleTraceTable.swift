import BackgroundTraceCheck

/// What each hand-written rule trace under `Traces/rules/` must produce, worked out
/// from docs/rules.md event by event (see the comment block at the top of each trace).
///
/// `<rule>.fires*.txt` produce that rule exactly once and nothing else;
/// `<rule>.near-miss*.txt` produce nothing.
enum RuleTraceTable {
  static let taskCases: [TraceCase] = [
    TraceCase(
      file: "task-leaked.fires.txt",
      expected: [
        finding(
          .taskLeaked, line: 9, at: "3 task.end id=2", "task 1 (\"SaveDocument\") begun at 1s",
          "before the trace ended")
      ]),
    TraceCase(
      file: "task-leaked.fires-suspended.txt",
      expected: [
        finding(
          .taskLeaked, line: 13, at: "10 app.state to=suspended", "task 1 (\"Upload\") begun at 6s",
          "before the app was suspended")
      ]),
    TraceCase(
      file: "task-leaked.fires-terminate.txt",
      expected: [
        finding(.taskLeaked, line: 8, at: "8 app.terminate reason=memory", "task 1", "before the app terminated")
      ]),
    TraceCase(
      file: "task-leaked.fires-relaunch.txt",
      expected: [
        finding(
          .taskLeaked, line: 9, at: "10 app.launch", "task 1 begun at 1s", "before the app was launched again")
      ]),
    TraceCase(
      file: "task-leaked.fires-implicit.txt",
      expected: [finding(.taskLeaked, line: 8, at: "1 app.terminate reason=user", "task 1 begun at 0s")]),
    TraceCase(file: "task-leaked.near-miss.txt", expected: []),

    TraceCase(
      file: "task-double-end.fires.txt",
      expected: [
        finding(.taskDoubleEnd, line: 10, at: "7 task.end id=2", "task 2 ended twice (first end at 6s)")
      ]),
    TraceCase(
      file: "task-double-end.fires-after-suspension.txt",
      expected: [
        finding(.taskDoubleEnd, line: 12, at: "60.5 task.end id=1", "task 1 ended twice (first end at 5s)")
      ]),
    TraceCase(file: "task-double-end.near-miss.txt", expected: []),

    TraceCase(
      file: "task-unknown-end.fires.txt",
      expected: [finding(.taskUnknownEnd, line: 8, at: "3 task.end id=5", "task 5")]),
    TraceCase(
      file: "task-unknown-end.fires-invalid.txt",
      expected: [finding(.taskUnknownEnd, line: 8, at: "6 task.end id=0", ".invalid")]),
    TraceCase(
      file: "task-unknown-end.fires-previous-process.txt",
      expected: [finding(.taskUnknownEnd, line: 12, at: "11 task.end id=1", "task 1", "launched at 10s")]),
    TraceCase(
      file: "task-unknown-end.fires-implicit.txt",
      expected: [finding(.taskUnknownEnd, line: 5, at: "1 task.end id=2", "task 2")]),
    TraceCase(file: "task-unknown-end.near-miss.txt", expected: []),

    TraceCase(
      file: "task-expired-not-ended.fires.txt",
      expected: [
        finding(.taskExpiredNotEnded, line: 11, at: "40.6 task.end id=1", "task 1 (\"SaveDocument\")", "39.5s")
      ]),
    TraceCase(
      file: "task-expired-not-ended.fires-suspended.txt",
      expected: [
        finding(
          .taskExpiredNotEnded, line: 11, at: "40 app.state to=suspended", "task 1", "expired at 39.5s",
          "before the app was suspended")
      ]),
    TraceCase(
      file: "task-expired-not-ended.fires-watchdog.txt",
      expected: [
        finding(.taskExpiredNotEnded, line: 11, at: "42 app.terminate reason=watchdog", "task 1", "39.5s")
      ]),
    TraceCase(
      file: "task-expired-not-ended.fires-relaunch.txt",
      expected: [
        finding(
          .taskExpiredNotEnded, line: 10, at: "40 app.launch", "task 1", "39.5s", "before the app was launched again")
      ]),
    TraceCase(
      file: "task-expired-not-ended.fires-trace-end.txt",
      expected: [
        finding(
          .taskExpiredNotEnded, line: 11, at: "39.5 task.expire id=1", "task 1", "39.5s", "before the trace ended")
      ]),
    TraceCase(file: "task-expired-not-ended.near-miss.txt", expected: []),

    TraceCase(
      file: "task-over-budget.fires.txt",
      expected: [
        finding(
          .taskOverBudget, line: 11, at: "42.001 task.end id=1", "task 1 (\"Sync\")", "30s", "since 12s")
      ]),
    TraceCase(
      file: "task-over-budget.fires-entered-background.txt",
      expected: [finding(.taskOverBudget, line: 9, at: "40.5 task.end id=1", "task 1", "since 10s")]),
    TraceCase(
      file: "task-over-budget.fires-once-per-task.txt",
      expected: [finding(.taskOverBudget, line: 9, at: "32 env.set network=offline", "task 1", "since 1s")]),
    TraceCase(
      file: "task-over-budget.fires-meta-budget.txt",
      expected: [finding(.taskOverBudget, line: 8, at: "11.5 task.end id=1", "task 1", "10s")]),
    TraceCase(file: "task-over-budget.near-miss.txt", expected: []),
    TraceCase(file: "task-over-budget.near-miss-entered-background.txt", expected: []),
    TraceCase(file: "task-over-budget.near-miss-foreground-resets.txt", expected: []),
    TraceCase(file: "task-over-budget.near-miss-expired.txt", expected: []),
    TraceCase(file: "task-over-budget.near-miss-foreground.txt", expected: []),
  ]

  static let schedulerCases: [TraceCase] = [
    TraceCase(
      file: "sched-unregistered.fires.txt",
      expected: [
        finding(
          .schedUnregistered, line: 8, at: "1 sched.submit ident=com.example.cleanup", "com.example.cleanup")
      ]),
    TraceCase(
      file: "sched-unregistered.fires-not-permitted.txt",
      expected: [
        finding(.schedUnregistered, line: 8, at: "1 sched.submit ident=com.example.refresh", "com.example.refresh")
      ]),
    TraceCase(
      file: "sched-unregistered.fires-previous-process.txt",
      expected: [
        finding(
          .schedUnregistered, line: 12, at: "11 sched.submit ident=com.example.refresh", "com.example.refresh",
          "launched at 10s")
      ]),
    TraceCase(
      file: "sched-unregistered.fires-launch.txt",
      expected: [
        finding(
          .schedUnregistered, line: 13, at: "900.2 sched.launch ident=com.example.refresh run=1",
          "com.example.refresh")
      ]),
    TraceCase(file: "sched-unregistered.near-miss.txt", expected: []),

    TraceCase(
      file: "sched-duplicate-register.fires.txt",
      expected: [
        finding(
          .schedDuplicateRegister, line: 6, at: "0.1 sched.register ident=com.example.refresh",
          "com.example.refresh", "first at 0s")
      ]),
    TraceCase(
      file: "sched-duplicate-register.fires-implicit.txt",
      expected: [
        finding(
          .schedDuplicateRegister, line: 6, at: "0.1 sched.register ident=com.example.cleanup",
          "com.example.cleanup")
      ]),
    TraceCase(file: "sched-duplicate-register.near-miss.txt", expected: []),

    TraceCase(
      file: "sched-late-register.fires.txt",
      expected: [
        finding(
          .schedLateRegister, line: 8, at: "1 sched.register ident=com.example.cleanup", "com.example.cleanup",
          "0.3s")
      ]),
    TraceCase(
      file: "sched-late-register.fires-implicit.txt",
      expected: [
        finding(.schedLateRegister, line: 5, at: "1 sched.register ident=com.example.refresh", "com.example.refresh")
      ]),
    TraceCase(file: "sched-late-register.near-miss.txt", expected: []),

    TraceCase(
      file: "sched-not-completed.fires.txt",
      expected: [finding(.schedNotCompleted, line: 11, at: "31.5 input", "run 1", "30s")]),
    TraceCase(
      file: "sched-not-completed.fires-suspended.txt",
      expected: [
        finding(
          .schedNotCompleted, line: 8, at: "5 app.state to=suspended", "run 1", "before the app was suspended")
      ]),
    TraceCase(
      file: "sched-not-completed.fires-terminate.txt",
      expected: [
        finding(.schedNotCompleted, line: 8, at: "3 app.terminate reason=memory", "run 1", "before the app terminated")
      ]),
    TraceCase(
      file: "sched-not-completed.fires-relaunch.txt",
      expected: [
        finding(
          .schedNotCompleted, line: 10, at: "30.5 app.launch",
          "run 1 (com.example.cleanup, launched at 1s, expired at 30s) was not completed before the app was launched again"
        )
      ]),
    TraceCase(
      file: "sched-not-completed.fires-trace-end.txt",
      expected: [
        finding(
          .schedNotCompleted, line: 9, at: "30.5 env.set charging=false",
          "run 1 (com.example.cleanup, launched at 1s, expired at 30s) was not completed before the trace ended")
      ]),
    TraceCase(file: "sched-not-completed.near-miss.txt", expected: []),

    TraceCase(
      file: "sched-double-complete.fires.txt",
      expected: [
        finding(
          .schedDoubleComplete, line: 9, at: "6 sched.complete run=3", "run 3 completed twice (first at 5s)")
      ]),
    TraceCase(file: "sched-double-complete.near-miss.txt", expected: []),

    TraceCase(
      file: "sched-progress-stalled.fires.txt",
      expected: [
        finding(
          .schedProgressStalled, line: 12, at: "35 sched.expire run=1",
          "continued-processing run 1 (com.example.app.export.1) reported no progress for 30s, from its launch at 5s to 35s"
        )
      ]),
    TraceCase(
      file: "sched-progress-stalled.fires-progress-stops.txt",
      expected: [
        finding(
          .schedProgressStalled, line: 12, at: "40 app.state to=inactive",
          "for 30s, from its last progress at 2s to 32s")
      ]),
    TraceCase(
      file: "sched-progress-stalled.fires-meta-window.txt",
      expected: [
        finding(
          .schedProgressStalled, line: 10, at: "16 sched.progress run=1 completed=1",
          "for 10s, from its last progress at 1s to 11s")
      ]),
    TraceCase(file: "sched-progress-stalled.near-miss.txt", expected: []),
    TraceCase(
      file: "sched-late-register.fires-not-continued.txt",
      expected: [finding(.schedLateRegister, line: 13, at: "7 sched.register ident=com.example.refresh", "7s")]),

    TraceCase(
      file: "sched-refresh-not-rescheduled.fires.txt",
      expected: [
        finding(
          .schedRefreshNotRescheduled, line: 12, at: "905 sched.complete run=1", "run 1", "com.example.refresh")
      ]),
    TraceCase(
      file: "sched-refresh-not-rescheduled.fires-submit-before-launch.txt",
      expected: [finding(.schedRefreshNotRescheduled, line: 11, at: "1805 sched.complete run=1", "run 1")]),
    TraceCase(
      file: "sched-refresh-not-rescheduled.fires-latest-submit.txt",
      expected: [
        finding(.schedRefreshNotRescheduled, line: 12, at: "65 sched.complete run=1", "run 1", "com.example.sync")
      ]),
    TraceCase(file: "sched-refresh-not-rescheduled.near-miss.txt", expected: []),
    TraceCase(file: "sched-refresh-not-rescheduled.near-miss-rejected.txt", expected: []),
    TraceCase(file: "sched-refresh-not-rescheduled.near-miss-latest-submit.txt", expected: []),
  ]

  static let workCases: [TraceCase] = [
    TraceCase(
      file: "work-retry-limit.fires.txt",
      expected: [
        finding(
          .workRetryLimit, line: 16, at: "216 work.result work=sync attempt=3 outcome=retry", "work sync",
          "attempt 3", "limit=3")
      ]),
    TraceCase(
      file: "work-retry-limit.fires-start-past-limit.txt",
      expected: [
        finding(
          .workRetryLimit, line: 9, at: "31 work.start work=upload attempt=1", "work upload", "attempt 1", "limit=0")
      ]),
    TraceCase(
      file: "work-retry-limit.fires-keep.txt",
      expected: [
        finding(
          .workRetryLimit, line: 11, at: "34 work.result work=sync attempt=1 outcome=retry", "work sync", "limit=1")
      ]),
    TraceCase(
      file: "work-retry-limit.fires-append.txt",
      expected: [
        finding(
          .workRetryLimit, line: 11, at: "34 work.result work=sync attempt=1 outcome=retry", "work sync", "limit=1")
      ]),
    TraceCase(
      file: "work-retry-limit.fires-append-or-replace.txt",
      expected: [
        finding(
          .workRetryLimit, line: 11, at: "34 work.result work=sync attempt=1 outcome=retry", "work sync", "limit=1")
      ]),
    TraceCase(
      file: "work-retry-limit.fires-two-appends-in-order.txt",
      expected: [
        finding(
          .workRetryLimit, line: 18, at: "38 work.result work=sync attempt=1 outcome=retry", "work sync", "attempt 1")
      ]),
    TraceCase(file: "work-retry-limit.near-miss.txt", expected: []),
    TraceCase(file: "work-retry-limit.near-miss-reenqueue.txt", expected: []),
    TraceCase(file: "work-retry-limit.near-miss-no-limit.txt", expected: []),

    TraceCase(
      file: "work-backoff-early.fires.txt",
      expected: [
        finding(
          .workBackoffEarly, line: 9, at: "31.999 work.start work=sync attempt=1", "work sync attempt 1",
          "31.999s", "2s + 30s = 32s")
      ]),
    TraceCase(
      file: "work-backoff-early.fires-exponential.txt",
      expected: [
        finding(
          .workBackoffEarly, line: 11, at: "92.5 work.start work=sync attempt=2", "attempt 2", "33s + 60s = 93s")
      ]),
    TraceCase(
      file: "work-backoff-early.fires-clamped-delay.txt",
      expected: [
        finding(
          .workBackoffEarly, line: 9, at: "11.5 work.start work=upload attempt=1", "attempt 1", "2s + 10s = 12s")
      ]),
    TraceCase(
      file: "work-backoff-early.fires-keep.txt",
      expected: [
        finding(.workBackoffEarly, line: 10, at: "20 work.start work=sync attempt=1", "attempt 1", "2s + 30s = 32s")
      ]),
    TraceCase(file: "work-backoff-early.near-miss.txt", expected: []),
    TraceCase(file: "work-backoff-early.near-miss-clamped-delay.txt", expected: []),
    TraceCase(file: "work-backoff-early.near-miss-replace.txt", expected: []),
    TraceCase(file: "work-backoff-early.near-miss-capped.txt", expected: []),
    TraceCase(
      file: "work-backoff-early.fires-own-settings-after-finish.txt",
      expected: [
        finding(
          .workBackoffEarly, line: 13, at: "16 work.start work=sync attempt=1", "work sync attempt 1", "= 17s)")
      ]),
    TraceCase(file: "work-backoff-early.near-miss-own-settings-after-finish.txt", expected: []),
    TraceCase(file: "work-backoff-early.near-miss-not-next-attempt.txt", expected: []),

    TraceCase(
      file: "work-result-mismatch.fires.txt",
      expected: [
        finding(.workResultMismatch, line: 6, at: "2 work.result work=upload attempt=0", "work upload", "attempt 0")
      ]),
    TraceCase(
      file: "work-result-mismatch.fires-second-result.txt",
      expected: [
        finding(
          .workResultMismatch, line: 8, at: "2.5 work.result work=sync attempt=0", "work sync",
          "second result for attempt 0", "2s")
      ]),
    TraceCase(
      file: "work-result-mismatch.fires-wrong-attempt.txt",
      expected: [
        finding(
          .workResultMismatch, line: 8, at: "2 work.result work=sync attempt=1", "attempt 1",
          "attempt 0 is running (started at 1s)")
      ]),
    TraceCase(
      file: "work-result-mismatch.fires-after-stop.txt",
      expected: [
        finding(.workResultMismatch, line: 9, at: "602 work.result work=upload attempt=0", "work upload", "attempt 0")
      ]),
    TraceCase(
      file: "work-result-mismatch.fires-replaced.txt",
      expected: [
        finding(
          .workResultMismatch, line: 9, at: "3 work.result work=sync attempt=0", "work sync",
          "returned success for attempt 0, which a REPLACE enqueue cancelled at 2s", "WorkManager drops its result")
      ]),
    TraceCase(file: "work-result-mismatch.near-miss.txt", expected: []),

    TraceCase(
      file: "work-after-finish.fires.txt",
      expected: [
        finding(.workAfterFinish, line: 8, at: "10 work.start work=upload", "work upload", "succeeded at 3s")
      ]),
    TraceCase(
      file: "work-after-finish.fires-failure.txt",
      expected: [finding(.workAfterFinish, line: 8, at: "10 work.start work=upload", "work upload", "failed at 3s")]),
    TraceCase(
      file: "work-after-finish.fires-cancelled.txt",
      expected: [
        finding(.workAfterFinish, line: 7, at: "3 work.start work=upload", "work upload", "cancelled at 2s")
      ]),
    TraceCase(
      file: "work-after-finish.fires-cancelled-running.txt",
      expected: [
        finding(.workAfterFinish, line: 9, at: "10 work.start work=upload", "work upload", "cancelled at 3s")
      ]),
    TraceCase(
      file: "work-after-finish.fires-next-process.txt",
      expected: [
        finding(.workAfterFinish, line: 13, at: "11 work.start work=upload", "work upload", "succeeded at 3s")
      ]),
    TraceCase(file: "work-after-finish.near-miss.txt", expected: []),
    TraceCase(file: "work-after-finish.near-miss-policies.txt", expected: []),
    TraceCase(
      file: "work-after-finish.fires-queued-behind-failure.txt",
      expected: [
        finding(.workAfterFinish, line: 11, at: "6 work.start work=upload", "work upload", "failed at 4s")
      ]),
    TraceCase(
      file: "work-after-finish.fires-append-behind-failed.txt",
      expected: [
        finding(.workAfterFinish, line: 12, at: "6 work.start work=upload", "work upload", "failed at 3s")
      ]),
    TraceCase(
      file: "work-after-finish.fires-append-behind-cancelled.txt",
      expected: [
        finding(.workAfterFinish, line: 12, at: "6 work.start work=upload", "work upload", "cancelled at 3s")
      ]),
    TraceCase(
      file: "work-after-finish.fires-quiet-after.txt",
      expected: [
        finding(.workAfterFinish, line: 12, at: "10 work.start work=upload", "work upload", "succeeded at 3s")
      ]),
    TraceCase(file: "work-after-finish.near-miss-append-behind-succeeded.txt", expected: []),
    TraceCase(file: "work-after-finish.near-miss-append-or-replace-behind-failed.txt", expected: []),
    TraceCase(file: "work-after-finish.near-miss-two-appends.txt", expected: []),
  ]

  static let processCases: [TraceCase] = [
    TraceCase(
      file: "event-after-terminate.fires.txt",
      expected: [
        finding(
          .eventAfterTerminate, line: 9, at: "6 work.cancel work=upload", "work.cancel", "terminated at 5s",
          "reason: user")
      ]),
    TraceCase(
      file: "event-after-terminate.fires-implicit.txt",
      expected: [
        finding(.eventAfterTerminate, line: 6, at: "2 work.enqueue work=upload", "work.enqueue", "terminated at 1s")
      ]),
    TraceCase(file: "event-after-terminate.near-miss.txt", expected: []),
  ]

  /// Traces where several findings come from one scenario.
  static let combinedCases: [TraceCase] = [
    TraceCase(
      file: "combined/event-after-terminate.two-processes.txt",
      expected: [
        finding(.eventAfterTerminate, line: 8, at: "6 work.enqueue work=a", "terminated at 5s", "reason: user"),
        finding(.eventAfterTerminate, line: 13, at: "16 task.end id=1", "terminated at 15s", "reason: memory"),
      ]),
    TraceCase(
      file: "combined/task-over-budget-then-leaked.txt",
      expected: [
        finding(.taskOverBudget, line: 9, at: "32 env.set network=offline", "task 1 (\"Upload\")"),
        finding(.taskLeaked, line: 10, at: "40 app.state to=suspended", "task 1 (\"Upload\")"),
      ]),
    TraceCase(file: "combined/trace-order.txt", expected: TraceOrderTests.expected),
  ]

  /// Every rule trace with its expectations.
  /// Traces imported from a device log (`meta source=ios-log|android-log`): what the
  /// log's cuts cause is quiet, at both ends (docs/rules.md#imported-logs).
  static let logCaptureCases: [TraceCase] = [
    TraceCase(file: "task-unknown-end.near-miss-log-start.txt", expected: []),
    TraceCase(
      file: "task-double-end.fires-log-start.txt",
      expected: [finding(.taskDoubleEnd, line: 8, at: "0.5 task.end id=5", "task 5 ended twice (first end at 0.5s)")]),
    TraceCase(
      file: "task-unknown-end.fires-log-launch.txt",
      expected: [finding(.taskUnknownEnd, line: 6, at: "1 task.end id=3", "task 3", "launched at 0s")]),
    TraceCase(file: "task-leaked.near-miss-log-end.txt", expected: []),
    TraceCase(
      file: "task-expired-not-ended.fires-log-end.txt",
      expected: [
        finding(
          .taskExpiredNotEnded, line: 8, at: "1 task.expire id=262", "task 262", "expired at 1s",
          "before the trace ended")
      ]),
    TraceCase(file: "sched-not-completed.near-miss-log-end.txt", expected: []),
    TraceCase(
      file: "sched-not-completed.fires-log-end.txt",
      expected: [
        finding(
          .schedNotCompleted, line: 8, at: "2 sched.expire run=1", "run 1", "expired at 2s", "before the trace ended")
      ]),
    TraceCase(file: "sched-unregistered.near-miss-log.txt", expected: []),
    TraceCase(
      file: "sched-unregistered.fires-log-no-handler.txt",
      expected: [
        finding(.schedUnregistered, line: 7, at: "0 sched.launch ident=org.example.roundup", "org.example.roundup")
      ]),
    TraceCase(file: "work-result-mismatch.near-miss-log-start.txt", expected: []),
    TraceCase(
      file: "work-result-mismatch.fires-log-second-result.txt",
      expected: [
        finding(
          .workResultMismatch, line: 7, at: "2 work.result work=9b6d0618", "second result for attempt 0")
      ]),
    TraceCase(file: "work-backoff-early.near-miss-log-least-backoff.txt", expected: []),
    TraceCase(
      file: "work-backoff-early.fires-log-least-backoff.txt",
      expected: [
        finding(
          .workBackoffEarly, line: 9, at: "5 work.start work=0b0c3e1a attempt=1", "attempt 1", "2.5s + 10s = 12.5s")
      ]),
  ]

  static let all =
    taskCases + schedulerCases + workCases + processCases + transferCases + foregroundServiceCases + combinedCases
    + logCaptureCases + fileLockCases + dozeCases + quotaCases
}
