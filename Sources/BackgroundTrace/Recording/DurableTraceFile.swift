import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes of a trace file with log chunks, with the open log chunk written through a
/// shared memory mapping of the file, so that every committed record is in the
/// kernel's page cache the moment ``commit(_:records:)`` returns and survives the
/// process being killed (docs/FORMAT.md, "Log chunks" and "Durability").
///
/// The file is grown with `ftruncate` (and its blocks allocated with `posix_fallocate`
/// on Linux, so a full disk is an error rather than a SIGBUS) and mapped a window of
/// several chunks at a time (``window``), so growing, mapping and unmapping happen once
/// per window rather than once per chunk; it is truncated to its data on ``close()``.
/// Not thread-safe by itself: ``TraceRecorder`` uses it only under its lock.
final class DurableTraceFile {
  let path: String
  private var descriptor: Int32
  private var fileSize: Int
  /// Where the open chunk starts, or the next one will (a multiple of 8).
  private var chunkStart: Int
  /// The end of the last byte written: the file's length on close.
  private var dataEnd: Int
  private var mapping: UnsafeMutableRawPointer?
  private var mappingLength = 0
  /// The file offset of the mapping's first byte (a multiple of the page size).
  private var mappingStart = 0
  /// The open chunk's header in the mapping.
  private var chunk: UnsafeMutableRawPointer?
  private var capacity = 0
  private(set) var committedLength = 0
  private(set) var committedCount: UInt32 = 0
  private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
  /// How much of the file one mapping covers: 1 MiB, sixteen default chunks.
  static let window = 1 << 20

  /// Creates (or truncates) the file and writes the file header and its padding.
  init(path: String, header: [UInt8]) throws(TraceRecordingError) {
    let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw TraceRecordingError(file: path, message: "cannot create: \(String(cString: strerror(errno)))")
    }
    self.path = path
    self.descriptor = fd
    var bytes = header
    bytes.append(contentsOf: repeatElement(0, count: Self.padding(after: bytes.count)))
    fileSize = bytes.count
    chunkStart = bytes.count
    dataEnd = bytes.count
    if let error = bytes.withUnsafeBytes({ writeAll($0, to: fd) }) {
      throw failure("write failed", error)
    }
  }

  deinit {
    unmap()
    if descriptor >= 0 { _ = systemClose(descriptor) }
  }

  /// Whether a log chunk is open.
  var isOpen: Bool { chunk != nil }

  /// The body bytes the open chunk has room for.
  var remaining: Int { capacity - committedLength }

  private static func padding(after offset: Int) -> Int {
    (BinaryFormat.chunkAlignment - offset % BinaryFormat.chunkAlignment) % BinaryFormat.chunkAlignment
  }

  private func failure(_ what: String, _ error: Int32) -> TraceRecordingError {
    TraceRecordingError(file: path, message: "\(what): \(String(cString: strerror(error)))")
  }

  /// Opens a log chunk with room for `capacity` body bytes: grows the file, maps the
  /// chunk and publishes its header (the sync bytes last, so a header torn by a kill
  /// reads as unwritten space).
  func begin(sequence: UInt32, firstEvent: UInt64, baseTime: UInt64, capacity: Int) throws(TraceRecordingError) {
    precondition(chunk == nil, "the previous chunk is sealed first")
    guard descriptor >= 0 else { throw TraceRecordingError(file: path, message: "write after close") }
    let headerSize = BinaryFormat.logChunkHeaderSize
    let end = chunkStart + headerSize + capacity
    if mapping == nil || chunkStart < mappingStart || end > mappingStart + mappingLength {
      try mapWindow(from: chunkStart / Self.pageSize * Self.pageSize, through: end)
    }
    let header = mapping! + (chunkStart - mappingStart)
    let fixed = LogChunkHeader.fixedPart(
      sequence: sequence, firstEvent: firstEvent, baseTime: baseTime, capacity: UInt32(capacity))
    fixed.withUnsafeBytes { bytes in
      (header + 4).copyMemory(from: bytes.baseAddress! + 4, byteCount: bytes.count - 4)
    }
    (header + LogChunkHeader.commitOffset).initializeMemory(as: UInt8.self, repeating: 0, count: headerSize - 32)
    atomicMemoryFence(ordering: .releasing)
    fixed.withUnsafeBytes { bytes in header.copyMemory(from: bytes.baseAddress!, byteCount: 4) }
    chunk = header
    self.capacity = capacity
    committedLength = 0
    committedCount = 0
    dataEnd = chunkStart + headerSize
  }

  /// Maps the file from `start` (page-aligned) for a ``window``, or through `end` if that
  /// is further, growing the file first so that every mapped byte is backed.
  private func mapWindow(from start: Int, through end: Int) throws(TraceRecordingError) {
    unmap()
    let length = (max(end - start, Self.window) + Self.pageSize - 1) / Self.pageSize * Self.pageSize
    if start + length > fileSize {
      let size = start + length
      guard ftruncate(descriptor, off_t(size)) == 0 else { throw failure("cannot grow the file", errno) }
      #if os(Linux)
        // Allocate the blocks now: a store to a mapped page the file system cannot back
        // (a full disk) would be SIGBUS, where this is an error to report.
        let status = posix_fallocate(descriptor, off_t(fileSize), off_t(size - fileSize))
        guard status == 0 else { throw failure("cannot reserve space in the file", status) }
      #endif
      fileSize = size
    }
    guard let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, off_t(start)),
      mapped != UnsafeMutableRawPointer(bitPattern: -1)
    else { throw failure("cannot map the file", errno) }
    mapping = mapped
    mappingLength = length
    mappingStart = start
  }

  /// Writes one entry (a record with the string definitions it needs) after the
  /// committed bytes, then publishes the new committed length and record count with
  /// one aligned 8-byte store. A reader never sees the entry before the count.
  @inline(__always)
  func commit(_ entry: UnsafeRawBufferPointer, records: UInt32) {
    let header = chunk!
    precondition(entry.count <= remaining, "the writer checks the room first")
    (header + BinaryFormat.logChunkHeaderSize + committedLength).copyMemory(
      from: entry.baseAddress!, byteCount: entry.count)
    committedLength += entry.count
    committedCount += records
    atomicMemoryFence(ordering: .releasing)
    (header + LogChunkHeader.commitOffset).storeBytes(
      of: LogChunkHeader.commitWord(length: UInt32(committedLength), count: committedCount).littleEndian,
      as: UInt64.self)
    dataEnd = chunkStart + BinaryFormat.logChunkHeaderSize + committedLength
  }

  /// Seals the open chunk, if any: writes the body CRC, then the seal over bytes 0–43.
  /// The next chunk starts after its committed bytes.
  func seal() {
    guard let header = chunk else { return }
    let body = UnsafeRawBufferPointer(start: header + BinaryFormat.logChunkHeaderSize, count: committedLength)
    (header + LogChunkHeader.bodyCRCOffset).storeBytes(of: CRC32C.checksum(body).littleEndian, as: UInt32.self)
    let seal = CRC32C.checksum(UnsafeRawBufferPointer(start: header, count: LogChunkHeader.sealOffset))
    atomicMemoryFence(ordering: .releasing)
    (header + LogChunkHeader.sealOffset).storeBytes(of: seal.littleEndian, as: UInt32.self)
    chunk = nil
    chunkStart = dataEnd + Self.padding(after: dataEnd)
  }

  /// Writes the mapped pages and the file to the storage device (`msync`, `fsync`), so
  /// that what was committed survives power loss too.
  func sync() throws(TraceRecordingError) {
    guard descriptor >= 0 else { return }
    if let mapping, msync(mapping, mappingLength, MS_SYNC) != 0 { throw failure("msync failed", errno) }
    guard fsync(descriptor) == 0 else { throw failure("fsync failed", errno) }
  }

  /// Seals the open chunk, cuts the file to its data, syncs and closes it.
  func close() throws(TraceRecordingError) {
    guard descriptor >= 0 else { return }
    seal()
    unmap()
    defer {
      _ = systemClose(descriptor)
      descriptor = -1
    }
    guard ftruncate(descriptor, off_t(dataEnd)) == 0 else { throw failure("cannot truncate the file", errno) }
    guard fsync(descriptor) == 0 else { throw failure("fsync failed", errno) }
  }

  private func unmap() {
    if let mapping { munmap(mapping, mappingLength) }
    mapping = nil
    mappingLength = 0
  }
}

/// Writes all of `bytes` to a file descriptor with `write(2)`, retrying interrupted
/// and partial writes.
///
/// - Returns: `nil` when everything was written, else the `errno` of the failure.
package func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
  var written = 0
  while written < bytes.count {
    let result = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
    if result < 0 {
      if errno == EINTR { continue }
      return errno
    }
    written += result
  }
  return nil
}

private func systemClose(_ fd: Int32) -> Int32 {
  close(fd)
}
