/// What an ``OpenAddressingTable`` keeps in each slot, and how it finds one: the key's
/// stored form, its hash, its home slot and equality, and where the entry's value is.
/// ``IntKeyedSlot`` and ``StringKeyedSlot`` conform. The slot type, not the table, lays
/// the fields out, so that each kind of key keeps the layout that makes its slots small
/// (see the conforming types).
///
/// A slot is empty unless `occupied`.
public protocol OpenAddressingSlot {
  /// The key.
  associatedtype Key
  /// What the key's home slot is computed from, passed beside the key so that a caller
  /// computes it once for several lookups, and kept in the slot so that growing and
  /// deleting never compute it again. (Passed beside the key, not wrapped with it in a
  /// struct: building that struct from a borrowed string retains the string.) An `Int`
  /// key is its own hash.
  associatedtype Hash
  /// The value type of the tables whose slots these are (the slot holds none).
  associatedtype Value

  /// An empty slot.
  init()
  /// An occupied slot for `key`, whose value is the table's value number `value`.
  init(_ key: Key, _ hash: Hash, value: Int)

  /// Whether the slot holds an entry.
  var occupied: Bool { get }
  /// Where the entry's value is in the table's values.
  var value: Int { get set }
  /// The entry's key.
  var key: Key { get }
  /// The entry's key's hash.
  var hash: Hash { get }

  /// Empties the slot.
  mutating func vacate()

  /// Whether the slot holds the entry of `key`, whose hash is `hash` (it is occupied).
  func holds(_ key: Key, _ hash: Hash) -> Bool
  /// Where the slot's entry would start probing in a table of `mask + 1` slots, without
  /// hashing its key again where the slot keeps the hash.
  func home(mask: Int) -> Int
  /// Where a key whose hash is `hash` starts probing in a table of `mask + 1` slots.
  static func home(of hash: Hash, mask: Int) -> Int
  /// How many slots the table gets when its first entry is inserted (a power of two).
  static var initialCapacity: Int { get }
}

/// A map from keys to values by open addressing with linear probing, where `Dictionary`
/// runs its seeded SipHash over every key on every lookup: the machinery of
/// ``IntKeyedTable`` and ``StringKeyedTable``, which say how their keys hash (see
/// there, and docs/rules.md#how-the-checker-reads-a-trace).
///
/// The slots hold keys and where each value is; the values sit densely in an array of
/// their own (a removal moves the last value into the hole). So a value is changed in
/// place, as an array element, where a value kept in its slot as an optional was copied
/// out and back for every change, several times per `work.start` for a work's life of
/// some 200 bytes.
///
/// It offers the part of `Dictionary`'s interface the lifecycle walker's readers use.
/// Iteration order is the slots', deterministic but unspecified: readers that need an
/// order sort the keys.
///
/// Public and inlinable, so that the checker's module specializes it for each slot type
/// and the protocol costs no calls through witness tables (a `package` generic is not
/// specialized in another module, even when `@inlinable`); this module is in no product.
public struct OpenAddressingTable<Slot: OpenAddressingSlot>: Sequence {
  /// The value type.
  public typealias Value = Slot.Value

  /// A power of two in length once the first entry is inserted, at most 3/4 full.
  @usableFromInline var slots: [Slot] = []
  /// The values, in no order, each with its slot: `slots[entries[n].slot].value == n`.
  @usableFromInline var entries: [Entry] = []

  /// A value and the slot that holds its key.
  @usableFromInline
  struct Entry {
    @usableFromInline var value: Value
    @usableFromInline var slot: Int

    @inlinable init(value: Value, slot: Int) {
      self.value = value
      self.slot = slot
    }
  }

  /// Creates an empty table.
  @inlinable public init() {}

  /// How many entries the table holds.
  @inlinable public var count: Int { entries.count }

  /// Whether the table is empty.
  @inlinable public var isEmpty: Bool { entries.isEmpty }

  /// The keys, in the table's order.
  @inlinable public var keys: [Slot.Key] {
    // Not `map(\.key)`: a key path into a generic type is instantiated at run time on
    // every call.
    slots.filter { $0.occupied }.map { $0.key }
  }

  /// The values, in the table's order.
  @inlinable public var values: [Value] { slots.filter { $0.occupied }.map { entries[$0.value].value } }

  /// The slot holding `key`, whose hash is `hash`, or the empty slot where it would go.
  /// It reads the slots in place, through the buffer.
  @inlinable @inline(__always)
  func probe(_ key: Slot.Key, _ hash: Slot.Hash) -> (slot: Int, found: Bool) {
    slots.withUnsafeBufferPointer { slots in
      let mask = slots.count &- 1
      var slot = Slot.home(of: hash, mask: mask)
      while slots[slot].occupied {
        if slots[slot].holds(key, hash) { return (slot, true) }
        slot = (slot &+ 1) & mask
      }
      return (slot, false)
    }
  }

  /// The value for `key`, whose hash is `hash`.
  @inlinable @inline(__always)
  public func value(for key: Slot.Key, _ hash: Slot.Hash) -> Value? {
    guard !entries.isEmpty else { return nil }
    let (slot, found) = probe(key, hash)
    return found ? entries[slots[slot].value].value : nil
  }

  /// Sets the value of `key`, whose hash is `hash`, adding the entry when there is none;
  /// `nil` removes it.
  @inlinable @inline(__always)
  public mutating func set(_ value: Value?, for key: Slot.Key, _ hash: Slot.Hash) {
    if let value {
      insert(value, for: key, hash)
    } else {
      remove(key, hash)
    }
  }

  /// Where `key`, whose hash is `hash`, has its value: for reading and changing it in
  /// place with ``update(at:_:)``. Valid until the next insertion or removal. The
  /// values' indices are `0..<count`.
  @inlinable @inline(__always)
  public func index(of key: Slot.Key, _ hash: Slot.Hash) -> Int? {
    guard !entries.isEmpty else { return nil }
    let (slot, found) = probe(key, hash)
    return found ? slots[slot].value : nil
  }

  /// Calls `body` with the value at `index`, from ``index(of:_:)``, in place, and
  /// returns what it returns. Reading a large value's fields here copies nothing, where
  /// reading them through a subscript copies the whole entry out of the array for each.
  @inlinable @inline(__always)
  public mutating func update<Result>(at index: Int, _ body: (inout Value) throws -> Result) rethrows -> Result {
    try body(&entries[index].value)
  }

  /// Sets the value of `key`, whose hash is `hash`, adding the entry when there is none.
  /// (Setting through a subscript wraps the value in an optional and unwraps it again: a
  /// copy.)
  @inlinable @inline(__always)
  public mutating func insert(_ value: consuming Value, for key: Slot.Key, _ hash: Slot.Hash) {
    if (entries.count &+ 1) &* 4 > slots.count &* 3 { grow() }
    let (slot, found) = probe(key, hash)
    if found {
      entries[slots[slot].value].value = value
    } else {
      slots[slot] = Slot(key, hash, value: entries.count)
      entries.append(Entry(value: value, slot: slot))
    }
  }

  /// Removes the entry of `key`, whose hash is `hash`, and returns its value.
  @discardableResult
  @inlinable public mutating func remove(_ key: Slot.Key, _ hash: Slot.Hash) -> Value? {
    guard !entries.isEmpty else { return nil }
    let (slot, found) = probe(key, hash)
    guard found else { return nil }
    return removeEntry(at: slots[slot].value).value
  }

  /// Removes the entry whose value is at `index`, from ``index(of:_:)``, destroying its
  /// value where it is: for a caller that read it in place and needs no copy of it.
  @inlinable public mutating func remove(at index: Int) {
    let slot = entries[index].slot
    // The last value moves into the removed one's place, which destroys the removed
    // value: one move of a value, where swapping the two and removing the last took
    // four (a work's life is over 200 bytes).
    let last = entries.count - 1
    if index != last {
      entries[index] = entries.removeLast()
      slots[entries[index].slot].value = index
    } else {
      entries.removeLast()
    }
    vacate(slot)
  }

  /// Removes the entry whose value is at `index` and returns it.
  @inlinable @inline(__always)
  mutating func removeEntry(at index: Int) -> Entry {
    // The last value moves into the removed one's place.
    let last = entries.count - 1
    if index != last {
      entries.swapAt(index, last)
      slots[entries[index].slot].value = index
    }
    let removed = entries.removeLast()
    vacate(removed.slot)
    return removed
  }

  /// Empties `slot`, whose entry was removed, and closes the gap in its probe run.
  @inlinable @inline(__always)
  mutating func vacate(_ slot: Int) {
    // One uniqueness check for the whole removal, not one per slot written.
    slots.withUnsafeMutableBufferPointer { slots in
      var hole = slot
      slots[hole].vacate()
      // Backward-shift deletion: move later entries of the probe run into the hole, so
      // that no lookup stops early and no tombstones accumulate.
      let mask = slots.count - 1
      var next = (hole + 1) & mask
      while slots[next].occupied {
        if !staysInProbeRun(home: slots[next].home(mask: mask), at: next, after: hole) {
          slots.swapAt(hole, next)
          entries[slots[hole].value].slot = hole
          hole = next
        }
        next = (next + 1) & mask
      }
    }
  }

  /// Removes every entry, keeping the storage.
  @inlinable public mutating func removeAll() {
    guard !entries.isEmpty else { return }
    for entry in entries { slots[entry.slot].vacate() }
    entries.removeAll(keepingCapacity: true)
  }

  @inlinable mutating func grow() {
    let old = slots
    slots = Array(repeating: Slot(), count: Swift.max(Slot.initialCapacity, old.count * 2))
    let mask = slots.count - 1
    for entry in old where entry.occupied {
      var slot = entry.home(mask: mask)
      while slots[slot].occupied { slot = (slot + 1) & mask }
      slots[slot] = entry
      entries[entry.value].slot = slot
    }
  }

  /// The entries, in the table's order.
  @inlinable public func makeIterator() -> Iterator { Iterator(slots: slots, entries: entries) }

  /// Walks the table's slots.
  public struct Iterator: IteratorProtocol {
    @usableFromInline let slots: [Slot]
    @usableFromInline let entries: [Entry]
    @usableFromInline var slot = 0

    @inlinable init(slots: [Slot], entries: [Entry]) {
      self.slots = slots
      self.entries = entries
    }

    /// The next entry.
    @inlinable public mutating func next() -> (key: Slot.Key, value: Value)? {
      while slot < slots.count {
        defer { slot += 1 }
        if slots[slot].occupied { return (slots[slot].key, entries[slots[slot].value].value) }
      }
      return nil
    }
  }
}

extension OpenAddressingTable: Sendable where Slot: Sendable, Slot.Value: Sendable {}
extension OpenAddressingTable.Entry: Sendable where Slot.Value: Sendable {}

/// Whether an entry at slot `slot`, whose probe starts at `home`, must stay where it is
/// when `hole`, before it in its probe run, empties: true when its home lies cyclically
/// in (hole, slot], where moving it into the hole would put it before its home. The
/// backward-shift deletion of ``OpenAddressingTable`` and ``OpenTaskTable`` moves every
/// entry for which it is false into the hole.
@inlinable @inline(__always)
public func staysInProbeRun(home: Int, at slot: Int, after hole: Int) -> Bool {
  hole <= slot ? (hole < home && home <= slot) : (hole < home || home <= slot)
}

/// Not Sendable: an iterator is a local walk over one table.
@available(*, unavailable)
extension OpenAddressingTable.Iterator: Sendable {}
