public import BackgroundTrace

/// What happened to one request, and why it waited: `bgtrace explain PATH --why NAME`.
///
/// For a work (by its unique name) or a scheduler request (by its identifier), one
/// sentence per step, each with its time: the enqueue or submission, the stretch before
/// it was due (its earliest date, backoff or period, which the trace itself states),
/// each stretch it waited while due with the reasons the trace records
/// (`work.wait`, `sched.wait`; docs/events.md, "Why a request waits"), each start or
/// launch, each stop with what its reason means, each result. A trace that records no
/// reasons (recorded on a device, imported from a log) gets what its other events let
/// it infer (the app in the foreground, suspended, force-stopped, the network offline), and what it
/// cannot tell is said as such.
///
/// ```swift
/// if let history = RequestHistory(of: "sync", in: trace) {
///   print(history.lines.joined(separator: "\n"))
/// }
/// ```
public struct RequestHistory: Sendable, Hashable {
  /// The request: the work with this unique name, or the scheduler request with this identifier.
  public let request: WaitingRequest
  /// One sentence per step, in time order, each starting with its time
  /// (`3600s: attempt 0 started.`, `0s to 3600s (3600s): waited: …`).
  public let lines: [String]
  /// Whether the trace records why requests wait: it holds `work.wait` or `sched.wait`,
  /// or a simulation wrote it (`meta seed=`), which writes one wherever a due request
  /// waits. Without, the waits are inferred and the unknown said.
  public let recordsReasons: Bool

  /// The history of the request `name` names in `trace`, up to `until` (the trace's
  /// end by default): the work with that unique name, else the work that holds the
  /// request with that id (`work.enqueue request=`), else the scheduler request with
  /// that identifier.
  ///
  /// - Returns: `nil` when no event of the trace names any.
  public init?(of name: String, in trace: RecordedTrace, until: TraceTime? = nil) {
    let events = trace.events.prefix { until == nil || $0.time <= until! }
    let request: WaitingRequest
    if trace.events.contains(where: { $0.kind.workName == name }) {
      request = .work(name)
    } else if let id = WorkRequestID(name), let work = Self.work(holding: id, in: trace) {
      request = .work(work)
    } else if trace.events.contains(where: { $0.kind.schedulerIdentifier == name }) {
      request = .taskRequest(name)
    } else {
      return nil
    }
    var story = RequestStory(
      request: request, platform: trace.meta["platform"],
      recordsReasons: trace.meta["seed"] != nil
        || trace.events.contains { $0.kind.tag == .workWait || $0.kind.tag == .schedWait })
    // The lifecycle model says when a work of a unique name was cancelled by an event
    // about the name (its replace, its cancel), as the checker reads it.
    var walker = LifecycleWalker(meta: trace.meta)
    var transitions: [LifecycleTransition] = []
    for event in events {
      transitions.removeAll(keepingCapacity: true)
      walker.apply(event, into: &transitions)
      let cancelled = transitions.contains {
        if case .workCancelled(let work) = $0 { WaitingRequest.work(work) == request } else { false }
      }
      story.apply(event, cancelled: cancelled)
    }
    story.finish(at: until ?? trace.events.last?.time ?? TraceTime(nanoseconds: 0))
    self.request = request
    self.lines = story.lines
    self.recordsReasons = story.recordsReasons
  }

  /// The work whose enqueue recorded the request `id`.
  private static func work(holding id: WorkRequestID, in trace: RecordedTrace) -> String? {
    for event in trace.events {
      if case .workEnqueue(let enqueue) = event.kind, enqueue.request == id { return enqueue.work }
    }
    return nil
  }

  /// The names `--why` takes in `trace`: its works' unique names, then its scheduler
  /// identifiers, each once, in the order they first appear.
  public static func names(in trace: RecordedTrace) -> [String] {
    var seen = Set<String>()
    var names: [String] = []
    for event in trace.events {
      guard let name = event.kind.workName ?? event.kind.schedulerIdentifier, seen.insert(name).inserted else {
        continue
      }
      names.append(name)
    }
    return names
  }
}

extension TraceEvent.Kind {
  /// The work this event is about, if it is about one.
  fileprivate var workName: String? {
    if case .work(let name) = requestSubject { name } else { nil }
  }

  /// The scheduler identifier this event names, if it names one.
  fileprivate var schedulerIdentifier: String? {
    if case .taskRequest(let name) = requestSubject { name } else { nil }
  }

  /// The request this event names: a work by its unique name, a scheduler request by
  /// its identifier (a run's events name only the run).
  fileprivate var requestSubject: WaitingRequest? {
    switch self {
    case .workEnqueue(let enqueue): .work(enqueue.work)
    case .workStart(let work, _), .workResult(let work, _, _, _), .workStop(let work, _, _, _),
      .workCancel(let work), .workForeground(let work, _), .workRefuse(let work, _, _), .workQuota(let work, _),
      .workWait(let work, _), .workAfter(let work, _):
      .work(work)
    case .schedRegister(let ident, _), .schedReject(let ident, _), .schedLaunch(let ident, _),
      .schedWait(let ident, _), .schedCancel(.identifier(let ident)):
      .taskRequest(ident)
    case .schedSubmit(let submission): .taskRequest(submission.identifier)
    case .appLaunch, .appState, .appTerminate, .taskBegin, .taskEnd, .taskExpire, .schedCancel(.all), .schedExpire,
      .schedComplete, .schedProgress, .envSet, .input, .mark, .netCreate, .netSubmit, .netFinish, .netWake,
      .netEventsDone, .netHandler, .fgsStart, .fgsForeground, .fgsStop, .fgsRefuse, .fgsTimeout, .appAllowlist,
      .fileLock, .fileUnlock, .alarmSet, .alarmFire, .alarmCancel:
      nil
    }
  }
}

/// The walk that writes a ``RequestHistory``.
private struct RequestStory {
  let request: WaitingRequest
  let platform: String?
  let recordsReasons: Bool
  /// The header, then each step with the time it begins at; sorted by that time when
  /// the walk ends (a stretch is written when it closes, after the steps within it).
  var header: String
  var steps: [(time: TraceTime, text: String)] = []
  var lines: [String] {
    [header]
      + steps.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element.text)
  }

  /// Since when the request has been pending (enqueued or submitted, not running).
  var pendingSince: TraceTime?
  /// When it falls due, and what it waits for until then.
  var due: (at: TraceTime, until: String)?
  /// The open wait: since when, and the reasons recorded (`nil`: none recorded).
  var wait: (since: TraceTime, reasons: Set<WaitReason>?)?

  // What the work's settings and attempts are.
  var enqueue: WorkEnqueue?
  var lastEnqueueAt: TraceTime?
  var runningAttempt: Int?
  /// The prerequisites (`work.after`) that have not succeeded yet, in the order recorded.
  var blockedOn: [String] = []
  /// The scheduler runs launched for the request.
  var runs: Set<Int> = []

  // What the rest of the trace says, for inferring a wait it records no reasons for.
  var appInForeground = false
  var appRunning = false
  var networkOffline = false
  /// Whether the user force-stopped the app (`app.terminate reason=force-stopped`) and
  /// it has not been launched since: Android runs none of a stopped app's work.
  var forceStopped = false
  /// The app's standby bucket as the trace last recorded it (`env.set bucket=`), and since when.
  var standbyBucket: (name: String, since: TraceTime)?
  var foregroundTime = TraceInterval(nanoseconds: 0)
  var notRunningTime = TraceInterval(nanoseconds: 0)
  var offlineTime = TraceInterval(nanoseconds: 0)
  var forceStoppedTime = TraceInterval(nanoseconds: 0)
  var lastTime = TraceTime(nanoseconds: 0)

  init(request: WaitingRequest, platform: String?, recordsReasons: Bool) {
    self.request = request
    self.platform = platform
    self.recordsReasons = recordsReasons
    switch request {
    case .work(let name): header = "work \(name)"
    case .taskRequest(let name): header = "scheduler request \(name)"
    }
  }

  /// Applies the next event; `cancelled`: the lifecycle model cancelled the request's
  /// work at it.
  mutating func apply(_ event: TraceEvent, cancelled: Bool) {
    advance(to: event.time)
    let now = event.time
    if !blockedOn.isEmpty { prerequisiteEvent(event.kind, at: now) }
    if cancelled, let name = enqueue?.uniqueName, event.kind.requestSubject != request,
      pendingSince != nil || !blockedOn.isEmpty
    {
      closeWait(at: now)
      endPending()
      blockedOn.removeAll()
      say(now, Self.cancellation(of: name, by: event.kind))
      return
    }
    if let subject = event.kind.requestSubject, subject != request { return }
    switch event.kind {
    case .workEnqueue(let enqueue) where enqueue.policy == .update && self.enqueue != nil:
      // An update keeps the work's attempts and enqueue time (androidx WorkerUpdater).
      self.enqueue = enqueue
      say(now, "updated" + Self.describe(enqueue) + ".")
    case .workEnqueue(let enqueue):
      closeWait(at: now)
      self.enqueue = enqueue
      lastEnqueueAt = now
      say(now, "enqueued" + Self.describe(enqueue) + ".")
      if runningAttempt == nil { becomePending(at: now, due: firstDue(of: enqueue, at: now)) }
    case .workQuota(_, let policy):
      say(
        now,
        policy == .drop
          ? "the app's expedited quota was spent: dropped, it never runs."
          : "the app's expedited quota was spent: it runs as regular work.")
      if policy == .drop { endPending() }
    case .workWait(_, let reasons), .schedWait(_, let reasons):
      closeWait(at: now)
      wait = (now, reasons)
    case .workAfter(_, let prerequisite):
      closeWait(at: now)
      blockedOn.append(prerequisite)
      say(now, "runs only once \(prerequisite) has succeeded.")
      becomeBlocked(at: now)
    case .workStart(_, let attempt):
      closeWait(at: now)
      endPending()
      runningAttempt = attempt
      say(now, "attempt \(attempt) started.")
    case .workResult(_, let attempt, let outcome, _):
      runningAttempt = nil
      say(now, "attempt \(attempt) returned \(outcome.rawValue).")
      guard let enqueue else { return }
      switch outcome {
      case .retry:
        lastEnqueueAt = now
        let wait = WorkBackoff.backoff(beforeAttempt: attempt + 1, policy: enqueue.backoff, delay: enqueue.backoffDelay)
        becomePending(at: now, due: (now + wait, "its backoff (\(wait)s) had not passed"))
      case .success, .failure:
        if let period = enqueue.period {
          let interval = WorkSchedule.interval(period)
          becomePending(at: now, due: (now + interval, "its next period (every \(interval)s) had not begun"))
        }
      }
    case .workStop(_, let attempt, let reason, _):
      runningAttempt = nil
      say(now, "attempt \(attempt) stopped: \(Self.stopReason(reason)).")
      guard reason != "cancelled", let enqueue, let base = lastEnqueueAt else { return }
      let wait = WorkBackoff.backoff(beforeAttempt: attempt + 1, policy: enqueue.backoff, delay: enqueue.backoffDelay)
      becomePending(at: now, due: (max(now, base + wait), "its backoff (\(wait)s from \(base)s) had not passed"))
    case .workCancel:
      closeWait(at: now)
      endPending()
      blockedOn.removeAll()
      say(now, "the app cancelled it.")
    case .workForeground(_, let attempt):
      say(now, "attempt \(attempt) called setForeground.")
    case .workRefuse(_, let attempt, let reason):
      say(now, "attempt \(attempt)'s setForeground was refused (\(reason.rawValue)).")
    case .schedSubmit(let submission):
      closeWait(at: now)
      let replacing = pendingSince != nil
      say(now, (replacing ? "submitted again, replacing the pending request" : "submitted") + Self.describe(submission))
      let earliest = submission.earliest ?? now
      becomePending(at: now, due: (max(earliest, now), "its earliest begin date (\(earliest)s) had not come"))
    case .schedReject(_, let error):
      endPending()
      say(now, "the system refused the submission: \(error.rawValue).")
    case .schedCancel:
      guard case .taskRequest = request, pendingSince != nil else { return }
      closeWait(at: now)
      endPending()
      say(now, "the app cancelled it.")
    case .schedLaunch(_, let run):
      closeWait(at: now)
      endPending()
      runs.insert(run)
      say(now, "launched as run \(run).")
    case .schedExpire(let run, let reason):
      guard runs.contains(run) else { return }
      say(now, "run \(run) expired" + (reason.map { " (\($0.rawValue))" } ?? "") + ".")
    case .schedComplete(let run, let success):
      guard runs.contains(run) else { return }
      say(now, "run \(run) completed (success=\(success)).")
    case .appLaunch:
      appRunning = true
      forceStopped = false  // a stopped app starts only when the user opens it
    case .appState(let state):
      appRunning = state != .suspended
      appInForeground = state == .active || state == .inactive
    case .appTerminate(let reason):
      appRunning = false
      appInForeground = false
      if reason == TerminationReason.forceStop { forceStopped = true }
    case .envSet(let settings):
      for setting in settings {
        if setting.key == "network" { networkOffline = setting.value == "offline" }
        if setting.key == "bucket" { standbyBucket = (setting.value, now) }
      }
    case .schedRegister, .schedProgress, .taskBegin, .taskEnd, .taskExpire, .input, .mark, .netCreate, .netSubmit,
      .netFinish, .netWake, .netEventsDone, .netHandler, .fgsStart, .fgsForeground, .fgsStop, .fgsRefuse, .fgsTimeout,
      .appAllowlist, .fileLock, .fileUnlock, .alarmSet, .alarmFire, .alarmCancel:
      break
    }
  }

  /// Why a waiting work of its own under the unique name `name` (`unique=`) was
  /// cancelled at an event about the name: the app's cancel of it (`cancelUniqueWork`),
  /// or an enqueue whose policy deletes the name's works (androidx `EnqueueRunnable`).
  /// A running attempt's end is its own `work.stop`.
  private static func cancellation(of name: String, by kind: TraceEvent.Kind) -> String {
    guard case .workEnqueue(let enqueue) = kind, let policy = enqueue.policy else {
      return "the app cancelled the unique name \(name), and it with it."
    }
    return "cancelled: the unique name \(name) was enqueued with policy \(policy.rawValue)."
  }

  /// A prerequisite's end, for a work blocked on it (androidx `WorkerWrapper`): its
  /// success unblocks the work once it was the last; its failure or cancel ends the
  /// work with it.
  private mutating func prerequisiteEvent(_ kind: TraceEvent.Kind, at now: TraceTime) {
    let prerequisite: String
    let ending: String?
    if case .workResult(let work, _, let outcome, _) = kind, outcome != .retry {
      (prerequisite, ending) = (work, outcome == .success ? nil : "failed")
    } else if case .workCancel(let work) = kind {
      (prerequisite, ending) = (work, "was cancelled")
    } else {
      return
    }
    guard blockedOn.contains(prerequisite) else { return }
    closeWait(at: now)
    if let ending {
      blockedOn.removeAll()
      endPending()
      say(now, "its prerequisite \(prerequisite) \(ending): so did it, never run.")
      return
    }
    blockedOn.removeAll { $0 == prerequisite }
    say(now, "its prerequisite \(prerequisite) succeeded.")
    guard blockedOn.isEmpty, let enqueue else { return becomeBlocked(at: now) }
    // androidx enqueues the dependent afresh: its initial delay counts from now.
    lastEnqueueAt = now
    becomePending(at: now, due: firstDue(of: enqueue, at: now))
  }

  /// Pending until every prerequisite has succeeded.
  private mutating func becomeBlocked(at now: TraceTime) {
    let names = blockedOn.joined(separator: ", ")
    becomePending(
      at: now,
      due: (
        .max,
        blockedOn.count == 1
          ? "its prerequisite \(names) had not succeeded" : "its prerequisites \(names) had not succeeded"
      ))
  }

  /// Ends the walk at `end`: a wait or a pending stretch still open is said as such.
  mutating func finish(at end: TraceTime) {
    advance(to: end)
    guard pendingSince != nil || wait != nil else { return }
    closeWait(at: end, stillOpen: true)
  }

  // MARK: Steps

  private mutating func say(_ time: TraceTime, _ sentence: String) {
    steps.append((time, "  \(time)s: \(sentence)"))
  }

  private mutating func becomePending(at time: TraceTime, due: (at: TraceTime, until: String)) {
    pendingSince = time
    self.due = due
    wait = nil
    resetTallies()
  }

  private mutating func endPending() {
    pendingSince = nil
    due = nil
    wait = nil
  }

  /// Says the stretch from the request's pending start to `time`: the part before it
  /// was due, then the wait (with its recorded reasons, or what can be inferred).
  private mutating func closeWait(at time: TraceTime, stillOpen: Bool = false) {
    guard let since = pendingSince else { return }
    if let due, due.at > since {
      let end = min(due.at, time)
      if end > since {
        steps.append((since, "  \(span(since, end, open: stillOpen && time < due.at)): not due: \(due.until)."))
      }
      if time <= due.at {
        pendingSince = time
        return
      }
    }
    let waitStart = max(since, due?.at ?? since)
    if let wait, let reasons = wait.reasons {
      // The stretch from falling due to the first recorded reasons, when they came later.
      if wait.since > waitStart { sayUnrecorded(from: waitStart, to: wait.since) }
      if time > wait.since || stillOpen {
        let phrase = WaitReason.allCases.filter(reasons.contains).map { reason in
          // The quota is the bucket's: name the bucket when the trace recorded it.
          guard reason == .quota, let standbyBucket else { return reason.sentence }
          return reason.sentence + " (\(standbyBucket.name) since \(standbyBucket.since)s)"
        }.joined(separator: "; ")
        steps.append(
          (
            wait.since,
            "  \(span(wait.since, time, open: stillOpen)): \(stillOpen ? "still waiting" : "waited"): \(phrase)."
          ))
      }
    } else if time > waitStart || stillOpen {
      sayUnrecorded(from: waitStart, to: time, stillOpen: stillOpen)
    }
    pendingSince = time
    due = nil
    wait = nil
    resetTallies()
  }

  /// A due stretch the trace records no reasons for: what the other events show, and
  /// that the rest cannot be told.
  private mutating func sayUnrecorded(from start: TraceTime, to end: TraceTime, stillOpen: Bool = false) {
    // A start a moment after it fell due is the dispatch of the start itself.
    guard end.interval(since: start) > Self.dispatchSlack || stillOpen else { return }
    let verb = stillOpen ? "still due, not started" : "due, not started"
    guard !recordsReasons else {
      steps.append(
        (start, "  \(span(start, end, open: stillOpen)): \(verb); the trace records no reason for this stretch."))
      return
    }
    let length = end.interval(since: start)
    var known: [String] = []
    if case .taskRequest = request, foregroundTime.nanoseconds > 0 {
      known.append(
        "the app was in the foreground for \(Self.part(foregroundTime, of: length)), and scheduled tasks launch "
          + "only in the background")
    }
    if case .work = request, platform == "ios", notRunningTime.nanoseconds > 0 {
      known.append(
        "the app was suspended or not running for \(Self.part(notRunningTime, of: length)), and an in-process "
          + "work queue runs only while the app runs")
    }
    if case .work = request, platform == "android", forceStoppedTime.nanoseconds > 0 {
      known.append(
        "the user had force-stopped the app for \(Self.part(forceStoppedTime, of: length)), and Android runs none of "
          + "a stopped app's work until the user opens it")
    }
    if case .work = request, offlineTime.nanoseconds > 0 {
      known.append(
        "the network was offline for \(Self.part(offlineTime, of: length)) (the trace does not say whether the "
          + "work needs it)")
    }
    let unknown =
      "this trace records no reasons (recorded on a device or imported from a log), so it cannot tell "
      + (known.isEmpty ? "why" : "what else held it")
    steps.append(
      (start, "  \(span(start, end, open: stillOpen)): \(verb): " + (known + [unknown]).joined(separator: "; ") + "."))
  }

  /// Tallies, since the open stretch fell due, the time the app spent in the
  /// foreground, not running, offline, and force-stopped.
  private mutating func advance(to time: TraceTime) {
    guard time > lastTime else { return }
    let from = max(lastTime, due?.at ?? lastTime)
    if pendingSince != nil, time > from {
      let elapsed = time.interval(since: from)
      if appInForeground { foregroundTime = foregroundTime + elapsed }
      if !appRunning { notRunningTime = notRunningTime + elapsed }
      if networkOffline { offlineTime = offlineTime + elapsed }
      if forceStopped { forceStoppedTime = forceStoppedTime + elapsed }
    }
    lastTime = time
  }

  private mutating func resetTallies() {
    foregroundTime = TraceInterval(nanoseconds: 0)
    notRunningTime = TraceInterval(nanoseconds: 0)
    offlineTime = TraceInterval(nanoseconds: 0)
    forceStoppedTime = TraceInterval(nanoseconds: 0)
  }

  /// `0s to 3600s (3600s)`; an open stretch runs to the end of what is shown.
  private func span(_ start: TraceTime, _ end: TraceTime, open: Bool = false) -> String {
    open
      ? "\(start)s to the end at \(end)s (\(end.interval(since: start))s)"
      : "\(start)s to \(end)s (\(end.interval(since: start))s)"
  }

  // MARK: Platform facts

  /// How long a due start may take without a recorded reason: the work queue's dispatch.
  static let dispatchSlack = TraceInterval(nanoseconds: 1_000_000_000)

  /// When a fresh enqueue is due (``WorkSchedule/firstRun(of:enqueuedAt:)``), and what
  /// held it until then.
  private func firstDue(of enqueue: WorkEnqueue, at time: TraceTime) -> (at: TraceTime, until: String) {
    let due = WorkSchedule.firstRun(of: enqueue, enqueuedAt: time)
    if enqueue.period != nil, let override = enqueue.nextScheduleTimeOverride {
      return (due, "its next schedule time override (\(override)s) had not come")
    }
    var held: [String] = []
    if let delay = enqueue.initialDelay, delay > .zero { held.append("its initial delay (\(delay)s) had not passed") }
    if let period = enqueue.period, let flex = enqueue.flex {
      let interval = WorkSchedule.interval(period)
      let window = WorkSchedule.flexWindow(period: period, flex: flex)
      if window < interval {
        held.append("its first period's flex window (the last \(window)s of \(interval)s) had not opened")
      }
    }
    return (due, held.joined(separator: ", then "))
  }

  /// What a `work.stop` reason means (``WorkStopReason/meaning(ofWord:)``).
  static func stopReason(_ reason: String) -> String { WorkStopReason.meaning(ofWord: reason) }

  /// ` (periodic, every 900s; policy replace)`, or nothing.
  static func describe(_ enqueue: WorkEnqueue) -> String {
    var parts: [String] = []
    if let unique = enqueue.uniqueName { parts.append("under the unique name \(unique)") }
    if let period = enqueue.period { parts.append("periodic, every \(WorkSchedule.interval(period))s") }
    if let delay = enqueue.initialDelay { parts.append("initial delay \(delay)s") }
    if let override = enqueue.nextScheduleTimeOverride { parts.append("next schedule time override \(override)s") }
    if let expedited = enqueue.expedited { parts.append("expedited (out of quota: \(expedited.rawValue))") }
    if let policy = enqueue.policy { parts.append("policy \(policy.rawValue)") }
    if let limit = enqueue.retryLimit { parts.append("at most \(limit) retries") }
    if let needs = enqueue.constraints.flatMap(WorkConstraint.field) { parts.append("needs \(needs)") }
    return parts.isEmpty ? "" : " (\(parts.joined(separator: "; ")))"
  }

  /// ` (processing, earliest begin date 3600s, needs the network).`
  static func describe(_ submission: SchedulerSubmission) -> String {
    var parts = [submission.type.rawValue]
    if let earliest = submission.earliest { parts.append("earliest begin date \(earliest)s") }
    if submission.network == true { parts.append("needs the network") }
    if submission.power == true { parts.append("needs external power") }
    return " (\(parts.joined(separator: ", ")))."
  }

  /// `120s of it` or `all of it`.
  static func part(_ time: TraceInterval, of length: TraceInterval) -> String {
    time.nanoseconds >= length.nanoseconds ? "all of it" : "\(time)s of it"
  }
}
