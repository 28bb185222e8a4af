import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The in-memory recorder's per-thread event buffers: each thread appends to its own
/// ``Shard`` without touching another thread's memory, so threads record in
/// parallel; ``merged()`` interleaves the shards by time.
///
/// A thread finds its shard through a thread-local slot that remembers the last
/// recorder it used (``cached(forRecorder:)``); only the first event of a thread (or
/// after it switched recorders) takes the registry's lock (``register()``).
final class RecorderShards: Sendable {
  private static let nextID = Atomic<UInt64>(1)

  /// Distinguishes this recorder in threads' slots (never reused, unlike an address).
  let id: UInt64
  private let registry = PthreadLocked<[(thread: pthread_t, shard: Shard)]>([])

  init() {
    id = Self.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  // Threads' slots may keep a shard after its recorder is gone (until the thread
  // records elsewhere or exits): empty the shards so that costs no events' memory.
  deinit {
    for shard in all { shard.withLock { $0 = Shard.State() } }
  }

  /// The calling thread's shard in the recorder whose shards' ``id`` is `id`, when the
  /// thread's slot remembers it (+0: the slot and the registry keep it alive).
  ///
  /// A static lookup by id, so the hot path touches no shared object: retaining the
  /// `RecorderShards` on every event would write its reference count from every
  /// recording thread, and the threads would fight over that cache line.
  @inline(__always)
  static func cached(forRecorder id: UInt64) -> Unmanaged<Shard>? {
    guard let raw = pthread_getspecific(threadSlotKey) else { return nil }
    let slot = raw.assumingMemoryBound(to: ThreadSlot.self)
    return slot.pointee.recorderID == id ? slot.pointee.shard : nil
  }

  /// Finds or creates the calling thread's shard and remembers it in the thread's slot
  /// (+0: the thread's slot and the registry keep it alive).
  func register() -> Unmanaged<Shard> {
    let thread = pthread_self()
    let shard = registry.withLock { shards in
      if let found = shards.first(where: { pthread_equal($0.thread, thread) != 0 }) { return found.shard }
      let shard = Shard()
      shards.append((thread, shard))
      return shard
    }
    let slot: UnsafeMutablePointer<ThreadSlot>
    if let raw = pthread_getspecific(threadSlotKey) {
      slot = raw.assumingMemoryBound(to: ThreadSlot.self)
      slot.pointee.shard?.release()
    } else {
      slot = .allocate(capacity: 1)
      slot.initialize(to: ThreadSlot())
      pthread_setspecific(threadSlotKey, slot)
    }
    slot.pointee = ThreadSlot(recorderID: id, shard: Unmanaged.passRetained(shard))
    return slot.pointee.shard!
  }

  /// Every shard, in the order threads first recorded.
  var all: [Shard] { registry.withLock { $0.map(\.shard) } }

  /// The events of every shard, interleaved by time; a shard's own events keep their
  /// order, and at equal times an earlier-registered shard's event comes first.
  func merged() -> [TraceEvent] {
    let lists = all.map { shard in shard.withLock { $0.allEvents } }
    if lists.count == 1 { return lists[0] }
    var result: [TraceEvent] = []
    result.reserveCapacity(lists.reduce(0) { $0 + $1.count })
    var heads = [Int](repeating: 0, count: lists.count)
    while true {
      var best = -1
      var bestTime = UInt64.max
      for index in lists.indices where heads[index] < lists[index].count {
        let time = lists[index][heads[index]].time.nanoseconds
        if best < 0 || time < bestTime {
          best = index
          bestTime = time
        }
      }
      guard best >= 0 else { return result }
      result.append(lists[best][heads[best]])
      heads[best] += 1
    }
  }
}

/// One thread's events, guarded by a spin lock that only its own thread takes while
/// recording (others take it to read), so the lock is nearly always free: one atomic
/// compare-and-exchange and one store per event.
final class Shard: @unchecked Sendable {
  /// The events in blocks (growing to a fixed capacity), so that a long recording never
  /// copies what it has recorded to grow its storage.
  struct State {
    static let blockSize = 8_192
    var blocks: [[TraceEvent]] = []
    var block: [TraceEvent] = []
    var count = 0
    var lastTime: UInt64 = 0

    @inline(__always)
    mutating func append(_ event: TraceEvent) {
      if block.count == block.capacity {
        if !block.isEmpty { blocks.append(block) }
        block = []
        // Small at first (a short recording takes little memory), then whole blocks.
        block.reserveCapacity(min(Self.blockSize, max(64, count)))
      }
      block.append(event)
      count += 1
    }

    /// Every event, in recording order.
    var allEvents: [TraceEvent] {
      var events: [TraceEvent] = []
      events.reserveCapacity(count)
      for full in blocks { events += full }
      events += block
      return events
    }
  }

  // The lock and the state pointer get a cache line of their own: two threads' shards
  // may be allocated side by side.
  private let padding0: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
  private let busy = Atomic<Bool>(false)
  private let state: UnsafeMutablePointer<State>
  private let padding1: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

  init() {
    // The state's own allocation is a whole cache line's pair, for the same reason.
    state = UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 128).bindMemory(to: State.self, capacity: 1)
    precondition(MemoryLayout<State>.size <= 128)
    state.initialize(to: State())
  }

  deinit {
    state.deinitialize(count: 1)
    UnsafeMutableRawPointer(state).deallocate()
  }

  @inline(__always)
  func withLock<Result>(_ body: (inout State) -> Result) -> Result {
    while !busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
      sched_yield()  // a reader holds it for the copy of the events
    }
    defer { busy.store(false, ordering: .releasing) }
    return body(&state.pointee)
  }
}

/// A thread's cached shard: the last recorder it recorded into, and its shard there.
struct ThreadSlot {
  var recorderID: UInt64 = 0
  /// Retained; released when the thread records into another recorder or exits.
  var shard: Unmanaged<Shard>?
}

/// The key of every thread's ``ThreadSlot``; its destructor frees the slot at thread exit.
let threadSlotKey: pthread_key_t = {
  var key = pthread_key_t()
  let status = pthread_key_create(&key) { raw in
    guard let raw else { return }
    let slot = raw.assumingMemoryBound(to: ThreadSlot.self)
    slot.pointee.shard?.release()
    slot.deinitialize(count: 1)
    slot.deallocate()
  }
  precondition(status == 0, "pthread_key_create failed: \(status)")
  return key
}()
