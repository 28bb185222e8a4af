/// A map from small integer keys (task ids, run numbers) to values: an
/// ``OpenAddressingTable`` with a multiplicative hash, so a lookup costs a multiply and a
/// compare or two, where `Dictionary` runs its seeded SipHash over every key
/// (docs/rules.md#how-the-checker-reads-a-trace).
public typealias IntKeyedTable<Value> = OpenAddressingTable<IntKeyedSlot<Value>>

/// A slot of an ``IntKeyedTable``: 16 bytes. A key is its own hash, so a slot keeps
/// it once.
public struct IntKeyedSlot<Value>: OpenAddressingSlot {
  @usableFromInline var storedKey = 0
  @usableFromInline var storedValue: Int32 = 0
  @usableFromInline var isOccupied = false

  /// The key.
  @inlinable public var key: Int { storedKey }
  /// Whether the slot holds an entry.
  @inlinable public var occupied: Bool { isOccupied }

  /// An empty slot.
  @inlinable public init() {}

  /// An occupied slot for `key`, whose value is the table's value number `value`.
  @inlinable public init(_ key: Int, _: Int, value: Int) {
    storedKey = key
    storedValue = Int32(truncatingIfNeeded: value)
    isOccupied = true
  }

  /// Where the value is (a table holds fewer than 2^31 entries).
  @inlinable public var value: Int {
    @inline(__always) get { Int(storedValue) }
    @inline(__always) set { storedValue = Int32(truncatingIfNeeded: newValue) }
  }

  /// The key, its own hash.
  @inlinable public var hash: Int { key }

  /// Clears the flag alone: the key needs no releasing.
  @inlinable @inline(__always)
  public mutating func vacate() { isOccupied = false }

  /// Whether the slot holds `key`.
  @inlinable @inline(__always)
  public func holds(_ key: Int, _: Int) -> Bool { self.key == key }

  /// Where the slot's entry starts probing in a table of `mask + 1` slots.
  @inlinable @inline(__always)
  public func home(mask: Int) -> Int { Self.home(of: key, mask: mask) }

  /// Where a key with this hash starts probing in a table of `mask + 1` slots.
  @inlinable @inline(__always)
  public static func home(of key: Int, mask: Int) -> Int {
    Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
  }

  /// How many slots a table gets with its first entry.
  @inlinable public static var initialCapacity: Int { 16 }
}

extension IntKeyedSlot: Sendable {}

extension OpenAddressingTable where Slot.Key == Int, Slot.Hash == Int {
  /// The value for `key`; setting `nil` removes it.
  @inlinable public subscript(key: Int) -> Value? {
    get { value(for: key, key) }
    set { set(newValue, for: key, key) }
  }

  /// Sets `key`'s value, adding the entry when there is none. (Setting through the
  /// subscript wraps the value in an optional and unwraps it again: a copy.)
  @inlinable @inline(__always)
  public mutating func updateValue(_ value: consuming Value, forKey key: Int) {
    insert(value, for: key, key)
  }

  /// Where `key` has its value: for reading and changing it in place with
  /// ``OpenAddressingTable/update(at:_:)``, and removing it with
  /// ``OpenAddressingTable/remove(at:)``. Valid until the next insertion or removal.
  @inlinable @inline(__always)
  public func index(forKey key: Int) -> Int? {
    index(of: key, key)
  }

  /// Removes `key`'s entry and returns its value.
  @discardableResult
  @inlinable public mutating func removeValue(forKey key: Int) -> Value? {
    remove(key, key)
  }
}
