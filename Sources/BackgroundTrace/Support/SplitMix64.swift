/// A small, fast, seedable generator (SplitMix64), so a workload is the same on every
/// machine for the same seed.
package struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator from a seed.
  package init(seed: UInt64) {
    state = seed
  }

  /// Advances the state by the golden-ratio increment and mixes it (SplitMix64's output
  /// function).
  ///
  /// - Returns: the next 64 pseudo-random bits.
  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
