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

/// The events of the log chunk a ``BinaryTraceReader`` is handing out (a sealed chunk's
/// are decoded one by one as they are read, see ``ChunkPayload``), in storage it manages
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

/// The payload of the sealed chunk a ``BinaryTraceReader`` is reading, copied out of
/// its read buffer. Copies of a reader share it and only read it; a reader that loads
/// the next chunk into a shared one makes its own first.
final class ChunkPayload {
  private var base: UnsafeMutableRawPointer
  private var capacity: Int
  /// The payload.
  private(set) var bytes: UnsafeRawBufferPointer

  init() {
    capacity = 0
    base = .allocate(byteCount: 1, alignment: 8)
    bytes = UnsafeRawBufferPointer(start: base, count: 0)
  }

  deinit { base.deallocate() }

  /// Holds a copy of `payload` instead.
  func replace(with payload: UnsafeRawBufferPointer) {
    if payload.count > capacity {
      base.deallocate()
      capacity = Swift.max(payload.count, 64 * 1024)
      base = .allocate(byteCount: capacity, alignment: 8)
    }
    if let source = payload.baseAddress { base.copyMemory(from: source, byteCount: payload.count) }
    bytes = UnsafeRawBufferPointer(start: base, count: payload.count)
  }
}
