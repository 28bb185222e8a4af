/// Reading sealed chunks: finding and checking each, then decoding its records as they
/// are read (docs/FORMAT.md, "Chunk" and "Reading, and what counts as damage").
extension BinaryTraceReader {
  /// Decodes up to `count` of the current sealed chunk's records into `base` and
  /// returns how many; a record that does not parse ends the chunk, as in
  /// ``nextRecord()``.
  mutating func decodeRecords(into base: UnsafeMutablePointer<CompactEvent>, count: Int) -> Int {
    if !decoder.stringsInterned { internChunkStrings() }
    let wanted = min(count, pendingRecords)
    // The decoder is moved out for the loop, so that its arrays stay uniquely referenced.
    var decoder = ChunkDecoder(strings: [], time: 0)
    swap(&decoder, &self.decoder)
    var cursor = ByteCursor(payload.bytes, offset: recordOffset)
    var read = 0
    var failure: ChunkDecoder.Failure?
    // The state before the batch, not before each record: a copy per record loads what
    // the record's decoding has just stored, and waits for those stores to complete.
    let batchStart = (offset: cursor.offset, time: decoder.time, taskID: decoder.lastTaskID, run: decoder.lastRun)
    while read < wanted {
      do throws(ChunkDecoder.Failure) {
        try decoder.compactRecord(&cursor, into: &base[read])
      } catch {
        failure = error
        break
      }
      if base[read].tag == .envSet { base[read].string = strings.internSettings(decoder.settingIDs) }
      read += 1
    }
    if failure != nil && read > 0 {
      // The records before it are handed out first; the record is decoded again, and
      // reported, when it is the next to read, as one by one. The state before it is
      // found by decoding the batch's records again, which gave the same events before
      // (failures are rare; this path is not timed).
      failure = nil
      cursor.offset = batchStart.offset
      (decoder.time, decoder.lastTaskID, decoder.lastRun) = (batchStart.time, batchStart.taskID, batchStart.run)
      var again = CompactEvent(time: 0, tag: .appLaunch)
      for _ in 0..<read {
        do throws(ChunkDecoder.Failure) {
          try decoder.compactRecord(&cursor, into: &again)
        } catch {
          assertionFailure("a record that decoded does not decode again")
        }
      }
    }
    swap(&decoder, &self.decoder)
    pendingRecords -= read
    recordLocation += read
    if let failure {
      pendingRecords -= 1
      recordFailed(failure, previousTime: batchStart.time)  // the batch's first record failed
    } else {
      recordOffset = cursor.offset
    }
    return read
  }

  /// Gives the current sealed chunk's strings their trace-wide ids, once per chunk.
  @inline(never)
  mutating func internChunkStrings() {
    decoder.internStrings(&strings)
  }

  /// Reports the rest of the current sealed chunk lost, from the record that did not
  /// parse; the events before it were handed out. Reading goes on with the next chunk.
  @inline(never)
  mutating func recordFailed(_ failure: ChunkDecoder.Failure, previousTime: UInt64) {
    let chunk = sealedChunk!
    sealedChunk = nil
    let lost = pendingRecords + 1
    let read = chunk.count - lost
    pendingRecords = 0
    lastTime = previousTime
    report(
      at: chunk.offset, length: chunk.length, lost: lost,
      "\(chunk.label) is malformed at payload byte \(failure.offset) (\(failure.message)); "
        + (read == 0
          ? "" : read == 1 ? "the event before it is recovered, " : "the \(read) events before it are recovered, ")
        + "\(lost) events lost")
  }

  /// Ends the current sealed chunk after its last record was read: the next chunk
  /// starts no earlier than its last event, and no bytes may follow that record.
  mutating func finishSealedChunk() {
    guard let chunk = sealedChunk else { return }
    sealedChunk = nil
    lastTime = decoder.time
    let extra = payload.bytes.count - recordOffset
    if extra > 0 {
      report(
        at: chunk.offset, length: chunk.length, lost: 0,
        "\(chunk.label) is malformed at payload byte \(recordOffset) (\(extra) bytes after the last event); "
          + (chunk.count == 0
            ? "it holds no events"
            : chunk.count == 1 ? "its event is recovered" : "its \(chunk.count) events are recovered")
          + " and the extra bytes ignored")
    }
  }

  /// Loads the next intact chunk into `events`; `false` at the end of the input.
  mutating func nextChunk() throws(ByteSourceError) -> Bool {
    let headerSize = BinaryFormat.chunkHeaderSize
    finishSealedChunk()
    while true {
      if gapStart == nil { try skipPadding() }
      guard try ensure(1) else {
        closeGap(before: nil)
        return false
      }
      if hasLogChunkLayout && gapStart == nil, try unwrittenSpaceFollows() {
        unwrittenBytes += available
        position = buffer.count
        return false
      }
      if features.contains(.logChunks), try ensure(4),
        buffer[position..<position + 4].elementsEqual(BinaryFormat.logChunkSync),
        let loaded = try nextLogChunk()
      {
        if loaded { return true }
        continue
      }
      if features.contains(.logChunks), try ensure(4),
        buffer[position..<position + 4].elementsEqual(BinaryFormat.stopRecordSync),
        try readStopRecord()
      {
        continue
      }
      guard try ensure(headerSize) else {
        reportTornHeader("chunk header")
        return false
      }
      let header = buffer.withUnsafeBytes { raw in
        ChunkHeader(UnsafeRawBufferPointer(rebasing: raw[position..<position + headerSize]))
      }
      guard let header else {
        if gapStart == nil { startGap() }
        try skipToNextSync()
        continue
      }
      closeGap(before: header.firstEvent, sequence: header.sequence)
      let chunkOffset = offset
      let first = header.firstEvent
      let count = UInt64(header.eventCount)
      let label = "chunk \(header.sequence) at byte \(chunkOffset) (events \(first + 1)–\(first + count))"
      let total = headerSize + Int(header.payloadLength)
      guard try ensure(total) else {
        report(
          at: chunkOffset, length: available, lost: nil, atLeast: Int(count),
          "the file ends at byte \(chunkOffset + available), inside chunk \(header.sequence) (events "
            + "\(first + 1)–\(first + count)), which starts at byte \(chunkOffset): \(available - headerSize) of its "
            + "\(header.payloadLength) payload bytes are there (a torn tail); at least \(count) events lost: the "
            + "chunk's \(count), and any after them",
          endsTrace: true)
        position = buffer.count
        expectedEvent = first + count
        return false
      }
      defer {
        position += total
        expectedEvent = max(expectedEvent, first + count)
      }
      if first < expectedEvent {
        report(at: chunkOffset, length: total, lost: 0, "\(label) repeats event numbers already read; skipped")
        continue
      }
      let outcome = buffer.withUnsafeBytes { raw in
        Self.checkChunk(
          UnsafeRawBufferPointer(rebasing: raw[position + headerSize..<position + total]), header,
          after: lastTime, predictedIDs: features.contains(.predictedIdentifiers))
      }
      switch outcome {
      case .failure(let loss):
        reportLost(loss, label, at: chunkOffset, length: total, count: count, part: "payload")
      case .success(let (decoder, recordsStart)):
        // Copy the payload out of the read buffer, which moves on as the next chunk is read.
        if !isKnownUniquelyReferenced(&payload) { payload = ChunkPayload() }
        buffer.withUnsafeBytes { raw in
          payload.replace(with: UnsafeRawBufferPointer(rebasing: raw[position + headerSize..<position + total]))
        }
        self.decoder = decoder
        recordOffset = recordsStart
        pendingRecords = Int(count)
        recordLocation = Int(first)
        sealedChunk = SealedChunk(offset: chunkOffset, length: total, label: label, count: Int(count))
        // A chunk of no events ends here; one with events when its last is read.
        if count == 0 {
          finishSealedChunk()
          continue
        }
        return true
      }
    }
  }

  /// The sealed chunk whose records ``next()`` is reading, for a damage report.
  struct SealedChunk {
    var offset: Int
    var length: Int
    var label: String
    var count: Int
  }

  /// Checks a sealed chunk's payload CRC, base time and string table before any of its
  /// events is read; its records are checked as they are read.
  static func checkChunk(
    _ payload: UnsafeRawBufferPointer, _ header: ChunkHeader, after lastTime: UInt64, predictedIDs: Bool
  ) -> Result<(decoder: ChunkDecoder, recordsStart: Int), ChunkLoss> {
    guard CRC32C.checksum(payload) == header.payloadCRC else { return .failure(.checksumMismatch) }
    guard header.baseTime >= lastTime else { return .failure(.startsTooEarly) }
    do throws(ChunkDecoder.Failure) {
      let (decoder, start) = try ChunkDecoder.start(payload, baseTime: header.baseTime, predictedIDs: predictedIDs)
      return .success((decoder, start))
    } catch {
      return .failure(.malformed(error))
    }
  }
}
