/// A map from identifiers (work ids, scheduler identifiers) to values: open addressing
/// with linear probing, keyed by ``StableHash`` of the identifier's UTF-8 bytes, where
/// `Dictionary` runs its seeded SipHash over every key on every lookup — an eighth of
/// the checker's time per event (bgtrace-bench, "checker cost").
///
/// Each slot keeps its key's hash, so growing and deleting never hash a string again,
/// and a lookup compares strings only when the hashes agree. A caller that looks one
/// identifier up in several tables hashes it once and passes the ``StableHash``.
///
/// It offers the part of `Dictionary`'s interface the lifecycle walker's readers use.
/// Iteration order is the table's, deterministic but unspecified: readers that need an
/// order sort the keys.
package struct StringKeyedTable<Value>: Sequence {
  /// A slot: empty unless `occupied`, when `value` is `nil`. (Probing tests the flag, not
  /// the optional: testing a generic optional for `nil` called a value witness.)
  fileprivate struct Slot {
    var hash = StableHash.zero
    var occupied = false
    var key = ""
    var value: Value?
  }

  /// A power of two in length once the first entry is inserted, at most 3/4 full.
  private var slots: [Slot] = []
  package private(set) var count = 0

  /// Creates an empty table.
  package init() {}

  /// Whether the table is empty.
  package var isEmpty: Bool { count == 0 }

  /// The keys, in the table's order.
  package var keys: [String] { slots.filter { $0.occupied }.map { $0.key } }

  /// The values, in the table's order.
  package var values: [Value] { slots.compactMap { $0.value } }

  /// The slot holding `key`, or the empty slot where it would go.
  @inline(__always)
  private func probe(_ key: String, _ hash: StableHash) -> (slot: Int, found: Bool) {
    let mask = slots.count - 1
    var slot = hash.home(mask: mask)
    while slots[slot].occupied {
      if slots[slot].hash == hash && slots[slot].key == key { return (slot, true) }
      slot = (slot + 1) & mask
    }
    return (slot, false)
  }

  /// The value for `key`; setting `nil` removes it.
  package subscript(key: String) -> Value? {
    get { self[key, StableHash(key)] }
    set { self[key, StableHash(key)] = newValue }
  }

  /// The value for `key`, whose hash is `hash`; setting `nil` removes it.
  package subscript(key: String, hash: StableHash) -> Value? {
    get {
      guard count > 0 else { return nil }
      let (slot, found) = probe(key, hash)
      return found ? slots[slot].value : nil
    }
    set {
      if let newValue {
        insert(newValue, for: key, hash)
      } else {
        removeValue(forKey: key, hash)
      }
    }
  }

  /// Where `key`, whose hash is `hash`, has its entry: for reading and changing the
  /// value in place with ``subscript(at:)``, without copying it out and back. Valid until
  /// the next insertion or removal.
  package func index(forKey key: String, _ hash: StableHash) -> Int? {
    guard count > 0 else { return nil }
    let (slot, found) = probe(key, hash)
    return found ? slot : nil
  }

  /// The value of the entry at `index`, from ``index(forKey:_:)``, in place.
  package subscript(at index: Int) -> Value {
    _read { yield slots[index].value! }
    _modify { yield &slots[index].value! }
  }

  private mutating func insert(_ value: Value, for key: String, _ hash: StableHash) {
    if (count + 1) * 4 > slots.count * 3 { grow() }
    let (slot, found) = probe(key, hash)
    if !found { count += 1 }
    slots[slot] = Slot(hash: hash, occupied: true, key: key, value: value)  // one write: one uniqueness check
  }

  /// Removes `key`'s entry and returns its value.
  @discardableResult
  package mutating func removeValue(forKey key: String) -> Value? {
    removeValue(forKey: key, StableHash(key))
  }

  /// Removes the entry of `key`, whose hash is `hash`, and returns its value.
  @discardableResult
  package mutating func removeValue(forKey key: String, _ hash: StableHash) -> Value? {
    guard count > 0 else { return nil }
    var (hole, found) = probe(key, hash)
    guard found else { return nil }
    count -= 1
    // One uniqueness check for the whole removal, not one per slot written.
    return slots.withUnsafeMutableBufferPointer { slots in
      let removed = slots[hole].value.take()  // moved out: no copy to retain and release
      slots[hole] = Slot()
      // Backward-shift deletion: move later entries of the probe run into the hole, so
      // that no lookup stops early and no tombstones accumulate.
      let mask = slots.count - 1
      var next = (hole + 1) & mask
      while slots[next].occupied {
        let wanted = slots[next].hash.home(mask: mask)
        // The entry at `next` may move to `hole` unless its home lies cyclically in (hole, next].
        let stays = hole <= next ? (hole < wanted && wanted <= next) : (hole < wanted || wanted <= next)
        if !stays {
          slots.swapAt(hole, next)
          hole = next
        }
        next = (next + 1) & mask
      }
      return removed
    }
  }

  /// Removes every entry, keeping the storage.
  package mutating func removeAll() {
    guard count > 0 else { return }
    for slot in slots.indices where slots[slot].occupied { slots[slot] = Slot() }
    count = 0
  }

  private mutating func grow() {
    let old = slots
    slots = Array(repeating: Slot(), count: Swift.max(8, old.count * 2))
    count = 0
    for slot in old { if let value = slot.value { insert(value, for: slot.key, slot.hash) } }
  }

  /// The entries, in the table's order.
  package func makeIterator() -> Iterator { Iterator(slots: slots) }

  /// Walks the table's slots.
  package struct Iterator: IteratorProtocol {
    private let slots: [Slot]
    private var slot = 0

    fileprivate init(slots: [Slot]) { self.slots = slots }

    /// The next entry.
    package mutating func next() -> (key: String, value: Value)? {
      while slot < slots.count {
        defer { slot += 1 }
        if let value = slots[slot].value { return (slots[slot].key, value) }
      }
      return nil
    }
  }
}

extension StringKeyedTable: Sendable where Value: Sendable {}
extension StringKeyedTable.Slot: Sendable where Value: Sendable {}
