import Testing

@testable import BackgroundTrace

/// The cursor reads a varint alike whether 8 bytes follow it (one 8-byte load) or fewer
/// (a byte at a time): each case is read at the end of its buffer and again with
/// padding after it, and must give the same value and length both ways.
@Suite struct VarintReadTests {
  /// Bytes, and the value they hold (LEB128; the first two are the protobuf
  /// documentation's examples).
  static let cases: [(bytes: [UInt8], value: UInt64)] = [
    ([0x96, 0x01], 150),
    ([0xAC, 0x02], 300),
    ([0x80, 0x00], 0),  // overlong, as the format has always read it
    ([0xFF, 0x7F], 16_383),
    ([0x80, 0x80, 0x01], 16_384),
    ([0xFF, 0xFF, 0xFF, 0x7F], 268_435_455),
    ([0x80, 0x80, 0x80, 0x80, 0x01], 268_435_456),
    ([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], 72_057_594_037_927_935),  // 2^56 - 1, 8 bytes
    ([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01], 72_057_594_037_927_936),  // 2^56, 9 bytes
    ([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], UInt64.max),
  ]

  @Test(arguments: 0..<cases.count, [0, 1, 12])
  func aVarintReadsAlikeWithOrWithoutBytesAfterIt(index: Int, padding: Int) {
    let (bytes, value) = Self.cases[index]
    let buffer = bytes + [UInt8](repeating: 0x85, count: padding)
    buffer.withUnsafeBytes { raw in
      var cursor = ByteCursor(raw)
      #expect(cursor.varint() == value)
      #expect(cursor.offset == bytes.count)
      var wide = ByteCursor(raw)
      let read = wide.wideVarint()
      #expect(read?.low == value && read?.high == 0)
      #expect(wide.offset == bytes.count)
    }
  }

  @Test(arguments: [0, 12])
  func aVarintCutShortReadsAsNothing(padding: Int) {
    // Eight bytes that all say "more follows", then nothing, or padding that also says
    // more: 10 such bytes overflow 64 bits.
    let buffer = [UInt8](repeating: 0x80, count: 8 + padding)
    buffer.withUnsafeBytes { raw in
      var cursor = ByteCursor(raw)
      #expect(cursor.varint() == nil)
      var wide = ByteCursor(raw)
      #expect(wide.wideVarint() == nil)
    }
  }

  @Test func aWideVarintHoldsBit64() {
    // 2^64 + 1: the tenth byte's second bit is bit 64.
    let bytes: [UInt8] = [0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02]
    bytes.withUnsafeBytes { raw in
      var cursor = ByteCursor(raw)
      let read = cursor.wideVarint()
      #expect(read?.low == 1 && read?.high == 1)
      var narrow = ByteCursor(raw)
      #expect(narrow.varint() == nil)
    }
  }
}
