package import _BackgroundTraceStorage

/// The strings of the events a ``BinaryTraceReader`` handed out as ``CompactEvent``s,
/// each stored once per trace under a small integer id, and the setting lists of
/// their `env.set` events, also stored once per distinct list.
///
/// Strings are told apart by their UTF-8 bytes, so a trace's text survives the round
/// trip byte for byte (canonically equivalent spellings, which `String` calls equal,
/// get different ids). It grows with the distinct strings of the trace, which the
/// trace's bytes bound.
/// Where a ``CompactEvent``'s string ids are looked up.
@usableFromInline
package protocol StringTable {
  /// The string with id `id`.
  subscript(id: UInt32) -> String { get }
  /// The settings of the `env.set` setting list `list`.
  func settings(_ list: UInt32) -> [EnvironmentSetting]
}

@usableFromInline
package struct InternedStrings: Sendable, StringTable {
  /// The strings, by id.
  @usableFromInline package private(set) var strings: [String] = []
  /// Each string's hash, by id: probing compares it before the bytes, and growing the
  /// table does not hash again.
  private var hashes: [UInt64] = []
  /// Each string's ``StableHash``, by id, computed once as it is interned: the checker
  /// looks identifiers up by it, and would otherwise hash a string again at every event
  /// that names it.
  private var stableHashes: [StableHash] = []
  /// Each string's ``ShortString``, by id, `nil` for a string of more than 15 bytes:
  /// the checker keeps open tasks' names in that form, and would otherwise copy a
  /// `String` at every task it opens.
  @usableFromInline private(set) var shortStrings: [ShortString?] = []
  /// An open-addressing table of ids + 1 (0: empty), a power of two long and at most
  /// half full, probed linearly from a hash's low bits: one hash per string, never
  /// again as the table grows, and one probe per chunk string, where a
  /// `[String: UInt32]` hashes every key again each time it grows.
  private var slots = [UInt32](repeating: 0, count: 64)
  /// Each setting list's key and value ids, alternating.
  private var settingLists: [[UInt32]] = []
  private var settingListIDs: [[UInt32]: UInt32] = [:]

  /// How many times the table started afresh (``removeAll()``): ids handed out in an
  /// earlier generation name other strings, or none, in a later one.
  package private(set) var generation = 0

  /// An empty table.
  package init() {}

  /// How many distinct strings the table holds.
  package var count: Int { strings.count }

  /// Forgets every string and setting list, keeping the storage, and starts the next
  /// ``generation``.
  mutating func removeAll() {
    strings.removeAll(keepingCapacity: true)
    hashes.removeAll(keepingCapacity: true)
    stableHashes.removeAll(keepingCapacity: true)
    shortStrings.removeAll(keepingCapacity: true)
    for index in slots.indices { slots[index] = 0 }
    settingLists.removeAll(keepingCapacity: true)
    settingListIDs.removeAll(keepingCapacity: true)
    generation += 1
  }

  /// The string with id `id`.
  @inlinable
  package subscript(id: UInt32) -> String { strings[Int(id)] }

  /// The ``StableHash`` of the string with id `id`.
  package func stableHash(_ id: UInt32) -> StableHash { stableHashes[Int(id)] }

  /// The string with id `id` as a ``ShortString``, or `nil` when it has more than 15
  /// bytes.
  @inlinable
  package func shortString(_ id: UInt32) -> ShortString? { shortStrings[Int(id)] }

  /// The id of `string`, if a chunk read so far holds it: look a string up once, then
  /// compare ids.
  package func id(of string: String) -> UInt32? {
    var bytes = string
    return bytes.withUTF8 { find(UnsafeRawBufferPointer($0), hash: Self.hash(UnsafeRawBufferPointer($0))).id }
  }

  /// The settings of the `env.set` setting list `list` (``CompactEvent/string``).
  @usableFromInline package func settings(_ list: UInt32) -> [EnvironmentSetting] {
    let pairs = settingLists[Int(list)]
    return stride(from: 0, to: pairs.count, by: 2).map {
      EnvironmentSetting(key: strings[Int(pairs[$0])], value: strings[Int(pairs[$0 + 1])])
    }
  }

  /// The key and value string ids of the `env.set` setting list `list`.
  package func settingIDs(_ list: UInt32) -> [(key: UInt32, value: UInt32)] {
    let pairs = settingLists[Int(list)]
    return stride(from: 0, to: pairs.count, by: 2).map { (pairs[$0], pairs[$0 + 1]) }
  }

  /// The id of `string`, adding it if it is new.
  mutating func intern(_ string: String) -> UInt32 {
    var bytes = string
    let (found, slot, hash, stableHash, short) = bytes.withUTF8 { utf8 in
      let raw = UnsafeRawBufferPointer(utf8)
      let hash = Self.hash(raw)
      let (id, slot) = find(raw, hash: hash)
      guard id == nil else { return (id, slot, hash, StableHash.zero, ShortString?.none) }
      return (id, slot, hash, StableHash(utf8: raw), ShortString(utf8: raw))
    }
    if let found { return found }
    let id = UInt32(strings.count)
    strings.append(string)
    hashes.append(hash)
    stableHashes.append(stableHash)
    shortStrings.append(short)
    slots[slot] = id + 1
    if 2 * strings.count > slots.count { grow() }
    return id
  }

  /// The id of the string whose UTF-8 bytes are `bytes`, or the empty slot where it
  /// would go.
  private func find(_ bytes: UnsafeRawBufferPointer, hash: UInt64) -> (id: UInt32?, slot: Int) {
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let entry = slots[slot]
      if entry == 0 { return (nil, slot) }
      let id = Int(entry - 1)
      if hashes[id] == hash && strings[id].utf8.elementsEqual(bytes) { return (UInt32(id), slot) }
      slot = (slot + 1) & mask
    }
  }

  /// Doubles the slots, placing every id again by its stored hash.
  private mutating func grow() {
    slots = [UInt32](repeating: 0, count: 2 * slots.count)
    let mask = slots.count - 1
    for (id, hash) in hashes.enumerated() {
      var slot = Int(truncatingIfNeeded: hash) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = UInt32(id + 1)
    }
  }

  /// A 64-bit hash of `bytes`: `Hasher`'s, seeded per process, so that no input can
  /// be built to make every string collide (which would make interning quadratic).
  @inline(__always)
  private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hasher = Hasher()
    hasher.combine(bytes: bytes)
    return UInt64(truncatingIfNeeded: hasher.finalize())
  }

  /// The id of the setting list whose key and value ids alternate in `pairs`, adding it
  /// if it is new.
  mutating func internSettings(_ pairs: [UInt32]) -> UInt32 {
    // A trace has a few distinct lists: comparing with each is cheaper than hashing.
    if settingLists.count <= 8 {
      if let index = settingLists.firstIndex(of: pairs) { return UInt32(index) }
    } else if let id = settingListIDs[pairs] {
      return id
    }
    let id = UInt32(settingLists.count)
    settingLists.append(pairs)
    settingListIDs[pairs] = id
    return id
  }
}
