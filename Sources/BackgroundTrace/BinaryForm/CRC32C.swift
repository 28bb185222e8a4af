/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), as used by iSCSI, ext4 and
/// the binary trace form. `CRC32C.checksum("123456789".utf8) == 0xE3069283`.
package enum CRC32C {
  /// Sixteen 256-entry tables, one after another, for slicing-by-16 (and by 8 for the
  /// rest). The reader checks every chunk, and a step folds sixteen bytes into the
  /// register through independent lookups, where the byte-at-a-time loop waits on the
  /// register after every byte; sixteen bytes a step rather than eight halves the
  /// steps, each of which waits on the one before.
  private static let table: [UInt32] = {
    var table = [UInt32](repeating: 0, count: 16 * 256)
    for byte in 0..<256 {
      var crc = UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
      table[byte] = crc
    }
    for slice in 1..<16 {
      for byte in 0..<256 {
        let previous = table[(slice - 1) * 256 + byte]
        table[slice * 256 + byte] = (previous >> 8) ^ table[Int(previous & 0xFF)]
      }
    }
    return table
  }()

  /// The CRC-32C of `bytes`.
  package static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
    if let result = bytes.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0)) }) {
      return result
    }
    return Array(bytes).withUnsafeBytes { checksum($0) }
  }

  /// The CRC-32C of the bytes in `buffer`.
  ///
  /// A buffer of a few kilobytes or more (a chunk's payload) is checked as three
  /// streams at once, its thirds, whose checksums are then combined: one stream waits
  /// on its own register from step to step, three keep the table lookups busy. The
  /// reader checks every chunk before decoding it, so every byte it decodes is also
  /// checksummed.
  ///
  /// - Complexity: O(*n*).
  package static func checksum(_ buffer: UnsafeRawBufferPointer) -> UInt32 {
    table.withUnsafeBufferPointer { t in
      let count = buffer.count
      guard count >= interleavedMinimum else { return ~update(0xFFFF_FFFF, buffer, from: 0, to: count, t) }
      let part = count / 3 & ~15  // a multiple of 16 bytes
      var first: UInt32 = 0xFFFF_FFFF
      var second: UInt32 = 0  // the thirds after the first start from zero, and are
      var third: UInt32 = 0  // shifted into place below (the register is linear)
      var index = 0
      while index < part {
        first = step16(first, buffer, at: index, t)
        second = step16(second, buffer, at: part &+ index, t)
        third = step16(third, buffer, at: 2 &* part &+ index, t)
        index &+= 16
      }
      third = update(third, buffer, from: 3 &* part, to: count, t)
      // The register after the first two thirds: the first's, moved on past `part`
      // bytes, plus the second's; then the same with the rest.
      let two = moved(first, pastZeroBytes: part) ^ second
      return ~(moved(two, pastZeroBytes: count &- 2 &* part) ^ third)
    }
  }

  /// Buffers shorter than this are checked as one stream: combining three streams has
  /// a fixed cost, which the interleaving of a short buffer does not win back.
  private static let interleavedMinimum = 4096

  /// The register after the bytes `start..<end` of `buffer`, from `crc`.
  @inline(__always)
  private static func update(
    _ crc: UInt32, _ buffer: UnsafeRawBufferPointer, from start: Int, to end: Int, _ t: UnsafeBufferPointer<UInt32>
  ) -> UInt32 {
    var crc = crc
    var index = start
    while end &- index >= 16 {
      crc = step16(crc, buffer, at: index, t)
      index &+= 16
    }
    while end &- index >= 8 {
      let low = buffer.loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian ^ crc
      let high = buffer.loadUnaligned(fromByteOffset: index &+ 4, as: UInt32.self).littleEndian
      crc =
        t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
        ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
        ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
        ^ t[1 * 256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
      index &+= 8
    }
    while index < end {
      crc = (crc >> 8) ^ t[Int((crc ^ UInt32(buffer[index])) & 0xFF)]
      index &+= 1
    }
    return crc
  }

  /// The register after the 16 bytes at `index`, from `crc` (slicing by 16).
  @inline(__always)
  private static func step16(
    _ crc: UInt32, _ buffer: UnsafeRawBufferPointer, at index: Int, _ t: UnsafeBufferPointer<UInt32>
  ) -> UInt32 {
    let first = buffer.loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian ^ crc
    let second = buffer.loadUnaligned(fromByteOffset: index &+ 4, as: UInt32.self).littleEndian
    let third = buffer.loadUnaligned(fromByteOffset: index &+ 8, as: UInt32.self).littleEndian
    let fourth = buffer.loadUnaligned(fromByteOffset: index &+ 12, as: UInt32.self).littleEndian
    let a =
      t[15 * 256 + Int(first & 0xFF)] ^ t[14 * 256 + Int((first >> 8) & 0xFF)]
      ^ t[13 * 256 + Int((first >> 16) & 0xFF)] ^ t[12 * 256 + Int(first >> 24)]
    let b =
      t[11 * 256 + Int(second & 0xFF)] ^ t[10 * 256 + Int((second >> 8) & 0xFF)]
      ^ t[9 * 256 + Int((second >> 16) & 0xFF)] ^ t[8 * 256 + Int(second >> 24)]
    let c =
      t[7 * 256 + Int(third & 0xFF)] ^ t[6 * 256 + Int((third >> 8) & 0xFF)]
      ^ t[5 * 256 + Int((third >> 16) & 0xFF)] ^ t[4 * 256 + Int(third >> 24)]
    let d =
      t[3 * 256 + Int(fourth & 0xFF)] ^ t[2 * 256 + Int((fourth >> 8) & 0xFF)]
      ^ t[1 * 256 + Int((fourth >> 16) & 0xFF)] ^ t[Int(fourth >> 24)]
    return a ^ b ^ c ^ d
  }

  // MARK: Moving a register past zero bytes
  //
  // The register is a polynomial over GF(2), bit-reflected (bit 31 is x^0). Feeding n
  // zero bytes multiplies it by x^(8n) modulo the polynomial; the checksum of two
  // pieces is the first's register moved past the second's length plus the second's
  // register from zero (Mark Adler's crc32c.c, crc32c_shift).

  /// `a * b` modulo the polynomial, both reflected.
  private static func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
    var b = b
    var product: UInt32 = 0
    var bit: UInt32 = 1 << 31
    while bit != 0 {
      if a & bit != 0 { product ^= b }
      bit >>= 1
      b = b & 1 == 1 ? (b >> 1) ^ 0x82F6_3B78 : b >> 1
    }
    return product
  }

  /// x^(2^k) modulo the polynomial, reflected, for every k a byte count needs (3 to
  /// 65). No fewer with a wrap-around: zlib's CRC-32 table repeats every 32 steps,
  /// but this polynomial's repeats every 31, so indexing `k & 31` would have been
  /// wrong for 2^29 bytes and more.
  private static let powers: [UInt32] = {
    var powers: [UInt32] = []
    var power: UInt32 = 1 << 30  // x^1
    for _ in 0..<(3 + Int.bitWidth) {
      powers.append(power)
      power = multiply(power, power)
    }
    return powers
  }()

  /// `register` moved on past `count` zero bytes, as the checksum's loop would move it
  /// (for the tests: the interleaved checksum combines its streams with it).
  package static func moved(_ register: UInt32, pastZeroBytes count: Int) -> UInt32 {
    multiply(shift(byteCount: count), register)
  }

  /// x^(8n) modulo the polynomial, reflected: what moves a register past `byteCount`
  /// zero bytes.
  private static func shift(byteCount: Int) -> UInt32 {
    var result: UInt32 = 1 << 31  // x^0
    var n = byteCount
    var k = 3  // x^(8n) = x^(n * 2^3)
    while n != 0 {
      if n & 1 == 1 { result = multiply(powers[k], result) }
      n >>= 1
      k += 1
    }
    return result
  }
}
