/// The constants of the binary trace form. docs/FORMAT.md describes the layout byte by
/// byte; these numbers are part of that public contract.
///
/// Every writer writes version 4, whose optional parts are ``Features`` named by the
/// header's flags byte. Versions 1 to 3, whose features their number implied, are
/// still read.
public enum BinaryFormat: Sendable {
  /// The file's first eight bytes: `\x89BGT\r\n\x1A\n` (a PNG-style signature that
  /// catches text-mode transfers and truncation to 7 bits).
  public static let magic: [UInt8] = [0x89, 0x42, 0x47, 0x54, 0x0D, 0x0A, 0x1A, 0x0A]
  /// The format version every writer writes: its features are in the header's flags
  /// byte, which the header CRC covers (docs/FORMAT.md, "Version 4 and its features").
  public static let version: UInt8 = 4
  /// The versions this library reads.
  public static let readableVersions: ClosedRange<UInt8> = 1...4

  /// The optional parts of the format a file uses: version 4's flags byte.
  ///
  /// A reader refuses a file whose flags name a feature it does not know, rather than
  /// misread it. Each bit's meaning never changes once published.
  public struct Features: OptionSet, Sendable, Hashable {
    /// The flags byte.
    public var rawValue: UInt8
    /// Creates a set from the flags byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0: the file may hold log chunks, which a recorder commits record by record;
    /// every chunk starts at a multiple of ``BinaryFormat/chunkAlignment``, and the
    /// file may end in unwritten space (docs/FORMAT.md, "Log chunks").
    public static let logChunks = Features(rawValue: 1 << 0)
    /// Bit 1: task and run records may leave out an identifier that is the predicted
    /// one (docs/FORMAT.md, "Predicted identifiers").
    public static let predictedIdentifiers = Features(rawValue: 1 << 1)
    /// Every feature this library knows.
    public static let known: Features = [.logChunks, .predictedIdentifiers]

    /// The features an earlier version's number implied: none for version 1, log
    /// chunks for 2, predicted identifiers for 3; `nil` for any other number.
    public init?(ofVersion version: UInt8) {
      switch version {
      case 1: self = []
      case 2: self = .logChunks
      case 3: self = .predictedIdentifiers
      default: return nil
      }
    }
  }

  /// The features ``BinaryTraceEncoder`` writes: sealed chunks, predicted identifiers.
  package static let encoderFeatures: Features = .predictedIdentifiers
  /// The features ``TraceRecorder`` writes to a file: log chunks, committed record by
  /// record (its records carry every identifier).
  package static let recorderFeatures: Features = .logChunks

  /// Bytes before the header body: magic, version, flags, body length, body CRC.
  public static let fileHeaderSize = 18
  /// The largest header body a reader accepts.
  public static let maximumHeaderBody = 1 << 20
  /// The four bytes that start every chunk, so a reader can find the next chunk after damage.
  public static let chunkSync: [UInt8] = [0xB7, 0x43, 0x48, 0x4B]
  /// The size of a chunk header.
  public static let chunkHeaderSize = 40
  /// The four bytes that start every log chunk.
  public static let logChunkSync: [UInt8] = [0xB7, 0x4C, 0x4F, 0x47]
  /// The size of a log chunk header.
  public static let logChunkHeaderSize = 48
  /// The four bytes that start a stop record, after the last log chunk of a recording
  /// that could not go on writing.
  public static let stopRecordSync: [UInt8] = [0xB7, 0x53, 0x54, 0x50]
  /// In files with log chunks every chunk starts at a multiple of this file offset, so that
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

/// A file header: magic, version 4, the features, the metadata (docs/FORMAT.md, "File
/// header"). The header CRC covers the version and flags bytes and the body, so that a
/// damaged flags byte is never read as other features.
struct FileHeader {
  /// 4; an earlier version only for the tests of the earlier vectors, with the
  /// features its number implies and a flags byte of 0.
  var version = BinaryFormat.version
  var features: BinaryFormat.Features
  var meta: TraceMetadata

  func encoded() -> [UInt8] {
    var body: [UInt8] = []
    Varint.append(UInt64(meta.entries.count), to: &body)
    for entry in meta.entries {
      Varint.append(UInt64(entry.key.utf8.count), to: &body)
      body.append(contentsOf: entry.key.utf8)
      Varint.append(UInt64(entry.value.utf8.count), to: &body)
      body.append(contentsOf: entry.value.utf8)
    }
    var bytes = BinaryFormat.magic
    let flags = version < 4 ? 0 : features.rawValue
    bytes.append(version)
    bytes.append(flags)
    bytes.appendLittleEndian(UInt32(body.count))
    bytes.appendLittleEndian(Self.checksum(version: version, flags: flags, body: body))
    bytes.append(contentsOf: body)
    return bytes
  }

  /// The header CRC: of the body alone in versions 1 to 3, of the version and flags
  /// bytes and then the body in version 4.
  static func checksum(version: UInt8, flags: UInt8, body: some Collection<UInt8>) -> UInt32 {
    version < 4 ? CRC32C.checksum(body) : CRC32C.checksum([version, flags] + body)
  }
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
