import BackgroundTrace

/// A min-heap of deadlines, earliest first, ties in insertion order, so findings that
/// a passing deadline produces come out in a defined order.
///
/// Entries are not removed when what they watch ends; the checker checks an entry's
/// validity when it comes due. Entries live at most as long as their deadline, so the
/// heap holds what is alive plus what ended within the longest deadline.
struct DeadlineQueue<Payload: Sendable>: Sendable {
  private struct Entry: Sendable {
    var time: TraceTime
    var sequence: UInt64
    var payload: Payload
  }

  private var heap: [Entry] = []
  private var sequence: UInt64 = 0

  var isEmpty: Bool { heap.isEmpty }
  var count: Int { heap.count }

  /// Adds a deadline.
  ///
  /// - Complexity: O(log *n*).
  mutating func insert(_ payload: Payload, at time: TraceTime) {
    heap.append(Entry(time: time, sequence: sequence, payload: payload))
    sequence += 1
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard Self.precedes(heap[child], heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  /// Removes and returns the earliest deadline if it is strictly before `time`.
  ///
  /// Deadlines are inclusive: something due at exactly `time` is still on time.
  mutating func popPassed(before time: TraceTime) -> (time: TraceTime, payload: Payload)? {
    guard let first = heap.first, first.time < time else { return nil }
    let last = heap.removeLast()
    if !heap.isEmpty {
      heap[0] = last
      var parent = 0
      while true {
        let left = 2 * parent + 1
        let right = left + 1
        var smallest = parent
        if left < heap.count, Self.precedes(heap[left], heap[smallest]) { smallest = left }
        if right < heap.count, Self.precedes(heap[right], heap[smallest]) { smallest = right }
        if smallest == parent { break }
        heap.swapAt(parent, smallest)
        parent = smallest
      }
    }
    return (first.time, first.payload)
  }

  private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
    a.time < b.time || (a.time == b.time && a.sequence < b.sequence)
  }
}
