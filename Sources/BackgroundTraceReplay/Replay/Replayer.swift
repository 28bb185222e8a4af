import BackgroundSimulation
public import BackgroundTrace
public import BackgroundTraceCheck
import _BackgroundTraceStorage

/// Replays a recorded trace against app code: every recorded system decision is
/// injected at its recorded virtual time, the system's answers come from the trace,
/// and the app's new actions are compared with the recorded ones.
///
/// ```swift
/// let result = Replayer.replay(recorded) { platform in
///   MyApp(host: platform, scheduler: platform, work: platform,
///         context: AsyncContext(simulation: platform.scheduler), inputs: platform.inputs)
/// }
/// if let divergence = result.divergence { print(divergence) }
/// ```
///
/// A divergence is an answer, not a crash: decisions that no longer apply (an
/// expiration for a task the new code never began) are listed in
/// ``ReplayResult/unapplied``.
public enum Replayer: Sendable {
  /// How replayed actions are compared with recorded ones.
  public enum Timing: Sendable, Hashable {
    /// Same actions in the same order; times may differ (the default, so a trace
    /// recorded with wall-clock times replays on the virtual clock). A time a field
    /// carries (`sched.submit earliest=`, any field of type ``/BackgroundTrace/FieldType/seconds``)
    /// compares as its distance from its own event's time, so the same request made at
    /// another moment matches and a request for another time does not.
    case order
    /// Same actions at the same virtual times too, every time a field carries included.
    case exact
  }

  /// Replays `recorded` against the app that `makeApp` builds on the replay's platform
  /// (called at each recorded `app.launch`).
  ///
  /// - Parameters:
  ///   - recorded: the trace to replay.
  ///   - timing: how app actions are compared.
  ///   - configuration: the checker's configuration for the findings.
  ///   - drivesMainActor: whether the app's main-actor work runs under the replay's
  ///     control (``/BackgroundSimulation/VirtualTimeScheduler/drivesMainActor``).
  ///   - makeApp: builds the app for a new process.
  public static func replay(
    _ recorded: RecordedTrace, timing: Timing = .order, configuration: CheckerConfiguration = CheckerConfiguration(),
    drivesMainActor: Bool = false, makeApp: @escaping (ReplayPlatform) -> any BackgroundAppDelegate
  ) -> ReplayResult {
    let script = ReplayScript(recorded)
    let platform = ReplayPlatform(script: script, meta: recorded.meta, drivesMainActor: drivesMainActor)
    platform.makeApp = makeApp
    scheduleDecision(0, on: platform)
    platform.scheduler.runUntilIdle(until: recorded.events.last?.time ?? .zero)
    let trace = platform.recorder.trace
    return ReplayResult(
      trace: trace,
      divergence: divergence(
        expected: script.actions, actual: trace.events.filter { $0.kind.side == .app }, timing: timing,
        redacted: recorded.meta[TracePrivacy.metaKey] == "redacted"),
      unapplied: platform.unapplied, findings: TraceChecker.check(trace, configuration: configuration))
  }

  /// Replays twice and compares the two replays with each other.
  ///
  /// - Returns: the first replay's result, and the point where the two replays split
  ///   when the app's code depends on something the recording does not hold.
  public static func replayChecked(
    _ recorded: RecordedTrace, timing: Timing = .order, configuration: CheckerConfiguration = CheckerConfiguration(),
    makeApp: @escaping (ReplayPlatform) -> any BackgroundAppDelegate
  ) -> (result: ReplayResult, nondeterminism: Nondeterminism?) {
    let first = replay(recorded, timing: timing, configuration: configuration, makeApp: makeApp)
    let second = replay(recorded, timing: timing, configuration: configuration, makeApp: makeApp)
    let a = first.trace.events
    let b = second.trace.events
    guard
      let split = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
        ?? (a.count == b.count ? nil : min(a.count, b.count))
    else { return (first, nil) }
    return (
      first,
      Nondeterminism(
        eventNumber: split + 1, first: a.indices.contains(split) ? TextTraceWriter.line(for: a[split]) : nil,
        second: b.indices.contains(split) ? TextTraceWriter.line(for: b[split]) : nil)
    )
  }

  // MARK: Injecting decisions

  /// Schedules the recorded decisions one at a time: each is put on the scheduler only
  /// after the one before it and the work it started ran, so app work already waiting
  /// for the same instant (a save finishing at 12 s) runs before it, as it did when it
  /// was recorded.
  private static func scheduleDecision(_ index: Int, on platform: ReplayPlatform) {
    let decisions = platform.script.decisions
    guard index < decisions.count else { return }
    platform.scheduler.scheduleAhead(at: decisions[index].event.time) {
      applyInRecordedOrder(index, on: platform, yields: 0)
    }
  }

  /// Applies decision `index` once the app has done every action the recording has
  /// before it — or, when the app is behind, once none of its work is due at this
  /// instant any more.
  ///
  /// Timers at one instant run in the order they were set, and when the app set its
  /// timers says nothing about the recorded order. So a decision's timer goes ahead of
  /// every app timer at its instant (app work recorded after it stays after it), and
  /// while the replay has fewer app actions than the recording had before the decision
  /// and some app timer is due now, the decision steps behind it: what the app did
  /// first at this instant comes first again (docs/platform-model.md#replay).
  private static func applyInRecordedOrder(_ index: Int, on platform: ReplayPlatform, yields: Int) {
    let decisions = platform.script.decisions
    let scheduler = platform.scheduler
    if platform.appActionCount < decisions[index].actionsBefore {
      if let due = scheduler.nextTimerTime, due <= scheduler.now {
        scheduler.schedule(at: scheduler.now) { applyInRecordedOrder(index, on: platform, yields: yields) }
        return
      }
      // Main-actor work the app sent at this instant runs between the scheduler's
      // steps, one timer each: step behind it (a few times, for work that hops there
      // and back) before applying.
      if scheduler.drivesMainActor && yields < 3 {
        scheduler.schedule(at: scheduler.now) { applyInRecordedOrder(index, on: platform, yields: yields + 1) }
        return
      }
    }
    // Decisions recorded back to back at one instant, with no app action between
    // them, are applied together, before any app work they release runs. A recorded
    // input between them (work that resumed at the first, as the app became inactive)
    // keeps them apart, so that work runs between them again.
    // A launch and the state it launches into are one step, as in the simulation
    // (`startProcess`): what `didFinishLaunching` does at once comes between them, and
    // the async work it starts (a pending-requests check) only after both.
    var next = index
    repeat {
      apply(decisions[next], on: platform)
      next += 1
    } while next < decisions.count && decisions[next].event.time == decisions[index].event.time
      && (decisions[next].actionsBefore == decisions[index].actionsBefore
        && decisions[next].number == decisions[next - 1].number + 1
        || isLaunchState(decisions[next], after: decisions[next - 1], actionsSoFar: platform.appActionCount))
    // Once the work these decisions started has run (its sleeps are on the timer
    // queue), put the next decision behind them.
    let following = next
    scheduler.schedule(at: scheduler.now) { scheduleDecision(following, on: platform) }
  }

  /// Whether `decision` is the state a launch (`previous`) entered, with the app having
  /// done by now exactly the actions the recording has before it.
  private static func isLaunchState(
    _ decision: ReplayScript.Numbered, after previous: ReplayScript.Numbered, actionsSoFar: Int
  ) -> Bool {
    guard case .appLaunch = previous.event.kind, case .appState = decision.event.kind else { return false }
    return decision.actionsBefore == actionsSoFar
  }

  private static func apply(_ decision: ReplayScript.Numbered, on platform: ReplayPlatform) {
    let event = decision.event
    func skip(_ reason: String) {
      platform.unapplied.append(
        UnappliedDecision(eventNumber: decision.number, line: TextTraceWriter.line(for: event), reason: reason))
    }
    switch event.kind {
    case .appLaunch:
      platform.record(event.kind)
      platform.launchHandlers.removeAll()
      platform.expirationHandlers.removeAll()
      platform.sessions.removeAll()  // a new process holds no session until it creates one
      platform.sessionActions.removeAll()
      platform.sessionActionTasks.removeAll()
      platform.services.removeAll()
      guard let makeApp = platform.makeApp else { return }
      let delegate = makeApp(platform)
      platform.delegate = delegate
      delegate.didFinishLaunching()
    case .appState(let state):
      let previous = platform.lifecycle.isRunning ? platform.lifecycle.process.state : nil
      if state == .suspended && !platform.sessionActionTasks.isEmpty {
        // The app is suspended with a wake's SwiftUI actions still running: the wake's
        // time ran out, and SwiftUI cancelled them before (SimulatedSystem+TransferEvents.swift);
        // what they do on the way out, the handler their return calls, comes first.
        for wake in platform.sessionActionTasks.keys.sorted() { platform.sessionActionTasks[wake]?.cancel() }
        platform.scheduler.executor.drain()
      }
      platform.record(event.kind)
      // As in the simulation, a suspended app runs no code until it is woken.
      if state == .suspended {
        platform.scheduler.executor.pause()
      } else {
        platform.scheduler.executor.resume()
      }
      // The callbacks UIKit makes at this transition, as the simulation makes them:
      // leaving the foreground, or a launch into the background (unless the trace says
      // `meta launch-enters-background=false`), enters the background (waking from
      // suspension does not); leaving the background calls willEnterForeground, then
      // didBecomeActive once active.
      let wasInBackground = previous == .background || previous == .suspended
      let entered = previous == nil ? platform.launchEntersBackground : previous == .active || previous == .inactive
      if state == .background && entered {
        platform.delegate?.didEnterBackground()
      } else if state == .inactive && previous == .active {
        platform.delegate?.willResignActive()
      } else if (state == .active || state == .inactive) && wasInBackground {
        platform.delegate?.willEnterForeground()
      }
      if state == .active && previous != .active { platform.delegate?.didBecomeActive() }
    case .appTerminate(let reason):
      if reason == "watchdog" && !platform.lifecycle.tasks.values.contains(where: { $0.expiredAt != nil })
        && !platform.lifecycle.runs.values.contains(where: { $0.expiredAt != nil })
      {
        return skip("no expired task or scheduler run is open, so the watchdog would not kill the app")
      }
      if reason == "user" && platform.lifecycle.isRunning && platform.lifecycle.process.state != .suspended {
        platform.delegate?.willTerminate()
      }
      platform.record(event.kind)
      platform.scheduler.retireExecutor()
      // The workers' code never resumes (its executor is retired), but they stay known
      // until the recording stops them (`work.stop reason=terminated`, as the simulation
      // and WorkManager record after a process death) or starts them again.
      platform.delegate = nil
      platform.launchHandlers.removeAll()
      platform.expirationHandlers.removeAll()
      platform.sessions.removeAll()
      platform.sessionActions.removeAll()
      // The process's executor is retired with it: the actions never resume.
      platform.sessionActionTasks.removeAll()
      platform.services.removeAll()
    case .fgsTimeout(let service, let type):
      guard let code = platform.services[service] else { return skip("the app runs no service \(service)") }
      platform.record(event.kind)
      code.onTimeout(ForegroundServiceControl(name: service, services: platform), type: type)
    case .taskExpire(let id):
      guard platform.lifecycle.tasks[id] != nil else { return skip("the app has no open task \(id)") }
      platform.record(event.kind)
      platform.expirationHandlers[id]?.callOnVirtualMainThread()
    case .schedLaunch(let ident, let run):
      // With no handler registered the launch still happens: iOS then crashes the app,
      // which the recording has as the next decision.
      platform.record(event.kind)
      let request = platform.submittedRequests.removeValue(forKey: ident)
      // A continued-processing request's launch hands out a task with a progress to report to.
      let task =
        if let request, request.type == .continued {
          ReplayContinuedTask(identifier: ident, run: run, request: request, platform: platform)
        } else {
          ReplayScheduledTask(identifier: ident, run: run, platform: platform)
        }
      platform.launchedTasks[run] = task
      // A main-actor handler on a background queue traps before it runs; the recording
      // has the crash as the next decision.
      if let registration = platform.launchHandlers[ident], !registration.trapsOnItsQueue {
        registration.handler(task)
      }
    case .schedExpire(let run, _):
      guard let task = platform.launchedTasks[run] else { return skip("run \(run) was not launched") }
      platform.record(event.kind)
      // BGTask clears the handler before it calls it.
      let handler = task.expirationHandler
      task.expirationHandler = nil
      handler?()
    case .workStart(let work, let attempt):
      guard let request = platform.works[work] else { return skip("the app did not enqueue \(work)") }
      platform.record(event.kind)
      let (worker, tags) = (request.worker, request.traceTags)
      if platform.runsExpeditedWorkInForeground && request.expedited != nil && worker.foregroundInfo() == nil {
        // As the simulation: the run fails before doWork, with no foreground info to run on.
        platform.record(.workResult(work: work, attempt: attempt, outcome: .failure, tags: request.traceTags))
        return
      }
      guard let input = platform.input(of: work, request) else {
        // As the simulation: inputs the merger refuses fail the run before doWork.
        platform.record(.workResult(work: work, attempt: attempt, outcome: .failure, tags: tags))
        return
      }
      let task = Task(executorPreference: platform.scheduler.executor) { [platform] in
        let context = WorkContext(
          work: work, runAttemptCount: attempt,
          foreground: { [platform] (_) throws(ForegroundServiceError) in
            try platform.promoteWorker(work, attempt: attempt)
          }, inputData: input)
        let result = await worker.result(of: context).takenByWorkManager
        guard !Task.isCancelled else { return }
        if let output = request.keptOutput(of: result) { platform.workOutputs[work] = output }
        platform.runningWorkers[work] = nil
        platform.record(.workResult(work: work, attempt: attempt, outcome: result.outcome, tags: tags))
      }
      platform.runningWorkers[work] = (attempt, task)
    case .workStop(let work, let attempt, _, _):
      guard let running = platform.runningWorkers[work], running.attempt == attempt else {
        return skip("\(work) attempt \(attempt) is not running")
      }
      platform.runningWorkers[work] = nil
      running.task.cancel()
      platform.record(event.kind)
    case .mark(let label):
      platform.record(event.kind)
      if label.hasPrefix(userActionMarkPrefix) {
        platform.delegate?.perform(userAction: String(label.dropFirst(userActionMarkPrefix.count)))
      }
    case .envSet(let settings):
      if settings.contains(.exactAlarmPermissionRevoked) { platform.exactAlarmPermissionRevoked = true }
      platform.record(event.kind)
    case .schedReject, .input, .taskBegin, .taskEnd, .schedRegister, .schedSubmit, .schedCancel,
      .schedComplete, .workEnqueue, .workResult, .workCancel, .workAfter, .alarmSet, .alarmCancel:
      platform.record(event.kind)
    case .netFinish(let session, let task, let outcome):
      guard let delegate = platform.sessions[session] else {
        return skip("the app holds no background session \(session) in this process")
      }
      platform.record(event.kind)
      delegate.transferDidComplete(session: session, task: task, outcome: outcome)
    case .netEventsDone(let session):
      guard let delegate = platform.sessions[session] else {
        return skip("the app holds no background session \(session) in this process")
      }
      platform.record(event.kind)
      delegate.sessionDidFinishEvents(session: session)
    case .netWake(let session):
      platform.record(event.kind)
      let completionHandler: @Sendable () -> Void = { [platform] in platform.record(.netHandler(session: session)) }
      let actions = platform.sessionActions.matching(session)
      if actions.isEmpty {
        platform.delegate?.handleEvents(forBackgroundSession: session, completionHandler: completionHandler)
      } else {
        // SwiftUI's `.backgroundTask(.urlSession(…))`: the handler when the actions return.
        platform.wakeCount += 1
        let wake = platform.wakeCount
        platform.sessionActionTasks[wake] = SessionActions.run(
          actions, for: session, on: platform.actionExecutor
        ) { [platform] in
          platform.sessionActionTasks[wake] = nil
          completionHandler()
        }
      }
    case .netCreate, .netSubmit, .netHandler, .schedProgress, .fgsStart, .fgsForeground, .fgsStop, .fgsRefuse,
      .workForeground, .workRefuse, .workQuota, .fileLock, .fileUnlock, .workWait, .schedWait:
      platform.record(event.kind)
    case .appAllowlist(let reason, _):
      // The recorded window: the replayed app runs its code for the delivery.
      platform.record(event.kind)
      platform.delegate?.handleAllowlistedDelivery(reason)
    case .alarmFire(let alarm):
      // The recorded delivery: the replayed app's receiver runs.
      platform.record(event.kind)
      platform.delegate?.handleAlarm(alarm)
    }
  }

  // MARK: Comparing actions

  /// The first recorded action the replay did not take alike. In a trace recorded with
  /// its private fields redacted (``TracePrivacy/redacted``), the app's private values
  /// (a task's name) are the recording's hashes' stand-ins: each replayed value matches
  /// the recorded hash it first meets there, and only it, from then on.
  private static func divergence(
    expected: [ReplayScript.Numbered], actual: [TraceEvent], timing: Timing, redacted: Bool
  ) -> ReplayDivergence? {
    var privateValues = PrivateValueMatching()
    for index in 0..<max(expected.count, actual.count) {
      let want = index < expected.count ? expected[index] : nil
      var got = index < actual.count ? actual[index] : nil
      if redacted, let want, let replayed = got { got = privateValues.align(replayed, with: want.event) }
      if let want, let got, same(want.event, got, timing) { continue }
      let context = expected[max(0, index - 3)..<min(index, expected.count)].map {
        "\($0.number): " + TextTraceWriter.line(for: $0.event)
      }
      // Under `.order` the app's action is written on the recording's clock, where the
      // recording has its action, so that the two lines differ only where they were
      // compared, and no line mixes the replay's times with the recording's.
      var shown = got
      if timing == .order, let want, let got { shown = moved(got, to: want.event.time) }
      return ReplayDivergence(
        eventNumber: want?.number, time: want?.event.time ?? got?.time ?? .zero,
        expected: want.map { TextTraceWriter.line(for: $0.event) }, actual: shown.map { TextTraceWriter.line(for: $0) },
        context: context)
    }
    return nil
  }

  /// Whether the replayed action `b` is the recorded action `a` under `timing`: under
  /// `.exact`, the same event at the same time; under `.order`, the same kind with each
  /// time a field carries (`sched.submit earliest=`) as far from its own event's time, so
  /// that the same request made at another moment matches.
  static func same(_ a: TraceEvent, _ b: TraceEvent, _ timing: Timing) -> Bool {
    switch timing {
    case .exact:
      return a == b
    case .order:
      guard a.kind.hasTimeFields else { return a.kind == b.kind }
      guard a.kind.mappingTimeFields({ _ in .zero }) == b.kind.mappingTimeFields({ _ in .zero }) else { return false }
      // Equal kinds without their times have the same time fields present.
      return zip(a.kind.timeFieldValues, b.kind.timeFieldValues).allSatisfy {
        offset($0, from: a.time) == offset($1, from: b.time)
      }
    }
  }

  /// How long after `origin` `time` is, in nanoseconds; negative when it is before.
  static func offset(_ time: TraceTime, from origin: TraceTime) -> Int64 {
    Int64(clamping: time.nanoseconds) - Int64(clamping: origin.nanoseconds)
  }

  /// `event` at `time`, each of its time fields as far from it as from the event's own
  /// time (at 0 when that would be before the trace's start).
  static func moved(_ event: TraceEvent, to time: TraceTime) -> TraceEvent {
    TraceEvent(time: time, event.kind.mappingTimeFields { $0.moved(from: event.time, to: time) })
  }
}

extension TraceTime {
  /// This time as far from `new` as it is from `old`: later than `new` by as much as it
  /// is later than `old` (saturating at ``TraceTime/max``), or earlier by as much as it is
  /// earlier (at least ``TraceTime/zero``).
  func moved(from old: TraceTime, to new: TraceTime) -> TraceTime {
    if self >= old { return new.adding(nanoseconds: nanoseconds - old.nanoseconds) }
    let back = old.nanoseconds - nanoseconds
    return back >= new.nanoseconds ? .zero : TraceTime(nanoseconds: new.nanoseconds - back)
  }
}

/// Pairs the private values of a replay with the redacted ones of its recording: one
/// replayed value per recorded hash, as a redacting recorder maps one value to one hash.
struct PrivateValueMatching {
  private var recordedFor: [String: String] = [:]
  private var replayedFor: [String: String] = [:]

  /// `replayed` with each private value written as the recorded one it stands for: the
  /// value `recorded` has in that field, when neither is paired with another value yet
  /// (then they are paired from now on), or the one it was paired with before. Values
  /// that cannot be paired stay as they are, and so differ from the recording.
  mutating func align(_ replayed: TraceEvent, with recorded: TraceEvent) -> TraceEvent {
    guard replayed.kind.tag == recorded.kind.tag, recorded.kind.hasPrivateFields else { return replayed }
    var recordedValues = recorded.kind.privateFieldValues[...]
    let kind = replayed.kind.mappingPrivateFields { value in
      guard let hash = recordedValues.popFirst() else { return value }
      if let paired = recordedFor[value] { return paired }
      guard replayedFor[hash] == nil else { return value }
      recordedFor[value] = hash
      replayedFor[hash] = value
      return hash
    }
    return TraceEvent(time: replayed.time, kind)
  }
}
