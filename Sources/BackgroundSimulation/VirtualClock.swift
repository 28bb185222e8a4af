import BackgroundTrace
import Synchronization

/// A `Clock` on a ``VirtualTimeScheduler``'s time: `sleep` resumes only when the
/// scheduler reaches the deadline, never because real time passed.
///
/// ```swift
/// try await clock.sleep(for: .seconds(35))   // 35 virtual seconds, no real wait
/// ```
public struct VirtualClock: Clock, Sendable {
  /// A point in virtual time: the offset since the simulation started.
  public struct Instant: InstantProtocol, Sendable, Hashable, Comparable {
    /// Time since the simulation started.
    public var offset: Duration

    /// Creates an instant.
    public init(offset: Duration) {
      self.offset = offset
    }

    /// The instant `duration` after this one.
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    /// The virtual time from this instant to `other` (negative when `other` is earlier).
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    /// Whether `lhs` is earlier than `rhs`.
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  /// The scheduler whose time this is.
  public let scheduler: VirtualTimeScheduler

  /// Creates a clock on a scheduler.
  public init(scheduler: VirtualTimeScheduler) {
    self.scheduler = scheduler
  }

  /// The scheduler's current virtual time.
  public var now: Instant { Instant(offset: scheduler.now.duration) }
  /// One nanosecond, the resolution of trace times.
  public var minimumResolution: Duration { .nanoseconds(1) }

  /// Suspends until the scheduler reaches `deadline`; throws `CancellationError` when
  /// the task is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let sleeper = Sleeper()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        sleeper.start(continuation)
        let timer = scheduler.schedule(at: TraceTime(deadline.offset)) { sleeper.finish(nil) }
        sleeper.setTimer(timer, on: scheduler)
      }
    } onCancel: {
      sleeper.finish(CancellationError())
    }
  }
}

/// One sleep's continuation, resumed exactly once: by its timer or by cancellation.
private final class Sleeper: Sendable {
  private struct State {
    var continuation: CheckedContinuation<Void, any Error>?
    var timer: VirtualTimeScheduler.TimerID?
    var scheduler: VirtualTimeScheduler?
    var finished = false
    var pendingError: (any Error)?
  }

  private let state = Mutex(State())

  func start(_ continuation: CheckedContinuation<Void, any Error>) {
    let early: (any Error)?? = state.withLock { state in
      if state.finished { return .some(state.pendingError) }
      state.continuation = continuation
      return .none
    }
    if case .some(let error) = early {
      if let error { continuation.resume(throwing: error) } else { continuation.resume() }
    }
  }

  func setTimer(_ timer: VirtualTimeScheduler.TimerID, on scheduler: VirtualTimeScheduler) {
    let cancelNow = state.withLock { state in
      state.timer = timer
      state.scheduler = scheduler
      return state.finished
    }
    if cancelNow { scheduler.cancel(timer) }
  }

  func finish(_ error: (any Error)?) {
    let (continuation, timer, scheduler) = state.withLock { state in
      guard !state.finished else {
        return (nil, nil, nil)
          as (CheckedContinuation<Void, any Error>?, VirtualTimeScheduler.TimerID?, VirtualTimeScheduler?)
      }
      state.finished = true
      state.pendingError = error
      defer { state.continuation = nil }
      return (state.continuation, state.timer, state.scheduler)
    }
    if error != nil, let timer, let scheduler { scheduler.cancel(timer) }
    guard let continuation else { return }
    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
  }
}
