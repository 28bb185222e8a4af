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
  private let registry = Locked<[(thread: pthread_t, shard: Shard)]>([])

  init() {
    id = Self.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  // Threads' slots may keep a shard after its recorder is gone (until the thread
  // records elsewhere or exits): empty the shards so that costs no events' memory.
  deinit {
    for shard in all { shard.removeAll() }
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
      if let found = shards.first(where: { pthread_equal($0.thread, thread) != 0 }) {
        found.shard.takeOver()  // an exited thread's, whose id this thread reuses
        return found.shard
      }
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
    let lists = all.map(\.allEvents)
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

/// One thread's events, appended by that thread alone with no lock: each event is
/// written into a block of fixed capacity, then published by one release store of the
/// count, so a reader (``allEvents``, ``count``) that loads the count with acquire
/// ordering sees every event it counts, fully written. Blocks never move; a full block
/// is followed by a new one, linked before the count that includes its first event is
/// published.
final class Shard: @unchecked Sendable {
  /// A block of events; `next` holds the following block, retained, once there is one.
  private final class Block {
    let events: UnsafeMutablePointer<TraceEvent>
    let capacity: Int
    let next = Atomic<UInt>(0)

    init(capacity: Int) {
      self.capacity = capacity
      events = .allocate(capacity: capacity)
    }

    /// The following block, if linked.
    var following: Block? {
      let bits = next.load(ordering: .acquiring)
      guard bits != 0 else { return nil }
      return Unmanaged<Block>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
    }
  }

  /// The largest block: a long recording never copies what it recorded to grow.
  static let blockSize = 8_192

  // The recording thread's own state, on a cache line of its own: two threads' shards
  // may be allocated side by side. Only that thread touches it (never concurrently, so
  // without dynamic exclusivity checks).
  private let padding0: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
  @exclusivity(unchecked) private var tail: Unmanaged<Block>
  @exclusivity(unchecked) private var tailEvents: UnsafeMutablePointer<TraceEvent>
  @exclusivity(unchecked) private var tailCapacity: Int
  @exclusivity(unchecked) private var tailCount = 0
  @exclusivity(unchecked) private var ownCount = 0
  @exclusivity(unchecked) private var ownLastTime: UInt64 = 0
  /// The events published: the count readers load.
  private let published = Atomic<Int>(0)
  /// The last event's time, for other threads' reads (relaxed: a hint, as a later event
  /// may come any moment).
  private let publishedLastTime = Atomic<UInt64>(0)
  private let padding1: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
  private let head: Block

  init() {
    // Small at first (a short recording takes little memory), then whole blocks.
    head = Block(capacity: 64)
    tail = Unmanaged.passUnretained(head)
    tailEvents = head.events
    tailCapacity = head.capacity
  }

  deinit {
    freeEvents()
    head.events.deallocate()
  }

  /// Deinitializes every published event and frees every block but the head, whose
  /// events' memory stays allocated. No thread may append meanwhile.
  private func freeEvents() {
    var remaining = published.load(ordering: .acquiring)
    var current = head
    while true {
      let initialized = min(remaining, current.capacity)
      current.events.deinitialize(count: initialized)
      remaining -= initialized
      if current !== head { current.events.deallocate() }
      let bits = current.next.load(ordering: .acquiring)
      guard bits != 0 else { break }
      // Takes over the link's retain: the block is released once `current` moves on.
      current = Unmanaged<Block>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeRetainedValue()
    }
  }

  /// Drops every event, when the shard's recorder is gone and no thread records into it
  /// any more (its thread's slot may keep the shard until the thread records elsewhere
  /// or exits; the events' memory is freed now).
  func removeAll() {
    freeEvents()
    head.next.store(0, ordering: .relaxed)
    tail = Unmanaged.passUnretained(head)
    tailEvents = head.events
    tailCapacity = head.capacity
    tailCount = 0
    ownCount = 0
    published.store(0, ordering: .releasing)
  }

  /// Appends an event of kind `kind` at `nanoseconds`, raised to the last event's time
  /// (and capped at ``TraceTime/max``) so that times never decrease. Only the shard's
  /// thread calls it.
  @inline(__always)
  func append(_ kind: consuming TraceEvent.Kind, at nanoseconds: UInt64) {
    let time = max(min(nanoseconds, TraceTime.max.nanoseconds), ownLastTime)
    ownLastTime = time
    if tailCount == tailCapacity { grow() }
    (tailEvents + tailCount).initialize(to: TraceEvent(time: TraceTime(nanoseconds: time), kind))
    tailCount += 1
    ownCount += 1
    published.store(ownCount, ordering: .releasing)
    publishedLastTime.store(time, ordering: .relaxed)
  }

  /// Links a new block after the full `block` and makes it the tail.
  @inline(never)
  private func grow() {
    let next = Block(capacity: min(Self.blockSize, max(64, ownCount)))
    let retained = Unmanaged.passRetained(next)
    tail._withUnsafeGuaranteedRef { $0.next.store(UInt(bitPattern: retained.toOpaque()), ordering: .releasing) }
    tail = retained
    tailEvents = next.events
    tailCapacity = next.capacity
    tailCount = 0
  }

  /// Events published so far.
  var count: Int { published.load(ordering: .acquiring) }

  /// The last published event's time (0 before the first).
  var lastTime: UInt64 { publishedLastTime.load(ordering: .relaxed) }

  /// Every published event, in recording order.
  var allEvents: [TraceEvent] {
    var remaining = published.load(ordering: .acquiring)
    var events: [TraceEvent] = []
    events.reserveCapacity(remaining)
    var block: Block? = head
    while let current = block, remaining > 0 {
      let taken = min(remaining, current.capacity)
      events.append(contentsOf: UnsafeBufferPointer(start: current.events, count: taken))
      remaining -= taken
      block = current.following
    }
    return events
  }

  /// Orders the recording thread's writes before a later thread's that takes the shard
  /// over (a thread that reuses an exited thread's `pthread_t`): the exiting thread
  /// calls this, and ``takeOver()`` pairs with it.
  func handOff() {
    published.store(published.load(ordering: .relaxed), ordering: .releasing)
  }

  /// See ``handOff()``.
  func takeOver() {
    _ = published.load(ordering: .acquiring)
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
    if let shard = slot.pointee.shard {
      shard._withUnsafeGuaranteedRef { $0.handOff() }
      shard.release()
    }
    slot.deinitialize(count: 1)
    slot.deallocate()
  }
  precondition(status == 0, "pthread_key_create failed: \(status)")
  return key
}()
