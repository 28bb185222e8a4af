#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The recorder's time source: nanoseconds since the recorder started, on any `Clock`.
///
/// `ContinuousClock` on Linux is read with `clock_gettime(CLOCK_BOOTTIME)` directly (the
/// clock it is built on), which saves the generic `Duration` arithmetic on every event.
struct RecorderClock: Sendable {
  private let start: UInt64
  private let generic: (@Sendable () -> UInt64)?

  init<C: Clock>(_ clock: C) where C.Duration == Duration {
    #if os(Linux)
      if C.self == ContinuousClock.self {
        start = Self.boottime()
        generic = nil
        return
      }
    #endif
    start = 0
    let origin = clock.now
    generic = {
      let elapsed = origin.duration(to: clock.now)
      // A clock behind the start (even by less than a second, where `seconds` is 0 and
      // `attoseconds` negative) reads as the start.
      guard elapsed > .zero else { return 0 }
      let (seconds, attoseconds) = elapsed.components
      return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }
  }

  /// Nanoseconds since the recorder started.
  @inline(__always)
  func now() -> UInt64 {
    if let generic { return generic() }
    let reading = Self.boottime()
    return reading > start ? reading - start : 0
  }

  @inline(__always)
  private static func boottime() -> UInt64 {
    #if os(Linux)
      var spec = timespec()
      clock_gettime(CLOCK_BOOTTIME, &spec)
      return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    #else
      return 0
    #endif
  }
}
