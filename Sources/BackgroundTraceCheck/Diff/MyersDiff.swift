/// The shortest edit script between two sequences (Myers, "An O(ND) Difference
/// Algorithm and Its Variations", 1986), after trimming the common prefix and suffix.
///
/// Golden traces usually differ in a few places, so *D* is small. Past `maximumEdits`
/// the middle is reported as one replacement rather than searched further, which
/// bounds time and memory (O(*D*²)) on traces that have nothing in common.
enum MyersDiff {
  /// One step of an edit script.
  enum Edit: Equatable {
    /// The element at these positions is the same in both sequences.
    case keep(old: Int, new: Int)
    /// The element at `old` is only in the old sequence.
    case delete(old: Int)
    /// The element at `new` is only in the new sequence.
    case insert(new: Int)
  }

  static func edits(oldCount: Int, newCount: Int, maximumEdits: Int = 4_000, equal: (Int, Int) -> Bool) -> [Edit] {
    var prefix = 0
    while prefix < oldCount && prefix < newCount && equal(prefix, prefix) { prefix += 1 }
    var suffix = 0
    while suffix < oldCount - prefix && suffix < newCount - prefix
      && equal(oldCount - 1 - suffix, newCount - 1 - suffix)
    {
      suffix += 1
    }
    var script = (0..<prefix).map { Edit.keep(old: $0, new: $0) }
    let middle = middleEdits(
      oldRange: prefix..<(oldCount - suffix), newRange: prefix..<(newCount - suffix), maximumEdits: maximumEdits,
      equal: equal)
    script.append(contentsOf: middle)
    script.append(contentsOf: (0..<suffix).map { Edit.keep(old: oldCount - suffix + $0, new: newCount - suffix + $0) })
    return script
  }

  private static func middleEdits(
    oldRange: Range<Int>, newRange: Range<Int>, maximumEdits: Int, equal: (Int, Int) -> Bool
  ) -> [Edit] {
    let n = oldRange.count
    let m = newRange.count
    if n == 0 || m == 0 {
      return oldRange.map { .delete(old: $0) } + newRange.map { .insert(new: $0) }
    }
    let offset = n + m
    var v = [Int](repeating: 0, count: 2 * offset + 2)
    var history: [[Int]] = []
    var found = false
    outer: for d in 0...min(n + m, maximumEdits) {
      history.append(Array(v[(offset - d)...(offset + d + 1)]))
      for k in stride(from: -d, through: d, by: 2) {
        var x =
          (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
          ? v[offset + k + 1] : v[offset + k - 1] + 1
        var y = x - k
        while x < n && y < m && equal(oldRange.lowerBound + x, newRange.lowerBound + y) {
          x += 1
          y += 1
        }
        v[offset + k] = x
        if x >= n && y >= m {
          found = true
          break outer
        }
      }
    }
    guard found else {
      return oldRange.map { .delete(old: $0) } + newRange.map { .insert(new: $0) }
    }
    // Walk back through the saved frontiers to recover the path.
    var script: [Edit] = []
    var x = n
    var y = m
    for d in stride(from: history.count - 1, through: 0, by: -1) {
      let saved = history[d]  // v before step d, indices -d…d+1 shifted by d
      func value(_ k: Int) -> Int { saved[k + d] }
      let k = x - y
      let previousK: Int
      if d == 0 {
        previousK = 0
      } else if k == -d || (k != d && value(k - 1) < value(k + 1)) {
        previousK = k + 1
      } else {
        previousK = k - 1
      }
      let previousX = d == 0 ? 0 : value(previousK)
      let previousY = previousX - previousK
      while x > previousX && y > previousY {
        x -= 1
        y -= 1
        script.append(.keep(old: oldRange.lowerBound + x, new: newRange.lowerBound + y))
      }
      if d > 0 {
        if x == previousX {
          y -= 1
          script.append(.insert(new: newRange.lowerBound + y))
        } else {
          x -= 1
          script.append(.delete(old: oldRange.lowerBound + x))
        }
      }
    }
    return script.reversed()
  }
}
