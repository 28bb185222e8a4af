package import BackgroundTrace
package import _BackgroundTraceStorage

/// Follows processes, UIKit tasks, scheduler runs and work through a trace, and says
/// what each event changed as ``LifecycleTransition``s.
///
/// This is the one place that decides what is alive: what a suspension, termination,
/// relaunch or the end of the trace does to open tasks, runs and attempts; which end
/// matches which begin; how unique-work policies queue, replace or finish work
/// (docs/rules.md#how-the-checker-reads-a-trace). The checker's rules, the replay
/// timeline, the exports' timeline, the statistics and the replayer read its
/// transitions (as its ``LifecycleObserver``s) and its state, and keep no copy of their own.
///
/// It holds only what is alive plus compact records of what finished (interval sets of
/// ended task ids and completed run numbers, 64-bit hashes of finished work ids).
package struct LifecycleWalker: Sendable {
  /// The time of the latest event.
  package private(set) var now = TraceTime.zero
  /// The current process, or the last one when ``isRunning`` is false.
  package private(set) var process = ProcessLife(number: 0, launchedAt: .zero, implicit: true)
  /// Whether a process runs: false before the first event and after `app.terminate`.
  package private(set) var isRunning = false
  /// When and why the last process terminated, while no process runs.
  package private(set) var termination: (time: TraceTime, reason: String?)?
  private var sawEvent = false
  private var processCount = 0

  /// The current process's open tasks.
  package internal(set) var tasks = OpenTaskTable()
  var endedTasks = EndedIDs()
  /// The current process's successful registrations, with their times.
  package internal(set) var registrations = StringKeyedTable<TraceTime>()

  /// Pending scheduler requests, by identifier (they outlive processes).
  package internal(set) var requests = StringKeyedTable<PendingRequest>()
  var submittedTypes = StringKeyedTable<SchedulerRequestType>()
  /// Launched runs that have not completed or been closed.
  package internal(set) var runs = IntKeyedTable<RunLife>()
  var completedRuns = EndedIDs()

  /// The current process's background URL sessions, by configuration identifier.
  package internal(set) var sessions = StringKeyedTable<SessionLife>()

  /// The current process's foreground services, by name (Android).
  package internal(set) var services = StringKeyedTable<ServiceLife>()
  /// When the current process last left the foreground for the background: a
  /// foreground service may still start shortly after (docs/rules.md,
  /// `fgs-started-in-background`).
  var leftForegroundAt: TraceTime?
  /// Until when the app is on the temporary allowlist (`app.allowlist`): a foreground
  /// service may start from the background until then. Kept by the app's uid on a
  /// device, so it outlives a process.
  var allowlistedUntil: TraceTime?
  /// The locks the current process holds on files, by path: when each was taken and
  /// whether the file is in a shared container.
  var fileLocks: [String: (since: TraceTime, shared: Bool)] = [:]
  /// The alarms set and not yet gone off, by name: when each is due (a repeating one's
  /// next occurrence), which call set it, and a repeating one's interval as Android
  /// clamps it. The system keeps them across the app's processes.
  var alarms: [String: (due: TraceTime, type: AlarmType, interval: TraceInterval?)] = [:]

  /// Unfinished work, by id (work outlives processes).
  package internal(set) var works = StringKeyedTable<WorkLife>()
  /// Finished work by the ``StableHash`` of its id (its ``StableHash/bits``): a record
  /// of 16 bytes per finished work, whatever the length of its id.
  var finishedWorks = FinishedWorks()
  /// Works blocked on each unfinished prerequisite (`work.after`), by the
  /// prerequisite's id; empty in a trace without continuations.
  var blockedDependents: [String: [String]] = [:]
  /// The works enqueued as works of their own under each unique name (`work.enqueue
  /// unique=`), by the name, until the name's next enqueue drops the finished ones;
  /// empty in a trace without them.
  var uniqueWorks: [String: [String]] = [:]
  /// The unique names one of whose works of their own failed or was cancelled since the
  /// name's works were last replaced: an `appendOrReplace` of the name starts afresh.
  var failedUniqueNames: Set<String> = []

  /// Whether work requests' backoff settings are unknown, as in a trace imported from a
  /// device log (the log does not print them): then a request that declares no backoff
  /// waits the least WorkManager allows, linear from `MIN_BACKOFF_MILLIS` (10 s times
  /// the attempt), instead of the defaults (docs/rules.md#imported-logs).
  package var backoffSettingsUnknown = false

  /// Creates a walker at the start of a trace.
  package init() {}

  /// Creates a walker at the start of a trace with `meta`: a `source=ios-log` or
  /// `source=android-log` one leaves backoff settings unknown.
  package init(meta: TraceMetadata) {
    backoffSettingsUnknown = meta["source"].map { TraceMetadata.logSources.contains($0) } ?? false
  }

  /// Applies the next event, appending what it changed to `transitions`.
  ///
  /// Not generic, unlike ``apply(_:to:)``: this module's specialization is what readers
  /// in other modules call (a `package` generic is not specialized across modules).
  ///
  /// - Complexity: amortized O(1), O(*a*) when a process ends with *a* things alive.
  package mutating func apply(_ event: TraceEvent, into transitions: inout [LifecycleTransition]) {
    apply(event, to: &transitions)
  }

  /// Closes what is still alive when the trace ends, appending what that changed to
  /// `transitions`.
  package mutating func finish(into transitions: inout [LifecycleTransition]) {
    finish(to: &transitions)
  }

  /// Applies the next event, handing what it changed to `observer` as it decides it.
  ///
  /// - Complexity: amortized O(1), O(*a*) when a process ends with *a* things alive.
  package mutating func apply(_ event: borrowing TraceEvent, to observer: inout some LifecycleObserver) {
    guard enter(event.time, event.kind.tag, into: &observer) else {
      observeWithoutProcess(event.kind, into: &observer)
      return
    }
    apply(event.kind, into: &observer)
  }

  /// Applies the next event as ``apply(_:to:)`` does, read from its compact form, whose
  /// strings are in `strings`.
  ///
  /// Each kind goes to the same step as in ``apply(_:to:)``, with its fields taken
  /// straight from the compact event: no ``TraceEvent`` is built, unless the event is an
  /// app's action while no process runs, or of a kind laid out from its spec that a step
  /// reads (the foreground services' kinds), which has no named accessors.
  ///
  /// - Complexity: amortized O(1), O(*a*) when a process ends with *a* things alive.
  package mutating func apply(
    _ event: CompactEvent, strings: borrowing InternedStrings, to observer: inout some LifecycleObserver
  ) {
    guard enter(TraceTime(nanoseconds: event.time), event.tag, into: &observer) else {
      observeWithoutProcess(TraceEvent(event, strings: strings).kind, into: &observer)
      return
    }
    guard let kind = event.tag.handLaid else {
      // A kind laid out from its spec (docs/FORMAT.md, "Spec layout") has no named
      // accessors: it takes the same step as its event.
      apply(TraceEvent(event, strings: strings).kind, into: &observer)
      return
    }
    let number = Int(event.number)
    switch kind {
    case .appLaunch: launchProcess(into: &observer)
    case .appState: changeState(to: event.appState, into: &observer)
    case .appTerminate: terminate(reason: event.terminateReason(strings: strings), into: &observer)
    case .taskBegin: beginTask(number, name: TaskName(event.taskNameID, in: strings), into: &observer)
    case .taskEnd: endTask(number, into: &observer)
    case .taskExpire: expireTask(number, into: &observer)
    case .schedRegister:
      register(strings[event.string], strings.stableHash(event.string), ok: event.ok ?? true, into: &observer)
    case .schedSubmit: submit(event.submission(strings: strings), strings.stableHash(event.string), into: &observer)
    case .schedReject: reject(strings[event.string], event.rejection, into: &observer)
    case .schedCancel: cancelRequests(event.cancelTarget(strings: strings), into: &observer)
    case .schedLaunch: launch(strings[event.string], strings.stableHash(event.string), run: number, into: &observer)
    case .schedExpire: expireRun(number, reason: event.expirationReason, into: &observer)
    case .schedComplete: complete(number, success: event.success, into: &observer)
    case .workEnqueue: enqueue(event.workEnqueue(strings: strings), strings.stableHash(event.string), into: &observer)
    case .workStart: start(strings[event.string], strings.stableHash(event.string), attempt: number, into: &observer)
    case .workResult:
      result(
        strings[event.string], strings.stableHash(event.string), attempt: number, outcome: event.outcome,
        into: &observer)
    case .workStop:
      stop(
        strings[event.string], strings.stableHash(event.string), attempt: number,
        reason: strings[event.secondString], into: &observer)
    case .workCancel: cancel(strings[event.string], strings.stableHash(event.string), into: &observer)
    case .envSet, .input, .mark: break  // as applyFrequentEvent(_:strings:to:) takes them
    case .netCreate: createSession(strings[event.string], into: &observer)
    case .netSubmit:
      observer.observe(
        .transferSubmitted(
          session: strings[event.string], task: number, event.transferKind, discretionary: event.discretionary),
        in: process)
    case .netFinish:
      observer.observe(
        .transferFinished(session: strings[event.string], task: number, event.transferOutcome), in: process)
    case .netWake: wakeSession(strings[event.string], into: &observer)
    case .netEventsDone: finishSessionEvents(strings[event.string], into: &observer)
    case .netHandler: callSessionHandler(strings[event.string], into: &observer)
    }
  }

  /// Applies `event` as ``apply(_:strings:to:)`` does when it begins or ends a task in
  /// the running process, or is of a kind the walker keeps nothing of (`env.set`,
  /// `input`, `mark`), and returns true; returns false, changing nothing, for any other
  /// event.
  ///
  /// Most events of a typical trace are of these kinds: this step spares them the
  /// general step's dispatch, whose frame saves and restores what every kind of event
  /// needs.
  @inline(__always)
  package mutating func applyFrequentEvent(
    _ event: borrowing CompactEvent, strings: borrowing InternedStrings, to observer: inout some LifecycleObserver
  ) -> Bool {
    guard sawEvent && isRunning else { return false }  // as enter(_:_:into:) would go on
    if event.tag == .taskBegin {
      now = TraceTime(nanoseconds: event.time)
      beginTask(Int(event.number), name: TaskName(event.taskNameID, in: strings), into: &observer)
    } else if event.tag == .taskEnd {
      now = TraceTime(nanoseconds: event.time)
      endTask(Int(event.number), into: &observer)
    } else if case let tag = event.tag, tag == .input || tag == .mark || tag == .envSet {
      now = TraceTime(nanoseconds: event.time)
    } else {
      return false
    }
    return true
  }

  /// Moves to an event at `time` of kind `tag`, starting the implicit first process
  /// before a first event that is not `app.launch`; false when the event is an app's
  /// action while no process runs, which changes nothing
  /// (``observeWithoutProcess(_:into:)``).
  @inline(__always)
  private mutating func enter(_ time: TraceTime, _ tag: EventTag, into observer: inout some LifecycleObserver) -> Bool {
    now = time
    if !sawEvent {
      sawEvent = true
      if tag != .appLaunch { startProcess(implicit: true, into: &observer) }
    }
    return isRunning || termination == nil || tag.side != .app  // cheapest test first
  }

  /// Reports an app's action `kind` taken while no process runs.
  @inline(__always)  // out of line, it was handed a copy of the whole walker
  private func observeWithoutProcess(_ kind: TraceEvent.Kind, into observer: inout some LifecycleObserver) {
    guard let termination else { return }
    observer.observe(
      .actionWithoutProcess(kind, terminatedAt: termination.time, reason: termination.reason), in: process)
  }

  /// Applies an event of kind `kind` at ``now``, in a running process unless the kind
  /// is the system's.
  private mutating func apply(_ kind: TraceEvent.Kind, into observer: inout some LifecycleObserver) {
    switch kind {
    case .appLaunch: launchProcess(into: &observer)
    case .appState(let state): changeState(to: state, into: &observer)
    case .appTerminate(let reason): terminate(reason: reason, into: &observer)
    case .taskBegin(let id, let name): beginTask(id, name: TaskName(name), into: &observer)
    case .taskEnd(let id): endTask(id, into: &observer)
    case .taskExpire(let id): expireTask(id, into: &observer)
    case .schedRegister(let ident, let ok): register(ident, StableHash(ident), ok: ok ?? true, into: &observer)
    case .schedSubmit(let submission): submit(submission, StableHash(submission.identifier), into: &observer)
    case .schedReject(let ident, let error): reject(ident, error, into: &observer)
    case .schedCancel(let target): cancelRequests(target, into: &observer)
    case .schedLaunch(let ident, let run): launch(ident, StableHash(ident), run: run, into: &observer)
    case .schedExpire(let run, let reason): expireRun(run, reason: reason, into: &observer)
    case .schedComplete(let run, let success): complete(run, success: success, into: &observer)
    case .workEnqueue(let enqueue): self.enqueue(enqueue, StableHash(enqueue.work), into: &observer)
    case .workStart(let work, let attempt): start(work, StableHash(work), attempt: attempt, into: &observer)
    case .workResult(let work, let attempt, let outcome, _):
      result(work, StableHash(work), attempt: attempt, outcome: outcome, into: &observer)
    case .workStop(let work, let attempt, let reason, _):
      stop(work, StableHash(work), attempt: attempt, reason: reason, into: &observer)
    case .workCancel(let work): cancel(work, StableHash(work), into: &observer)
    case .envSet, .input, .mark: break
    case .netCreate(let session): createSession(session, into: &observer)
    case .netSubmit(let session, let task, let kind, let discretionary):
      observer.observe(
        .transferSubmitted(session: session, task: task, kind, discretionary: discretionary), in: process)
    case .netFinish(let session, let task, let outcome):
      observer.observe(.transferFinished(session: session, task: task, outcome), in: process)
    case .netWake(let session): wakeSession(session, into: &observer)
    case .netEventsDone(let session): finishSessionEvents(session, into: &observer)
    case .netHandler(let session): callSessionHandler(session, into: &observer)
    case .schedProgress(let run, let completed, let total):
      progressRun(run, completed: completed, total: total, into: &observer)
    case .fgsStart(let service): startService(service, into: &observer)
    case .fgsForeground(let service, let type): promoteService(service, type: type, into: &observer)
    case .fgsStop(let service): stopService(service, into: &observer)
    case .fgsRefuse(let service, let reason): refuseService(service, reason, into: &observer)
    case .fgsTimeout(let service, let type): timeOutService(service, type, into: &observer)
    case .workForeground(let work, let attempt): promoteWork(work, attempt: attempt, into: &observer)
    case .workRefuse(let work, let attempt, let reason):
      observer.observe(.workRefused(work: work, attempt: attempt, reason), in: process)
    case .workQuota(let work, let policy):
      if let index = works.index(forKey: work, StableHash(work)) {
        works.update(at: index) { $0.runsAsRegular = true }
      }
      observer.observe(.expeditedOutOfQuota(work: work, policy: policy), in: process)
    case .appAllowlist(_, let duration): allowlist(for: duration)
    case .fileLock(let path, let shared): lockFile(path, shared: shared, into: &observer)
    case .fileUnlock(let path): unlockFile(path, into: &observer)
    case .workWait(let work, let reasons): observer.observe(.requestWaits(.work(work), reasons: reasons), in: process)
    case .schedWait(let ident, let reasons):
      observer.observe(.requestWaits(.taskRequest(ident), reasons: reasons), in: process)
    case .workAfter(let work, let prerequisite): block(work, StableHash(work), on: prerequisite, into: &observer)
    case .alarmSet(let alarm, let due, let type, _, let interval):
      alarms[alarm] = (due, type, interval.map(RepeatingAlarm.interval(asked:)))
      if let interval, interval < RepeatingAlarm.minimumInterval {
        observer.observe(.alarmRepeatClamped(alarm: alarm, asked: interval), in: process)
      }
    case .alarmCancel(let alarm): alarms[alarm] = nil
    case .alarmFire(let alarm):
      let set = alarms.removeValue(forKey: alarm)
      // A repeating alarm stays set, its next occurrence asked for on its grid.
      if let set, let interval = set.interval {
        alarms[alarm] = (
          RepeatingAlarm.nextRequest(after: set.due, deliveredAt: now, interval: interval), set.type, interval
        )
      }
      // An exact alarm's delivery puts the app on the temporary allowlist (Android 12+).
      if set?.type.isExact == true {
        allowlist(for: TraceInterval(TemporaryAllowlistReason.exactAlarm.defaultDuration))
      }
      observer.observe(.alarmWentOff(alarm: alarm, due: set?.due, type: set?.type), in: process)
    }
  }

  /// Closes what is still alive when the trace ends, handing what that changed to `observer`.
  package mutating func finish(to observer: inout some LifecycleObserver) {
    if isRunning {
      endProcess(.traceEnded, into: &observer)
    } else {
      closeAttempts(.traceEnded, into: &observer)  // started by the system after a termination
    }
  }

  // MARK: Processes

  /// `app.launch`: ends the running process, as relaunched, and starts a new one.
  private mutating func launchProcess(into observer: inout some LifecycleObserver) {
    if isRunning { endProcess(.relaunched, into: &observer) }
    startProcess(implicit: false, into: &observer)
  }

  /// `app.terminate`: ends the running process, as terminated for `reason`.
  private mutating func terminate(reason: String?, into observer: inout some LifecycleObserver) {
    if isRunning { endProcess(.terminated(reason: reason), into: &observer) }
    termination = (now, reason)
    if !alarms.isEmpty && TerminationReason.dropsAlarms(reason) { alarms.removeAll() }  // cheapest test first
  }

  private mutating func startProcess(implicit: Bool, into observer: inout some LifecycleObserver) {
    process = ProcessLife(number: processCount, launchedAt: now, implicit: implicit)
    processCount += 1
    isRunning = true
    termination = nil
    tasks.removeAll()
    endedTasks.removeAll()
    observer.observe(.processStarted(process), in: process)
  }

  private mutating func changeState(to state: AppLifecycleState, into observer: inout some LifecycleObserver) {
    guard isRunning else { return }  // no process to change: the checker reports nothing for it
    if process.leftLaunchAt == nil { process.leftLaunchAt = now }
    let previous = process.state
    process.state = state
    switch state {
    case .background where previous != .background:
      process.backgroundEpoch += 1
      process.backgroundSince = now
    case .background:
      break
    case .active, .inactive, .suspended:
      process.backgroundEpoch += 1
      process.backgroundSince = nil
    }
    noteForegroundLeft(from: previous, to: state)
    observer.observeStateChanged(from: previous, to: state, in: process)
    if state == .suspended {
      closeTasksAndRuns(.suspended, into: &observer)
      closeSessions(.suspended, into: &observer)
      if !fileLocks.isEmpty { observeSuspendedFileLocks(into: &observer) }  // nearly always empty
    }
  }

  /// Ends the running process: closes its tasks, runs and running attempts.
  private mutating func endProcess(_ end: ProcessEnd, into observer: inout some LifecycleObserver) {
    closeTasksAndRuns(end, into: &observer)
    closeSessions(end, into: &observer)
    closeServices(end, into: &observer)
    closeAttempts(end, into: &observer)
    fileLocks.removeAll()
    isRunning = false
    registrations.removeAll()
    observer.observe(.processEnded(end), in: process)
  }

  /// Closes the running attempts: their worker's process is gone, or the trace ended.
  private mutating func closeAttempts(_ end: ProcessEnd, into observer: inout some LifecycleObserver) {
    guard !works.isEmpty else { return }  // spares sorting (and allocating) no keys
    for work in works.keys.sorted() {
      let hash = StableHash(work)
      guard var life = works[work, hash], let running = life.running else { continue }
      life.running = nil
      works[work, hash] = life
      observer.observe(.attemptClosed(work: work, attempt: running.attempt, end), in: process)
      if life.cancelledAt != nil { finish(work, hash, ending: .cancelled, into: &observer) }
    }
  }

  /// Closes the open tasks and runs the process can no longer end.
  private mutating func closeTasksAndRuns(_ end: ProcessEnd, into observer: inout some LifecycleObserver) {
    if !tasks.isEmpty {  // spares sorting (and allocating) no keys
      for id in tasks.keys.sorted() {
        observer.observe(.taskClosed(id: id, tasks[id]!, end), in: process)
        endedTasks.close(id)
      }
      tasks.removeAll()
    }
    if !runs.isEmpty {
      for run in runs.keys.sorted() {
        observer.observe(.runClosed(run: run, runs[run]!, end), in: process)
        completedRuns.close(run)
      }
      runs.removeAll()
    }
  }
}

/// What became of ids that end once (task ids in a process, run numbers in a trace):
/// which ended, when the recent ones did, and which were closed by their process
/// ending before they ended.
struct EndedIDs: Sendable {
  /// Why an end matches no open id.
  enum Mismatch {
    /// It was closed; this is its first end, and it is quiet.
    case closedEarlier
    /// It ended before; `firstAt` when that end is recent enough to remember.
    case alreadyEnded(firstAt: TraceTime?)
    /// Nothing is known of it.
    case unknown
  }

  private var ended = IntervalSet()
  private var closed: Set<Int> = []
  private var recent = RecentTimes()

  /// Forgets every id, keeping the storage.
  mutating func removeAll() {
    ended.removeAll()
    if !closed.isEmpty { closed.removeAll(keepingCapacity: true) }
    recent.removeAll()
  }

  /// `id` was closed without ending.
  mutating func close(_ id: Int) { closed.insert(id) }

  /// `id` is open again. (`closed` is nearly always empty: skip hashing then.)
  mutating func reopen(_ id: Int) {
    if !closed.isEmpty { closed.remove(id) }
  }

  /// The open `id` ended at `time`.
  @inline(__always)
  mutating func end(_ id: Int, at time: TraceTime) {
    ended.insert(id)
    recent.record(id, at: time)
  }

  /// An end at `time` for an `id` that is not open.
  mutating func endUnmatched(_ id: Int, at time: TraceTime) -> Mismatch {
    if closed.remove(id) != nil {
      end(id, at: time)
      return .closedEarlier
    }
    if ended.contains(id) { return .alreadyEnded(firstAt: recent.time(of: id)) }
    return .unknown
  }
}

/// The last few ids that ended, with their times, for messages like "(first end at 6s)".
///
/// Double ends come soon after the first end; keeping a few dozen recent ones bounds
/// memory while naming the earlier event in nearly every real case.
///
/// The ring is stored inline, as a tuple, not in an array: recording an end is a store,
/// where an array checked that its buffer was unique, through a call into the runtime,
/// on every task end. It makes the walker about 2.4 KB: readers that take part of it
/// (the rules at deadlines) are passed the part, not the walker.
struct RecentTimes: Sendable {
  /// An id and its end time (nanoseconds).
  private typealias Entry = (id: Int, time: UInt64)
  private typealias Eight = (Entry, Entry, Entry, Entry, Entry, Entry, Entry, Entry)
  /// `capacity` entries, laid out as a C array of `Entry`.
  private typealias Ring = (Eight, Eight, Eight, Eight, Eight, Eight, Eight, Eight)

  private static let capacity = 64
  private static let stride = MemoryLayout<Entry>.stride

  private var ring: Ring = {
    let entry: Entry = (0, 0)
    let eight: Eight = (entry, entry, entry, entry, entry, entry, entry, entry)
    return (eight, eight, eight, eight, eight, eight, eight, eight)
  }()
  /// How many entries hold ends (at most `capacity`).
  private var count = 0
  /// Where the next end goes: the oldest entry once the ring is full.
  private var next = 0

  /// Forgets every id.
  mutating func removeAll() {
    count = 0
    next = 0
  }

  @inline(__always)
  mutating func record(_ id: Int, at time: TraceTime) {
    let offset = next &* Self.stride
    withUnsafeMutableBytes(of: &ring) { ring in
      ring.storeBytes(of: id, toByteOffset: offset, as: Int.self)
      ring.storeBytes(of: time.nanoseconds, toByteOffset: offset &+ 8, as: UInt64.self)
    }
    next = (next &+ 1) & (Self.capacity &- 1)
    if count < Self.capacity { count &+= 1 }
  }

  /// When `id` ended last, if that is among the recent ends.
  func time(of id: Int) -> TraceTime? {
    // Newest first: the entry before `next`, going back `count` entries.
    withUnsafeBytes(of: ring) { ring in
      for step in 0..<count {
        let index = (next &- 1 &- step) & (Self.capacity &- 1)
        if ring.load(fromByteOffset: index &* Self.stride, as: Int.self) == id {
          return TraceTime(nanoseconds: ring.load(fromByteOffset: index &* Self.stride &+ 8, as: UInt64.self))
        }
      }
      return nil
    }
  }
}
