import BackgroundTrace

/// A recorded trace split the way a replay needs it: the system decisions to inject,
/// the answers the system gave to app calls, and the app actions to compare.
struct ReplayScript {
  /// A recorded event and its 1-based event number.
  struct Numbered: Sendable {
    var number: Int
    var event: TraceEvent
    /// How many app actions the recording has before this event.
    var actionsBefore = 0
  }

  /// System decisions injected on a timer at their recorded times.
  var decisions: [Numbered] = []
  /// Whether the app set an exact alarm in the recording: it could, so the replay lets
  /// it (``/BackgroundTrace/AlarmPermissionError`` otherwise, from Android 12).
  var setsExactAlarms = false
  /// The app actions the replay is compared with.
  var actions: [Numbered] = []
  /// The ids `beginBackgroundTask` returned, in call order.
  var beginIDs: [Int] = []
  /// Each `work.enqueue`, in call order.
  var enqueues: [Enqueue] = []
  /// Each `sched.submit`, in call order, with the rejection that followed it, if any.
  var submits: [Submit] = []
  /// For each `sched.register`, in call order, whether it was permitted.
  var registerResults: [Bool] = []
  /// The recorded `input` values, by key, in order.
  var inputs: [String: [(time: TraceTime, value: String)]] = [:]
  /// The task numbers of each background session's `net.submit`s, in call order.
  var transferTasks: [String: [Int]] = [:]
  /// For each `fgs.start` and `fgs.foreground`, in call order, the refusal that followed
  /// it, if any.
  var serviceAnswers: [ForegroundServiceRefusal?] = []
  /// For each `work.foreground`, in call order, the refusal that followed it, if any.
  var workForegroundAnswers: [ForegroundServiceRefusal?] = []

  /// A recorded `work.enqueue` and the `work.after` lines that follow it.
  struct Enqueue: Sendable {
    /// The request's id (`request=`); `nil` where none was recorded.
    var request: WorkRequestID?
    /// The unique name of a work of its own (`unique=`).
    var uniqueName: String?
    /// The works it waits for, from the `work.after` lines after it.
    var prerequisites: [String] = []
  }

  /// A recorded submission and the system's answer to it.
  struct Submit: Sendable {
    /// When it was submitted.
    var time: TraceTime
    /// What was submitted.
    var submission: SchedulerSubmission
    /// The rejection that followed it, if any.
    var rejection: SchedulerRejection?
  }

  init(_ trace: RecordedTrace) {
    var lastSubmit: (identifier: String, index: Int)?
    var lastServiceCall: (service: String, index: Int)?
    var lastWorkForeground: (work: String, index: Int)?
    var lastEnqueuedWork: String?
    for (index, event) in trace.events.enumerated() {
      let numbered = Numbered(number: index + 1, event: event, actionsBefore: actions.count)
      switch event.kind {
      case .taskBegin(let id, _):
        beginIDs.append(id)
      case .schedRegister(_, let ok):
        registerResults.append(ok ?? true)
      case .schedSubmit(let submission):
        submits.append(Submit(time: event.time, submission: submission))
        lastSubmit = (submission.identifier, submits.count - 1)
      case .schedReject(let ident, let error):
        // An answer to the submit just before it, not a decision on a timer.
        if let submit = lastSubmit, submit.identifier == ident { submits[submit.index].rejection = error }
        lastSubmit = nil
        continue
      case .input(let key, let value):
        inputs[key, default: []].append((event.time, value))
        // Background App Refresh's setting is read by the UIKit adapter, not through the
        // protocols the replayed app calls: the replay records it again at its time, so
        // its trace says why a submission was refused (and replays the same way).
        guard key == RecordedAnswer.backgroundRefreshStatus else { continue }
      case .netSubmit(let session, let task, _, _):
        transferTasks[session, default: []].append(task)
      case .fgsStart(let service), .fgsForeground(let service, _):
        serviceAnswers.append(nil)
        lastServiceCall = (service, serviceAnswers.count - 1)
      case .fgsRefuse(let service, let reason):
        // The answer to the start or startForeground just before it, not a decision.
        if let call = lastServiceCall, call.service == service { serviceAnswers[call.index] = reason }
        lastServiceCall = nil
        continue
      case .workForeground(let work, _):
        workForegroundAnswers.append(nil)
        lastWorkForeground = (work, workForegroundAnswers.count - 1)
      case .workRefuse(let work, _, let reason):
        // The answer to the setForeground just before it, not a decision.
        if let call = lastWorkForeground, call.work == work { workForegroundAnswers[call.index] = reason }
        lastWorkForeground = nil
        continue
      case .workEnqueue(let enqueue):
        enqueues.append(Enqueue(request: enqueue.request, uniqueName: enqueue.uniqueName))
        lastEnqueuedWork = enqueue.work
      case .workAfter(let work, let prerequisite):
        if work == lastEnqueuedWork { enqueues[enqueues.count - 1].prerequisites.append(prerequisite) }
      case .alarmSet(_, _, let type, _, _):
        if type.needsExactAlarmPermission { setsExactAlarms = true }
      case .appLaunch, .appState, .appTerminate, .taskEnd, .taskExpire, .schedCancel, .schedLaunch, .schedExpire,
        .schedComplete, .workStart, .workResult, .workStop, .workCancel, .envSet, .mark, .netCreate,
        .netFinish, .netWake, .netEventsDone, .netHandler, .schedProgress, .fgsStop, .fgsTimeout, .workQuota,
        .appAllowlist, .fileLock, .fileUnlock, .workWait, .schedWait, .alarmFire, .alarmCancel:
        break
      }
      switch event.kind.side {
      case .app: actions.append(numbered)
      case .system: decisions.append(numbered)
      case .neither: decisions.append(numbered)  // marks: user actions are performed again
      }
    }
  }
}
