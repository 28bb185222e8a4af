/// The header of a log chunk (the log-chunks feature): a chunk whose records are committed
/// one by one in place, so that a process killed while writing it leaves every
/// committed record readable. docs/FORMAT.md ("Log chunks") gives the layout:
///
/// | offset | size | field |
/// |---:|---:|---|
/// | 0 | 4 | sync `B7 4C 4F 47` |
/// | 4 | 4 | sequence number |
/// | 8 | 8 | first event index |
/// | 16 | 8 | base time |
/// | 24 | 4 | capacity: bytes reserved for the body |
/// | 28 | 4 | CRC of bytes 0–27 |
/// | 32 | 4 | committed body length |
/// | 36 | 4 | committed record count |
/// | 40 | 4 | CRC of the committed body (once sealed) |
/// | 44 | 4 | seal: CRC of bytes 0–43 (once sealed) |
struct LogChunkHeader: Equatable {
  var sequence: UInt32
  var firstEvent: UInt64
  var baseTime: UInt64
  var capacity: UInt32
  var committedLength: UInt32
  var committedCount: UInt32
  var bodyCRC: UInt32
  /// Whether the seal matches: the writer finished the chunk and the body CRC holds.
  var isSealed: Bool

  /// Offsets of the fields the writer updates in place.
  static let commitOffset = 32
  static let bodyCRCOffset = 40
  static let sealOffset = 44

  /// Bytes 0–31: sync, sequence, first event, base time, capacity and their CRC. The
  /// writer stores bytes 4–31 first and the sync last (see ``DurableTraceFile``).
  static func fixedPart(sequence: UInt32, firstEvent: UInt64, baseTime: UInt64, capacity: UInt32) -> [UInt8] {
    var bytes = BinaryFormat.logChunkSync
    bytes.reserveCapacity(BinaryFormat.logChunkHeaderSize)
    bytes.appendLittleEndian(sequence)
    bytes.appendLittleEndian(firstEvent)
    bytes.appendLittleEndian(baseTime)
    bytes.appendLittleEndian(capacity)
    bytes.appendLittleEndian(CRC32C.checksum(bytes))
    return bytes
  }

  /// The commit word at offset 32: the committed length in the low half, the record
  /// count in the high half, so one aligned 8-byte store publishes both.
  static func commitWord(length: UInt32, count: UInt32) -> UInt64 {
    UInt64(length) | UInt64(count) << 32
  }

  /// The part of a header its CRC of bytes 0–27 protects, when that holds: which chunk
  /// it is, even when the commit word after it is damaged.
  struct Identity {
    var sequence: UInt32
    var firstEvent: UInt64
    var capacity: UInt32

    init?(_ bytes: UnsafeRawBufferPointer) {
      guard bytes.count >= 28, bytes.prefix(4).elementsEqual(BinaryFormat.logChunkSync) else { return nil }
      let cursor = ByteCursor(bytes)
      guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<28])) == cursor.littleEndian(UInt32.self, at: 28)
      else { return nil }
      sequence = cursor.littleEndian(UInt32.self, at: 4)
      firstEvent = cursor.littleEndian(UInt64.self, at: 8)
      capacity = cursor.littleEndian(UInt32.self, at: 24)
    }
  }

  /// Decodes a header from exactly ``BinaryFormat/logChunkHeaderSize`` bytes; `nil` when
  /// the sync bytes or the CRC of bytes 0–27 do not match, or the fields are impossible.
  init?(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count == BinaryFormat.logChunkHeaderSize, let identity = Identity(bytes) else { return nil }
    let cursor = ByteCursor(bytes)
    sequence = identity.sequence
    firstEvent = identity.firstEvent
    baseTime = cursor.littleEndian(UInt64.self, at: 16)
    capacity = identity.capacity
    committedLength = cursor.littleEndian(UInt32.self, at: 32)
    committedCount = cursor.littleEndian(UInt32.self, at: 36)
    bodyCRC = cursor.littleEndian(UInt32.self, at: 40)
    let seal = cursor.littleEndian(UInt32.self, at: 44)
    isSealed = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<44])) == seal
    guard Int(capacity) <= BinaryFormat.maximumChunkPayload,
      committedLength <= capacity,
      committedCount <= committedLength / 2,  // every record takes at least two bytes
      firstEvent <= UInt64(Int64.max) - UInt64(committedCount),
      baseTime <= UInt64(Int64.max)
    else { return nil }
  }
}
