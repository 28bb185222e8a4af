#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value guarded by a pthread mutex.
///
/// The recorder does not use `Synchronization.Mutex` because on Linux that lock hands
/// itself over through the kernel (priority-inheritance futexes), which ThreadSanitizer
/// cannot see: it reports every contended `withLock` as a data race, so the recorder's
/// stress test could not run clean under `--sanitize=thread`. ThreadSanitizer
/// understands pthread mutexes.
final class PthreadLocked<Value: ~Copyable>: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  /// Accessed only under `mutex`, which makes accesses exclusive: the dynamic
  /// exclusivity check would cost a thread-local lookup per `withLock`.
  @exclusivity(unchecked) private var value: Value

  init(_ value: consuming Value) {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    self.value = value
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
