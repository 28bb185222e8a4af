package import BackgroundTrace
import _BackgroundTraceStorage

/// Turns one app's platform messages into trace events, in order: it follows the app's
/// processes, tasks, scheduler runs and work as far as the log shows them, so that each
/// message becomes the event it stands for (docs/import.md, "From messages to events").
///
/// What the log began in the middle of is left to the checker, which judges a log's
/// cuts fairly (`meta source=`, docs/rules.md, "Imported logs"), with these choices:
/// - the process the log starts in has no `app.launch` (it was running already); a
///   new process id, or ActivityManager's `Start proc`, is `app.launch`;
/// - UIKit's `Can't end BackgroundTask … identifier N` is `task.end id=N`: for an id
///   the log never showed in the process it started in, twice (the end the cut hides,
///   then this one), so that the checker reports it as a double end whatever the cut;
/// - a task the log first shows in `still not ended after expiration handlers were
///   called` or `was created over 30 seconds ago` is begun there;
/// - scheduler runs are numbered from 1 in the order of their launches, and the first
///   launch of an identifier in a process implies its registration (`sched.register`);
/// - work attempts are counted from the first start the log shows.
package struct ImportTranslator: Sendable {
  fileprivate struct WorkState: Sendable {
    var running: Int?
    var nextAttempt = 0
    var stoppedSinceStart = false
    var cancelled = false
    var finished = false
  }

  /// The process whose lines are being read, if one is.
  private var pid: Int?
  private var started = false
  private var inFirstProcess = true
  private var terminated = false
  private var earlierPids: Set<Int> = []

  private var openTasks: [Int: (name: String?, expired: Bool)] = [:]
  /// The task ids ended so far: UIKit numbers a process's tasks one by one, so they
  /// form a few spans, and a long log's millions of tasks take a few words.
  private var knownTasks = IntervalSet()
  private var lastEnded: Int?

  private var openRuns: [String: (run: Int, expired: Bool)] = [:]
  /// The task the debugger last asked to launch (`Simulating launch for task with
  /// identifier`), for a `Starting simulated task:` whose identifier did not decode.
  private var simulatedLaunch: String?
  /// Whether the log held a registration line (`registerForTaskWithIdentifier:`, DEBUG).
  private(set) var sawRegistrationLine = false
  /// Whether a registration was written at a launch that implied it (no registration
  /// line before it).
  private(set) var wroteImpliedRegistration = false
  /// Whether a simulated task's completion was written, its success unknown.
  private(set) var wroteSimulatedCompletion = false
  /// Identifiers with a launch handler in the current process.
  private var registered: Set<String> = []
  private var nextRun = 1

  private var works: [String: WorkState] = [:]
  /// Each work's tags, as the first of its lines that prints them does (``ImportPass``).
  private var workTags: [String: String]
  /// Whether the tags are learnt as lines arrive (``learnTags(_:of:)``), and forgotten
  /// with the work, rather than given for the whole log.
  private var learnsTags = false

  /// The app's state as its activities' lifecycle lines tell it (`nil`: not told yet),
  /// and its activities started and resumed in the current process.
  private var state: AppLifecycleState?
  private var startedActivities: Set<String> = []
  /// The visibility FrontBoard last gave the current process (`nil`: not told).
  private var frontBoardVisible: Bool?
  private var resumedActivities: Set<String> = []

  /// Lines of a process of the app that had already been replaced by a later one.
  public private(set) var interleavedLines = 0
  /// Whether WorkManager said the app had been force-stopped before.
  public private(set) var sawForceStop = false
  /// Whether a work result came with no start before it (WorkManager logs starts at DEBUG).
  public private(set) var sawResultWithoutStart = false
  /// Whether an attempt ended with no result told (a job history's `app called
  /// jobFinished`), so that the summary says results are missing.
  public private(set) var sawEndWithoutResult = false
  /// Whether an `app.state` was written from RunningBoard's state updates.
  public private(set) var wroteProcessState = false

  /// Creates a translator at the start of a log. `workTags`: each work's tags, as the
  /// first of the log's lines that names them prints them; a result or stop whose own
  /// line prints none (Processor's `interrupted for`) takes its work's from there.
  package init(workTags: [String: String] = [:]) { self.workTags = workTags }

  /// Takes note of `work`'s tags, from a line that prints them, unless known already:
  /// how a log read as it arrives (``LogStream``) learns them.
  mutating func learnTags(_ tags: String, of work: String) {
    learnsTags = true
    if workTags[work] == nil { workTags[work] = tags }
  }

  /// Appends the events `message` stands for to `events`. `pid` is the process that
  /// wrote the line (for ActivityManager's lines, the system's: not the app's).
  package mutating func translate(_ message: PlatformMessage, pid linePid: Int?, into events: inout [TraceEvent.Kind]) {
    switch message {
    case .processStarted(let pid, _):
      startProcess(pid, into: &events)
      return
    case .processEnded(let pid, _, let reason):
      endProcess(pid, reason: reason, into: &events)
      return
    case .processExited(let pid, _, let reason):
      // A record of a process the log showed ending is already told; one the log never
      // showed ran until then.
      if started && (pid == self.pid ? terminated : earlierPids.contains(pid)) { return }
      if !(started && pid == self.pid) { relaunch(pid, into: &events) }
      started = true
      endProcess(pid, reason: reason, into: &events)
      return
    case .processCrashed:
      endProcess(linePid, reason: "crash", into: &events)
      return
    case .forceStopDetected:
      sawForceStop = true
      guard enter(linePid, into: &events) else { return }
      return
    case .foregroundStartRefused, .foregroundPromotionRefused, .foregroundServiceStoppedUnpromoted:
      translateService(message, into: &events)
      return
    case .processStateChanged(let subjectPid, _, let next):
      changeState(of: subjectPid, to: next, into: &events)
      return
    case .processVisibilityChanged(let subjectPid, _, let foreground):
      changeState(of: subjectPid, to: foreground ? .active : .background, into: &events)
      frontBoardVisible = foreground
      return
    case .processTaskStateChanged(let subjectPid, _, let suspended):
      // Running again after a suspension: in the background unless FrontBoard last said
      // the process is in the foreground (it writes the visibility on its own line).
      let next: AppLifecycleState? =
        suspended ? .suspended : state == .suspended ? (frontBoardVisible == true ? .active : .background) : nil
      changeState(of: subjectPid, to: next, into: &events)
      return
    default:
      guard enter(linePid, into: &events) else { return }
    }
    switch message {
    case .taskCreated, .taskEnded, .taskEndRefused, .taskExpiring, .taskStillNotEnded, .taskOld:
      translateTask(message, into: &events)
    case .workScheduled, .workStarted, .workResult, .workInterrupted, .workCancelled, .workWaiting, .workEnded:
      translateWork(message, into: &events)
    case .activityLifecycle(let activity, let step):
      translateActivity(activity, step, into: &events)
    default:
      translateScheduler(message, into: &events)
    }
  }

  // MARK: Processes

  /// Moves to the process `pid` for one of its own lines; false when the line is from
  /// a process an earlier line already left behind (it is dropped and counted).
  private mutating func enter(_ linePid: Int?, into events: inout [TraceEvent.Kind]) -> Bool {
    guard let linePid else {
      if terminated { relaunch(nil, into: &events) }
      started = true
      return true
    }
    if !started {
      started = true
      pid = linePid
      return true
    }
    if linePid == pid { return true }
    if earlierPids.contains(linePid) {
      interleavedLines += 1
      return false
    }
    relaunch(linePid, into: &events)
    return true
  }

  private mutating func relaunch(_ newPid: Int?, into events: inout [TraceEvent.Kind]) {
    if let pid { earlierPids.insert(pid) }
    pid = newPid
    started = true
    terminated = false
    inFirstProcess = false
    openTasks.removeAll()
    knownTasks.removeAll()
    registered.removeAll()
    lastEnded = nil
    state = nil
    frontBoardVisible = nil
    startedActivities.removeAll()
    resumedActivities.removeAll()
    events.append(.appLaunch)
  }

  private mutating func startProcess(_ newPid: Int, into events: inout [TraceEvent.Kind]) {
    if started && newPid == pid && !terminated { return }
    if earlierPids.contains(newPid) { return }
    relaunch(newPid, into: &events)
  }

  private mutating func endProcess(_ endedPid: Int?, reason: String, into events: inout [TraceEvent.Kind]) {
    if let endedPid, started, endedPid != pid { return }  // a process of the app the log never showed
    guard !terminated else { return }
    if !started {
      started = true
      pid = endedPid
    }
    terminated = true
    if let pid { earlierPids.insert(pid) }
    pid = nil
    events.append(.appTerminate(reason: reason))
  }

  // MARK: UIKit tasks

  private mutating func translateTask(_ message: PlatformMessage, into events: inout [TraceEvent.Kind]) {
    switch message {
    case .taskCreated(let id, let name):
      lastEnded = nil
      begin(id, name: name, into: &events)
    case .taskEnded(let id):
      // UIKit writes two lines for one end (`Ending background task with
      // UIBackgroundTaskIdentifier: N`, `Ending task with identifier N …`): one event.
      guard lastEnded != id else { return }
      lastEnded = id
      openTasks[id] = nil
      knownTasks.insert(id)
      events.append(.taskEnd(id: id))
    case .taskEndRefused(let id):
      lastEnded = nil
      if id != 0 && !knownTasks.contains(id) && inFirstProcess {
        events.append(.taskEnd(id: id))  // the end the log's start may hide
      }
      knownTasks.insert(id)
      openTasks[id] = nil
      events.append(.taskEnd(id: id))
    case .taskExpiring(let id, _):
      lastEnded = nil
      if let task = openTasks[id] {
        guard !task.expired else { return }
        openTasks[id] = (task.name, true)
      }
      events.append(.taskExpire(id: id))
    case .taskStillNotEnded(let id, let name):
      lastEnded = nil
      if openTasks[id] == nil { begin(id, name: name, into: &events) }
      if openTasks[id]?.expired == false {
        openTasks[id]?.expired = true
        events.append(.taskExpire(id: id))
      }
    case .taskOld(let id, let name):
      lastEnded = nil
      if openTasks[id] == nil && !knownTasks.contains(id) { begin(id, name: name, into: &events) }
    default:
      break
    }
  }

  private mutating func begin(_ id: Int, name: String?, into events: inout [TraceEvent.Kind]) {
    openTasks[id] = (name, false)
    knownTasks.insert(id)
    events.append(.taskBegin(id: id, name: name))
  }

  // MARK: BGTaskScheduler

  private mutating func translateScheduler(_ message: PlatformMessage, into events: inout [TraceEvent.Kind]) {
    switch message {
    case .requestSubmitted(let identifier, let kind):
      events.append(
        .schedSubmit(SchedulerSubmission(identifier: identifier, type: kind == .refresh ? .refresh : .processing)))
    case .taskLaunched(let identifier):
      guard openRuns[identifier] == nil else { return }  // `Running task:` then `Starting task:`
      // iOS runs a task only through its registered launch handler (with none, it
      // terminates the app: `No launch handler registered`), so a launch the log shows
      // implies the registration, which BackgroundTasks logs only at DEBUG. It was made
      // at launch: once the process has a state (RunningBoard's), the registration is
      // left unwritten, since written now it would come after the launch window ended
      // (sched-late-register); an imported trace's launch with no registration is quiet.
      if registered.insert(identifier).inserted && state == nil {
        events.append(.schedRegister(identifier: identifier, ok: nil))
        wroteImpliedRegistration = true
      }
      openRuns[identifier] = (nextRun, false)
      events.append(.schedLaunch(identifier: identifier, run: nextRun))
      nextRun += 1
    case .simulatedLaunchRequested(let identifier):
      simulatedLaunch = identifier
    case .simulatedLaunchFoundNoRequest:
      simulatedLaunch = nil
    case .simulatedTaskStarted:
      guard let identifier = simulatedLaunch else { return }
      translateScheduler(.taskLaunched(identifier: identifier), into: &events)
    case .simulatedTaskCompleted(let identifier):
      // BackgroundTasks does not print a simulated task's success: written as success,
      // and the summary says so.
      guard let identifier = identifier ?? simulatedLaunch else { return }
      wroteSimulatedCompletion = true
      translateScheduler(.taskCompleted(identifier: identifier, success: true), into: &events)
    case .taskCompleted(let identifier, let success):
      let run: Int
      if let open = openRuns.removeValue(forKey: identifier) {
        run = open.run
      } else {
        run = nextRun  // launched before the log began
        nextRun += 1
      }
      events.append(.schedComplete(run: run, success: success))
    case .tasksExpiring(let identifiers):
      for identifier in identifiers {
        guard let open = openRuns[identifier], !open.expired else { continue }
        openRuns[identifier] = (open.run, true)
        events.append(.schedExpire(run: open.run))
      }
    case .noLaunchHandler(let identifier):
      events.append(.schedRegister(identifier: identifier, ok: false))
      events.append(.schedLaunch(identifier: identifier, run: nextRun))
      nextRun += 1
    case .handlerRegistered(let identifier):
      sawRegistrationLine = true
      registered.insert(identifier)
      events.append(.schedRegister(identifier: identifier, ok: nil))
    case .requestCancelled(let identifier?):
      events.append(.schedCancel(.identifier(identifier)))
    case .requestCancelled(nil):
      events.append(.schedCancel(.all))
    case .requestRejected(let identifier, let code):
      events.append(.schedReject(identifier: identifier, error: Self.rejection(code)))
    default:
      break
    }
  }

  /// `BGTaskSchedulerErrorCode`: 1 unavailable, 2 too many pending requests, 3 not
  /// permitted, 4 immediate run ineligible; anything else is read as unavailable.
  static func rejection(_ code: Int?) -> SchedulerRejection {
    switch code {
    case 2: .tooManyPendingTaskRequests
    case 3: .notPermitted
    case 4: .immediateRunIneligible
    default: .unavailable
    }
  }

  // MARK: WorkManager

  // Each message reads and writes its work's state through one access to `works`
  // (`&works[work]`): the work id is hashed once a message.
  private mutating func translateWork(_ message: PlatformMessage, into events: inout [TraceEvent.Kind]) {
    switch message {
    case .workScheduled(let work, _):
      if WorkState.schedule(&works[work]) { events.append(.workEnqueue(WorkEnqueue(work: work))) }
    case .workWaiting(let work, let reasons):
      if works[work] != nil, !reasons.isEmpty { events.append(.workWait(work: work, reasons: reasons)) }
    case .workStarted(let work):
      if let attempt = WorkState.start(&works[work]) { events.append(.workStart(work: work, attempt: attempt)) }
    case .workResult(let work, let word, let tags):
      let outcome: WorkOutcome =
        switch word {
        case .success: .success
        case .failure: .failure
        case .retry: .retry
        }
      let result = WorkState.finish(&works[work], outcome: outcome)
      if !result.started { sawResultWithoutStart = true }
      events.append(.workResult(work: work, attempt: result.attempt, outcome: outcome, tags: tags ?? workTags[work]))
      // Read as it arrives, a log's tags are learnt from its lines: a work forgotten
      // takes its tags with it, and its next period's result prints them again.
      if learnsTags && works[work] == nil { workTags[work] = nil }
    case .workInterrupted(let work, let reason, let tags):
      // Processor's `interrupted for` (no tags) usually comes just before WorkerWrapper's
      // `was cancelled` (with them) for the same stop, which is written once: from the
      // first line, with the tags the log prints for the work elsewhere.
      if let attempt = WorkState.stop(&works[work]) {
        events.append(.workStop(work: work, attempt: attempt, reason: reason, tags: tags ?? workTags[work]))
      }
    case .workCancelled(let work):
      if WorkState.cancel(&works[work]) { events.append(.workCancel(work: work)) }
    case .workEnded(let work):
      // The trace has no word for a result it was not told: the attempt ends unwritten.
      if WorkState.end(&works[work]) { sawEndWithoutResult = true }
    default:
      break
    }
  }

  // MARK: Activities

  /// The app is `active` while one of its activities is resumed, `inactive` when the
  /// last resumed one pauses, and `background` when the last started one stops (an
  /// activity the log never showed starting counts from its stop: it was started
  /// before the log). Each state is written once per change.
  private mutating func translateActivity(
    _ activity: String, _ step: ActivityStep, into events: inout [TraceEvent.Kind]
  ) {
    var next: AppLifecycleState?
    switch step {
    case .start:
      startedActivities.insert(activity)
    case .resume:
      startedActivities.insert(activity)
      resumedActivities.insert(activity)
      next = .active
    case .pause:
      resumedActivities.remove(activity)
      if resumedActivities.isEmpty && state == .active { next = .inactive }
    case .stop:
      resumedActivities.remove(activity)
      startedActivities.remove(activity)
      if startedActivities.isEmpty && resumedActivities.isEmpty { next = .background }
    }
    guard let next, next != state else { return }
    state = next
    events.append(.appState(to: next))
  }

  // MARK: RunningBoard's states

  /// A state update is written by a process that watches the app (dasd, locationd,
  /// SpringBoard, …), about the app's process: the pid it names is the app's. A pid the
  /// log already left behind is dropped and counted; a new one after the app's process
  /// is its next process (`app.launch`). Every watching process writes the same update,
  /// and FrontBoard's lines say it again: each state is written once per change (`nil`:
  /// the line names the process but no state).
  private mutating func changeState(
    of subjectPid: Int, to next: AppLifecycleState?, into events: inout [TraceEvent.Kind]
  ) {
    if earlierPids.contains(subjectPid) {
      interleavedLines += 1
      return
    }
    if !started || (pid == nil && !terminated) {
      // The log's first process, or the app's lines carry no pid (Console.app's copy).
      started = true
      pid = subjectPid
    } else if subjectPid != pid {
      relaunch(subjectPid, into: &events)
    }
    guard let next, next != state else { return }
    state = next
    wroteProcessState = true
    events.append(.appState(to: next))
  }

  // MARK: Foreground services

  /// ActivityManager's foreground-service lines are the system server's: they name the
  /// app's service, not the line's process. A service of a process that already ended
  /// went with it: no event.
  private mutating func translateService(_ message: PlatformMessage, into events: inout [TraceEvent.Kind]) {
    guard !terminated else { return }
    started = true
    switch message {
    case .foregroundServiceStoppedUnpromoted where state == .background:
      // The start this line implies was allowed (a refused one writes its own line), so
      // it came while the app was visible or under an exemption the checker does not
      // know: written now, it would read as a start from the background
      // (fgs-started-in-background), which the log does not say. No event.
      return
    case .foregroundStartRefused(let service):
      // The app's startForegroundService threw ForegroundServiceStartNotAllowedException.
      events.append(.fgsStart(service: service))
      events.append(.fgsRefuse(service: service, reason: .background))
    case .foregroundPromotionRefused(let service):
      events.append(.fgsRefuse(service: service, reason: .background))
    case .foregroundServiceStoppedUnpromoted(let service):
      // ActivityManager logs no start that is allowed from the foreground: the start this
      // line implies is written here, then the stop that came before startForeground.
      events.append(.fgsStart(service: service))
      events.append(.fgsStop(service: service))
    default:
      break
    }
  }
}

extension ImportTranslator.WorkState {
  /// The first scheduling of a work stands for its enqueue; a later one is a
  /// reschedule (after a retry or a stop), unless the work had finished: then it is its
  /// next period. Whether it is an enqueue.
  static func schedule(_ state: inout Self?) -> Bool {
    if let current = state, !current.finished { return false }
    state = Self()
    return true
  }

  /// A start, unless the work is running (GreedyScheduler, then Processor, then
  /// SystemJobService write one start each): its attempt.
  static func start(_ state: inout Self?) -> Int? {
    var current = state ?? Self()
    guard current.running == nil else { return nil }
    if current.finished { current = Self() }
    let attempt = current.nextAttempt
    current.running = attempt
    current.nextAttempt += 1
    current.stoppedSinceStart = false
    state = current
    return attempt
  }

  /// A result: the running attempt's, or a new attempt's when the log showed no start
  /// (`started` false).
  static func finish(_ state: inout Self?, outcome: WorkOutcome) -> (attempt: Int, started: Bool) {
    var current = state ?? Self()
    let result: (attempt: Int, started: Bool)
    if let running = current.running {
      result = (running, true)
    } else {
      result = (current.nextAttempt, false)
      current.nextAttempt += 1
    }
    current.running = nil
    if outcome != .retry { current.finished = true }
    // A finished work is forgotten, so that memory does not grow with the works a long
    // log shows: a later line of it (its next period) starts it afresh, as a finished
    // state would.
    state = outcome == .retry || current.cancelled ? current : nil
    return result
  }

  /// The running attempt ended with no result told: whether one was running.
  static func end(_ state: inout Self?) -> Bool {
    guard state?.running != nil else { return false }
    state!.running = nil
    return true
  }

  /// A stop, once per attempt (`interrupted for`, then `was cancelled`): its attempt.
  static func stop(_ state: inout Self?) -> Int? {
    var current = state ?? Self()
    guard !current.stoppedSinceStart else { return nil }
    let attempt: Int
    if let running = current.running {
      attempt = running
    } else {
      attempt = current.nextAttempt
      current.nextAttempt += 1
    }
    current.running = nil
    current.stoppedSinceStart = true
    state = current
    return attempt
  }

  /// A cancel, once (Processor, then GreedyScheduler): whether it is the first.
  static func cancel(_ state: inout Self?) -> Bool {
    var current = state ?? Self()
    guard !current.cancelled else { return false }
    current.cancelled = true
    state = current
    return true
  }
}
