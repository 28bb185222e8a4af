import BackgroundTrace

/// The stream of choices one exploration run draws all its timing from (docs/guides/exploration.md): a recorded sequence of bounded integers, in the manner
/// of Hypothesis.
///
/// A stream either generates its choices from a seed (SplitMix64) or replays a given
/// sequence; past the end of a replayed sequence every draw is zero, the simplest
/// choice. Each draw is recorded as its offset from the range's lower bound, clamped to
/// the range, so ``recorded`` replays the run exactly and a smaller number always means
/// a simpler choice: a shorter duration, an earlier moment, fewer user actions, no fault.
///
/// The scenario and the ``SimulatedSystem`` it creates with ``SimulatedSystem/init(choices:configuration:faults:meta:)``
/// draw from the same stream, so the run is fully determined by its choice sequence.
/// A stream is used by one run on one thread.
public final class Choices: @unchecked Sendable {
  /// The most draws one run may make; later draws are zero, so a scenario that loops on
  /// its choices still ends.
  public static let maximumDraws = 10_000

  /// The seed the choices were generated from (for a replay, the seed of the run it
  /// shrinks).
  public let seed: UInt64
  private var generator: SplitMix64?
  private let replayed: [UInt64]
  /// Every choice drawn so far, as offsets from the lower bound of its range.
  public private(set) var recorded: [UInt64] = []

  /// Creates a stream that generates its choices from `seed`.
  public init(seed: UInt64) {
    self.seed = seed
    generator = SplitMix64(seed: seed)
    replayed = []
  }

  /// Creates a stream that generates its choices from `seed` mixed with `stream`, so that
  /// two streams of one seed (the system's and the app's) draw independently.
  init(seed: UInt64, stream: UInt64) {
    self.seed = seed
    generator = SplitMix64(seed: seed ^ stream)
    replayed = []
  }

  /// Creates a stream that replays `choices`, then draws zeros.
  ///
  /// - Parameters:
  ///   - choices: offsets from each draw's lower bound, as ``recorded`` holds them.
  ///   - seed: the seed recorded in the trace's metadata.
  public init(replaying choices: [UInt64], seed: UInt64 = 0) {
    self.seed = seed
    generator = nil
    replayed = choices
  }

  /// Draws an integer in `0...bound`.
  public func draw(upTo bound: UInt64) -> UInt64 {
    let index = recorded.count
    var value: UInt64 = 0
    if index < Self.maximumDraws {
      if generator != nil {
        value = Self.bounded(bound, using: &generator!)
      } else if index < replayed.count {
        value = min(replayed[index], bound)
      }
    }
    recorded.append(value)
    return value
  }

  /// Draws an integer in `range`; smaller choices give numbers nearer its lower bound.
  public func int(in range: ClosedRange<Int>) -> Int {
    let span = UInt64(bitPattern: Int64(range.upperBound) &- Int64(range.lowerBound))
    return Int(Int64(range.lowerBound) &+ Int64(bitPattern: draw(upTo: span)))
  }

  /// Draws a duration in `range`, to the millisecond (virtual clocks tick in ms).
  public func duration(in range: ClosedRange<Duration>) -> Duration {
    let low = TraceTime(range.lowerBound).nanoseconds / 1_000_000
    let high = TraceTime(range.upperBound).nanoseconds / 1_000_000
    guard high > low else {
      _ = draw(upTo: 0)
      return range.lowerBound
    }
    return .milliseconds(Int64(low + draw(upTo: high - low)))
  }

  /// Draws whether something happens, with a chance of `percent` in 100; the zero
  /// choice is `false`, so shrinking drops what it gates (a fault, a user action).
  public func chance(percent: Int) -> Bool {
    draw(upTo: 99) >= UInt64(100 - min(max(percent, 0), 100))
  }

  /// A uniform integer in `0...bound` by Lemire's multiply-and-reject, spelled out here
  /// rather than left to the standard library's `random(in:using:)`, whose algorithm may
  /// change between toolchains: a seed's choices are the same with every Swift.
  static func bounded(_ bound: UInt64, using generator: inout SplitMix64) -> UInt64 {
    guard bound < .max else { return generator.next() }
    let range = bound + 1
    let threshold = (0 &- range) % range
    while true {
      let (high, low) = generator.next().multipliedFullWidth(by: range)
      if low >= threshold { return high }
    }
  }
}
