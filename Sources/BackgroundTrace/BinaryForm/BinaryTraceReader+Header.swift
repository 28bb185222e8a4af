/// Reading the file header: magic, version, features and metadata (docs/FORMAT.md,
/// "File header" and "Version 4 and its features").
extension BinaryTraceReader {
  mutating func readFileHeader() throws(TraceReadError) {
    let headerSize = BinaryFormat.fileHeaderSize
    _ = try TraceReadError.reading { () throws(ByteSourceError) in try ensure(headerSize) }
    let magic = BinaryFormat.magic
    let present = min(available, magic.count)
    guard buffer[position..<position + present].elementsEqual(magic.prefix(present)) else {
      throw .malformed(
        TraceFormatError(
          file: file, position: .byte(offset: 0), message: "not a binary bgtrace file (the magic bytes do not match)"))
    }
    guard available >= headerSize else {
      report(
        at: 0, length: available, lost: 0,
        "the file ends inside its \(headerSize)-byte header after \(available) bytes; it holds no events")
      position = buffer.count
      finished = true
      return
    }
    let version = buffer[position + 8]
    guard BinaryFormat.readableVersions.contains(version) else {
      throw .malformed(
        TraceFormatError(
          file: file, position: .byte(offset: 8),
          message: "unsupported binary format version \(version); this reader reads versions 1 to 4"))
    }
    let (bodyLength, bodyCRC) = buffer.withUnsafeBytes { raw in
      let cursor = ByteCursor(UnsafeRawBufferPointer(rebasing: raw[position...]))
      return (Int(cursor.littleEndian(UInt32.self, at: 10)), cursor.littleEndian(UInt32.self, at: 14))
    }
    let flags = buffer[position + 9]
    position += headerSize
    // Before version 4 the version's number says what the file uses, and no flag is defined.
    let impliedFeatures = BinaryFormat.Features(ofVersion: version)
    guard impliedFeatures == nil || flags == 0, bodyLength <= BinaryFormat.maximumHeaderBody,
      try TraceReadError.reading({ () throws(ByteSourceError) in try ensure(bodyLength) })
    else {
      headerDamaged(impliedFeatures, at: 9, "the file header is damaged")
      return
    }
    let parsed: TraceMetadata? = buffer.withUnsafeBytes { raw in
      let body = UnsafeRawBufferPointer(rebasing: raw[position..<position + bodyLength])
      guard FileHeader.checksum(version: version, flags: flags, body: body) == bodyCRC else { return nil }
      return Self.metadata(body)
    }
    guard let parsed else {
      headerDamaged(impliedFeatures, at: headerSize, "the file header fails its CRC check", length: bodyLength)
      return
    }
    features = impliedFeatures ?? BinaryFormat.Features(rawValue: flags)
    guard BinaryFormat.Features.known.isSuperset(of: features) else {
      let unknown = features.subtracting(.known).rawValue
      throw .malformed(
        TraceFormatError(
          file: file, position: .byte(offset: 9),
          message:
            "the file uses format features this reader does not know (flags bits 0x\(String(unknown, radix: 16, uppercase: true))); a newer bgtrace reads it"
        ))
    }
    if let problem = parsed.settingsProblem {
      throw .malformed(TraceFormatError(file: file, position: .byte(offset: headerSize), message: problem))
    }
    meta = parsed
    position += bodyLength
    try TraceReadError.reading { () throws(ByteSourceError) in try skipPadding() }
  }

  /// Reports the file header damaged and goes on looking for chunks. The version byte
  /// is not trusted either, nor a version 4 header's features (`implied` is `nil`):
  /// every known feature is accepted where found, which misreads nothing, as each only
  /// gives meaning to bytes that are otherwise malformed (docs/FORMAT.md, "Reading").
  mutating func headerDamaged(
    _ implied: BinaryFormat.Features?, at offset: Int, _ message: String, length: Int? = nil
  ) {
    features = .known
    featuresKnown = false
    let lost = implied != nil ? "the metadata is lost" : "the metadata and the file's format features are lost"
    report(at: offset, length: length, lost: nil, "\(message); \(lost)")
    gapStart = self.offset
    gapFollowsHeader = true
  }

  /// In a file with log chunks, moves to the next multiple of
  /// ``BinaryFormat/chunkAlignment``, where the next chunk starts; the bytes skipped are
  /// padding. When the features are not known, only zeros are taken for padding.
  mutating func skipPadding() throws(ByteSourceError) {
    guard hasLogChunkLayout else { return }
    let padding = (BinaryFormat.chunkAlignment - offset % BinaryFormat.chunkAlignment) % BinaryFormat.chunkAlignment
    guard padding > 0 else { return }
    _ = try ensure(padding)
    let skipped = min(padding, available)
    if !featuresKnown && buffer[position..<position + skipped].contains(where: { $0 != 0 }) { return }
    position += skipped
  }

  static func metadata(_ body: UnsafeRawBufferPointer) -> TraceMetadata? {
    var cursor = ByteCursor(body)
    guard let count = cursor.varint(), count <= UInt64(body.count) else { return nil }
    var meta = TraceMetadata()
    for _ in 0..<count {
      guard let keyLength = cursor.varint(), let key = cursor.bytes(Int(clamping: keyLength)),
        let valueLength = cursor.varint(), let value = cursor.bytes(Int(clamping: valueLength)),
        let keyText = String(validating: key, as: UTF8.self),
        let valueText = String(validating: value, as: UTF8.self),
        meta[keyText] == nil
      else { return nil }
      meta[keyText] = valueText
    }
    return cursor.isAtEnd ? meta : nil
  }
}
