import BackgroundTrace
import Testing
import _BackgroundTraceStorage

@testable import BackgroundTraceCheck

/// The checker remembers ended task ids and run numbers in an interval set; ids come
/// mostly in order, but a trace can end them in any order.
@Suite struct IntervalSetTests {
  /// `Int.max` and `Int.min` are not neighbours: adding one after a span that ends at
  /// the other starts a span of its own, and the spans stay in order (an addition that
  /// wrapped around joined them, and a later value was then looked up in the wrong
  /// span).
  @Test func theExtremesDoNotWrapAround() {
    var set = IntervalSet()
    for value in [1, Int.max, Int.min, 5] { set.insert(value) }
    for value in [1, Int.max, Int.min, 5] { #expect(set.contains(value), "\(value)") }
    for value in [0, 2, 4, 6, Int.max - 1, Int.min + 1] { #expect(!set.contains(value), "\(value)") }
    var reversed = IntervalSet()
    for value in [Int.min, Int.max, -1, 0] { reversed.insert(value) }
    for value in [Int.min, Int.max, -1, 0] { #expect(reversed.contains(value), "\(value)") }
    #expect(!reversed.contains(Int.min + 1) && !reversed.contains(Int.max - 1) && !reversed.contains(1))
  }

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
