/// Reporting damage: the bytes skipped between chunks, what a torn tail lost, and
/// finding the next chunk after damage.
extension BinaryTraceReader {
  /// Reports the file ending inside a `header` (with any damaged bytes before it) and
  /// moves past the end.
  mutating func reportTornHeader(_ header: String) {
    let start = gapStart ?? offset
    gapStart = nil
    gapCause = nil
    gapFollowsHeader = false
    report(
      at: start, length: offset + available - start, lost: nil,
      "the file ends \(available) bytes into a \(header) (a torn tail); the events of that chunk and any after "
        + "it are lost (how many is unknown)",
      endsTrace: true)
    position = buffer.count
  }

  /// Moves past the current byte to the next place a chunk's sync bytes appear (or the
  /// end): a sealed chunk's, or in a file that may hold log chunks, a log chunk's too.
  mutating func skipToNextSync() throws(ByteSourceError) {
    position += 1
    let sync = BinaryFormat.chunkSync
    let logSync = BinaryFormat.logChunkSync
    let stopSync = BinaryFormat.stopRecordSync
    let findsLogChunks = features.contains(.logChunks)
    while true {
      // Both syncs start with the same byte.
      if let index = buffer[position...].firstIndex(of: sync[0]) {
        position = index
        guard try ensure(sync.count) else { return }
        let candidate = buffer[position..<position + sync.count]
        if candidate.elementsEqual(sync)
          || (findsLogChunks && (candidate.elementsEqual(logSync) || candidate.elementsEqual(stopSync)))
        {
          return
        }
        position += 1
      } else {
        position = buffer.count
        guard try ensure(1) else { return }
      }
    }
  }

  /// Reports the damaged bytes skipped since `gapStart`, with the events lost there.
  mutating func closeGap(before firstEvent: UInt64?, sequence: UInt32 = 0) {
    if let start = gapStart {
      gapStart = nil
      let length = offset - start
      let cause = gapCause.map { "\($0); " } ?? ""
      gapCause = nil
      let followsHeader = gapFollowsHeader
      gapFollowsHeader = false
      if followsHeader, firstEvent == expectedEvent, let header = damage.indices.last {
        // The damaged header's own bytes, up to the first chunk: one report, not two.
        damage[header].length = offset - damage[header].offset
        return
      }
      if let firstEvent {
        let lost = firstEvent >= expectedEvent ? Int(firstEvent - expectedEvent) : 0
        report(
          at: start, length: length, lost: lost,
          "\(cause)\(length) damaged bytes skipped, to the next chunk at byte \(offset); \(lost) events lost")
      } else {
        report(
          at: start, length: length, lost: nil,
          "\(cause)\(length) damaged bytes skipped, to the end of the file; the events in them and any after "
            + "them are lost (how many is unknown)", endsTrace: true)
      }
    } else if let firstEvent, firstEvent > expectedEvent {
      let lost = Int(firstEvent - expectedEvent)
      report(
        at: offset, length: 0, lost: lost,
        "events \(expectedEvent + 1)–\(firstEvent) are missing before chunk \(sequence); \(lost) events lost"
      )
    }
  }

  /// Starts a gap of damaged bytes at the position, saying what is wrong with the chunk
  /// header expected there as far as its bytes tell.
  mutating func startGap() {
    gapStart = offset
    let here = offset
    gapCause = buffer.withUnsafeBytes { raw -> String in
      let bytes = UnsafeRawBufferPointer(rebasing: raw[position..<min(buffer.count, position + 48)])
      if let identity = LogChunkHeader.Identity(bytes) {
        return
          "log chunk \(identity.sequence) at byte \(here) (events from \(identity.firstEvent + 1)): its commit "
          + "word or seal (bytes \(here + 32)–\(here + 47)) is damaged"
      }
      if bytes.starts(with: BinaryFormat.chunkSync) { return "the chunk header at byte \(here) fails its CRC check" }
      if bytes.starts(with: BinaryFormat.logChunkSync) {
        return "the log chunk header at byte \(here) fails its CRC check"
      }
      return "no chunk starts at byte \(here), where one was expected"
    }
  }

  mutating func report(
    at offset: Int, length: Int?, lost: Int?, atLeast: Int? = nil, _ message: String, kind: TraceDamage.Kind = .loss,
    endsTrace: Bool = false
  ) {
    damage.append(
      TraceDamage(
        file: file, offset: offset, length: length, lostEvents: lost, minimumLostEvents: atLeast, message: message,
        kind: kind, endsTrace: endsTrace))
  }

  /// Reports a whole chunk lost, with its `count` events: `label` names it, and `part`
  /// the part a malformed record's offset is in ("payload", "body").
  mutating func reportLost(
    _ loss: ChunkLoss, _ label: String, at offset: Int, length: Int, count: UInt64, part: String
  ) {
    switch loss {
    case .checksumMismatch:
      report(at: offset, length: length, lost: Int(count), "\(label) fails its CRC check; \(count) events lost")
    case .malformed(let failure):
      report(
        at: offset, length: length, lost: Int(count),
        "\(label) is malformed at \(part) byte \(failure.offset) (\(failure.message)); \(count) events lost")
    }
  }
}

/// Why a whole chunk is lost: its CRC fails, or it does not parse.
enum ChunkLoss: Error {
  case checksumMismatch, malformed(ChunkDecoder.Failure)

  /// A chunk whose base time is before the previous chunk's last event.
  static var startsTooEarly: ChunkLoss {
    .malformed(ChunkDecoder.Failure(offset: 0, message: "it starts before the previous chunk ends"))
  }
}
