/// A map from small integer keys (task ids, run numbers) to values: an
/// ``OpenAddressingTable`` with a multiplicative hash, so a lookup costs a multiply and a
/// compare or two, where `Dictionary` runs its seeded SipHash over every key — a tenth
/// of the checker's time per event (bgtrace-bench, "checker cost";
/// docs/rules.md#how-the-checker-reads-a-trace).
package typealias IntKeyedTable<Value> = OpenAddressingTable<IntKeyedSlot<Value>>

/// A slot of an ``IntKeyedTable``: 16 bytes. A key is its own hash, so a slot keeps
/// it once.
package struct IntKeyedSlot<Value>: OpenAddressingSlot {
  package private(set) var key = 0
  private var storedValue: Int32 = 0
  package private(set) var occupied = false

  package init() {}

  package init(_ key: Int, _: Int, value: Int) {
    self.key = key
    storedValue = Int32(truncatingIfNeeded: value)
    occupied = true
  }

  /// Where the value is (a table holds fewer than 2^31 entries).
  package var value: Int {
    @inline(__always) get { Int(storedValue) }
    @inline(__always) set { storedValue = Int32(truncatingIfNeeded: newValue) }
  }

  package var hash: Int { key }

  /// Clears the flag alone: the key needs no releasing.
  @inline(__always)
  package mutating func vacate() { occupied = false }

  @inline(__always)
  package func holds(_ key: Int, _: Int) -> Bool { self.key == key }

  @inline(__always)
  package func home(mask: Int) -> Int { Self.home(of: key, mask: mask) }

  @inline(__always)
  package static func home(of key: Int, mask: Int) -> Int {
    Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
  }

  package static var initialCapacity: Int { 16 }
}

extension IntKeyedSlot: Sendable {}

extension OpenAddressingTable where Slot.Key == Int, Slot.Hash == Int {
  /// The value for `key`; setting `nil` removes it.
  package subscript(key: Int) -> Value? {
    get { value(for: key, key) }
    set { set(newValue, for: key, key) }
  }

  /// Sets `key`'s value, adding the entry when there is none. (Setting through the
  /// subscript wraps the value in an optional and unwraps it again: a copy.)
  @inline(__always)
  package mutating func updateValue(_ value: consuming Value, forKey key: Int) {
    insert(value, for: key, key)
  }

  /// Where `key` has its value: for reading and changing it in place with
  /// ``OpenAddressingTable/update(at:_:)``, and removing it with
  /// ``OpenAddressingTable/remove(at:)``. Valid until the next insertion or removal.
  @inline(__always)
  package func index(forKey key: Int) -> Int? {
    index(of: key, key)
  }

  /// Removes `key`'s entry and returns its value.
  @discardableResult
  package mutating func removeValue(forKey key: Int) -> Value? {
    remove(key, key)
  }
}
