import BackgroundTrace
import Testing

/// The textbook bit-at-a-time CRC-32C, written independently of the library's tables.
private func referenceCRC32C(_ bytes: some Sequence<UInt8>) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in bytes {
    crc ^= UInt32(byte)
    for _ in 0..<8 {
      crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1
    }
  }
  return ~crc
}

/// Deterministic pseudo-random bytes (a 64-bit LCG), so failures reproduce.
private func pseudoRandomBytes(count: Int, seed: UInt64) -> [UInt8] {
  var state = seed
  return (0..<count).map { _ in
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return UInt8(truncatingIfNeeded: state >> 56)
  }
}

@Suite struct CRC32CTests {
  @Test func checkValueOfTheDigitsOneToNineIsE3069283() {
    #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
    #expect(CRC32C.checksum("123456789".utf8) == 0xE306_9283)
  }

  @Test func emptyInputHasChecksumZero() {
    #expect(CRC32C.checksum([UInt8]()) == 0)
  }

  /// The iSCSI test vectors of RFC 3720, appendix B.4.
  @Test func rfc3720VectorsMatch() {
    #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
    #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
    #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
    #expect(CRC32C.checksum((0..<32).reversed().map { UInt8($0) }) == 0x113F_DB5C)
  }

  @Test func referenceImplementationAgreesWithTheKnownCheckValue() {
    #expect(referenceCRC32C("123456789".utf8) == 0xE306_9283)
  }

  /// Lengths around the size from which a buffer is checked as three interleaved
  /// streams, and well past it, so that the thirds, their combination and the tail
  /// after the last full 16 bytes of each third are all exercised.
  @Test func interleavedLengthsMatchTheBitwiseReference() {
    let bytes = pseudoRandomBytes(count: 70_000, seed: 9)
    for count in [4_095, 4_096, 4_097, 4_111, 4_112, 4_127, 4_143, 5_000, 12_345, 65_536, 70_000] {
      for start in [0, 1, 3] where start + count <= bytes.count {
        let slice = bytes[start..<start + count]
        #expect(CRC32C.checksum(slice) == referenceCRC32C(slice), "bytes \(start)..<\(start + count)")
      }
    }
  }

  /// Moving a register past zero bytes, which combines the interleaved streams, agrees
  /// with feeding the zeros for short runs, and composes for runs of 2^29 bytes and
  /// more, where a table of powers that wrapped every 32 steps (right for zlib's
  /// polynomial, not this one's 31) went wrong.
  @Test func movingPastZeroBytesAgreesWithFeedingThemAndComposes() {
    // The register after bytes, without the final inversion: ~checksum.
    func register(after bytes: [UInt8]) -> UInt32 { ~CRC32C.checksum(bytes) }
    for count in [0, 1, 7, 16, 100, 4_096, 10_000] {
      let prefix = pseudoRandomBytes(count: 37, seed: UInt64(count))
      #expect(
        CRC32C.moved(register(after: prefix), pastZeroBytes: count)
          == register(after: prefix + [UInt8](repeating: 0, count: count)), "\(count) zero bytes")
    }
    let start: UInt32 = 0x1234_5678
    for (whole, first) in [
      (1 << 29, 1 << 28), (1 << 29 + 12_345, 1 << 28 + 7), (1 << 30, 1 << 29), (1 << 31 + 5, 1 << 31),
      (3 << 40, 1 << 40),
      (Int.max, 1 << 62),
    ] {
      #expect(
        CRC32C.moved(start, pastZeroBytes: whole)
          == CRC32C.moved(CRC32C.moved(start, pastZeroBytes: first), pastZeroBytes: whole - first),
        "\(whole) = \(first) + \(whole - first)")
    }
  }

  @Test func longBufferMatchesTheBitwiseReference() {
    let bytes = pseudoRandomBytes(count: 1_000_003, seed: 42)
    #expect(CRC32C.checksum(bytes) == referenceCRC32C(bytes))
  }

  /// Every length around the 8-byte slicing boundary, at every alignment, so both the
  /// 8-bytes-at-a-time loop and the byte-at-a-time tail are exercised.
  @Test func everyShortLengthAndAlignmentMatchesTheReference() {
    let bytes = pseudoRandomBytes(count: 80, seed: 7)
    for start in 0..<8 {
      for end in start...bytes.count {
        let slice = bytes[start..<end]
        #expect(CRC32C.checksum(slice) == referenceCRC32C(slice), "bytes \(start)..<\(end)")
      }
    }
  }

  @Test func nonContiguousSequenceMatchesTheArrayPath() {
    let bytes = pseudoRandomBytes(count: 4_099, seed: 3)
    let lazy = bytes.lazy.map { $0 }  // has no contiguous storage
    #expect(CRC32C.checksum(lazy) == CRC32C.checksum(bytes))
    #expect(CRC32C.checksum(lazy) == referenceCRC32C(bytes))
  }

  @Test func rawBufferPathMatchesTheSequencePath() {
    let bytes = pseudoRandomBytes(count: 1_234, seed: 9)
    let viaBuffer = bytes.withUnsafeBytes { CRC32C.checksum($0) }
    #expect(viaBuffer == referenceCRC32C(bytes))
  }

  @Test func singleBitFlipsChangeTheChecksum() {
    var bytes = pseudoRandomBytes(count: 64, seed: 11)
    let original = CRC32C.checksum(bytes)
    for index in bytes.indices {
      for bit in 0..<8 {
        bytes[index] ^= 1 << bit
        #expect(CRC32C.checksum(bytes) != original)
        bytes[index] ^= 1 << bit
      }
    }
  }
}
