import BackgroundTrace
import Testing

/// docs/FORMAT.md: a file cut anywhere decodes every complete chunk and reports the torn tail;
/// a damaged chunk is skipped with the number of events lost; reading resumes after it.
@Suite struct BinaryRecoveryTests {
  static let trace = sampleTrace(eventCount: 150)
  static let bytes = try! BinaryTraceEncoder.encode(trace, chunkPayloadLimit: 256)
  static let layout = BinaryLayout(bytes)

  @Test func sampleHasSeveralChunksCoveringEveryEvent() {
    #expect(Self.layout.chunks.count >= 4)
    #expect(Self.layout.chunks.last?.end == Self.bytes.count)
    var next = 0
    for chunk in Self.layout.chunks {
      #expect(chunk.firstEvent == next)
      next += chunk.eventCount
    }
    #expect(next == Self.trace.events.count)
  }

  @Test func fileCutAtEveryOffsetKeepsTheCompleteChunksAndReportsTheTornTail() throws {
    let layout = Self.layout
    let boundaries = Set([layout.headerEnd] + layout.chunks.map(\.end))
    for cut in 0...Self.bytes.count {
      let decoded = try RecordedTrace.decode(binary: Array(Self.bytes[..<cut]))
      let complete = layout.chunks.filter { $0.end <= cut }
      #expect(decoded.trace.events == Self.trace.events(in: complete.map(\.events)), "cut at \(cut)")
      if cut < layout.headerEnd {
        #expect(decoded.trace.events.isEmpty, "cut at \(cut)")
        #expect(!decoded.damage.isEmpty, "cut at \(cut) inside the file header")
        continue
      }
      #expect(decoded.trace.meta == Self.trace.meta, "cut at \(cut)")
      if boundaries.contains(cut) {
        #expect(decoded.damage.isEmpty, "cut at chunk boundary \(cut): \(decoded.damage)")
      } else {
        #expect(decoded.damage.count == 1, "cut at \(cut): \(decoded.damage)")
        let damage = try #require(decoded.damage.first)
        #expect(damage.message.contains("torn tail"), "cut at \(cut): \(damage.message)")
        let torn = try #require(layout.chunks.first { $0.offset < cut && cut < $0.end })
        #expect(damage.offset == torn.offset, "cut at \(cut)")
        if cut >= torn.payloadStart {
          // The header was read, so the reader knows how many events the chunk lost; not
          // whether chunks followed it, so the whole loss is not known.
          #expect(damage.minimumLostEvents == torn.eventCount, "cut at \(cut)")
          #expect(damage.lostEvents == nil, "cut at \(cut)")
          #expect(
            damage.message.hasSuffix(
              "at least \(torn.eventCount) events lost: the chunk's \(torn.eventCount), and any after them"))
        }
      }
    }
  }

  @Test(arguments: [0xFF, 0x01] as [UInt8])
  func everySingleByteFlipLosesOnlyTheChunkItHits(mask: UInt8) throws {
    let layout = Self.layout
    for offset in Self.bytes.indices {
      var damaged = Self.bytes
      damaged[offset] ^= mask
      if offset == 8 && BinaryFormat.readableVersions.contains(BinaryFormat.version ^ mask) {
        // An earlier version (no single flip of 4 gives one: the header CRC of version 4
        // covers the version byte, so such a file reads as one with a damaged header).
        let decoded = try RecordedTrace.decode(binary: damaged)
        #expect(decoded.damage.contains { $0.isLoss }, "version flipped to \(BinaryFormat.version ^ mask)")
        #expect(decoded.trace.events.count < Self.trace.events.count)
        continue
      }
      if offset < 9 {
        // The magic or the version: not a readable binary trace at all.
        let error = #expect(throws: TraceFormatError.self, "flip at \(offset)") {
          try RecordedTrace.decode(binary: damaged)
        }
        let expected =
          offset < 8
          ? TraceFormatError(
            file: nil, position: .byte(offset: 0),
            message: "not a binary bgtrace file (the magic bytes do not match)")
          : TraceFormatError(
            file: nil, position: .byte(offset: 8),
            message:
              "unsupported binary format version \(BinaryFormat.version ^ mask); this reader reads versions 1 to 4")
        #expect(error == expected)
        continue
      }
      let decoded = try RecordedTrace.decode(binary: damaged)
      #expect(!decoded.damage.isEmpty, "flip at \(offset)")
      if offset < layout.headerEnd {
        // Flags, body length, body CRC or meta: the metadata is lost, every event is kept.
        #expect(decoded.trace.meta.isEmpty, "flip at \(offset)")
        #expect(decoded.trace.events == Self.trace.events, "flip at \(offset)")
        #expect(decoded.damage.allSatisfy { ($0.lostEvents ?? 0) == 0 }, "flip at \(offset): \(decoded.damage)")
        continue
      }
      let index = try #require(layout.chunks.firstIndex { $0.offset <= offset && offset < $0.end })
      let hit = layout.chunks[index]
      let others = layout.chunks.indices.filter { $0 != index }.map { layout.chunks[$0].events }
      #expect(decoded.trace.meta == Self.trace.meta)
      #expect(decoded.trace.events == Self.trace.events(in: others), "flip at \(offset)")
      #expect(decoded.damage.count == 1, "flip at \(offset): \(decoded.damage)")
      let damage = try #require(decoded.damage.first)
      #expect(damage.offset == hit.offset, "flip at \(offset)")
      if offset >= hit.payloadStart {
        #expect(damage.lostEvents == hit.eventCount, "flip at \(offset)")
        #expect(damage.message.contains("fails its CRC check"), "flip at \(offset): \(damage.message)")
      } else if index < layout.chunks.count - 1 {
        // A damaged chunk header is skipped up to the next chunk, whose first-event
        // index tells how many events were lost.
        #expect(damage.lostEvents == hit.eventCount, "flip at \(offset)")
        #expect(damage.length == hit.size, "flip at \(offset)")
      } else {
        // Nothing follows the last chunk, so the loss cannot be counted.
        #expect(damage.lostEvents == nil, "flip at \(offset)")
        #expect(damage.length == hit.size, "flip at \(offset)")
      }
    }
  }

  @Test(arguments: [
    [UInt8](repeating: 0, count: 1),
    [UInt8](repeating: 0xAB, count: 100),
    [0xB7, 0x43, 0x48, 0x4B] + [UInt8](repeating: 0x11, count: 60),  // sync bytes, then no valid header
    [0xB7, 0x43, 0x48] as [UInt8],
  ])
  func garbageBetweenChunksIsSkippedWithEveryEventRecovered(garbage: [UInt8]) throws {
    let layout = Self.layout
    for boundary in [layout.headerEnd] + layout.chunks.map(\.end) {
      let damaged = Array(Self.bytes[..<boundary]) + garbage + Array(Self.bytes[boundary...])
      let decoded = try RecordedTrace.decode(binary: damaged)
      #expect(decoded.trace == Self.trace, "garbage at \(boundary)")
      #expect(decoded.damage.count == 1, "garbage at \(boundary): \(decoded.damage)")
      let damage = try #require(decoded.damage.first)
      #expect(damage.offset == boundary)
      #expect(damage.length == garbage.count)
      #expect(damage.lostEvents == (boundary == Self.bytes.count ? nil : 0))
    }
  }

  @Test func missingChunkIsReportedWithItsEventCount() throws {
    let layout = Self.layout
    let removed = layout.chunks[2]
    let damaged = Array(Self.bytes[..<removed.offset]) + Array(Self.bytes[removed.end...])
    let decoded = try RecordedTrace.decode(binary: damaged)
    let kept = layout.chunks.enumerated().filter { $0.offset != 2 }.map(\.element.events)
    #expect(decoded.trace.events == Self.trace.events(in: kept))
    #expect(decoded.damage.map(\.lostEvents) == [removed.eventCount])
    #expect(decoded.damage.first?.message.contains("missing before chunk 3") == true)
  }

  @Test func repeatedChunkIsSkipped() throws {
    let layout = Self.layout
    let repeated = layout.chunks[1]
    let copy = Array(Self.bytes[repeated.offset..<repeated.end])
    let damaged = Array(Self.bytes[..<repeated.end]) + copy + Array(Self.bytes[repeated.end...])
    let decoded = try RecordedTrace.decode(binary: damaged)
    #expect(decoded.trace == Self.trace)
    #expect(decoded.damage.map(\.lostEvents) == [0])
    #expect(decoded.damage.first?.message.contains("repeats event numbers") == true)
  }

  @Test func damageNamesTheFile() throws {
    let decoded = try RecordedTrace.decode(binary: Array(Self.bytes.dropLast(3)), file: "run.bgtrace")
    let damage = try #require(decoded.damage.first)
    #expect(damage.file == "run.bgtrace")
    #expect(damage.description.hasPrefix("run.bgtrace: at byte \(damage.offset): error: "))
  }

  @Test func emptyInputAndMagicPrefixesAreTornFilesNotErrors() throws {
    for count in 0...8 {
      let decoded = try RecordedTrace.decode(binary: Array(BinaryFormat.magic.prefix(count)))
      #expect(decoded.trace == RecordedTrace())
      #expect(
        decoded.damage.map(\.message) == [
          "the file ends inside its 18-byte header after \(count) bytes; it holds no events"
        ])
    }
  }

  @Test func textIsNotABinaryTrace() {
    let error = #expect(throws: TraceFormatError.self) {
      try RecordedTrace.decode(binary: Array("bgtrace 1\n".utf8), file: "x.txt")
    }
    #expect(error?.description == "x.txt: at byte 0: not a binary bgtrace file (the magic bytes do not match)")
  }
}
