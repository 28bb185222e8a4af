/// An event kind's tag: which kind it is, without its fields (``TraceEvent/Kind`` is
/// the kind with its fields). The trace vocabulary: each kind's name, side and fields
/// are declared once, in `declaredSpec` (``spec``).
///
/// The raw value is the kind's code in the binary form; it never changes for a kind
/// once published (docs/FORMAT.md, `WireCodeStabilityTests`).
public enum EventTag: UInt8, Sendable, Hashable, CaseIterable, BitwiseCopyable {
  /// `app.launch`: a new process started.
  case appLaunch = 0
  /// `app.state`: the app moved to another state.
  case appState = 1
  /// `app.terminate`: the process ended.
  case appTerminate = 2
  /// `task.begin`: the app called `beginBackgroundTask` (id 0: the system refused).
  case taskBegin = 3
  /// `task.end`: the app called `endBackgroundTask`.
  case taskEnd = 4
  /// `task.expire`: the system ran a task's expiration handler.
  case taskExpire = 5
  /// `sched.register`: the app registered a launch handler.
  case schedRegister = 6
  /// `sched.submit`: the app submitted a scheduler request.
  case schedSubmit = 7
  /// `sched.reject`: the system refused a submission.
  case schedReject = 8
  /// `sched.cancel`: the app cancelled one pending request, or all of them.
  case schedCancel = 9
  /// `sched.launch`: the system launched a scheduled task.
  case schedLaunch = 10
  /// `sched.expire`: the system ran a launched task's expiration handler.
  case schedExpire = 11
  /// `sched.complete`: the app called `setTaskCompleted(success:)`.
  case schedComplete = 12
  /// `work.enqueue`: the app enqueued work.
  case workEnqueue = 13
  /// `work.start`: the system started a worker run.
  case workStart = 14
  /// `work.result`: the worker returned success, failure or retry.
  case workResult = 15
  /// `work.stop`: the system stopped a running worker.
  case workStop = 16
  /// `work.cancel`: the app cancelled work.
  case workCancel = 17
  /// `env.set`: the environment changed (network, charging, …).
  case envSet = 18
  /// `input`: a recorded nondeterministic input, handed back in a replay.
  case input = 19
  /// `mark`: a user annotation.
  case mark = 20
  /// `net.create`: the app created a background URL session.
  case netCreate = 21
  /// `net.submit`: the app resumed a background transfer.
  case netSubmit = 22
  /// `net.finish`: the system ended a background transfer.
  case netFinish = 23
  /// `net.wake`: the system handed the app a background session's events.
  case netWake = 24
  /// `net.events-done`: the system delivered all of a background session's events.
  case netEventsDone = 25
  /// `net.handler`: the app called the background session's completion handler.
  case netHandler = 26
  /// `sched.progress`: the app reported a continued-processing task's progress.
  case schedProgress = 27
  /// `fgs.start`: the app started a service that is to run in the foreground.
  case fgsStart = 28
  /// `fgs.foreground`: the app called `startForeground` for a service.
  case fgsForeground = 29
  /// `fgs.stop`: the app stopped a service, or took it out of the foreground.
  case fgsStop = 32
  /// `fgs.refuse`: the system refused to start a foreground service (the start threw).
  case fgsRefuse = 33
  /// `fgs.timeout`: the system called a foreground service's `onTimeout`.
  case fgsTimeout = 34
  /// `work.foreground`: a running worker called `setForeground`.
  case workForeground = 35
  /// `work.refuse`: the system refused a running worker's `setForeground`.
  case workRefuse = 36
  /// `work.quota`: an expedited request came with the expedited quota spent.
  case workQuota = 37
  /// `app.allowlist`: the system put the app on its temporary allowlist (a
  /// high-priority push message, an exact alarm, a tapped notification).
  case appAllowlist = 38
  /// `file.lock`: the app took a lock on a file (an SQLite or Core Data write).
  case fileLock = 39
  /// `file.unlock`: the app released its lock on a file.
  case fileUnlock = 40
  /// `work.wait`: enqueued work waits to start, for the reasons named.
  case workWait = 41
  /// `sched.wait`: a submitted scheduler request waits to launch, for the reasons named.
  case schedWait = 42
  /// `work.after`: enqueued work runs only once another work has succeeded.
  case workAfter = 43
  /// `alarm.set`: the app set an alarm (Android `AlarmManager`).
  case alarmSet = 44
  /// `alarm.fire`: the system delivered an alarm.
  case alarmFire = 45
  /// `alarm.cancel`: the app cancelled an alarm.
  case alarmCancel = 46

  /// The largest kind code (codes run from 0 to it without a gap but for 30 and 31),
  /// found from the cases, so a new kind needs no other edit here.
  package static let largestCode = allCases.map(\.rawValue).max()!

  /// The vocabulary's declaration of this kind: its name, side and fields. A new kind
  /// is a case above, with the next free code, and its entry here.
  var declaredSpec: KindSpec {
    switch self {
    case .appLaunch: KindSpec("app.launch", .system, [], "a new process started")
    case .appState:
      KindSpec(
        "app.state", .system, [.required("to", .choice(AppLifecycleState.self))], "the app moved to another state")
    case .appTerminate:
      KindSpec("app.terminate", .system, [.optional("reason", .string)], "the process ended")
    case .taskBegin:
      KindSpec(
        "task.begin", .app, [.required("id", .integer), .optional("name", .string, private: true)],
        "the app called `beginBackgroundTask` (id 0: the system refused)")
    case .taskEnd: KindSpec("task.end", .app, [.required("id", .integer)], "the app called `endBackgroundTask`")
    case .taskExpire:
      KindSpec("task.expire", .system, [.required("id", .integer)], "the system ran a task's expiration handler")
    case .schedRegister:
      KindSpec(
        "sched.register", .app, [.required("ident", .string), .optional("ok", .boolean)],
        "the app registered a launch handler")
    case .schedSubmit:
      KindSpec(
        "sched.submit", .app,
        [
          .required("ident", .string), .required("type", .choice(SchedulerRequestType.self)),
          .optional("earliest", .seconds), .optional("network", .boolean), .optional("power", .boolean),
          .optional("title", .string, private: true), .optional("subtitle", .string, private: true),
          .optional("strategy", .choice(ContinuedProcessingStrategy.self)),
          .optional("resources", .choice(ContinuedProcessingResource.self)),
        ], "the app submitted a scheduler request (`title=` … `resources=`: a continued-processing request's)")
    case .schedReject:
      KindSpec(
        "sched.reject", .system, [.required("ident", .string), .required("error", .choice(SchedulerRejection.self))],
        "the system refused a submission")
    case .schedCancel:
      KindSpec(
        "sched.cancel", .app, [.optional("ident", .string), .optional("all", .boolean)],
        "the app cancelled one pending request (`ident=`), or all of them (`all=true`)")
    case .schedLaunch:
      KindSpec(
        "sched.launch", .system, [.required("ident", .string), .required("run", .integer)],
        "the system launched a scheduled task")
    case .schedExpire:
      KindSpec(
        "sched.expire", .system, [.required("run", .integer), .optional("reason", .choice(ExpirationReason.self))],
        "the system ran a launched task's expiration handler (`reason=stalled`: a continued run that reported no progress; `reason=user`: the user cancelled a continued run)"
      )
    case .schedComplete:
      KindSpec(
        "sched.complete", .app, [.required("run", .integer), .required("success", .boolean)],
        "the app called `setTaskCompleted(success:)`")
    case .workEnqueue:
      KindSpec(
        "work.enqueue", .app,
        [
          .required("work", .string), .optional("name", .string, private: true),
          .optional("backoff", .choice(BackoffPolicy.self)),
          .optional("delay", .interval), .optional("limit", .integer), .optional("period", .interval),
          .optional("flex", .interval), .optional("policy", .choice(ExistingWorkPolicy.self)),
          .optional("expedited", .choice(ExpeditedPolicy.self)), .optional("initial", .interval),
          .optional("needs", .string), .optional("override", .seconds), .optional("request", .string),
          .optional("unique", .string),
        ],
        "the app enqueued work (`expedited=`: an expedited request, and its out-of-quota policy; `initial=`: its "
          + "initial delay; `needs=`: its constraints, words joined by `+` (docs/events.md, \"Work constraints\"); "
          + "`override=`: periodic work's next schedule time override; `request=`: the request's id, a UUID; "
          + "`unique=`: the unique name a work of its own is enqueued under (docs/events.md, \"Work requests\"))")
    case .workStart:
      KindSpec(
        "work.start", .system, [.required("work", .string), .required("attempt", .integer)],
        "the system started a worker run")
    case .workResult:
      KindSpec(
        "work.result", .app,
        [
          .required("work", .string), .required("attempt", .integer), .required("outcome", .choice(WorkOutcome.self)),
          .optional("tags", .string, private: true),
        ],
        "the worker returned success, failure or retry (`tags=`: the work's tags, as WorkManager's log prints them there)"
      )
    case .workStop:
      KindSpec(
        "work.stop", .system,
        [
          .required("work", .string), .required("attempt", .integer), .required("reason", .string),
          .optional("tags", .string, private: true),
        ], "the system stopped a running worker (`tags=`: the work's tags, as WorkManager's log prints them there)")
    case .workCancel: KindSpec("work.cancel", .app, [.required("work", .string)], "the app cancelled work")
    case .envSet:
      KindSpec("env.set", .system, [], freeFields: true, "the environment changed (network, charging, …)")
    case .input:
      KindSpec(
        "input", .system, [.required("key", .string), .required("value", .string, private: true)],
        "a recorded nondeterministic input, handed back in a replay")
    case .mark: KindSpec("mark", .neither, [.required("label", .string)], "a user annotation")
    case .netCreate:
      KindSpec(
        "net.create", .app, [.required("session", .string)],
        "the app created a background `URLSession` with this configuration identifier")
    case .netSubmit:
      KindSpec(
        "net.submit", .app,
        [
          .required("session", .string), .required("task", .integer), .required("kind", .choice(TransferKind.self)),
          .optional("discretionary", .boolean),
        ], "the app resumed a background transfer task (numbered per session)")
    case .netFinish:
      KindSpec(
        "net.finish", .system,
        [
          .required("session", .string), .required("task", .integer),
          .required("outcome", .choice(TransferOutcome.self)),
        ],
        "the system ended a background transfer")
    case .netWake:
      KindSpec(
        "net.wake", .system, [.required("session", .string)],
        "the system called `handleEventsForBackgroundURLSession` (woke or launched the app for the session)")
    case .netEventsDone:
      KindSpec(
        "net.events-done", .system, [.required("session", .string)],
        "the system called `urlSessionDidFinishEvents(forBackgroundURLSession:)`")
    case .netHandler:
      KindSpec(
        "net.handler", .app, [.required("session", .string)],
        "the app called the completion handler `handleEventsForBackgroundURLSession` gave it")
    case .schedProgress:
      KindSpec(
        "sched.progress", .app,
        [.required("run", .integer), .required("completed", .integer), .required("total", .integer)],
        "the app set a launched continued-processing task's progress to `completed` of `total` units")
    case .fgsStart:
      KindSpec(
        "fgs.start", .app, [.required("service", .string)],
        "the app started a service that must go foreground (`startForegroundService`)")
    case .fgsForeground:
      KindSpec(
        "fgs.foreground", .app,
        [.required("service", .string), .optional("type", .choice(ForegroundServiceType.self))],
        "the service called `startForeground`, with its type (none: untyped)")
    case .fgsStop:
      KindSpec(
        "fgs.stop", .app, [.required("service", .string)],
        "the app stopped the service (`stopSelf`, `stopService`, `stopForeground(STOP_FOREGROUND_REMOVE)`)")
    case .fgsRefuse:
      KindSpec(
        "fgs.refuse", .system,
        [.required("service", .string), .required("reason", .choice(ForegroundServiceRefusal.self))],
        "the system refused the foreground service: the start threw")
    case .fgsTimeout:
      KindSpec(
        "fgs.timeout", .system,
        [.required("service", .string), .required("type", .choice(ForegroundServiceType.self))],
        "the system called the service's `onTimeout`: its type's time limit was spent")
    case .workForeground:
      KindSpec(
        "work.foreground", .app, [.required("work", .string), .required("attempt", .integer)],
        "the running worker called `setForeground` (it runs as a foreground service)")
    case .workRefuse:
      KindSpec(
        "work.refuse", .system,
        [
          .required("work", .string), .required("attempt", .integer),
          .required("reason", .choice(ForegroundServiceRefusal.self)),
        ],
        "the system refused the worker's `setForeground`: the foreground service WorkManager starts for it was "
          + "refused, or (`not-running`) the attempt had already ended")
    case .workQuota:
      KindSpec(
        "work.quota", .system, [.required("work", .string), .required("policy", .choice(ExpeditedPolicy.self))],
        "an expedited request came with the app's expedited quota spent: the system applied its out-of-quota "
          + "policy (`drop`: dropped, it never runs; `run-as-regular`: enqueued as regular work)")
    case .appAllowlist:
      KindSpec(
        "app.allowlist", .system,
        [.required("reason", .choice(TemporaryAllowlistReason.self)), .required("duration", .interval)],
        "the system put the app on its temporary allowlist for `duration` (a high-priority FCM message, an exact "
          + "alarm, a tapped notification): it may start foreground services from the background until then")
    case .fileLock:
      KindSpec(
        "file.lock", .app, [.required("path", .string), .required("shared", .boolean)],
        "the app took a lock on the file at `path` (an SQLite or Core Data write); `shared=true`: the file is "
          + "in a container shared with other processes (an app group)")
    case .fileUnlock:
      KindSpec("file.unlock", .app, [.required("path", .string)], "the app released its lock on the file at `path`")
    case .workWait:
      KindSpec(
        "work.wait", .system, [.required("work", .string), .required("reasons", .string)],
        "the work waits to start, for `reasons`: words joined by `+` (docs/events.md, \"Why a request waits\"); "
          + "written when it starts waiting and when its reasons change")
    case .schedWait:
      KindSpec(
        "sched.wait", .system, [.required("ident", .string), .required("reasons", .string)],
        "the submitted request waits to launch, for `reasons`: words joined by `+` (docs/events.md, \"Why a "
          + "request waits\"); written when it starts waiting and when its reasons change")
    case .workAfter:
      KindSpec(
        "work.after", .app, [.required("work", .string), .required("prerequisite", .string)],
        "the work the app just enqueued runs only once `prerequisite` has succeeded, and fails or is cancelled "
          + "with it (androidx `WorkContinuation`'s `then` and `combine`); one event per prerequisite")
    case .alarmSet:
      KindSpec(
        "alarm.set", .app,
        [
          .required("alarm", .string), .required("at", .seconds), .required("type", .choice(AlarmType.self)),
          .optional("window", .interval), .optional("interval", .interval),
        ],
        "the app set the alarm `alarm` to go off at `at` (Android `AlarmManager`: `type=` names the call, "
          + "docs/events.md, \"Alarms\"; `window=`: a `setWindow` alarm's window; `interval=`: a repeating alarm's "
          + "interval), replacing an alarm of that name")
    case .alarmFire:
      KindSpec(
        "alarm.fire", .system, [.required("alarm", .string)],
        "the system delivered the alarm: the app's receiver runs (the app's process is started if none runs)")
    case .alarmCancel:
      KindSpec("alarm.cancel", .app, [.required("alarm", .string)], "the app cancelled the alarm before it went off")
    }
  }
}

extension TraceEvent.Kind {
  /// The event's kind without its fields.
  public var tag: EventTag {
    switch self {
    case .appLaunch: .appLaunch
    case .appState: .appState
    case .appTerminate: .appTerminate
    case .taskBegin: .taskBegin
    case .taskEnd: .taskEnd
    case .taskExpire: .taskExpire
    case .schedRegister: .schedRegister
    case .schedSubmit: .schedSubmit
    case .schedReject: .schedReject
    case .schedCancel: .schedCancel
    case .schedLaunch: .schedLaunch
    case .schedExpire: .schedExpire
    case .schedComplete: .schedComplete
    case .workEnqueue: .workEnqueue
    case .workStart: .workStart
    case .workResult: .workResult
    case .workStop: .workStop
    case .workCancel: .workCancel
    case .envSet: .envSet
    case .input: .input
    case .mark: .mark
    case .netCreate: .netCreate
    case .netSubmit: .netSubmit
    case .netFinish: .netFinish
    case .netWake: .netWake
    case .netEventsDone: .netEventsDone
    case .netHandler: .netHandler
    case .schedProgress: .schedProgress
    case .fgsStart: .fgsStart
    case .fgsForeground: .fgsForeground
    case .fgsStop: .fgsStop
    case .fgsRefuse: .fgsRefuse
    case .fgsTimeout: .fgsTimeout
    case .workForeground: .workForeground
    case .workRefuse: .workRefuse
    case .workQuota: .workQuota
    case .appAllowlist: .appAllowlist
    case .fileLock: .fileLock
    case .fileUnlock: .fileUnlock
    case .workWait: .workWait
    case .schedWait: .schedWait
    case .workAfter: .workAfter
    case .alarmSet: .alarmSet
    case .alarmFire: .alarmFire
    case .alarmCancel: .alarmCancel
    }
  }

  /// Whether the system or the app produces this event.
  public var side: EventSide { tag.side }
}
