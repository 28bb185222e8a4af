/// A 64-bit hash of a string's UTF-8 bytes (MurmurHash64A, read eight bytes at a time),
/// the same on every machine and run, unlike `Hasher`, so that what depends on it is
/// deterministic: the walker remembers finished work by this hash alone, where a
/// collision (about 1 in 10^10 for 100,000 finished works) could only hide or invent a
/// `work-after-finish`.
package struct StableHash: Hashable, Sendable {
  /// The hash's bits.
  package let value: UInt64

  /// The hash of nothing in particular: an empty slot's.
  package static var zero: StableHash { StableHash(value: 0) }

  private init(value: UInt64) { self.value = value }

  /// The hash of `text`.
  package init(_ text: String) {
    if let hash = text.utf8.withContiguousStorageIfAvailable({ Self.murmur(UnsafeRawBufferPointer($0)) }) {
      value = hash
    } else {
      value = Array(text.utf8).withUnsafeBytes(Self.murmur)
    }
  }

  /// The hash of the UTF-8 bytes `bytes`: the hash of the string they spell.
  package init(utf8 bytes: UnsafeRawBufferPointer) {
    value = Self.murmur(bytes)
  }

  private static let multiplier: UInt64 = 0xc6a4_a793_5bd1_e995
  private static let shift: UInt64 = 47

  private static func murmur(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash = 0x2545_f491_4f6c_dd1d ^ (UInt64(bytes.count) &* multiplier)
    var offset = 0
    while offset + 8 <= bytes.count {
      var word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      word &*= multiplier
      word ^= word >> shift
      word &*= multiplier
      hash ^= word
      hash &*= multiplier
      offset += 8
    }
    if offset < bytes.count {
      var tail: UInt64 = 0
      for index in offset..<bytes.count { tail |= UInt64(bytes[index]) << (8 * UInt64(index - offset)) }
      hash ^= tail
      hash &*= multiplier
    }
    hash ^= hash >> shift
    hash &*= multiplier
    hash ^= hash >> shift
    return hash
  }
}
