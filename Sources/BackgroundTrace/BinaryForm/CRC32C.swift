/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), as used by iSCSI, ext4 and
/// the binary trace form. `CRC32C.checksum("123456789".utf8) == 0xE3069283`.
package enum CRC32C {
  /// Eight 256-entry tables, one after another, for slicing-by-8: about 8× faster
  /// than the byte-at-a-time loop, which matters because the reader checks every chunk.
  private static let table: [UInt32] = {
    var table = [UInt32](repeating: 0, count: 8 * 256)
    for byte in 0..<256 {
      var crc = UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
      table[byte] = crc
    }
    for slice in 1..<8 {
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
  /// - Complexity: O(*n*).
  package static func checksum(_ buffer: UnsafeRawBufferPointer) -> UInt32 {
    table.withUnsafeBufferPointer { t in
      var crc: UInt32 = 0xFFFF_FFFF
      var index = 0
      let count = buffer.count
      while count - index >= 8 {
        let low = buffer.loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian ^ crc
        let high = buffer.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self).littleEndian
        crc =
          t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
          ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
          ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
          ^ t[1 * 256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
        index += 8
      }
      while index < count {
        crc = (crc >> 8) ^ t[Int((crc ^ UInt32(buffer[index])) & 0xFF)]
        index += 1
      }
      return ~crc
    }
  }
}
