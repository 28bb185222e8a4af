import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value guarded by a lock whose uncontended path is one atomic operation each way,
/// and whose waiters sleep on a pthread condition variable: the durable recorder takes
/// it once per event, where a pthread mutex's lock and unlock cost about 75 instructions
/// between them (docs/decisions/0002-recorder-lock.md).
///
/// The lock word is 0 when free, 1 when held, 2 when held with threads waiting (as in
/// Drepper's "Futexes Are Tricky", with a condition variable in place of the futex,
/// which Swift cannot call). A thread that finds the lock held spins briefly, then
/// marks it 2 under the condition variable's mutex and waits; an unlock that finds 2
/// wakes one waiter, which takes the lock again with an atomic exchange. Every hand-over
/// is a release store seen by an acquiring atomic operation in user space, so
/// ThreadSanitizer sees it (unlike `Synchronization.Mutex` on Linux, whose
/// priority-inheritance futex hands the lock over inside the kernel: ThreadSanitizer
/// reported every contended `withLock` there as a data race).
final class Locked<Value: ~Copyable>: @unchecked Sendable {
  private let word = Atomic<UInt32>(0)
  /// Only for sleeping and waking waiters; never held while `value` is accessed.
  private let parking: UnsafeMutablePointer<pthread_mutex_t>
  private let wakeup: UnsafeMutablePointer<pthread_cond_t>
  /// Accessed only under the lock, which makes accesses exclusive: the dynamic
  /// exclusivity check would cost a thread-local lookup per `withLock`.
  @exclusivity(unchecked) private var value: Value

  init(_ value: consuming Value) {
    parking = .allocate(capacity: 1)
    parking.initialize(to: pthread_mutex_t())
    pthread_mutex_init(parking, nil)
    wakeup = .allocate(capacity: 1)
    wakeup.initialize(to: pthread_cond_t())
    pthread_cond_init(wakeup, nil)
    self.value = value
  }

  deinit {
    pthread_cond_destroy(wakeup)
    wakeup.deallocate()
    pthread_mutex_destroy(parking)
    parking.deallocate()
  }

  /// Runs `body` with the value, holding the lock.
  @inline(__always)
  func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    if !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged { lockContended() }
    defer { if word.exchange(0, ordering: .releasing) == 2 { wakeOne() } }
    return try body(&value)
  }

  /// Takes the lock another thread holds: a short spin (the recorder holds it for about
  /// a hundred nanoseconds), then sleeps until an unlock wakes it.
  @inline(never)
  private func lockContended() {
    for _ in 0..<100 {
      if word.load(ordering: .relaxed) == 0,
        word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
      {
        return
      }
    }
    pthread_mutex_lock(parking)
    // 2 from here on: whoever holds the lock now wakes a waiter when it unlocks. The
    // exchange takes the lock if it was free (then 2 only costs one needless wake-up).
    while word.exchange(2, ordering: .acquiring) != 0 { pthread_cond_wait(wakeup, parking) }
    pthread_mutex_unlock(parking)
  }

  /// Wakes one waiter; it takes the lock with its own exchange. Under the parking
  /// mutex, so the signal cannot fall between a waiter's exchange and its wait.
  @inline(never)
  private func wakeOne() {
    pthread_mutex_lock(parking)
    pthread_cond_signal(wakeup)
    pthread_mutex_unlock(parking)
  }
}
