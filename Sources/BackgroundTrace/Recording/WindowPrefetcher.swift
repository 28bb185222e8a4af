import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Prepares the next window of a ``DurableTraceFile`` on another thread: grows the file
/// over it (its blocks allocated) and, on Linux, faults its pages into the page cache
/// (`MADV_POPULATE_WRITE` through a mapping of its own, dropped at once). When the
/// writer maps that window, its pages are already allocated and zeroed, so `record`
/// waits on the kernel for page tables only, not for fresh pages or the file system.
///
/// At most one window is prepared at a time. The writer calls ``finish()`` before it
/// grows, cuts or closes the file itself, so the two never change the file's size at
/// once, and takes the size the preparation left. A preparation that fails (a full
/// disk) leaves the size as it was: the writer's own growth then meets the failure and
/// reports it, as without a prefetch.
///
/// The hand-over goes through a pthread mutex and condition, which ThreadSanitizer
/// understands (see ``PthreadLocked``).
final class WindowPrefetcher: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>
  /// Guarded by `mutex`: whether a preparation runs.
  private var inFlight = false
  /// Guarded by `mutex`: the file size the last preparation left, until taken.
  private var grownTo: Int?
  private let queue = DispatchQueue(label: "BackgroundTrace.DurableTraceFile.window", qos: .utility)

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    pthread_cond_init(condition, nil)
  }

  deinit {
    _ = finish()
    pthread_cond_destroy(condition)
    condition.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Starts preparing the `length` bytes from `start` (page-aligned) of the file of
  /// `descriptor`, which is `fileSize` bytes long now. Call ``finish()`` first if one
  /// may be in flight.
  func start(descriptor: Int32, from start: Int, length: Int, fileSize: Int) {
    pthread_mutex_lock(mutex)
    precondition(!inFlight, "the writer finishes a preparation before starting the next")
    inFlight = true
    pthread_mutex_unlock(mutex)
    queue.async { [self] in
      let end = start + length
      var size = fileSize
      if end > size, DurableTraceFile.grow(descriptor, from: size, to: end) == nil { size = end }
      #if os(Linux)
        if size >= end, let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, off_t(start)),
          mapped != UnsafeMutableRawPointer(bitPattern: -1)
        {
          _ = madvise(mapped, length, DurableTraceFile.populateWrite)
          munmap(mapped, length)
        }
      #endif
      pthread_mutex_lock(mutex)
      grownTo = size
      inFlight = false
      pthread_cond_broadcast(condition)
      pthread_mutex_unlock(mutex)
    }
  }

  /// Waits for the preparation in flight, if any; the file size the last one left, or
  /// `nil` when there is none not yet taken.
  func finish() -> Int? {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    while inFlight { pthread_cond_wait(condition, mutex) }
    defer { grownTo = nil }
    return grownTo
  }
}
