/// A map from identifiers (work ids, scheduler identifiers) to values: an
/// ``OpenAddressingTable`` keyed by ``StableHash`` of the identifier's UTF-8 bytes, where
/// `Dictionary` runs its seeded SipHash over every key on every lookup.
///
/// Each slot keeps its key's hash, so growing and deleting never hash a string again,
/// and a lookup compares strings only when the hashes agree. A caller that looks one
/// identifier up in several tables hashes it once and passes the ``StableHash``.
public typealias StringKeyedTable<Value> = OpenAddressingTable<StringKeyedSlot<Value>>

/// A slot of a ``StringKeyedTable``: 32 bytes. The `occupied` flag and where the
/// value is sit beside the hash, before the string.
public struct StringKeyedSlot<Value>: OpenAddressingSlot {
  @usableFromInline var storedHash = StableHash.zero
  @usableFromInline var storedValue: Int32 = 0
  @usableFromInline var isOccupied = false
  @usableFromInline var storedKey = ""

  /// The key's hash.
  @inlinable public var hash: StableHash { storedHash }
  /// Whether the slot holds an entry.
  @inlinable public var occupied: Bool { isOccupied }
  /// The key.
  @inlinable public var key: String { storedKey }

  /// An empty slot.
  @inlinable public init() {}

  /// An occupied slot for `key`, whose value is the table's value number `value`.
  @inlinable @inline(__always)
  public init(_ key: String, _ hash: StableHash, value: Int) {
    storedHash = hash
    storedValue = Int32(truncatingIfNeeded: value)
    isOccupied = true
    storedKey = key
  }

  /// Where the value is (a table holds fewer than 2^31 entries).
  @inlinable public var value: Int {
    @inline(__always) get { Int(storedValue) }
    @inline(__always) set { storedValue = Int32(truncatingIfNeeded: newValue) }
  }

  /// Releases the key's storage too.
  @inlinable @inline(__always)
  public mutating func vacate() { self = Self() }

  // The hash's bits are compared, and its home slot computed, on `value` directly: a
  // call (`StableHash`'s `==`) before the key's comparison keeps the key retained
  // across it, an atomic retain and release per probe.

  /// Whether the slot holds `key`.
  @inlinable @inline(__always)
  public func holds(_ key: String, _ hash: StableHash) -> Bool { storedHash.value == hash.value && storedKey == key }

  /// Where the slot's entry starts probing in a table of `mask + 1` slots.
  @inlinable @inline(__always)
  public func home(mask: Int) -> Int { Self.home(of: storedHash, mask: mask) }

  /// Where a key with this hash starts probing in a table of `mask + 1` slots.
  @inlinable @inline(__always)
  public static func home(of hash: StableHash, mask: Int) -> Int {
    Int(truncatingIfNeeded: hash.value >> 32) & mask
  }

  /// How many slots a table gets with its first entry.
  @inlinable public static var initialCapacity: Int { 8 }
}

extension StringKeyedSlot: Sendable {}

extension OpenAddressingTable where Slot.Key == String, Slot.Hash == StableHash {
  /// The value for `key`; setting `nil` removes it.
  @inlinable public subscript(key: String) -> Value? {
    get { self[key, StableHash(key)] }
    set { self[key, StableHash(key)] = newValue }
  }

  /// The value for `key`, whose hash is `hash`; setting `nil` removes it.
  @inlinable public subscript(key: String, hash: StableHash) -> Value? {
    get { value(for: key, hash) }
    set { set(newValue, for: key, hash) }
  }

  /// Where `key`, whose hash is `hash`, has its value: for reading and changing it in
  /// place with ``OpenAddressingTable/update(at:_:)``. Valid until the next insertion
  /// or removal.
  @inlinable public func index(forKey key: String, _ hash: StableHash) -> Int? {
    index(of: key, hash)
  }

  /// Removes `key`'s entry and returns its value.
  @discardableResult
  @inlinable public mutating func removeValue(forKey key: String) -> Value? {
    remove(key, StableHash(key))
  }

  /// Removes the entry of `key`, whose hash is `hash`, and returns its value.
  @discardableResult
  @inlinable public mutating func removeValue(forKey key: String, _ hash: StableHash) -> Value? {
    remove(key, hash)
  }
}
