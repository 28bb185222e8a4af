#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value guarded by a lock made for the recorder's critical sections, which last
/// about a hundred nanoseconds: `os_unfair_lock` on Apple's systems; elsewhere a pthread
/// spin lock that yields the processor while another thread holds it.
///
/// Not `Synchronization.Mutex`: on Linux that lock hands itself over through the kernel
/// (priority-inheritance futexes), which ThreadSanitizer cannot see, so it reports every
/// contended `withLock` as a data race and the recorder's stress test could not run
/// clean under `--sanitize=thread`. ThreadSanitizer understands pthread locks, and
/// Apple's. Not a pthread mutex either: its lock and unlock took about 55 instructions
/// of the durable recorder's 790 per event under callgrind, a spin lock's about 10 (its
/// unlock is one store). A waiter yields after a few tries, so a holder that was
/// preempted gets the processor back rather than being spun against.
final class PthreadLocked<Value: ~Copyable>: @unchecked Sendable {
  #if canImport(Darwin)
    private let lock: os_unfair_lock_t
  #else
    private let lock: UnsafeMutablePointer<pthread_spinlock_t>
  #endif
  /// Accessed only under `lock`, which makes accesses exclusive: the dynamic
  /// exclusivity check would cost a thread-local lookup per `withLock`.
  @exclusivity(unchecked) private var value: Value

  init(_ value: consuming Value) {
    #if canImport(Darwin)
      lock = .allocate(capacity: 1)
      lock.initialize(to: os_unfair_lock())
    #else
      lock = .allocate(capacity: 1)
      lock.initialize(to: 0)
      pthread_spin_init(lock, Int32(PTHREAD_PROCESS_PRIVATE))
    #endif
    self.value = value
  }

  deinit {
    #if !canImport(Darwin)
      pthread_spin_destroy(lock)
    #endif
    lock.deallocate()
  }

  func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    #if canImport(Darwin)
      os_unfair_lock_lock(lock)
      defer { os_unfair_lock_unlock(lock) }
    #else
      if pthread_spin_trylock(lock) != 0 { waitForLock() }
      defer { pthread_spin_unlock(lock) }
    #endif
    return try body(&value)
  }

  #if !canImport(Darwin)
    /// Takes the lock another thread holds: a few tries, then a yield between tries.
    private func waitForLock() {
      var tries = 0
      while pthread_spin_trylock(lock) != 0 {
        tries += 1
        if tries > 64 { sched_yield() }
      }
    }
  #endif
}
