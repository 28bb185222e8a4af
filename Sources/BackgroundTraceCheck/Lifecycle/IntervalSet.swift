/// A set of non-negative integers stored as sorted, disjoint closed ranges.
///
/// Task ids and run numbers mostly grow one by one, so the ids that ended form a few
/// ranges: the checker remembers millions of them in a few words.
struct IntervalSet: Sendable {
  private var ranges: [ClosedRange<Int>] = []

  /// Removes every value, keeping the storage.
  mutating func removeAll() {
    ranges.removeAll(keepingCapacity: true)
  }

  /// Whether `value` is in the set.
  ///
  /// - Complexity: O(log *r*) in the number of ranges.
  func contains(_ value: Int) -> Bool {
    guard let index = lastRange(startingAtOrBefore: value) else { return false }
    return ranges[index].contains(value)
  }

  /// Adds `value`, merging neighbouring ranges.
  ///
  /// - Complexity: amortized O(1) when values grow; O(*r*) at worst.
  mutating func insert(_ value: Int) {
    if let last = ranges.last, last.upperBound < value {  // the common case: growing ids
      if last.upperBound &+ 1 == value {
        ranges[ranges.count - 1] = last.lowerBound...value
      } else {
        ranges.append(value...value)
      }
      return
    }
    let index = lastRange(startingAtOrBefore: value)
    if let index, ranges[index].contains(value) { return }
    let insertAt = (index ?? -1) + 1
    var range = value...value
    if let index, ranges[index].upperBound &+ 1 == value {
      range = ranges[index].lowerBound...value
      ranges.remove(at: index)
      return insertMerging(range, at: index)
    }
    insertMerging(range, at: insertAt)
  }

  private mutating func insertMerging(_ range: ClosedRange<Int>, at index: Int) {
    var range = range
    if index < ranges.count, ranges[index].lowerBound == range.upperBound &+ 1 {
      range = range.lowerBound...ranges[index].upperBound
      ranges.remove(at: index)
    }
    ranges.insert(range, at: index)
  }

  /// The index of the last range whose lower bound is ≤ `value`.
  private func lastRange(startingAtOrBefore value: Int) -> Int? {
    var low = 0
    var high = ranges.count
    while low < high {
      let middle = (low + high) / 2
      if ranges[middle].lowerBound <= value { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? nil : low - 1
  }
}
