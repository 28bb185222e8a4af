import _BackgroundTraceStorage

/// How each finished work finished, by the ``StableHash`` of its id (its
/// ``StableHash/bits``): an ``IntKeyedTable`` of 16-byte records, with a bitmap in front
/// of it that answers most lookups of work that never finished.
///
/// The table holds every work that finished in the trace, so it outgrows the cache: a
/// workload of a million events finishes tens of thousands of works, and each lookup
/// of a fresh work id (every enqueue asks whether the id finished before) misses the
/// cache. The bitmap has eight bits or more per finished work, one set for
/// each hash added: a clear bit says "not finished" from a few kilobytes that stay in
/// the cache. A set bit may be another hash's, and removing an entry leaves its bit
/// set; either way the table decides.
///
/// With a generation size, only the recent works are kept, as in a ``RecentSet``: when
/// the table reaches that size it becomes the older table (looked up after it) and the
/// older one is forgotten.
struct FinishedWorks: Sendable {
  private var table = IntKeyedTable<FinishedWork>()
  /// The bitmap, a power of two words long (at least 64), at least eight bits per entry.
  private var filter = [UInt64](repeating: 0, count: 64)
  /// The generation before ``table``'s, when generations are kept.
  private var older = IntKeyedTable<FinishedWork>()
  /// How many works a generation holds; `nil`: one table that keeps all.
  private let generation: Int?

  /// An empty record keeping generations of `generation` works (every work when `nil`).
  init(generation: Int? = nil) {
    self.generation = generation
  }

  /// Whether no work has finished.
  var isEmpty: Bool { table.isEmpty && older.isEmpty }

  /// The bit of `bits` in a bitmap of `wordCount` words: the hash's low bits (the
  /// table places a key by the high half of its product with a constant).
  @inline(__always)
  private static func position(of bits: Int, wordCount: Int) -> (word: Int, mask: UInt64) {
    let bit = UInt64(bitPattern: Int64(bits)) & UInt64(wordCount &* 64 &- 1)
    return (Int(truncatingIfNeeded: bit >> 6), 1 << (bit & 63))
  }

  /// Whether `bits` may be in the table: false means it is not.
  @inline(__always)
  private func mayContain(_ bits: Int) -> Bool {
    let (word, mask) = Self.position(of: bits, wordCount: filter.count)
    return filter[word] & mask != 0
  }

  /// How the work whose id's hash is `bits` finished; setting `nil` forgets it.
  subscript(bits: Int) -> FinishedWork? {
    get {
      if mayContain(bits), let finished = table[bits] { return finished }
      return older.isEmpty ? nil : older[bits]
    }
    set {
      if !older.isEmpty { _ = older.removeValue(forKey: bits) }
      guard let newValue else {
        if mayContain(bits) { table.removeValue(forKey: bits) }
        return
      }
      table.updateValue(newValue, forKey: bits)
      if let generation, table.count >= generation {
        older = table
        table = IntKeyedTable()
        filter = [UInt64](repeating: 0, count: 64)
      } else if table.count &* 8 > filter.count &* 64 {
        rebuildFilter()
      } else {
        setBit(of: bits)
      }
    }
  }

  @inline(__always)
  private mutating func setBit(of bits: Int) {
    let (word, mask) = Self.position(of: bits, wordCount: filter.count)
    filter[word] |= mask
  }

  /// Doubles the bitmap and sets the bit of every entry again (dropping the bits of
  /// removed entries).
  private mutating func rebuildFilter() {
    filter = [UInt64](repeating: 0, count: filter.count * 2)
    for (bits, _) in table { setBit(of: bits) }  // not `keys`: no array of every key at the peak
  }
}
