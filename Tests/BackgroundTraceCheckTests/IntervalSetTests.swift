import BackgroundTrace
import Testing

@testable import BackgroundTraceCheck

/// The checker remembers ended task ids and run numbers in an interval set; ids come
/// mostly in order, but a trace can end them in any order.
@Suite struct IntervalSetTests {
  @Test func valuesInAnyOrderAreRemembered() {
    var set = IntervalSet()
    for value in [3, 1, 2, 10, 5, 4, 12, 11, 0] { set.insert(value) }
    for value in [0, 1, 2, 3, 4, 5, 10, 11, 12] { #expect(set.contains(value)) }
    for value in [-1, 6, 7, 8, 9, 13, 100] { #expect(!set.contains(value)) }
  }

  @Test func agreesWithASetOnSeededRandomInserts() {
    var random = SplitMix64(seed: 99)
    var set = IntervalSet()
    var reference = Set<Int>()
    for _ in 0..<5_000 {
      let value = Int.random(in: 0..<2_000, using: &random)
      set.insert(value)
      reference.insert(value)
    }
    for value in -1...2_001 { #expect(set.contains(value) == reference.contains(value)) }
  }
}
