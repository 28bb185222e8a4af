/// Where decoded events go: an array, or the reader's ``ChunkEvents``.
protocol DecodedEventSink {
  var count: Int { get }
  mutating func reserveCapacity(_ minimumCapacity: Int)
  mutating func append(_ event: TraceEvent)
  /// Removes the events from `start` on (the ones a failed decode appended).
  mutating func removeAppended(from start: Int)
}

extension Array: DecodedEventSink where Element == TraceEvent {
  mutating func removeAppended(from start: Int) { removeSubrange(start...) }
}

/// The events of the chunk a ``BinaryTraceReader`` is handing out, in storage it manages
/// itself: an event is moved out as it is read, and the ones already read are never
/// touched again, where an array would need a placeholder in each slot read and a
/// generic destroy of every placeholder per chunk — a fifth of the streaming decoder's
/// time per event (bgtrace-bench, `--profile-decode`).
///
/// Slots `0..<consumed` were moved out; `consumed..<count` hold events. A reader that
/// shares its instance with a copy of itself copies it before reading
/// (``BinaryTraceReader/next()``), so a copied reader stays a value.
final class ChunkEvents: DecodedEventSink {
  private var base: UnsafeMutablePointer<TraceEvent>
  private var capacity: Int
  private(set) var count = 0
  private(set) var consumed = 0

  init(capacity: Int = 0) {
    self.capacity = capacity
    base = .allocate(capacity: Swift.max(capacity, 1))
  }

  deinit {
    (base + consumed).deinitialize(count: count - consumed)
    base.deallocate()
  }

  var isEmpty: Bool { count == 0 }

  /// The last event decoded, if it was not read yet.
  var last: TraceEvent? { count > consumed ? base[count - 1] : nil }

  /// Drops every event not yet read and starts empty.
  func removeAll() {
    (base + consumed).deinitialize(count: count - consumed)
    count = 0
    consumed = 0
  }

  func reserveCapacity(_ minimumCapacity: Int) {
    guard minimumCapacity > capacity else { return }
    let grown = UnsafeMutablePointer<TraceEvent>.allocate(capacity: minimumCapacity)
    (grown + consumed).moveInitialize(from: base + consumed, count: count - consumed)
    base.deallocate()
    base = grown
    capacity = minimumCapacity
  }

  func append(_ event: TraceEvent) {
    if count == capacity { reserveCapacity(Swift.max(16, capacity * 2)) }
    (base + count).initialize(to: event)
    count += 1
  }

  func removeAppended(from start: Int) {
    precondition(start >= consumed && start <= count)
    (base + start).deinitialize(count: count - start)
    count = start
  }

  /// Moves out the next event not yet read.
  @inline(__always)
  func take() -> TraceEvent {
    precondition(consumed < count)
    defer { consumed += 1 }
    return (base + consumed).move()
  }

  /// A copy holding the events not yet read, at the same positions.
  func copy() -> ChunkEvents {
    let copy = ChunkEvents(capacity: capacity)
    (copy.base + consumed).initialize(from: base + consumed, count: count - consumed)
    copy.count = count
    copy.consumed = consumed
    return copy
  }
}
