package import BackgroundTrace

/// What one log message says happened, in the platform's terms, before it is turned
/// into events (``ImportTranslator``). The messages and their sources are in
/// docs/import.md.
package enum PlatformMessage: Sendable, Hashable {
  // UIKit, category BackgroundTask.
  /// `Created background task <…>: taskID = N, taskName = NAME, …`.
  case taskCreated(id: Int, name: String?)
  /// `Ending background task with UIBackgroundTaskIdentifier: N` (or
  /// `Ending task with identifier N and description: …`).
  case taskEnded(id: Int)
  /// `Can't end BackgroundTask: no background task exists with identifier N (0x…), …`
  /// (before iOS 13: `Can't endBackgroundTask: … identifier HEX, …`):
  /// a platform-bug line.
  case taskEndRefused(id: Int)
  /// `Calling expiration handler for task: <…>: taskID = N, …`.
  case taskExpiring(id: Int, name: String?)
  /// `Background task still not ended after expiration handlers were called: <…>:
  /// taskID = N, …`: a platform-bug line.
  case taskStillNotEnded(id: Int, name: String?)
  /// `Background Task N ("NAME"), was created over 30 seconds ago. …`: no event (the
  /// checker's budget rule judges it), but it names an open task.
  case taskOld(id: Int, name: String?)

  // BackgroundTasks (BGTaskScheduler).
  /// `submitTaskRequest: <BGAppRefreshTaskRequest: IDENT, …>` (or a processing request).
  case requestSubmitted(identifier: String, type: SchedulerRequestKind)
  /// `Running task: …` / `Starting task: …` / `Launching task: …` for IDENT.
  case taskLaunched(identifier: String)
  /// `Marking task <…IDENT…> complete with success: 0|1`.
  case taskCompleted(identifier: String, success: Bool)
  /// `Calling expiration handlers for activities: …` naming IDENT.
  case tasksExpiring(identifiers: [String])
  /// `Simulating launch for task with identifier IDENT`: the debugger asked for a launch
  /// (`_simulateLaunchForTaskWithIdentifier:`); no event until the task starts.
  case simulatedLaunchRequested(identifier: String)
  /// `Starting simulated task: TASK` whose identifier did not decode (`<decode: missing
  /// data>`): the launch the debugger asked for last.
  case simulatedTaskStarted
  /// `Marking simulated task complete: <BGAppRefreshTask: IDENT>`: the simulated task's
  /// completion, whose success BackgroundTasks does not print.
  case simulatedTaskCompleted(identifier: String?)
  /// `No task request with identifier IDENT has been scheduled`: the simulated launch
  /// found no request; nothing starts.
  case simulatedLaunchFoundNoRequest
  /// `No launch handler registered for task with identifier IDENT`: a platform-bug line.
  case noLaunchHandler(identifier: String)
  /// `registerForTaskWithIdentifier: IDENT` (DEBUG): the app registered a launch handler.
  case handlerRegistered(identifier: String)
  /// `cancelTaskRequestWithIdentifier: IDENT`, or `cancelAllTaskRequests` (`nil`).
  case requestCancelled(identifier: String?)
  /// `Error submitting task request: REQUEST, error: ERROR` (`Code=N` of
  /// BGTaskSchedulerErrorDomain when the error says it).
  case requestRejected(identifier: String, code: Int?)

  // RunningBoardServices (subsystem `com.apple.runningboard`), in the processes that
  // watch the app.
  /// `Received state update for PID (app<BUNDLE(UUID)>, TASKSTATE-Visible|-NotVisible`:
  /// the app's process PID is now in `state` (RunningBoard's task state and whether it
  /// is visible, as `AppLifecycleState`).
  case processStateChanged(pid: Int, name: String, state: AppLifecycleState)

  // FrontBoard (in SpringBoard, subsystem `com.apple.FrontBoard`).
  /// `[app<BUNDLE>:PID] Setting process visibility to: Foreground|Background`.
  case processVisibilityChanged(pid: Int, name: String, foreground: Bool)
  /// `[app<BUNDLE>:PID] Setting process task state to: Running|Suspended`.
  case processTaskStateChanged(pid: Int, name: String, suspended: Bool)

  // WorkManager.
  /// `Scheduling work ID ID Job ID N` (SystemJobScheduler) and like messages: the
  /// work is in the platform's queue, as JobScheduler's job `job` when the line names it
  /// (the import's pass links the job's records in a `dumpsys jobscheduler` to the work).
  case workScheduled(work: String, job: Int? = nil)
  /// `Starting work for ID` (GreedyScheduler), `Processor: processing ID`,
  /// `onStartJob for ID` (SystemJobService).
  case workStarted(work: String)
  /// `Worker result SUCCESS|RETRY|FAILURE for Work [ id=ID, tags={ … } ]`, and `Work [
  /// id=ID, tags={ … } ] failed because it threw an exception/error` (a failure).
  case workResult(work: String, outcome: WorkResultWord, tags: String?)
  /// `Work [ id=ID, tags={ … } ] was cancelled` (with its tags), `WorkerWrapper
  /// interrupted for ID` (Processor, none).
  case workInterrupted(work: String, reason: String, tags: String?)
  /// `Cancelling work ID ID` (GreedyScheduler): the app cancelled the work.
  case workCancelled(work: String)
  /// `Application was force-stopped, rescheduling.` (ForceStopRunnable): no event;
  /// the summary says the app was force-stopped before.
  case forceStopDetected

  // AndroidRuntime.
  /// `FATAL EXCEPTION: THREAD`: the app's process crashes (the line's own process).
  case processCrashed

  // The activity lifecycle (events buffer).
  /// `wm_on_start_called`, `wm_on_resume_called`, `wm_on_paused_called`,
  /// `wm_on_stop_called: [Token=N,Component Name=CLASS,Reason=…]` (current releases;
  /// `am_on_…_called: [USER,CLASS,REASON]` on earlier ones): the app's own activity
  /// CLASS was started, resumed, paused or stopped.
  case activityLifecycle(activity: String, step: ActivityStep)

  // ActivityManager.
  /// `Start proc PID:NAME/UID for REASON`.
  case processStarted(pid: Int, name: String)
  /// `Process NAME (pid PID) has died…`, `Killing PID:NAME/UID (adj N): REASON`.
  case processEnded(pid: Int?, name: String, reason: String)
  /// An `ApplicationExitInfo` record of `dumpsys activity exit-info`: process `pid`
  /// ended, for `reason` (``ExitInfoReason``).
  case processExited(pid: Int, name: String, reason: String)
  /// A job of `dumpsys jobscheduler` that is due waits for `reasons` (its unsatisfied
  /// constraints).
  case workWaiting(work: String, reasons: Set<WaitReason>)
  /// A run of a job of `dumpsys jobscheduler`'s job history ended as the app finished
  /// it (`app called jobFinished`): the attempt is over, and the history does not say
  /// with what result.
  case workEnded(work: String)
  /// `startForegroundService() not allowed due to mAllowStartForeground false: service
  /// SERVICE` (ActiveServices, Android 12 and later): the start threw
  /// `ForegroundServiceStartNotAllowedException`.
  case foregroundStartRefused(service: String)
  /// `Service.startForeground() not allowed due to mAllowStartForeground false: service
  /// SERVICE`: the service's `startForeground` threw.
  case foregroundPromotionRefused(service: String)
  /// `Bringing down service while still waiting for start foreground: ServiceRecord{… SERVICE}`:
  /// a service started with `startForegroundService` was stopped before it called
  /// `startForeground` (a platform-bug line).
  case foregroundServiceStoppedUnpromoted(service: String)
}

/// A scheduler request's kind, as its class name says.
package enum SchedulerRequestKind: String, Sendable, Hashable {
  /// `BGAppRefreshTaskRequest`.
  case refresh
  /// `BGProcessingTaskRequest` (and `BGHealthResearchTaskRequest`, `BGContinuedProcessingTaskRequest`).
  case processing
}

/// An activity's lifecycle step, as `ActivityThread` logs it to the events buffer.
package enum ActivityStep: UInt8, Sendable, Hashable {
  /// `wm_on_start_called`: the activity became visible.
  case start
  /// `wm_on_resume_called`: the activity came to the front and takes input.
  case resume
  /// `wm_on_paused_called`: the activity no longer takes input.
  case pause
  /// `wm_on_stop_called`: the activity is no longer visible.
  case stop
}

/// WorkerWrapper's result words.
package enum WorkResultWord: String, Sendable, Hashable {
  /// `SUCCESS`.
  case success = "SUCCESS"
  /// `RETRY`.
  case retry = "RETRY"
  /// `FAILURE`.
  case failure = "FAILURE"
}

/// What a message reader made of a record.
package enum MessageReading: Sendable, Hashable {
  /// A message the import turns into events.
  case message(PlatformMessage)
  /// A message of a source the import reads, that it does not turn into events.
  case unrelated
  /// A message that starts like one the import reads, but whose fields do not parse:
  /// `expected` says what was expected (`--strict` fails on it).
  case malformed(expected: String)
}

extension PlatformMessage {
  /// The work whose tags the message prints, and the tags (WorkerWrapper's lines that
  /// end an attempt): where the import learns a work's tags.
  var printedTags: (work: String, tags: String)? {
    switch self {
    case .workResult(let work, _, let tags?), .workInterrupted(let work, _, let tags?): (work, tags)
    default: nil
    }
  }

  /// Whether the message is about the app's background work (what process selection
  /// counts), rather than about a process.
  package var isBackgroundWork: Bool {
    switch self {
    case .processStarted, .processEnded, .processExited, .forceStopDetected, .activityLifecycle, .processStateChanged,
      .processVisibilityChanged, .processTaskStateChanged:
      false
    default: true
    }
  }

  /// The process a system process's message is about, by pid or name (ActivityManager
  /// lines are written by the system server, not by the app).
  var subjectProcess: (pid: Int?, name: String)? {
    switch self {
    case .processStarted(let pid, let name): (pid, name)
    case .processEnded(let pid, let name, _): (pid, name)
    case .processExited(let pid, let name, _): (pid, name)
    case .processStateChanged(let pid, let name, _), .processVisibilityChanged(let pid, let name, _),
      .processTaskStateChanged(let pid, let name, _):
      (pid, name)
    case .foregroundStartRefused(let service), .foregroundPromotionRefused(let service),
      .foregroundServiceStoppedUnpromoted(let service):
      (nil, Self.package(ofService: service))
    default: nil
    }
  }

  /// Whether the message is another process's line about the app's process, naming it by
  /// its bundle identifier (RunningBoard's and FrontBoard's states), where the app's own
  /// lines name it by its executable.
  var namesAppByBundle: Bool {
    switch self {
    case .processStateChanged, .processVisibilityChanged, .processTaskStateChanged: true
    default: false
    }
  }

  /// The package of a service's component name (`PACKAGE/CLASS`), which names its app.
  static func package(ofService service: String) -> String {
    String(service.prefix { $0 != "/" })
  }
}
