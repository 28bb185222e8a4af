/// A 64-bit hash of a string's UTF-8 bytes (MurmurHash64A, read eight bytes at a time),
/// the same on every machine and run, unlike `Hasher`, so that what depends on it is
/// deterministic: the walker remembers finished work by this hash alone, where a
/// collision (about 1 in 10^10 for 100,000 finished works) could only hide or invent a
/// `work-after-finish`.
public struct StableHash: Hashable, Sendable {
  /// The hash's bits.
  public let value: UInt64

  /// The hash of nothing in particular: an empty slot's.
  @inlinable public static var zero: StableHash { StableHash(value: 0) }

  @inlinable init(value: UInt64) { self.value = value }

  /// The hash of `text`.
  @inlinable
  public init(_ text: String) {
    if let hash = text.utf8.withContiguousStorageIfAvailable({ Self.murmur(UnsafeRawBufferPointer($0)) }) {
      value = hash
    } else {
      value = Array(text.utf8).withUnsafeBytes(Self.murmur)
    }
  }

  /// The hash of the UTF-8 bytes `bytes`: the hash of the string they spell.
  @inlinable
  public init(utf8 bytes: UnsafeRawBufferPointer) {
    value = Self.murmur(bytes)
  }

  /// The hash as an `Int` bit pattern, for tables keyed by integers.
  @inlinable public var bits: Int { Int(truncatingIfNeeded: value) }

  @inlinable static var multiplier: UInt64 { 0xc6a4_a793_5bd1_e995 }
  @inlinable static var shift: UInt64 { 47 }

  @inlinable
  static func murmur(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
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
