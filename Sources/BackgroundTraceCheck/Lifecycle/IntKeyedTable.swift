/// A map from small integer keys (task ids, run numbers) to values: open addressing
/// with linear probing and a multiplicative hash, so a lookup costs a multiply and a
/// compare or two, where `Dictionary` runs its seeded SipHash over every key — a tenth
/// of the checker's time per event (bgtrace-bench, "checker cost";
/// docs/rules.md#how-the-checker-reads-a-trace).
///
/// It offers the part of `Dictionary`'s interface the lifecycle walker's readers use.
/// Iteration order is the table's, deterministic but unspecified: readers that need an
/// order sort the keys.
package struct IntKeyedTable<Value>: Sequence {
  /// A slot: empty unless `occupied`, when `value` is `nil`. (Probing tests the flag, not
  /// the optional: testing a generic optional for `nil` called a value witness.) The flag
  /// comes last, where it fits in the value's padding: a finished work's slot stays 24
  /// bytes.
  fileprivate struct Slot {
    var key = 0
    var value: Value?
    var occupied = false
  }

  /// A power of two in length once the first entry is inserted, at most 3/4 full.
  private var slots: [Slot] = []
  package private(set) var count = 0

  /// Creates an empty table.
  package init() {}

  /// Whether the table is empty.
  package var isEmpty: Bool { count == 0 }

  /// The keys, in the table's order.
  package var keys: [Int] {
    // Not `map(\.key)`: a key path into a generic tuple is instantiated at run time on
    // every call, which cost the checker 6% (perf on bgtrace-bench).
    slots.filter { $0.occupied }.map { $0.key }
  }

  /// The values, in the table's order.
  package var values: [Value] { slots.compactMap { $0.value } }

  @inline(__always)
  private static func home(_ key: Int, mask: Int) -> Int {
    Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
  }

  /// The slot holding `key`, or the empty slot where it would go.
  @inline(__always)
  private func probe(_ key: Int) -> (slot: Int, found: Bool) {
    let mask = slots.count - 1
    var slot = Self.home(key, mask: mask)
    while slots[slot].occupied {
      if slots[slot].key == key { return (slot, true) }
      slot = (slot + 1) & mask
    }
    return (slot, false)
  }

  /// The value for `key`; setting `nil` removes it.
  package subscript(key: Int) -> Value? {
    get {
      guard count > 0 else { return nil }
      let (slot, found) = probe(key)
      return found ? slots[slot].value : nil
    }
    set {
      if let newValue {
        insert(newValue, for: key)
      } else {
        removeValue(forKey: key)
      }
    }
  }

  /// Sets `key`'s value, adding the entry when there is none. (Setting through the
  /// subscript wraps the value in an optional and unwraps it again: a copy.)
  package mutating func updateValue(_ value: Value, forKey key: Int) {
    insert(value, for: key)
  }

  private mutating func insert(_ value: Value, for key: Int) {
    if (count + 1) * 4 > slots.count * 3 { grow() }
    let (slot, found) = probe(key)
    if !found { count += 1 }
    slots[slot] = Slot(key: key, value: value, occupied: true)  // one write: one uniqueness check
  }

  /// Removes `key`'s entry and returns its value.
  @discardableResult
  package mutating func removeValue(forKey key: Int) -> Value? {
    guard count > 0 else { return nil }
    var (hole, found) = probe(key)
    guard found else { return nil }
    count -= 1
    // One uniqueness check for the whole removal, not one per slot written.
    return slots.withUnsafeMutableBufferPointer { slots in
      let removed = slots[hole].value.take()  // moved out: no copy to retain and release
      slots[hole].occupied = false
      // Backward-shift deletion: move later entries of the probe run into the hole, so
      // that no lookup stops early and no tombstones accumulate.
      let mask = slots.count - 1
      var next = (hole + 1) & mask
      while slots[next].occupied {
        let wanted = Self.home(slots[next].key, mask: mask)
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
    slots = Array(repeating: Slot(), count: Swift.max(16, old.count * 2))
    count = 0
    for slot in old { if let value = slot.value { insert(value, for: slot.key) } }
  }

  /// The entries, in the table's order.
  package func makeIterator() -> Iterator { Iterator(slots: slots) }

  /// Walks the table's slots.
  package struct Iterator: IteratorProtocol {
    private let slots: [Slot]
    private var slot = 0

    fileprivate init(slots: [Slot]) { self.slots = slots }

    /// The next entry.
    package mutating func next() -> (key: Int, value: Value)? {
      while slot < slots.count {
        defer { slot += 1 }
        if let value = slots[slot].value { return (slots[slot].key, value) }
      }
      return nil
    }
  }
}

extension IntKeyedTable: Sendable where Value: Sendable {}
extension IntKeyedTable.Slot: Sendable where Value: Sendable {}
