/// The constants of the binary trace form, versions 1 to 3. docs/FORMAT.md describes
/// the layout byte by byte; these numbers are part of that public contract.
public enum BinaryFormat: Sendable {
  /// The file's first eight bytes: `\x89BGT\r\n\x1A\n` (a PNG-style signature that
  /// catches text-mode transfers and truncation to 7 bits).
  public static let magic: [UInt8] = [0x89, 0x42, 0x47, 0x54, 0x0D, 0x0A, 0x1A, 0x0A]
  /// The format version ``BinaryTraceEncoder`` writes by default (sealed chunks only,
  /// the canonical form): version 1's layout with predicted identifiers in task and
  /// run records (docs/FORMAT.md, "Predicted identifiers (version 3)").
  public static let version: UInt8 = 3
  /// The format version ``TraceRecorder`` writes to a file: version 1 plus log chunks,
  /// which are committed record by record (docs/FORMAT.md, "Log chunks").
  public static let logVersion: UInt8 = 2
  /// The versions ``BinaryTraceEncoder`` can write: 1 and 3 (2 is the recorder's).
  public static let writableVersions: Set<UInt8> = [1, 3]
  /// The versions this library reads.
  public static let readableVersions: ClosedRange<UInt8> = 1...3
  /// Bytes before the header body: magic, version, flags, body length, body CRC.
  public static let fileHeaderSize = 18
  /// The largest header body a reader accepts.
  public static let maximumHeaderBody = 1 << 20
  /// The four bytes that start every chunk, so a reader can find the next chunk after damage.
  public static let chunkSync: [UInt8] = [0xB7, 0x43, 0x48, 0x4B]
  /// The size of a chunk header.
  public static let chunkHeaderSize = 40
  /// The four bytes that start every log chunk (version 2).
  public static let logChunkSync: [UInt8] = [0xB7, 0x4C, 0x4F, 0x47]
  /// The size of a log chunk header.
  public static let logChunkHeaderSize = 48
  /// In version 2 files every chunk starts at a multiple of this file offset, so that
  /// a log chunk's commit word is an aligned 8-byte store.
  public static let chunkAlignment = 8
  /// The tag byte of a string definition in a log chunk's body (kind 31, no flags).
  static let stringDefinitionTag: UInt8 = 0x1F
  /// The largest chunk payload a reader accepts.
  public static let maximumChunkPayload = 1 << 24
  /// The payload size at which the writer seals a chunk by default.
  public static let defaultChunkPayload = 64 * 1024

  /// Time deltas and seconds fields are varints of `value << 2 | unit`, with the
  /// largest of these units that divides the value exactly. For nanosecond values of
  /// 2^62 or more that number has 65 bits: a 10-byte varint whose last byte is 2 or 3.
  static let timeUnits: [UInt64] = [1, 1_000, 1_000_000, 1_000_000_000]
}

/// The fixed-size header of one chunk.
struct ChunkHeader: Equatable {
  var payloadLength: UInt32
  var sequence: UInt32
  var firstEvent: UInt64
  var eventCount: UInt32
  var baseTime: UInt64
  var payloadCRC: UInt32

  func encoded() -> [UInt8] {
    var bytes = BinaryFormat.chunkSync
    bytes.reserveCapacity(BinaryFormat.chunkHeaderSize)
    bytes.appendLittleEndian(payloadLength)
    bytes.appendLittleEndian(sequence)
    bytes.appendLittleEndian(firstEvent)
    bytes.appendLittleEndian(eventCount)
    bytes.appendLittleEndian(baseTime)
    bytes.appendLittleEndian(payloadCRC)
    bytes.appendLittleEndian(CRC32C.checksum(bytes))
    return bytes
  }

  /// Decodes a header from exactly ``BinaryFormat/chunkHeaderSize`` bytes; `nil` when the
  /// sync bytes or the header CRC do not match, or the fields are impossible.
  init?(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count == BinaryFormat.chunkHeaderSize,
      bytes.prefix(4).elementsEqual(BinaryFormat.chunkSync)
    else { return nil }
    let cursor = ByteCursor(bytes)
    let storedCRC = cursor.littleEndian(UInt32.self, at: 36)
    guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<36])) == storedCRC else { return nil }
    payloadLength = cursor.littleEndian(UInt32.self, at: 4)
    sequence = cursor.littleEndian(UInt32.self, at: 8)
    firstEvent = cursor.littleEndian(UInt64.self, at: 12)
    eventCount = cursor.littleEndian(UInt32.self, at: 20)
    baseTime = cursor.littleEndian(UInt64.self, at: 24)
    payloadCRC = cursor.littleEndian(UInt32.self, at: 32)
    guard Int(payloadLength) <= BinaryFormat.maximumChunkPayload,
      eventCount <= payloadLength,  // every event takes at least two bytes
      firstEvent <= UInt64(Int64.max) - UInt64(eventCount),
      baseTime <= UInt64(Int64.max)
    else { return nil }
  }

  init(
    payloadLength: UInt32, sequence: UInt32, firstEvent: UInt64, eventCount: UInt32,
    baseTime: UInt64, payloadCRC: UInt32
  ) {
    self.payloadLength = payloadLength
    self.sequence = sequence
    self.firstEvent = firstEvent
    self.eventCount = eventCount
    self.baseTime = baseTime
    self.payloadCRC = payloadCRC
  }
}
