/// A min-heap of deadlines, earliest first, ties in insertion order: the checker's
/// pending deadlines and the simulation's timers, so both fire in a defined order.
///
/// Entries are not removed when what they watch ends; their owner checks an entry's
/// validity (or a cancelled set) when it comes due.
///
/// Public and inlinable, so that the checker's and the simulation's modules specialize
/// it for their times and payloads (a `package` generic is not specialized in another
/// module, even when `@inlinable`); this module is in no product.
public struct DeadlineQueue<Time: Comparable & Sendable, Payload: Sendable>: Sendable {
  @usableFromInline
  struct Entry: Sendable {
    @usableFromInline var time: Time
    @usableFromInline var sequence: UInt64
    @usableFromInline var payload: Payload

    @inlinable
    init(time: Time, sequence: UInt64, payload: Payload) {
      self.time = time
      self.sequence = sequence
      self.payload = payload
    }
  }

  @usableFromInline var heap: [Entry] = []
  /// Sequence numbers of ordinary entries; those of entries put ahead count up from 0,
  /// below every ordinary one.
  @usableFromInline var sequence: UInt64 = 1 << 62
  @usableFromInline var aheadSequence: UInt64 = 0

  /// An empty queue.
  @inlinable public init() {}

  /// Whether the queue holds no deadline.
  @inlinable public var isEmpty: Bool { heap.isEmpty }

  /// The earliest deadline's time.
  @inlinable public var firstTime: Time? { heap.first?.time }

  /// The earliest deadline's sequence number.
  @inlinable public var firstSequence: UInt64? { heap.first?.sequence }

  /// Removes the earliest entry.
  @inlinable public mutating func removeFirst() {
    if !heap.isEmpty { _ = popFirst() }
  }

  /// Adds a deadline.
  ///
  /// - Returns: its sequence number, unique in this queue (for cancelling).
  /// - Complexity: O(log *n*).
  @discardableResult
  @inlinable public mutating func insert(_ payload: Payload, at time: Time) -> UInt64 {
    defer { sequence += 1 }
    return push(payload, at: time, sequence: sequence)
  }

  /// Adds a deadline that comes before every ordinary entry at the same time (entries
  /// put ahead keep their own insertion order).
  ///
  /// - Returns: its sequence number, unique in this queue (for cancelling).
  /// - Complexity: O(log *n*).
  @discardableResult
  @inlinable public mutating func insertAhead(_ payload: Payload, at time: Time) -> UInt64 {
    defer { aheadSequence += 1 }
    return push(payload, at: time, sequence: aheadSequence)
  }

  /// Adds an entry with sequence number `sequence` and returns it.
  @inlinable mutating func push(_ payload: Payload, at time: Time, sequence: UInt64) -> UInt64 {
    heap.append(Entry(time: time, sequence: sequence, payload: payload))
    siftUp()
    return sequence
  }

  @inlinable mutating func siftUp() {
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
  @inlinable public mutating func popPassed(before time: Time) -> (time: Time, payload: Payload)? {
    guard let first = heap.first, first.time < time else { return nil }
    return popFirst()
  }

  /// Removes and returns the earliest entry if it is due at or before `time`.
  @inlinable public mutating func popDue(atOrBefore time: Time) -> (
    time: Time, sequence: UInt64, payload: Payload
  )? {
    guard let first = heap.first, first.time <= time else { return nil }
    let (time, payload) = popFirst()
    return (time, first.sequence, payload)
  }

  @inlinable mutating func popFirst() -> (time: Time, payload: Payload) {
    let first = heap[0]
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

  @inlinable static func precedes(_ a: Entry, _ b: Entry) -> Bool {
    a.time < b.time || (a.time == b.time && a.sequence < b.sequence)
  }
}
