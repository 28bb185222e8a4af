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
  private var keys_: [Int] = []
  private var values_: [Value?] = []
  /// Which slots hold an entry.
  private var used: [Bool] = []
  package private(set) var count = 0

  /// Creates an empty table.
  package init() {}

  /// Whether the table is empty.
  package var isEmpty: Bool { count == 0 }

  /// The keys, in the table's order.
  package var keys: [Int] {
    // Not `map(\.key)`: a key path into a generic tuple is instantiated at run time on
    // every call, which cost the checker 6% (perf on bgtrace-bench).
    used.indices.filter { used[$0] }.map { keys_[$0] }
  }

  /// The values, in the table's order.
  package var values: [Value] { used.indices.filter { used[$0] }.map { values_[$0]! } }

  @inline(__always)
  private func home(_ key: Int, mask: Int) -> Int {
    Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
  }

  /// The slot holding `key`, if any.
  @inline(__always)
  private func slot(of key: Int) -> Int? {
    guard count > 0 else { return nil }
    let mask = used.count - 1
    var slot = home(key, mask: mask)
    while used[slot] {
      if keys_[slot] == key { return slot }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// The value for `key`; setting `nil` removes it.
  package subscript(key: Int) -> Value? {
    get { slot(of: key).flatMap { values_[$0] } }
    set {
      if let newValue {
        insert(newValue, for: key)
      } else {
        removeValue(forKey: key)
      }
    }
  }

  private mutating func insert(_ value: Value, for key: Int) {
    if let slot = slot(of: key) {
      values_[slot] = value
      return
    }
    if (count + 1) * 4 > used.count * 3 { grow() }
    let mask = used.count - 1
    var slot = home(key, mask: mask)
    while used[slot] { slot = (slot + 1) & mask }
    used[slot] = true
    keys_[slot] = key
    values_[slot] = value
    count += 1
  }

  /// Removes `key`'s entry and returns its value.
  @discardableResult
  package mutating func removeValue(forKey key: Int) -> Value? {
    guard var hole = slot(of: key) else { return nil }
    let removed = values_[hole]
    values_[hole] = nil
    used[hole] = false
    count -= 1
    // Backward-shift deletion: move later entries of the probe run into the hole, so
    // that no lookup stops early and no tombstones accumulate.
    let mask = used.count - 1
    var next = (hole + 1) & mask
    while used[next] {
      let wanted = home(keys_[next], mask: mask)
      // The entry at `next` may move to `hole` unless its home lies cyclically in (hole, next].
      let stays = hole <= next ? (hole < wanted && wanted <= next) : (hole < wanted || wanted <= next)
      if !stays {
        keys_[hole] = keys_[next]
        values_[hole] = values_[next]
        used[hole] = true
        values_[next] = nil
        used[next] = false
        hole = next
      }
      next = (next + 1) & mask
    }
    return removed
  }

  /// Removes every entry, keeping the storage.
  package mutating func removeAll() {
    guard count > 0 else { return }
    for slot in used.indices where used[slot] {
      used[slot] = false
      values_[slot] = nil
    }
    count = 0
  }

  private mutating func grow() {
    let old = zip(keys_, zip(used, values_))
    let capacity = Swift.max(16, used.count * 2)
    keys_ = Array(repeating: 0, count: capacity)
    values_ = Array(repeating: nil, count: capacity)
    used = Array(repeating: false, count: capacity)
    count = 0
    for (key, (isUsed, value)) in old where isUsed { insert(value!, for: key) }
  }

  /// The entries, in the table's order.
  package func makeIterator() -> Iterator { Iterator(table: self) }

  /// Walks the table's slots.
  package struct Iterator: IteratorProtocol {
    fileprivate let table: IntKeyedTable
    private var slot = 0

    fileprivate init(table: IntKeyedTable) { self.table = table }

    /// The next entry.
    package mutating func next() -> (key: Int, value: Value)? {
      while slot < table.used.count {
        defer { slot += 1 }
        if table.used[slot] { return (table.keys_[slot], table.values_[slot]!) }
      }
      return nil
    }
  }
}

extension IntKeyedTable: Sendable where Value: Sendable {}
