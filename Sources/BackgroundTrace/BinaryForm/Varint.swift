/// LEB128 unsigned varints and ZigZag signed deltas, as the binary form uses them.
enum Varint {
  /// Appends `value` as an unsigned LEB128 varint (1 to 10 bytes).
  @inline(__always)
  static func append(_ value: UInt64, to bytes: inout some ByteAppending) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  /// Appends the 65-bit number `high << 64 | low` (`high` ≤ 1) as a 10-byte LEB128 varint.
  static func appendWide(low: UInt64, high: UInt64, to bytes: inout some ByteAppending) {
    var value = low
    for _ in 0..<9 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(truncatingIfNeeded: value | high << 1))
  }

  /// ZigZag-maps a signed value so that small magnitudes give small varints.
  @inline(__always)
  static func zigzag(_ value: Int64) -> UInt64 {
    UInt64(bitPattern: (value << 1) ^ (value >> 63))
  }

  /// The inverse of ``zigzag(_:)``.
  @inline(__always)
  static func unzigzag(_ value: UInt64) -> Int64 {
    Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
  }
}

/// A bounds-checked reader over a chunk's bytes: every read returns `nil` rather
/// than reading past the end, so hostile input cannot trap.
struct ByteCursor {
  let buffer: UnsafeRawBufferPointer
  var offset: Int
  /// The buffer's bytes as a typed pointer, whose subscript is always inlined (the
  /// raw buffer's is not, in a function as large as the record parser).
  private let start: UnsafePointer<UInt8>
  private let count: Int

  init(_ buffer: UnsafeRawBufferPointer, offset: Int = 0) {
    self.buffer = buffer
    self.offset = offset
    count = buffer.count
    // Never read when the buffer is empty.
    start = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 1)!
  }

  var isAtEnd: Bool { offset >= count }
  var remaining: Int { count - offset }

  @inline(__always)
  mutating func byte() -> UInt8? {
    guard offset < count else { return nil }
    defer { offset += 1 }
    return start[offset]
  }

  /// An unsigned LEB128 varint of at most 10 bytes that fits in 64 bits.
  @inline(__always)
  mutating func varint() -> UInt64? {
    guard offset < count else { return nil }
    let first = start[offset]
    if first < 0x80 {
      offset += 1
      return UInt64(first)
    }
    if let value = shortMultibyte() { return value }
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while offset < count {
      let byte = start[offset]
      offset += 1
      if shift == 63 && byte > 1 { return nil }  // would overflow 64 bits
      result |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return result }
      shift += 7
      if shift > 63 { return nil }
    }
    return nil
  }

  /// An unsigned LEB128 varint of at most 10 bytes holding up to 65 bits: the low 64
  /// bits and bit 64 (0 or 1). Scaled times use it, because `value << 2 | unit` of a
  /// time of 2^62 ns or more needs 65 bits.
  @inline(__always)
  mutating func wideVarint() -> (low: UInt64, high: UInt64)? {
    if offset < count, start[offset] < 0x80 {
      defer { offset += 1 }
      return (UInt64(start[offset]), 0)
    }
    if let value = shortMultibyte() { return (value, 0) }
    var low: UInt64 = 0
    var shift: UInt64 = 0
    while offset < count {
      let byte = start[offset]
      offset += 1
      if shift == 63 {
        guard byte <= 3 else { return nil }  // would overflow 65 bits
        return (low | UInt64(byte & 1) << 63, UInt64(byte >> 1))
      }
      low |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return (low, 0) }
      shift += 7
    }
    return nil
  }

  /// A varint of 2 to 8 bytes read from one 8-byte load, when 8 bytes remain; `nil`,
  /// with nothing read, for any other (the byte loop reads it).
  ///
  /// Without a branch per byte: the varint's end is the first byte whose high bit is
  /// clear, and its 7-bit groups are packed by three shift-and-mask steps.
  @inline(__always)
  private mutating func shortMultibyte() -> UInt64? {
    guard count - offset >= 8 else { return nil }
    let word = UInt64(littleEndian: UnsafeRawPointer(start + offset).loadUnaligned(as: UInt64.self))
    let ends = ~word & 0x8080_8080_8080_8080
    guard ends != 0 else { return nil }
    let length = (ends.trailingZeroBitCount + 1) >> 3
    let used = length == 8 ? word : word & ((1 &<< (UInt64(length) &* 8)) &- 1)
    var value = used & 0x7F7F_7F7F_7F7F_7F7F
    value = (value & 0x007F_007F_007F_007F) | (value & 0x7F00_7F00_7F00_7F00) >> 1
    value = (value & 0x0000_3FFF_0000_3FFF) | (value & 0x3FFF_0000_3FFF_0000) >> 2
    value = (value & 0x0000_0000_0FFF_FFFF) | (value & 0x0FFF_FFFF_0000_0000) >> 4
    offset &+= length
    return value
  }

  mutating func bytes(_ count: Int) -> UnsafeRawBufferPointer? {
    guard count >= 0, count <= remaining else { return nil }
    defer { offset += count }
    return UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])
  }

  func littleEndian<T: FixedWidthInteger>(_: T.Type, at position: Int) -> T {
    buffer.loadUnaligned(fromByteOffset: position, as: T.self).littleEndian
  }
}

extension Array where Element == UInt8 {
  @inline(__always)
  mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
    Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
  }
}
