package import BackgroundTrace

/// What reads a ``LifecycleWalker``'s transitions as it applies an event.
///
/// The walker hands each transition to its observer the moment it decides it, with the
/// process as it is then, so a reader needs no buffer of transitions. The walker's
/// methods are generic over the observer: within this module they are specialized for
/// the checker's rules, which they then call directly, through no witness table.
///
/// The walker itself is not handed over: passing it would copy its state (and retain
/// every table in it) at each transition. A reader that needs more of what is alive
/// reads the walker after the event.
///
/// The most frequent transitions also have methods of their own, which by default
/// build the transition and ``observe(_:in:)`` it; an observer that handles them
/// directly is spared building, passing and destroying a transition for each. The
/// walker's call to ``observe(_:in:)`` is not inlined, so nothing else spares it that.
/// They are:
/// - a task begun and a task ended, most events of a typical trace;
/// - an attempt started and an attempt resulted, whose transitions carry the work's
///   whole ``WorkLife`` in a box: built, each would allocate a box and copy the life
///   into it at every `work.start` and `work.result`;
/// - a work enqueued afresh, whose transition carries the 168-byte enqueue;
/// - the scheduler's frequent transitions (a registration, a submission, a run launched
///   or completed), a work finished and a state change, which as transitions would each
///   go through the rules' whole switch.
///
/// An array of transitions is an observer that keeps them, for readers that look at
/// them after the event.
package protocol LifecycleObserver {
  /// Takes the next transition. `process` is the walker's current (or last) process
  /// after everything before the transition, and before what comes after it in the same
  /// event.
  mutating func observe(_ transition: LifecycleTransition, in process: ProcessLife)

  /// Takes ``LifecycleTransition/taskBegun(id:_:)``.
  mutating func observeTaskBegun(id: Int, _ task: TaskLife, in process: ProcessLife)

  /// Takes ``LifecycleTransition/taskEnded(id:_:)``.
  mutating func observeTaskEnded(id: Int, _ task: TaskLife, in process: ProcessLife)

  /// Takes ``LifecycleTransition/attemptStarted(work:attempt:_:backoff:)``.
  mutating func observeAttemptStarted(
    work: String, attempt: Int, _ life: WorkLife, backoff: BackoffWait?, in process: ProcessLife)

  /// Takes ``LifecycleTransition/attemptResulted(work:attempt:_:_:)``.
  mutating func observeAttemptResulted(
    work: String, attempt: Int, _ outcome: WorkOutcome, _ life: WorkLife, in process: ProcessLife)

  /// Takes ``LifecycleTransition/workEnqueued(_:_:)`` with ``EnqueueEffect/fresh``.
  mutating func observeWorkEnqueuedAfresh(_ enqueue: WorkEnqueue, in process: ProcessLife)

  /// Takes ``LifecycleTransition/workFinished(work:_:)``.
  mutating func observeWorkFinished(work: String, _ finished: FinishedWork, in process: ProcessLife)

  /// Takes ``LifecycleTransition/stateChanged(from:to:)``.
  mutating func observeStateChanged(
    from previous: AppLifecycleState?, to state: AppLifecycleState, in process: ProcessLife)

  /// Takes ``LifecycleTransition/registered(identifier:ok:first:)``.
  mutating func observeRegistered(identifier: String, ok: Bool, first: TraceTime?, in process: ProcessLife)

  /// Takes ``LifecycleTransition/submitted(_:registered:)``.
  mutating func observeSubmitted(_ submission: SchedulerSubmission, registered: Bool, in process: ProcessLife)

  /// Takes ``LifecycleTransition/runLaunched(run:_:request:)``.
  mutating func observeRunLaunched(run: Int, _ life: RunLife, request: PendingRequest?, in process: ProcessLife)

  /// Takes ``LifecycleTransition/runCompleted(run:_:success:)``.
  mutating func observeRunCompleted(run: Int, _ life: RunLife, success: Bool, in process: ProcessLife)
}

extension LifecycleObserver {
  /// Observes ``LifecycleTransition/taskBegun(id:_:)``.
  package mutating func observeTaskBegun(id: Int, _ task: TaskLife, in process: ProcessLife) {
    observe(.taskBegun(id: id, task), in: process)
  }

  /// Observes ``LifecycleTransition/taskEnded(id:_:)``.
  package mutating func observeTaskEnded(id: Int, _ task: TaskLife, in process: ProcessLife) {
    observe(.taskEnded(id: id, task), in: process)
  }

  /// Observes ``LifecycleTransition/attemptStarted(work:attempt:_:backoff:)``.
  package mutating func observeAttemptStarted(
    work: String, attempt: Int, _ life: WorkLife, backoff: BackoffWait?, in process: ProcessLife
  ) {
    observe(.attemptStarted(work: work, attempt: attempt, life, backoff: backoff), in: process)
  }

  /// Observes ``LifecycleTransition/workEnqueued(_:_:)`` with ``EnqueueEffect/fresh``.
  package mutating func observeWorkEnqueuedAfresh(_ enqueue: WorkEnqueue, in process: ProcessLife) {
    observe(.workEnqueued(enqueue, .fresh), in: process)
  }

  /// Observes ``LifecycleTransition/attemptResulted(work:attempt:_:_:)``.
  package mutating func observeAttemptResulted(
    work: String, attempt: Int, _ outcome: WorkOutcome, _ life: WorkLife, in process: ProcessLife
  ) {
    observe(.attemptResulted(work: work, attempt: attempt, outcome, life), in: process)
  }
}

extension LifecycleObserver {
  /// Observes ``LifecycleTransition/workFinished(work:_:)``.
  package mutating func observeWorkFinished(work: String, _ finished: FinishedWork, in process: ProcessLife) {
    observe(.workFinished(work: work, finished), in: process)
  }

  /// Observes ``LifecycleTransition/stateChanged(from:to:)``.
  package mutating func observeStateChanged(
    from previous: AppLifecycleState?, to state: AppLifecycleState, in process: ProcessLife
  ) {
    observe(.stateChanged(from: previous, to: state), in: process)
  }

  /// Observes ``LifecycleTransition/registered(identifier:ok:first:)``.
  package mutating func observeRegistered(identifier: String, ok: Bool, first: TraceTime?, in process: ProcessLife) {
    observe(.registered(identifier: identifier, ok: ok, first: first), in: process)
  }

  /// Observes ``LifecycleTransition/submitted(_:registered:)``.
  package mutating func observeSubmitted(
    _ submission: SchedulerSubmission, registered: Bool, in process: ProcessLife
  ) {
    observe(.submitted(submission, registered: registered), in: process)
  }

  /// Observes ``LifecycleTransition/runLaunched(run:_:request:)``.
  package mutating func observeRunLaunched(
    run: Int, _ life: RunLife, request: PendingRequest?, in process: ProcessLife
  ) {
    observe(.runLaunched(run: run, life, request: request), in: process)
  }

  /// Observes ``LifecycleTransition/runCompleted(run:_:success:)``.
  package mutating func observeRunCompleted(run: Int, _ life: RunLife, success: Bool, in process: ProcessLife) {
    observe(.runCompleted(run: run, life, success: success), in: process)
  }
}

extension Array: LifecycleObserver where Element == LifecycleTransition {
  /// Appends the transition.
  @inline(__always)
  package mutating func observe(_ transition: LifecycleTransition, in process: ProcessLife) {
    append(transition)
  }
}

/// Two observers: each transition goes to the first, then to the second.
package struct ObserverPair<First: LifecycleObserver, Second: LifecycleObserver>: LifecycleObserver {
  /// The observer that takes each transition first.
  package var first: First
  /// The observer that takes each transition second.
  package var second: Second

  /// Pairs two observers.
  package init(_ first: First, _ second: Second) {
    self.first = first
    self.second = second
  }

  /// Hands the transition to both observers.
  @inline(__always)
  package mutating func observe(_ transition: LifecycleTransition, in process: ProcessLife) {
    first.observe(transition, in: process)
    second.observe(transition, in: process)
  }
}
