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
  /// The strings last found or inserted, by the bits of the string as the encoder's list
  /// holds it, which keeps its storage alive: 64 entries of two words of bits and a
  /// word with the index + 1 in its low half and the table's generation above. Equal
  /// bits are the same small string (its bytes are its bits) or the same storage, so a
  /// hit needs no hash and no comparison of bytes. ``removeAll()`` moves the generation
  /// on rather than clearing the entries, so a chunk's first uses find nothing of the
  /// last chunk's (whose strings may be gone, their addresses reused).
  private var recent = [UInt64](repeating: 0, count: 3 * Self.recentCount)
  /// The current generation, in the high half of a word (never 0, which empty entries hold).
  private var generation: UInt64 = 1 << 32
  /// Entries of ``recent``: with 16, about 40% of the recorder benchmark's misses are
  /// strings the table then finds; with 64, 10%
  /// (docs/decisions/0006-string-table-recent-strings.md).
  private static let recentCount = 64

  /// The bits of `string`'s representation.
  @inline(__always)
  private static func bits(_ string: String) -> (UInt64, UInt64) {
    unsafeBitCast(string, to: (UInt64, UInt64).self)
  }

  @inline(__always)
  private static func recentSlot(_ bits: (UInt64, UInt64)) -> Int {
    Int(truncatingIfNeeded: ((bits.0 ^ bits.1 &>> 17) &* 0x9E37_79B9_7F4A_7C15) &>> 58) &* 3
  }

  /// The index of `string` if it is one of the strings last found or inserted with these
  /// very bits.
  @inline(__always)
  func recentIndex(of string: String) -> UInt64? {
    let bits = Self.bits(string)
    let slot = Self.recentSlot(bits)
    let entry = recent[slot &+ 2]
    guard recent[slot] == bits.0, recent[slot &+ 1] == bits.1, entry & ~0xFFFF_FFFF == generation else {
      return nil
    }
    return (entry & 0xFFFF_FFFF) &- 1
  }

  /// Notes that `stored`, the encoder's own copy of a string, has `index`.
  @inline(__always)
  mutating func noteRecent(_ stored: String, index: UInt64) {
    let bits = Self.bits(stored)
    let slot = Self.recentSlot(bits)
    recent[slot] = bits.0
    recent[slot &+ 1] = bits.1
    recent[slot &+ 2] = generation | (index &+ 1)
  }

  /// The index of `string` in `strings`, if it is there.
  @inline(__always)
  func index(of string: String, hash: UInt32, in strings: [String]) -> UInt64? {
    let mask = slots.count - 1
    var slot = Int(hash) & mask
    while true {
      let entry = slots[slot]
      if entry.index == 0 { return nil }
      if entry.hash == hash && Self.sameBytes(strings[Int(entry.index - 1)], string) {
        return UInt64(entry.index - 1)
      }
      slot = (slot + 1) & mask
    }
  }

  /// Forgets every string, keeping the table's room.
  mutating func removeAll() {
    if count > 0 { slots.withUnsafeMutableBufferPointer { $0.update(repeating: (0, 0)) } }
    generation &+= 1 << 32
    if generation == 0 {  // after 2^32 chunks: the entries could match again
      recent.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
      generation = 1 << 32
    }
    count = 0
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

  /// Whether `a` and `b` have the same UTF-8 bytes: a string keeps its bytes through a
  /// trace, so two strings that are only canonically equivalent (`"é"` precomposed and
  /// decomposed, which `==` calls equal) are two strings.
  @inline(__always)
  static func sameBytes(_ a: String, _ b: String) -> Bool {
    if bits(a) == bits(b) { return true }
    var a = a
    var b = b
    return a.withUTF8 { a in b.withUTF8 { b in a.elementsEqual(b) } }
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
