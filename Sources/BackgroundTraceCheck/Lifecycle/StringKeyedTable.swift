package import BackgroundTrace

/// A map from identifiers (work ids, scheduler identifiers) to values: an
/// ``OpenAddressingTable`` keyed by ``StableHash`` of the identifier's UTF-8 bytes, where
/// `Dictionary` runs its seeded SipHash over every key on every lookup — an eighth of
/// the checker's time per event (bgtrace-bench, "checker cost").
///
/// Each slot keeps its key's hash, so growing and deleting never hash a string again,
/// and a lookup compares strings only when the hashes agree. A caller that looks one
/// identifier up in several tables hashes it once and passes the ``StableHash``.
package typealias StringKeyedTable<Value> = OpenAddressingTable<StringKeyedSlot<Value>>

/// A slot of a ``StringKeyedTable``: 32 bytes. The `occupied` flag and where the
/// value is sit beside the hash, before the string.
package struct StringKeyedSlot<Value>: OpenAddressingSlot {
  package private(set) var hash = StableHash.zero
  private var storedValue: Int32 = 0
  package private(set) var occupied = false
  package private(set) var key = ""

  package init() {}

  @inline(__always)
  package init(_ key: String, _ hash: StableHash, value: Int) {
    self.hash = hash
    storedValue = Int32(truncatingIfNeeded: value)
    occupied = true
    self.key = key
  }

  /// Where the value is (a table holds fewer than 2^31 entries).
  package var value: Int {
    @inline(__always) get { Int(storedValue) }
    @inline(__always) set { storedValue = Int32(truncatingIfNeeded: newValue) }
  }

  /// Releases the key's storage too.
  @inline(__always)
  package mutating func vacate() { self = Self() }

  // The hash's bits are compared and its home slot computed here, on `value`: calls
  // into `StableHash`'s module are not inlined, and such a call (its `==`) before the
  // key's comparison kept the key retained across it, an atomic retain and release of
  // a scheduler identifier per probe (bgtrace-bench `--profile-check`).

  @inline(__always)
  package func holds(_ key: String, _ hash: StableHash) -> Bool { self.hash.value == hash.value && self.key == key }

  @inline(__always)
  package func home(mask: Int) -> Int { Self.home(of: hash, mask: mask) }

  @inline(__always)
  package static func home(of hash: StableHash, mask: Int) -> Int {
    Int(truncatingIfNeeded: hash.value >> 32) & mask
  }

  package static var initialCapacity: Int { 8 }
}

extension StringKeyedSlot: Sendable {}

extension OpenAddressingTable where Slot.Key == String, Slot.Hash == StableHash {
  /// The value for `key`; setting `nil` removes it.
  package subscript(key: String) -> Value? {
    get { self[key, StableHash(key)] }
    set { self[key, StableHash(key)] = newValue }
  }

  /// The value for `key`, whose hash is `hash`; setting `nil` removes it.
  package subscript(key: String, hash: StableHash) -> Value? {
    get { value(for: key, hash) }
    set { set(newValue, for: key, hash) }
  }

  /// Where `key`, whose hash is `hash`, has its value: for reading and changing it in
  /// place with ``OpenAddressingTable/update(at:_:)``. Valid until the next insertion
  /// or removal.
  package func index(forKey key: String, _ hash: StableHash) -> Int? {
    index(of: key, hash)
  }

  /// Removes `key`'s entry and returns its value.
  @discardableResult
  package mutating func removeValue(forKey key: String) -> Value? {
    remove(key, StableHash(key))
  }

  /// Removes the entry of `key`, whose hash is `hash`, and returns its value.
  @discardableResult
  package mutating func removeValue(forKey key: String, _ hash: StableHash) -> Value? {
    remove(key, hash)
  }
}

extension StableHash {
  /// The hash as an `Int` bit pattern, for tables keyed by integers (``FinishedWorks``).
  /// Defined here, beside its readers, so that it is inlined.
  var bits: Int { Int(truncatingIfNeeded: value) }
}
