/// What reads a ``LifecycleWalker``'s transitions as it applies an event.
///
/// The walker hands each transition to its observer the moment it decides it, with
/// itself as it is then, so a reader that must also look at what is alive (the
/// checker's rules do) needs no copy of the walker's state and no buffer of
/// transitions. The walker's methods are generic over the observer: within this module
/// they are specialized for the checker's rules, and the transition that the walker
/// builds and the rules take apart is folded away (bgtrace-bench, "checker cost").
///
/// An array of transitions is an observer that keeps them, for readers that look at
/// them after the event.
package protocol LifecycleObserver {
  /// Takes the next transition. `walker` has applied everything before it, and not
  /// what comes after it in the same event.
  mutating func observe(_ transition: LifecycleTransition, in walker: borrowing LifecycleWalker)
}

extension Array: LifecycleObserver where Element == LifecycleTransition {
  /// Appends the transition.
  @inline(__always)
  package mutating func observe(_ transition: LifecycleTransition, in walker: borrowing LifecycleWalker) {
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
  package mutating func observe(_ transition: LifecycleTransition, in walker: borrowing LifecycleWalker) {
    first.observe(transition, in: walker)
    second.observe(transition, in: walker)
  }
}
