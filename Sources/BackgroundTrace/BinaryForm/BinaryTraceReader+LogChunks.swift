/// Reading log chunks, sealed or not, and the unwritten space a recorder leaves
/// (docs/FORMAT.md, "Log chunk").
extension BinaryTraceReader {
  /// The next event of the current log chunk, built whole.
  mutating func takeChunkEvent() -> LocatedEvent {
    recordLocation = Int(firstEventNumber) + events.consumed + 1
    return LocatedEvent(event: events.take(), location: recordLocation)
  }

  /// The next event of the current log chunk, its strings interned in ``strings``.
  mutating func takeCompactChunkEvent() -> CompactEvent {
    recordLocation = Int(firstEventNumber) + events.consumed + 1
    return events.takeCompact(interning: &strings)
  }

  /// Whether the rest of the input, from a chunk position, is space a recorder reserved
  /// but never published a chunk in: four zero bytes where the sync would be, and no
  /// nonzero byte after the first log chunk header's worth (docs/FORMAT.md, "Unwritten
  /// space"). Looks at most one chunk's worth of bytes ahead.
  mutating func unwrittenSpaceFollows() throws(ByteSourceError) -> Bool {
    guard try ensure(4), buffer[position..<position + 4].allSatisfy({ $0 == 0 }) else { return false }
    let limit = BinaryFormat.maximumChunkPayload + 2 * BinaryFormat.logChunkHeaderSize
    var checked = BinaryFormat.logChunkHeaderSize
    while true {
      if checked < available {
        guard buffer[(position + checked)...].allSatisfy({ $0 == 0 }) else { return false }
        checked = available
      }
      if exhausted { return true }
      guard available < limit else { return false }
      _ = try ensure(available + 1)
    }
  }

  /// Reads the log chunk at the position: `true` when its events are loaded, `false`
  /// when it was skipped or reported lost, `nil` when its header is not intact (the
  /// caller treats it as damaged bytes).
  mutating func nextLogChunk() throws(ByteSourceError) -> Bool? {
    let headerSize = BinaryFormat.logChunkHeaderSize
    guard try ensure(headerSize) else {
      reportTornHeader("log chunk header")
      finished = true
      return false
    }
    let header = buffer.withUnsafeBytes { raw in
      LogChunkHeader(UnsafeRawBufferPointer(rebasing: raw[position..<position + headerSize]))
    }
    guard let header else { return nil }
    sawLogChunk = true
    closeGap(before: header.firstEvent, sequence: header.sequence)
    let chunkOffset = offset
    let first = header.firstEvent
    let count = UInt64(header.committedCount)
    let label =
      count == 0
      ? "log chunk \(header.sequence) at byte \(chunkOffset) (no events)"
      : "log chunk \(header.sequence) at byte \(chunkOffset) (events \(first + 1)–\(first + count))"
    let length = Int(header.committedLength)
    let total = headerSize + length
    guard try ensure(total) else {
      // No CRC protects an unsealed body anyway: its whole records before the cut are
      // as trustworthy as a complete one's.
      var kept: UInt64 = 0
      if !header.isSealed && header.baseTime >= lastTime {
        events.removeAll()
        buffer.withUnsafeBytes { raw in
          ChunkDecoder.decodeLogPrefix(
            UnsafeRawBufferPointer(rebasing: raw[position + headerSize..<buffer.count]), count: Int(count),
            baseTime: header.baseTime,
            predictedIDs: features.contains(.predictedIdentifiers), into: &events)
        }
        kept = UInt64(events.count)
      }
      // An unsealed chunk is the last its writer started, so what it lost is all that
      // is lost; a sealed one may have had chunks after it.
      let lost = count - kept
      report(
        at: chunkOffset, length: available, lost: header.isSealed ? nil : Int(lost), atLeast: Int(lost),
        "the file ends at byte \(chunkOffset + available), inside log chunk \(header.sequence) "
          + (count == 0 ? "(no events)" : "(events \(first + 1)–\(first + count))")
          + ", which starts at byte \(chunkOffset): \(available - headerSize) of its \(length) committed bytes are "
          + "there (a torn tail); "
          + (kept > 1 ? "the \(kept) whole records before the cut are recovered, " : "")
          + (kept == 1 ? "the 1 whole record before the cut is recovered, " : "")
          + (header.isSealed
            ? "at least \(lost) events lost: the chunk's \(lost), and any after them" : "\(lost) events lost"),
        endsTrace: header.isSealed || lost > 0)
      position = buffer.count
      expectedEvent = first + count
      finished = true
      guard kept > 0 else { return false }
      firstEventNumber = first
      lastTime = events.lastTime!
      return true
    }
    if first < expectedEvent {
      report(at: chunkOffset, length: total, lost: 0, "\(label) repeats event numbers already read; skipped")
      position += total
      return false
    }
    let loss = buffer.withUnsafeBytes { raw -> ChunkLoss? in
      let body = UnsafeRawBufferPointer(rebasing: raw[position + headerSize..<position + total])
      if header.isSealed && CRC32C.checksum(body) != header.bodyCRC { return .checksumMismatch }
      guard header.baseTime >= lastTime else { return .startsTooEarly }
      events.removeAll()
      do throws(ChunkDecoder.Failure) {
        try ChunkDecoder.decodeLog(
          body, count: Int(count), baseTime: header.baseTime, predictedIDs: features.contains(.predictedIdentifiers),
          into: &events)
        return nil
      } catch {
        return .malformed(error)
      }
    }
    expectedEvent = max(expectedEvent, first + count)
    if header.isSealed {
      position += total
    } else {
      // An unsealed chunk is the last one its writer started; the rest of its reserved
      // capacity holds at most an uncommitted record and is not read.
      let reserved = headerSize + Int(header.capacity)
      _ = try ensure(reserved)
      let uncommitted = buffer[(position + total)..<(position + min(reserved, available))].contains { $0 != 0 }
      // The reserved room after the committed body, never written, is unwritten space.
      if !uncommitted { unwrittenBytes += min(reserved, available) - total }
      position += min(reserved, available)
      if loss == nil {
        let recovered =
          count == 0
          ? "it holds no committed events"
          : "its \(count) committed events are recovered"
        report(
          at: chunkOffset, length: min(reserved, total), lost: 0,
          "\(label) is unsealed (the writer did not close the file); \(recovered)"
            + (uncommitted ? " and the bytes after them, an uncommitted record, are ignored" : "")
            + "; nothing is lost",
          kind: .unsealedTail)
      }
    }
    guard let loss else {
      firstEventNumber = first
      lastTime = events.lastTime ?? header.baseTime
      return !events.isEmpty
    }
    reportLost(loss, label, at: chunkOffset, length: total, count: count, part: "body")
    return false
  }

}
