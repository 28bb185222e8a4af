import BackgroundTrace

/// The checker's pending deadlines: a min-heap, earliest first, ties in insertion order
/// (as `DeadlineQueue`, the simulation's timer queue, orders them).
///
/// The checker keeps a heap of its own because a `package` generic from another module
/// is not specialized here, even when `@inlinable` (Swift 6.3): the shared queue's
/// unspecialized calls looked up generic metadata at every deadline, 6% of the checker's
/// time per event (perf on bgtrace-bench, "checker cost"). Within this module the heap
/// is specialized for the checker's deadlines.
struct DeadlineHeap<Payload: Sendable>: Sendable {
  private struct Entry: Sendable {
    var time: TraceTime
    var sequence: UInt64
    var payload: Payload
  }

  private var heap: [Entry] = []
  private var sequence: UInt64 = 0

  /// The earliest deadline's time.
  var firstTime: TraceTime? { heap.first?.time }

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
  ///
  /// - Complexity: O(log *n*).
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
