/// The chunk encoder's map from a string to its index in the chunk's string table: an
/// open-addressing table of FNV-1a hashes. It is looked up for every string field of
/// every recorded event, and FNV-1a hashes the short identifiers traces hold with one
/// multiply per byte, where `Dictionary` hashes every key with seeded SipHash.
///
/// The strings themselves live in the encoder's string list; the table stores indices.
struct StringIndexTable {
  /// Per slot: the string's index + 1 (0 for empty) and its hash.
  private var slots: [(index: UInt32, hash: UInt32)] = Array(repeating: (0, 0), count: 64)
  private var count = 0

  /// The index of `string` in `strings`, if it is there.
  @inline(__always)
  func index(of string: String, hash: UInt32, in strings: [String]) -> UInt64? {
    let mask = slots.count - 1
    var slot = Int(hash) & mask
    while true {
      let entry = slots[slot]
      if entry.index == 0 { return nil }
      if entry.hash == hash && strings[Int(entry.index - 1)] == string { return UInt64(entry.index - 1) }
      slot = (slot + 1) & mask
    }
  }

  /// Records that `strings[index]` has `hash`; the string is not in the table yet.
  mutating func insert(index: Int, hash: UInt32) {
    if (count + 1) * 2 > slots.count { grow() }
    let mask = slots.count - 1
    var slot = Int(hash) & mask
    while slots[slot].index != 0 { slot = (slot + 1) & mask }
    slots[slot] = (UInt32(index + 1), hash)
    count += 1
  }

  private mutating func grow() {
    let old = slots
    slots = Array(repeating: (0, 0), count: old.count * 2)
    count = 0
    for entry in old where entry.index != 0 { insert(index: Int(entry.index - 1), hash: entry.hash) }
  }

  /// The 32-bit FNV-1a hash of the string's UTF-8 bytes.
  @inline(__always)
  static func hash(_ string: String) -> UInt32 {
    if let hash = string.utf8.withContiguousStorageIfAvailable({ fnv1a($0) }) { return hash }
    return fnv1a(string.utf8)
  }

  @inline(__always)
  private static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var hash: UInt32 = 0x811C_9DC5
    for byte in bytes {
      hash = (hash ^ UInt32(byte)) &* 0x0100_0193
    }
    return hash
  }
}
