/// A clock that never moves: every event a test records is at time 0, so traces compare
/// exactly.
struct StoppedClock: Clock {
  struct Instant: InstantProtocol {
    func advanced(by duration: Duration) -> Instant { self }
    func duration(to other: Instant) -> Duration { .zero }
    static func < (lhs: Instant, rhs: Instant) -> Bool { false }
  }

  var now: Instant { Instant() }
  var minimumResolution: Duration { .nanoseconds(1) }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {}
}
