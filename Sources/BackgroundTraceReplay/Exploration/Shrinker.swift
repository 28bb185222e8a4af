/// Shrinks a failing run's choice sequence, in the manner of Hypothesis (docs/guides/exploration.md): passes delete spans of choices (alone, or with a small
/// count before them lowered by one), zero spans, and lower each choice by binary
/// search, repeating until no pass makes progress.
///
/// A candidate is kept only when it still fails the same way, is smaller in shortlex
/// order (shorter, or as long and lexicographically smaller) than the best so far, and
/// its trace has no more events. The order is well founded, so shrinking ends; it uses
/// no randomness, so the same failing run always shrinks to the same choices.
struct Shrinker {
  /// A run of a candidate that still fails: the choices it actually drew (a replay pads
  /// with zeros and drops what it did not read) and its trace's event count.
  struct Attempt {
    var choices: [UInt64]
    var events: Int
  }

  /// Replays a candidate; `nil` when it does not fail the same way.
  let test: ([UInt64]) -> Attempt?
  private(set) var best: [UInt64]
  private(set) var bestEvents: Int
  /// Candidates replayed so far.
  private(set) var attempts = 0
  /// The most candidates to replay.
  let maximumAttempts: Int

  init(choices: [UInt64], events: Int, maximumAttempts: Int = 5_000, test: @escaping ([UInt64]) -> Attempt?) {
    best = choices
    bestEvents = events
    self.maximumAttempts = maximumAttempts
    self.test = test
  }

  /// Runs the passes until none makes progress or the attempts run out.
  mutating func shrink() {
    var progress = true
    while progress && attempts < maximumAttempts {
      progress = false
      if deleteSpans() { progress = true }
      if deleteSpansLoweringCounts() { progress = true }
      if zeroSpans() { progress = true }
      if lowerValues() { progress = true }
    }
  }

  /// Keeps `candidate` when it is smaller and still fails.
  private mutating func consider(_ candidate: [UInt64]) -> Bool {
    guard attempts < maximumAttempts, Self.isSmaller(candidate, than: best) else { return false }
    attempts += 1
    guard let attempt = test(candidate), attempt.events <= bestEvents, Self.isSmaller(attempt.choices, than: best)
    else { return false }
    best = attempt.choices
    bestEvents = attempt.events
    return true
  }

  /// Removes spans of 8, 4, 2 and 1 choices: fewer user actions, faults, sends.
  private mutating func deleteSpans() -> Bool {
    var progress = false
    for size in [8, 4, 2, 1] {
      var start = 0
      while start + size <= best.count {
        var candidate = best
        candidate.removeSubrange(start..<start + size)
        if consider(candidate) { progress = true } else { start += 1 }
      }
    }
    return progress
  }

  /// Removes a span and lowers a small choice before it by one: a count of user actions
  /// or faults and one of the items it counts go together.
  private mutating func deleteSpansLoweringCounts() -> Bool {
    var progress = false
    var count = 0
    while count < best.count {
      if (1...Self.largestCount).contains(best[count]) {
        for size in [8, 4, 2, 1] {
          var start = count + 1
          while start + size <= best.count, count < best.count, best[count] > 0 {
            var candidate = best
            candidate[count] -= 1
            candidate.removeSubrange(start..<start + size)
            if consider(candidate) { progress = true } else { start += 1 }
          }
        }
      }
      count += 1
    }
    return progress
  }

  /// The largest choice ``deleteSpansLoweringCounts()`` treats as a count.
  static let largestCount: UInt64 = 16

  /// Sets spans of 8, 4 and 2 choices to zero (the binary search lowers single ones): the simplest value of each.
  private mutating func zeroSpans() -> Bool {
    var progress = false
    for size in [8, 4, 2] {
      var start = 0
      while start + size <= best.count {
        if best[start..<start + size].contains(where: { $0 != 0 }) {
          var candidate = best
          for index in start..<start + size { candidate[index] = 0 }
          if consider(candidate) { progress = true }
        }
        start += 1
      }
    }
    return progress
  }

  /// Lowers each choice to the smallest value that still fails, by binary search:
  /// shorter durations, earlier moments.
  private mutating func lowerValues() -> Bool {
    var progress = false
    var index = 0
    while index < best.count {
      var low: UInt64 = 0
      var high = best[index]
      while low < high, index < best.count, attempts < maximumAttempts {
        let middle = low + (high - low) / 2
        var candidate = best
        candidate[index] = middle
        if consider(candidate) {
          progress = true
          high = index < best.count ? min(best[index], middle) : 0
        } else {
          low = middle + 1
        }
      }
      index += 1
    }
    return progress
  }

  /// Shortlex order: shorter first, then lexicographic.
  static func isSmaller(_ a: [UInt64], than b: [UInt64]) -> Bool {
    if a.count != b.count { return a.count < b.count }
    return a.lexicographicallyPrecedes(b)
  }
}
