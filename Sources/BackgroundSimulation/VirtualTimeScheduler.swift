public import BackgroundTrace
import Dispatch
import Foundation
import Synchronization
import _BackgroundTraceStorage

/// A single-threaded virtual-time scheduler: the simulation's only source of time and
/// order.
///
/// Two queues drive everything: *jobs* (async task steps, run in FIFO order on the
/// thread that drives the scheduler) and *timers* (closures due at a virtual time,
/// earliest first, ties in the order they were scheduled). Like swift-nio's
/// `EmbeddedEventLoop.advanceTime(to:)`: "now" is set before callbacks run, everything
/// due at one instant runs together, runnable jobs all finish before time moves, and
/// time never moves backwards. Nothing depends on `Task.yield` or thread timing, so a
/// run is the same on a loaded CI machine as on a laptop.
///
/// Async code joins by running in a task that prefers ``executor``
/// (`Task(executorPreference: scheduler.executor) { … }`) and sleeping on ``clock``.
/// Code that sleeps on a real clock, or hops to an actor other than the main actor,
/// leaves the scheduler's control and loses determinism. Main-actor code stays under
/// control when the scheduler ``drivesMainActor``.
///
/// Call the scheduler only from the thread that drives it; async tasks it runs may
/// schedule timers (they run on that thread too).
public final class VirtualTimeScheduler: Sendable {
  private struct State: ~Copyable {
    var now = TraceTime.zero
    var timers = DeadlineQueue<TraceTime, @Sendable () -> Void>()
    var cancelled: Set<UInt64> = []
  }

  private let state = Mutex(State())
  private let currentExecutor = Mutex(SimulationExecutor())

  /// The executor that runs async jobs in order when the scheduler drains it: the
  /// current process's (see ``retireExecutor()``).
  public var executor: SimulationExecutor { currentExecutor.withLock { $0 } }

  /// Ends the current executor, as a process dies: its waiting jobs and any job later
  /// sent to it never run, so a terminated app's code stops where it was. A new
  /// executor takes its place for the next process.
  public func retireExecutor() {
    currentExecutor.withLock { executor in
      executor.retire()
      executor = SimulationExecutor()
    }
  }

  /// Whether the app's main-actor work runs under this scheduler's control.
  ///
  /// When set, everything the scheduler runs — jobs and timers — runs inside a
  /// `DispatchQueue.main.sync` block, and each step ends with the main queue drained, so
  /// work the app sends to the main actor (`await MainActor.run { … }`,
  /// `Task { @MainActor in … }`, a `@MainActor` method called from async code) runs at
  /// the virtual instant it was sent, in the order it was sent, never beside the
  /// simulated code (docs/platform-model.md#main-actor-code). Drive the scheduler from a
  /// thread other than the main thread (Swift Testing's default); on the main thread it
  /// runs as if this were off. Main-actor work that sends more main-actor work without
  /// an `await` on the simulation's clock in between is not waited for.
  public let drivesMainActor: Bool

  /// Creates a scheduler at time zero.
  ///
  /// - Parameter drivesMainActor: whether main-actor work runs under the scheduler's
  ///   control (see ``drivesMainActor``).
  public init(drivesMainActor: Bool = false) {
    self.drivesMainActor = drivesMainActor
  }

  /// The current virtual time.
  public var now: TraceTime { state.withLock { $0.now } }

  /// A `Clock` on this scheduler's time.
  public var clock: VirtualClock { VirtualClock(scheduler: self) }

  /// A handle that cancels a scheduled timer.
  public struct TimerID: Sendable, Hashable {
    fileprivate let sequence: UInt64
  }

  /// Runs `action` at `time` (or now, if `time` has passed).
  @discardableResult
  public func schedule(at time: TraceTime, _ action: @escaping @Sendable () -> Void) -> TimerID {
    state.withLock { state in
      TimerID(sequence: state.timers.insert(action, at: max(time, state.now)))
    }
  }

  /// Runs `action` at `time`, before every timer scheduled with ``schedule(at:_:)`` for
  /// the same instant: how a replay puts a recorded system decision first at its
  /// instant.
  @discardableResult
  package func scheduleAhead(at time: TraceTime, _ action: @escaping @Sendable () -> Void) -> TimerID {
    state.withLock { state in
      TimerID(sequence: state.timers.insertAhead(action, at: max(time, state.now)))
    }
  }

  /// Runs `action` after `delay` of virtual time.
  @discardableResult
  public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> TimerID {
    schedule(at: now.adding(nanoseconds: TraceTime(delay).nanoseconds), action)
  }

  /// Cancels a timer that has not run yet.
  public func cancel(_ timer: TimerID) {
    state.withLock { state in
      state.cancelled.insert(timer.sequence)
      Self.dropCancelledHead(&state)
    }
  }

  /// Drops cancelled timers at the head of the queue, so they neither hold time nor
  /// count as pending.
  private static func dropCancelledHead(_ state: inout State) {
    while let first = state.timers.firstSequence, state.cancelled.remove(first) != nil {
      state.timers.removeFirst()
    }
  }

  /// Whether any timer is waiting.
  public var hasPendingTimers: Bool { state.withLock { !$0.timers.isEmpty } }

  /// The time of the earliest waiting timer.
  public var nextTimerTime: TraceTime? { state.withLock { $0.timers.firstTime } }

  /// Runs every runnable job and every timer due now, without moving time.
  public func runPending() {
    guard drivesMainActor, !Thread.isMainThread else {
      runPendingHere(oneTimer: false)
      return
    }
    // The main queue is serial: while a block of ours runs, main-actor jobs wait, and
    // those sent during it run before our next block. Each block runs at most one timer,
    // so main-actor work a timer sends runs before the next timer at the same instant.
    // Repeat until a block finds nothing to run, then let the main queue finish.
    while DispatchQueue.main.sync(execute: { runPendingHere(oneTimer: true) }) {}
    DispatchQueue.main.sync {}
  }

  /// Runs every runnable job and the timers due now (or only the first of them) on
  /// this thread.
  ///
  /// - Returns: whether anything ran.
  @discardableResult
  private func runPendingHere(oneTimer: Bool) -> Bool {
    var ran = executor.drain()
    while let action = popTimer(dueBy: now) {
      action()
      executor.drain()
      ran = true
      if oneTimer { break }
    }
    return ran
  }

  /// Moves time forward to `time`, running everything due on the way in order.
  ///
  /// A `time` in the past only runs what is pending: time never moves backwards.
  public func advance(to time: TraceTime) {
    runPending()
    while let next = nextTimerTime, next <= time {
      state.withLock { $0.now = max($0.now, next) }
      runPending()
    }
    state.withLock { $0.now = max($0.now, time) }
    runPending()
  }

  /// Moves time forward by `delay`.
  public func advance(by delay: Duration) {
    advance(to: now + TraceInterval(delay))
  }

  /// Runs until no job or timer is left, or until `deadline` (then stops there, without
  /// moving time to it).
  ///
  /// Periodic work never runs out of timers; it stops at the deadline.
  public func runUntilIdle(until deadline: TraceTime) {
    runPending()
    while let next = nextTimerTime, next <= deadline {
      state.withLock { $0.now = max($0.now, next) }
      runPending()
    }
  }

  /// Runs until no job or timer is left, or until `span` has passed from now.
  ///
  /// The default of a day stops periodic work, which never runs out of timers.
  public func runUntilIdle(for span: Duration = .seconds(86_400)) {
    runUntilIdle(until: now + TraceInterval(span))
  }

  private func popTimer(dueBy time: TraceTime) -> (@Sendable () -> Void)? {
    state.withLock { state in
      defer { Self.dropCancelledHead(&state) }
      while let timer = state.timers.popDue(atOrBefore: time) {
        if state.cancelled.remove(timer.sequence) == nil { return timer.payload }
      }
      return nil
    }
  }
}

/// Runs async jobs in FIFO order, on the thread that drains it, only when the
/// scheduler drains it: the source of deterministic order for async app code.
public final class SimulationExecutor: TaskExecutor, Sendable {
  private let jobs = Mutex<(waiting: [UnownedJob], retired: Bool, paused: Bool)>(([], false, false))

  /// Queues a job for the scheduler's next drain; a retired executor drops it, since its
  /// process has died.
  public func enqueue(_ job: consuming ExecutorJob) {
    let unowned = UnownedJob(job)
    jobs.withLock { if !$0.retired { $0.waiting.append(unowned) } }
  }

  /// Holds jobs without running them (the process is suspended) until ``resume()``.
  public func pause() {
    jobs.withLock { $0.paused = true }
  }

  /// Runs held jobs again at the next drain.
  public func resume() {
    jobs.withLock { $0.paused = false }
  }

  /// Drops waiting jobs and refuses new ones (the process died).
  func retire() {
    jobs.withLock {
      $0.retired = true
      $0.waiting.removeAll()
    }
  }

  /// Runs jobs until none is runnable.
  ///
  /// - Returns: whether any job ran.
  @discardableResult
  package func drain() -> Bool {
    var ran = false
    while let job = jobs.withLock({ $0.waiting.isEmpty || $0.paused ? nil : $0.waiting.removeFirst() }) {
      job.runSynchronously(on: asUnownedTaskExecutor())
      ran = true
    }
    return ran
  }

  /// Whether a job is waiting to run.
  public var hasRunnableJobs: Bool { jobs.withLock { !$0.waiting.isEmpty } }
}
