/// A set of non-negative integers stored as sorted, disjoint closed spans.
///
/// Task ids and run numbers mostly grow one by one, so the ids that ended form a few
/// spans: the checker remembers millions of them in a few words.
public struct IntervalSet: Sendable {
  /// The values `lower...upper`. (A struct of two words rather than a `ClosedRange`,
  /// whose every construction checks its bounds.)
  @usableFromInline
  struct Span: Sendable {
    @usableFromInline var lower: Int
    @usableFromInline var upper: Int

    @inlinable init(lower: Int, upper: Int) {
      self.lower = lower
      self.upper = upper
    }
  }

  /// Every span but the last, in order.
  @usableFromInline var spans: [Span] = []
  /// The last span, kept out of the array: the common insertion, the value after it,
  /// changes it in place, with no access to the array's buffer (and no check that the
  /// buffer is unique, a call into the runtime on every task end).
  @usableFromInline var tail: Span?

  /// An empty set.
  @inlinable public init() {}

  /// Removes every value, keeping the storage.
  @inlinable public mutating func removeAll() {
    spans.removeAll(keepingCapacity: true)
    tail = nil
  }

  /// Whether `value` is in the set.
  ///
  /// - Complexity: O(log *s*) in the number of spans.
  @inlinable public func contains(_ value: Int) -> Bool {
    if let tail, tail.lower <= value { return value <= tail.upper }
    guard let index = lastSpan(startingAtOrBefore: value) else { return false }
    return value <= spans[index].upper
  }

  /// Adds `value`, merging neighbouring spans. (A neighbour is one more or one less
  /// without wrapping around: `Int.max` and `Int.min` are not neighbours.)
  ///
  /// - Complexity: amortized O(1) when values grow; O(*s*) at worst.
  @inlinable @inline(__always)
  public mutating func insert(_ value: Int) {
    // The common case, inlined: the next id after the last span.
    if let last = tail, last.upper < value, last.upper &+ 1 == value {
      tail!.upper = value
    } else {
      insertAnywhere(value)
    }
  }

  /// Adds `value` with every span in the array, then takes the last one out again.
  @inlinable mutating func insertAnywhere(_ value: Int) {
    if let tail { spans.append(tail) }
    insertElsewhere(value)
    tail = spans.popLast()
  }

  @inlinable mutating func insertElsewhere(_ value: Int) {
    if let last = spans.last, last.upper < value {  // growing ids, after a gap
      spans.append(Span(lower: value, upper: value))
      return
    }
    let index = lastSpan(startingAtOrBefore: value)
    if let index, value <= spans[index].upper { return }
    if let index, spans[index].upper < value, spans[index].upper &+ 1 == value {
      spans[index].upper = value
      if index + 1 < spans.count, value < spans[index + 1].lower, spans[index + 1].lower == value &+ 1 {
        spans[index].upper = spans[index + 1].upper
        spans.remove(at: index + 1)
      }
      return
    }
    let insertAt = (index ?? -1) + 1
    if insertAt < spans.count, value < spans[insertAt].lower, spans[insertAt].lower == value &+ 1 {
      spans[insertAt].lower = value
    } else {
      spans.insert(Span(lower: value, upper: value), at: insertAt)
    }
  }

  /// The index of the last span whose lower bound is ≤ `value`.
  @inlinable func lastSpan(startingAtOrBefore value: Int) -> Int? {
    var low = 0
    var high = spans.count
    while low < high {
      let middle = (low + high) / 2
      if spans[middle].lower <= value { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? nil : low - 1
  }
}
