/// Every rule's declaration: its severity, its one-line summary and how to fix what it
/// finds. docs/rules.md's table, each section's severity and how-to-fix paragraph, and its
/// example traces are produced from these and from `Traces/rules`
/// (`Tools/generate-docs.sh`); the page's explanation of each rule is written there.
/// A new ``Rule`` case does not compile until it is declared here.
extension Rule {
  /// What is declared of one rule.
  package struct Declaration: Sendable {
    /// How serious a finding of the rule is.
    package var severity: Severity
    /// When the rule fires, in one line of Markdown (event kinds in backticks).
    package var summary: String
    /// What to change in the app, in Markdown: a paragraph, and code where it helps.
    package var howToFix: String

    init(_ severity: Severity, _ summary: String, fix howToFix: String) {
      self.severity = severity
      self.summary = summary
      self.howToFix = howToFix
    }
  }

  /// This rule's declaration.
  package var declaration: Declaration {
    switch self {
    case .taskLeaked:
      Declaration(
        .error, "a begun task is not ended before the trace ends, the app is suspended, or it terminates",
        fix: #"""
          End the task on every path: when the work finishes and in the expiration handler,
          through one function that ends it once.

          ```swift
          var task = UIBackgroundTaskIdentifier.invalid
          func endTask() {
            guard task != .invalid else { return }
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
          }
          task = UIApplication.shared.beginBackgroundTask(withName: "SaveDocument") { endTask() }
          save { endTask() }
          ```
          """#)
    case .taskDoubleEnd:
      Declaration(
        .error, "`task.end` for a task already ended",
        fix: #"""
          End through one function that ends the stored id once and resets it to
          `.invalid`, and call it (on one queue) from both the completion and the expiration
          handler — the `endTask()` under [task-leaked](#task-leaked). Do not keep a second
          copy of the id that is ended separately.
          """#)
    case .taskUnknownEnd:
      Declaration(
        .error, "`task.end` for an id never begun in this process, or for `.invalid` (0)",
        fix: #"""
          End only an id you began in this process and still hold: guard
          `task != .invalid` before `endBackgroundTask`, reset the id when it is ended, and
          never persist an id across launches.

          ```swift
          guard task != .invalid else { return }   // refused, or already ended by the handler
          UIApplication.shared.endBackgroundTask(task)
          task = .invalid
          ```
          """#)
    case .taskExpiredNotEnded:
      Declaration(
        .error, "no `task.end` within the grace period after `task.expire`",
        fix: #"""
          The expiration handler must end the task itself, before it returns: stop the
          work, then end. Do not wait there for the work to finish.

          ```swift
          task = UIApplication.shared.beginBackgroundTask(withName: "Upload") {
            upload.cancel()
            endTask()   // now, not when the cancelled upload reports back
          }
          ```
          """#)
    case .taskOverBudget:
      Declaration(
        .warning, "a task stays open in the background longer than the budget, with no expiration",
        fix: #"""
          Keep the work inside the budget: do less per task, check
          `backgroundTimeRemaining` between steps and stop early, and give the task an
          expiration handler that ends it. Long work belongs in a `BGProcessingTaskRequest`,
          not in a UIKit background task.

          ```swift
          for chunk in chunks {
            guard UIApplication.shared.backgroundTimeRemaining > 5 else { break }
            write(chunk)
          }
          endTask()
          ```
          """#)
    case .schedUnregistered:
      Declaration(
        .error, "`sched.submit` or `sched.launch` for an identifier not registered in this process",
        fix: #"""
          Register a handler for every identifier at launch, before anything submits it,
          and list the identifier in the app's `BGTaskSchedulerPermittedIdentifiers`.

          ```swift
          func application(_ application: UIApplication,
                           didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
              self.handleRefresh(task as! BGAppRefreshTask)
            }
            return true
          }
          ```
          """#)
    case .schedDuplicateRegister:
      Declaration(
        .error, "one identifier registered twice in a process",
        fix: #"""
          Register each identifier once per process, in
          `application(_:didFinishLaunchingWithOptions:)` — not in scene setup, a view
          controller or a function that runs again (see the snippet under
          [sched-unregistered](#sched-unregistered)).
          """#)
    case .schedLateRegister:
      Declaration(
        .error, "`sched.register` after the process left launch",
        fix: #"""
          Register in `application(_:didFinishLaunchingWithOptions:)`, before it returns —
          not after an `await`, in a dispatched block, or when a screen appears (see the
          snippet under [sched-unregistered](#sched-unregistered)).
          """#)
    case .schedNotCompleted:
      Declaration(
        .error, "a launched run is never completed, or not within the grace period after `sched.expire`",
        fix: #"""
          Call `setTaskCompleted(success:)` on every path, and set an expiration handler
          that cancels the work and completes the task with `false`.

          ```swift
          func handleRefresh(_ task: BGAppRefreshTask) {
            let operation = RefreshOperation()
            task.expirationHandler = { operation.cancel() }
            operation.completionBlock = { task.setTaskCompleted(success: !operation.isCancelled) }
            queue.addOperation(operation)
          }
          ```
          """#)
    case .schedDoubleComplete:
      Declaration(
        .error, "`sched.complete` twice for one run",
        fix: #"""
          Complete in one place: let the expiration handler cancel the work, and complete
          only when the work ends (with `false` when it was cancelled), as in the snippet
          under [sched-not-completed](#sched-not-completed). Do not also call
          `setTaskCompleted` in the expiration handler.
          """#)
    case .schedRefreshNotRescheduled:
      Declaration(
        .warning, "a refresh run completes without a new `sched.submit` for its identifier",
        fix: #"""
          Submit the next refresh at the start of the refresh handler, before the work
          (which may expire):

          ```swift
          func handleRefresh(_ task: BGAppRefreshTask) {
            scheduleNextRefresh()   // BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(...))
            // … then fetch and complete
          }
          ```
          """#)
    case .schedProgressStalled:
      Declaration(
        .warning,
        "a continued-processing run with no `sched.progress` moving it for the stall window (30 s, or `meta continued-stall=`)",
        fix: #"""
          Report progress through the task's `progress` as the work goes on, at least
          once per window — set `totalUnitCount` when the work starts and advance
          `completedUnitCount` after each unit; a long unit (a large file) should report
          partial units, not one unit at its end:

          ```swift
          BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            guard let task = task as? BGContinuedProcessingTask else { return }
            task.progress.totalUnitCount = Int64(items.count)
            for item in items {
              export(item)
              task.progress.completedUnitCount += 1
            }
            task.setTaskCompleted(success: true)
          }
          ```
          """#)
    case .workRetryLimit:
      Declaration(
        .error, "`retry` at `attempt >= limit`, or a start at `attempt > limit`",
        fix: #"""
          Return `retry` only below the limit and `failure` from the limit on:

          ```swift
          func doWork(_ context: WorkContext) async -> WorkResult {
            if await upload() { return .success }
            return context.runAttemptCount < Self.attemptLimit ? .retry : .failure
          }
          ```
          """#)
    case .workBackoffEarly:
      Declaration(
        .error, "a retried work starts before its backoff allows",
        fix: #"""
          Return `retry` and let the queue run the next attempt after the backoff; do not
          start the work again yourself (a timer, a `replace` enqueue in a loop). To retry
          sooner, lower the request's `backoffDelay` (at least 10 s) or choose linear
          `backoff`.
          """#)
    case .workResultMismatch:
      Declaration(
        .error, "`work.result` with no matching running attempt, or twice for one attempt",
        fix: #"""
          Report exactly one result per attempt, by returning it from `doWork`. Do not
          report a result from a callback that can outlive the attempt (a timeout, a
          completion handler after the work was stopped or replaced).
          """#)
    case .workAfterFinish:
      Declaration(
        .error, "one-time work starts again after success, failure or cancel",
        fix: #"""
          One-time work that succeeded, failed or was cancelled stays finished: to run it
          again, enqueue a new request (a `replace` enqueue of the same unique work, or a new
          id), or make it periodic work.
          """#)
    case .eventAfterTerminate:
      Declaration(
        .error, "an app action after `app.terminate` and before the next `app.launch`",
        fix: #"""
          Record the process's life in order: `app.launch` first in every process (a new
          `TraceRecorder` per launch, `BGTRACE_OUTPUT` with `%p`), and nothing after
          `app.terminate` from that process. When traces of two processes are joined, the
          second needs its own `app.launch`.
          """#)
    case .netHandlerNotCalled:
      Declaration(
        .error,
        "after `net.wake`, no `net.handler` before the app is suspended or ends, or within the budget after `net.events-done`",
        fix: #"""
          Keep the handler from `handleEventsForBackgroundURLSession` and call it, on the main
          thread, in your session delegate's `urlSessionDidFinishEvents(forBackgroundURLSession:)`.
          """#)
    case .netHandlerEarly:
      Declaration(
        .warning, "`net.handler` before the session's `net.events-done`",
        fix: #"""
          Call the handler in `urlSessionDidFinishEvents(forBackgroundURLSession:)`, not in
          `handleEventsForBackgroundURLSession` itself.
          """#)
    case .netHandlerUnknown:
      Declaration(
        .error, "`net.handler` with no `net.wake` outstanding for its session",
        fix: #"""
          Call the stored handler once and clear it (`completionHandler = nil` after calling it).
          """#)
    case .netSessionDuplicate:
      Declaration(
        .warning, "`net.create` of a session already created in this process",
        fix: #"""
          Create each background session once per process (a shared instance), and look it up
          again by its identifier rather than creating a new one.
          """#)
    case .netNotRecreated:
      Declaration(
        .error, "`net.wake` in a process that never creates the session before it is suspended or ends",
        fix: #"""
          In `handleEventsForBackgroundURLSession`, create (or look up) the session with the
          identifier the system passed, with its delegate, before storing the handler.
          """#)
    case .fgsNotPromoted:
      Declaration(
        .error,
        "`fgs.start` without `fgs.foreground` for that service within the deadline (10 s, or `meta fgs-deadline=`), or `fgs.stop` first",
        fix: #"""
          Call `startForeground(id, notification, type)` first thing in
          `onStartCommand`, before any slow work (loading, network); start the work after it,
          and stop the service only after it went foreground.
          """#)
    case .fgsTimeoutIgnored:
      Declaration(
        .error, "`fgs.timeout` without `fgs.stop` for that service within 10 s",
        fix: #"""
          Implement `onTimeout(startId, fgsType)` and call `stopSelf()` in it (after
          saving what the work needs to resume), within seconds.
          """#)
    case .fgsStartedInBackground:
      Declaration(
        .error, "`fgs.start` while the app is in the background on Android 12+, outside the exemptions",
        fix: #"""
          Start foreground services only while the app is visible, or at once
          from the handler of a delivery that allowlists the app (`onMessageReceived` of a
          high-priority FCM message, an exact alarm's receiver, a notification's `PendingIntent`),
          not after it has awaited something; from the background, enqueue the work with
          WorkManager (expedited work; a worker's
          `setForeground` from the background is refused too).
          """#)
    case .fgsUntyped:
      Declaration(
        .error, "`fgs.foreground` without a type on Android 14+",
        fix: #"""
          Declare `android:foregroundServiceType` on the service in the manifest
          (with its `FOREGROUND_SERVICE_*` permission) and pass the type to
          `startForeground(id, notification, type)` (`ServiceCompat.startForeground`).
          """#)
    case .fgsBudgetExhausted:
      Declaration(
        .error, "`fgs.refuse reason=exhausted`: the service type's daily time was already spent",
        fix: #"""
          Do not restart a `dataSync` service after its `onTimeout`: move the remaining work to
          WorkManager (or a user-initiated data transfer job), and keep foreground services for
          work the user is waiting on. Catch `ForegroundServiceStartNotAllowedException` around
          `startForeground` and reschedule instead of crashing.
          """#)
    case .fgsBootCompletedType:
      Declaration(
        .error,
        "`fgs.refuse reason=boot-completed`: a service started from `BOOT_COMPLETED` asked for a type Android 15 bars "
          + "there",
        fix: #"""
          From Android 15 a foreground service started from a `BOOT_COMPLETED` receiver may
          be only `location`, `connectedDevice`, `remoteMessaging`, `health`,
          `systemExempted` or `specialUse`: `dataSync`, `mediaPlayback`, `camera`,
          `microphone`, `phoneCall`, `mediaProjection` (and `shortService`,
          `mediaProcessing`) throw `ForegroundServiceStartNotAllowedException`. Enqueue the
          work after a boot with WorkManager instead (a worker may still call
          `setForeground` once it runs), or start the service when the user opens the app.
          """#)
    case .fgsMissingPermission:
      Declaration(
        .error,
        "`fgs.refuse reason=permission` or `work.refuse reason=permission`: the type's `FOREGROUND_SERVICE_*` "
          + "permission is not in the manifest",
        fix: #"""
          From Android 14 each foreground service type needs its own permission in the
          manifest besides `FOREGROUND_SERVICE`: `FOREGROUND_SERVICE_DATA_SYNC` for
          `dataSync`, `FOREGROUND_SERVICE_LOCATION` for `location`, and so on (none for
          `shortService`). Declare the permission of every type the app starts, a
          worker's `ForegroundInfo` type included (WorkManager's
          `SystemForegroundService` starts it).
          """#)
    case .fgsWhileInUseFromBackground:
      Declaration(
        .error,
        "`fgs.refuse reason=while-in-use` or `work.refuse reason=while-in-use`: a `camera`, `microphone` or "
          + "`location` service created from the background on Android 14+",
        fix: #"""
          The camera, microphone and location permissions are *while-in-use*: the app holds
          them only while it is in the foreground, so from Android 14 a service of these
          types created from the background is refused, even where a background start is
          allowed (a high-priority message, an exact alarm, `BOOT_COMPLETED`). Start the
          service while an activity is visible, or from a notification the user taps; for
          `location`, ask the user for `ACCESS_BACKGROUND_LOCATION`.
          """#)
    case .workForegroundRefused:
      Declaration(
        .error,
        "`work.foreground` while the app is in the background on Android 12+, outside the exemptions, or a `work.refuse`",
        fix: #"""
          Make work that must not be interrupted expedited (`setExpedited`, with
          `getForegroundInfo()` for Android 11 and earlier) or call `setForeground` while the app
          is still in the foreground (for example at the start of work the user asked for). Give
          the `ForegroundInfo` a type and declare it on `androidx.work.impl.foreground.SystemForegroundService`
          in the manifest (`tools:node="merge"`, with its `FOREGROUND_SERVICE_*` permission).
          Catch the exception and let the worker split its work into runs shorter than its job
          time limit (10 minutes; up to 30 from Android 14 while its quota is free).
          """#)
    case .workExpeditedDropped:
      Declaration(
        .error, "`work.quota policy=drop`: an expedited request dropped, its quota spent",
        fix: #"""
          Use `OutOfQuotaPolicy.RUN_AS_NON_EXPEDITED_WORK_REQUEST` unless losing the work is
          acceptable; keep expedited work short (it draws on the quota for as long as it runs);
          enqueue as expedited only what the user is waiting for.
          """#)
    case .workExpeditedDemoted:
      Declaration(
        .warning,
        "`work.quota policy=run-as-regular`, or `work.stop reason=quota`: expedited work runs as regular work",
        fix: #"""
          Keep expedited work under a minute or two and enqueue fewer expedited requests: each
          draws on a quota of minutes per day. Work that may take longer should not be
          expedited; split it, or make it a long-running worker started while the app is in the
          foreground.
          """#)
    case .fileLockedAtSuspension:
      Declaration(
        .error, "`app.state to=suspended` while a `file.lock` has no `file.unlock`",
        fix: #"""
          Finish database writes before the app can be suspended: begin a background task
          (`beginBackgroundTask(withName:expirationHandler:)`) well before the write, end it
          after the lock is released, and in the expiration handler stop the write and release
          the lock. Do not keep a transaction or a file lock open across `didEnterBackground`;
          for a database in an app group, hold its lock only for the length of each write.
          """#)
    case .workPeriodOutpaced:
      Declaration(
        .warning,
        "periodic work waited for its standby bucket's job quota longer than its period: the bucket cannot keep it",
        fix: #"""
          The app's standby bucket gives its regular jobs 10 minutes of running per window
          (2 hours in `working_set`, 8 in `frequent`, 24 in `rare` and `restricted`) in a
          limited number of sessions (3 a day in `rare`, 1 in `restricted`), and every
          bucket at most 4 hours a day; a periodic request that asks for more waits out
          the window. Ask for no more than the bucket allows: a longer period, shorter
          runs, or one request doing the work of several; work the user is waiting for
          should be expedited (`setExpedited`), which draws on its own quota.
          """#)
    case .alarmExactDeferred:
      Declaration(
        .warning,
        "`alarm.fire` more than a minute after its `alarm.set type=exact`'s `at`: Doze or a quota held an exact alarm",
        fix: #"""
          `setExact` is exact only while the device is awake: in Doze the alarm waits for the
          next maintenance window, or for the device to wake, which can be hours. An alarm that
          must go off on time while the device dozes needs `setExactAndAllowWhileIdle` (limited
          to a few an hour per app in Doze) or, for an alarm the user set, `setAlarmClock`; work
          that may wait should be a WorkManager request instead of an alarm.
          """#)
    case .alarmRepeatClamped:
      Declaration(
        .warning,
        "`alarm.set type=repeating` with an `interval` under a minute: Android repeats the alarm once a minute at most",
        fix: #"""
          A repeating alarm runs at most once a minute, each occurrence up to 45 s late. Work
          that must run more often belongs in the foreground (a foreground service, or a
          `Handler` while the app is open); work that may wait belongs in WorkManager, whose
          periodic work runs at most every 15 minutes. Ask for an interval Android keeps, a
          minute or more, so that the code says what the device does.
          """#)
    case .netOneTransferPerWake:
      Declaration(
        .warning,
        "the system woke the app for a background session three times in a row, and each time the app started "
          + "one new transfer from the background: the resume rate limiter delays each more than the last",
        fix: #"""
          Each time `nsurlsessiond` resumes or relaunches the app for a session's events it
          doubles a delay (60 s at first, then 120 s, 240 s, up to an hour), and a transfer
          started in the background does not begin until the delay has passed: a chain of
          one download per wake slows to a crawl (Apple, "Downloading files in the
          background": "use a small number of background sessions — ideally just one —
          and use these sessions to start many download tasks at once"). Start the
          transfers together, or while the app is in the foreground, which resets the
          delay.
          """#)
    case .workOutlastsDozeWindow:
      Declaration(
        .warning, "a second `work.stop reason=doze` in a row: the work's attempts outlast Doze's maintenance windows",
        fix: #"""
          Make each attempt fit a maintenance window (a minute in light Doze, five in deep
          Doze): save progress as the worker goes and resume from it on the next attempt, or
          split the work into shorter requests. Work that must finish while the device dozes
          should be expedited (`setExpedited`), which Doze does not defer, or run as a
          long-running worker (`setForeground`) started while the app is in the foreground.
          """#)
    }
  }
}
