/// The record a recorder leaves where its next log chunk would have gone when it could
/// not go on writing (a full disk, a file-size limit, an I/O error, an event with no
/// binary form): where the trace stops, why, and how many events it did not write.
/// docs/FORMAT.md ("Stop record") gives the layout:
///
/// | offset | size | field |
/// |---:|---:|---|
/// | 0 | 4 | sync `B7 53 54 50` (`\xB7STP`) |
/// | 4 | 4 | sequence number (the next chunk's) |
/// | 8 | 8 | events written: the trace's events before the stop |
/// | 16 | 8 | time of the last event written (ns) |
/// | 24 | 8 | time of the first event not written (ns) |
/// | 32 | 2 | *M*, the reason's length in bytes |
/// | 34 | 2 | zero |
/// | 36 | 4 | CRC of bytes 0–35 and the reason |
/// | 40 | 8 | time of the last event not written (ns), updated in place |
/// | 48 | 8 | count word: events not written *U* (low half) and its complement (high half) |
/// | 56 | *M* | the reason, UTF-8 |
///
/// The writer stores bytes 4 onwards, then the sync; after that only the words at 40
/// and 48, each with one aligned 8-byte store, so a reader sees either the old or the
/// new count, and a torn count word (its halves not complements) reads as unknown.
struct StopRecord: Equatable, Sendable {
  var sequence: UInt32
  var eventsWritten: UInt64
  var lastWrittenTime: UInt64
  var firstUnwrittenTime: UInt64
  var reason: String
  var lastUnwrittenTime: UInt64
  /// Events not written, or `nil` when the count word is torn.
  var unwrittenEvents: UInt64?

  /// The space a writer keeps free after its chunks for a stop record, including
  /// alignment padding before it.
  static let reservedSize = 256
  /// The bytes before the reason.
  static let fixedSize = 56
  /// The longest reason, in bytes, that fits in the reserved space.
  static let maximumReason = reservedSize - fixedSize - BinaryFormat.chunkAlignment
  static let lastUnwrittenTimeOffset = 40
  static let countOffset = 48

  /// The record's bytes: the whole record with `sync` in bytes 0–3. A writer stores
  /// `bytes[4...]` first and the sync last.
  func encoded() -> [UInt8] {
    var bytes = BinaryFormat.stopRecordSync
    bytes.appendLittleEndian(sequence)
    bytes.appendLittleEndian(eventsWritten)
    bytes.appendLittleEndian(lastWrittenTime)
    bytes.appendLittleEndian(firstUnwrittenTime)
    let reason = Self.truncated(reason)
    bytes.appendLittleEndian(UInt16(reason.count))
    bytes.appendLittleEndian(UInt16(0))
    bytes.appendLittleEndian(CRC32C.checksum(bytes + reason))
    bytes.appendLittleEndian(lastUnwrittenTime)
    bytes.appendLittleEndian(Self.countWord(unwrittenEvents ?? 0))
    return bytes + reason
  }

  /// At most ``maximumReason`` bytes of `reason`, cut at a character boundary.
  private static func truncated(_ reason: String) -> [UInt8] {
    var bytes: [UInt8] = []
    for character in reason {
      let utf8 = Array(String(character).utf8)
      guard bytes.count + utf8.count <= maximumReason else { break }
      bytes += utf8
    }
    return bytes
  }

  /// The count word for `count` events not written: the count (at most `UInt32.max`)
  /// and its complement, so one 8-byte store replaces both and a torn word is visible.
  static func countWord(_ count: UInt64) -> UInt64 {
    let count = UInt32(min(count, UInt64(UInt32.max)))
    return UInt64(count) | UInt64(~count) << 32
  }

  /// The record's size with its reason: where the next byte after it is.
  var size: Int { Self.fixedSize + Self.truncated(reason).count }

  /// Decodes the record at the start of `bytes`; `nil` unless the sync bytes and the CRC
  /// hold (bytes after the record are not looked at).
  init?(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count >= Self.fixedSize, bytes.prefix(4).elementsEqual(BinaryFormat.stopRecordSync) else {
      return nil
    }
    let cursor = ByteCursor(bytes)
    let length = Int(cursor.littleEndian(UInt16.self, at: 32))
    guard length <= Self.maximumReason, bytes.count >= Self.fixedSize + length else { return nil }
    var checked = Array(bytes[0..<36])
    checked += bytes[Self.fixedSize..<(Self.fixedSize + length)]
    guard CRC32C.checksum(checked) == cursor.littleEndian(UInt32.self, at: 36) else { return nil }
    sequence = cursor.littleEndian(UInt32.self, at: 4)
    eventsWritten = cursor.littleEndian(UInt64.self, at: 8)
    lastWrittenTime = cursor.littleEndian(UInt64.self, at: 16)
    firstUnwrittenTime = cursor.littleEndian(UInt64.self, at: 24)
    reason = String(decoding: bytes[Self.fixedSize..<(Self.fixedSize + length)], as: UTF8.self)
    lastUnwrittenTime = cursor.littleEndian(UInt64.self, at: 40)
    let word = cursor.littleEndian(UInt64.self, at: 48)
    let (count, check) = (UInt32(truncatingIfNeeded: word), UInt32(truncatingIfNeeded: word >> 32))
    unwrittenEvents = check == ~count ? UInt64(count) : nil
  }

  /// A stop after `eventsWritten` events; `firstUnwrittenTime` is the time of the event
  /// that could not be written, if one could not (else the count starts at 0).
  init(
    sequence: UInt32, eventsWritten: UInt64, lastWrittenTime: UInt64, firstUnwrittenTime: UInt64?, reason: String
  ) {
    self.sequence = sequence
    self.eventsWritten = eventsWritten
    self.lastWrittenTime = lastWrittenTime
    self.firstUnwrittenTime = firstUnwrittenTime ?? lastWrittenTime
    self.reason = reason
    self.lastUnwrittenTime = self.firstUnwrittenTime
    self.unwrittenEvents = firstUnwrittenTime == nil ? 0 : 1
  }
}
