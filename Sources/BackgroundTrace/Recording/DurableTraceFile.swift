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
/// kernel's page cache the moment ``commit(length:records:)`` returns and survives the
/// process being killed (docs/FORMAT.md, "Log chunks" and "Durability"). The writer
/// encodes records straight into the open chunk's ``body``, past what is committed.
///
/// The file is grown with `ftruncate` (and its blocks allocated with `posix_fallocate`
/// and written with zeros on Linux, so a full disk is an error rather than a SIGBUS) and mapped a window of
/// several chunks at a time (``window``), so growing, mapping and unmapping happen once
/// per window rather than once per chunk; it is truncated to its data on ``close()``.
/// Not thread-safe by itself: ``TraceRecorder`` uses it only under its lock, which is
/// why its state is exempt from dynamic exclusivity checks (`@exclusivity(unchecked)`:
/// they cost a thread-local lookup per access, several per event).
final class DurableTraceFile {
  let path: String
  @exclusivity(unchecked) private var descriptor: Int32
  @exclusivity(unchecked) private var fileSize: Int
  /// Where the open chunk starts, or the next one will (a multiple of 8).
  @exclusivity(unchecked) private var chunkStart: Int
  /// The end of the last byte written before the open chunk (set as a chunk is sealed):
  /// the file's length on close.
  @exclusivity(unchecked) private var dataEnd: Int
  @exclusivity(unchecked) private var mapping: UnsafeMutableRawPointer?
  @exclusivity(unchecked) private var mappingLength = 0
  /// The file offset of the mapping's first byte (a multiple of the page size).
  @exclusivity(unchecked) private var mappingStart = 0
  /// The open chunk's header in the mapping.
  @exclusivity(unchecked) private var chunk: UnsafeMutableRawPointer?
  @exclusivity(unchecked) private var capacity = 0
  @exclusivity(unchecked) private(set) var committedLength = 0
  @exclusivity(unchecked) private(set) var committedCount: UInt32 = 0
  private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
  /// How much of the file one mapping covers: 1 MiB, sixteen default chunks.
  static let window = 1 << 20

  /// Creates the file, locks it for this writer alone, and writes the file header, its
  /// padding and the space reserved for a stop record.
  ///
  /// The file is opened without truncating it and truncated only once locked, so a
  /// second writer never cuts a file another one has mapped (which would kill that one
  /// with `SIGBUS`).
  ///
  /// - Parameter replacing: replace an existing file (unless a writer holds it); when
  ///   false, an existing file is an error.
  init(path: String, header: [UInt8], replacing: Bool) throws(TraceRecordingError) {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | (replacing ? 0 : O_EXCL), 0o644)
    guard fd >= 0 else {
      let error = errno
      if error == EEXIST, let holder = Self.holder(of: path) { throw Self.inUse(path, holder: holder) }
      throw TraceRecordingError(
        file: path,
        message: error == EEXIST
          ? "already exists; pass replacing: true to replace it" : "cannot create: \(String(cString: strerror(error)))")
    }
    if let holder = Self.lock(fd) {
      _ = systemClose(fd)
      throw Self.inUse(path, holder: holder)
    }
    self.path = path
    self.descriptor = fd
    var bytes = header
    bytes.append(contentsOf: repeatElement(0, count: Self.padding(after: bytes.count)))
    fileSize = 0
    chunkStart = bytes.count
    dataEnd = bytes.count
    guard ftruncate(fd, 0) == 0 else { throw failure("cannot truncate the file", errno) }
    if let error = bytes.withUnsafeBytes({ writeAll($0, to: fd) }) {
      throw failure("write failed", error)
    }
    fileSize = bytes.count
    // Room for a stop record from the start, so even a first chunk that cannot be
    // allocated leaves a file that says why.
    try allocate(through: chunkStart + StopRecord.reservedSize)
  }

  /// Who holds the writer's lock on `fd`'s file, or `nil` once this descriptor holds it.
  ///
  /// The lock is `flock`'s (one per open file, so a second recorder in the same process
  /// is refused too); a POSIX record lock taken beside it lets another process learn
  /// the holder's process id (`F_GETLK`).
  private static func lock(_ fd: Int32) -> Holder? {
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return holder(ofOpen: fd) ?? .unknown }
    var whole = wholeFile(F_WRLCK)
    _ = fcntl(fd, F_SETLK, &whole)  // only names the holder to others; the flock excludes
    return nil
  }

  /// The holder of the lock on the file at `path`, or `nil` when no writer holds it.
  private static func holder(of path: String) -> Holder? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { _ = systemClose(fd) }
    guard flock(fd, LOCK_SH | LOCK_NB) != 0 else { return nil }
    return holder(ofOpen: fd) ?? .unknown
  }

  /// The process holding a POSIX write lock on `fd`'s file: another process, or this one
  /// (whose own locks `F_GETLK` does not report).
  private static func holder(ofOpen fd: Int32) -> Holder? {
    var probe = wholeFile(F_WRLCK)
    guard fcntl(fd, F_GETLK, &probe) == 0 else { return nil }
    return probe.l_type == Int16(F_UNLCK) ? .thisProcess : .process(probe.l_pid)
  }

  /// A POSIX record lock of `type` over the whole file.
  private static func wholeFile(_ type: Int32) -> flock {
    var lock = flock()
    lock.l_type = Int16(type)
    lock.l_whence = Int16(SEEK_SET)
    lock.l_start = 0
    lock.l_len = 0
    return lock
  }

  /// Who records into a file already.
  enum Holder {
    case process(pid_t)
    case thisProcess
    case unknown
  }

  private static func inUse(_ path: String, holder: Holder) -> TraceRecordingError {
    let who =
      switch holder {
      case .process(let pid): "process \(pid)"
      case .thisProcess: "another recorder in this process"
      case .unknown: "another recorder"
      }
    return TraceRecordingError(
      file: path, message: "is being recorded by \(who); give each recorder its own file", kind: .fileInUse)
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
    guard descriptor >= 0, stopOffset == nil else {
      throw TraceRecordingError(file: path, message: "write after close")
    }
    let headerSize = BinaryFormat.logChunkHeaderSize
    let end = chunkStart + headerSize + capacity
    if mapping == nil || chunkStart < mappingStart || end + StopRecord.reservedSize > mappingStart + mappingLength {
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
  }

  /// The open chunk's body: room for ``chunkCapacity`` bytes of entries, of which the
  /// first ``committedLength`` are committed.
  var body: UnsafeMutableRawPointer { chunk! + BinaryFormat.logChunkHeaderSize }

  /// The open chunk's room for entries.
  var chunkCapacity: Int { capacity }

  /// Maps the file from `start` (page-aligned) for a ``window``, or through `end` if that
  /// is further, growing the file first so that every mapped byte is backed, and so that
  /// a stop record still fits after the chunk. If the file cannot grow, the old mapping
  /// stays.
  private func mapWindow(from start: Int, through end: Int) throws(TraceRecordingError) {
    let length =
      (max(end + StopRecord.reservedSize - start, Self.window) + Self.pageSize - 1) / Self.pageSize
      * Self.pageSize
    try allocate(through: start + length)
    unmap()
    startWriteback(from: mappingStart, to: min(chunkStart, start))
    guard let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, off_t(start)),
      mapped != UnsafeMutableRawPointer(bitPattern: -1)
    else { throw failure("cannot map the file", errno) }
    mapping = mapped
    mappingLength = length
    mappingStart = start
    #if os(Linux)
      // Faults the window's pages in, writable, in one call rather than at the first
      // store to each (MADV_POPULATE_WRITE, Linux 5.14; older kernels refuse it and the
      // pages fault in as they are written).
      _ = madvise(mapped, length, 23)
    #endif
  }

  /// Grows the file to at least `size` bytes with its blocks allocated, so that a store
  /// to a mapped page or a write inside the file never needs space the file system may
  /// not have (a full disk would be `SIGBUS` there; here it is an error to report).
  private func allocate(through size: Int) throws(TraceRecordingError) {
    guard size > fileSize else { return }
    #if os(Linux)
      let status = posix_fallocate(descriptor, off_t(fileSize), off_t(size - fileSize))
      guard status == 0 else { throw failure("cannot reserve space in the file", status) }
      // Then zeros written over the new space: `posix_fallocate` leaves unwritten extents,
      // and on ext4 the first store to each mapped page of one starts a journal handle in
      // the page fault (`ext4_page_mkwrite`), about 4 µs a page; pages the kernel has
      // written are mapped on its fast path. One `pwrite` a window saves durable
      // recording about 8 ns an event (docs/decisions/0003-durable-file-windows.md).
      if let error = writeZeros(from: fileSize, count: size - fileSize) { throw failure("write failed", error) }
    #elseif canImport(Darwin)
      var store = fstore_t(
        fst_flags: UInt32(F_ALLOCATEALL), fst_posmode: F_PEOFPOSMODE, fst_offset: 0,
        fst_length: off_t(size - fileSize), fst_bytesalloc: 0)
      guard fcntl(descriptor, F_PREALLOCATE, &store) != -1 else {
        throw failure("cannot reserve space in the file", errno)
      }
    #endif
    guard ftruncate(descriptor, off_t(size)) == 0 else { throw failure("cannot grow the file", errno) }
    fileSize = size
  }

  /// Writes `count` zero bytes at file offset `offset`, from a shared buffer of zeros.
  private func writeZeros(from offset: Int, count: Int) -> Int32? {
    var written = 0
    while written < count {
      let piece = min(count - written, Self.zeros.count)
      if let error = Self.zeros.withUnsafeBytes({
        pwriteAll(UnsafeRawBufferPointer(rebasing: $0[..<piece]), at: offset + written, to: descriptor)
      }) {
        return error
      }
      written += piece
    }
    return nil
  }

  /// What ``writeZeros(from:count:)`` writes from: 64 KiB of zeros.
  private static let zeros = [UInt8](repeating: 0, count: 1 << 16)

  /// Commits the entries written in ``body`` after the committed bytes (records with
  /// the string definitions they need), `records` records in all, so that the first
  /// `length` bytes are committed: publishes the new committed length and record count
  /// with one aligned 8-byte store. A reader never sees an entry before the count.
  @inline(__always)
  func commit(length: Int, records: UInt32) {
    let header = chunk!
    precondition(length >= committedLength && length <= capacity, "the writer stays in the chunk's room")
    committedLength = length
    committedCount += records
    atomicMemoryFence(ordering: .releasing)
    (header + LogChunkHeader.commitOffset).storeBytes(
      of: LogChunkHeader.commitWord(length: UInt32(committedLength), count: committedCount).littleEndian,
      as: UInt64.self)
  }

  /// Seals the open chunk, if any: writes the body CRC, then the seal over bytes 0–43.
  /// The next chunk starts after its committed bytes. A chunk with nothing committed is
  /// withdrawn instead (its sync bytes cleared, so it reads as unwritten space), and the
  /// next chunk starts where it did.
  func seal() {
    guard let header = chunk else { return }
    guard committedCount > 0 else {
      header.storeBytes(of: 0, as: UInt32.self)
      chunk = nil
      return
    }
    let body = UnsafeRawBufferPointer(start: header + BinaryFormat.logChunkHeaderSize, count: committedLength)
    (header + LogChunkHeader.bodyCRCOffset).storeBytes(of: CRC32C.checksum(body).littleEndian, as: UInt32.self)
    let seal = CRC32C.checksum(UnsafeRawBufferPointer(start: header, count: LogChunkHeader.sealOffset))
    atomicMemoryFence(ordering: .releasing)
    (header + LogChunkHeader.sealOffset).storeBytes(of: seal.littleEndian, as: UInt32.self)
    chunk = nil
    // Moved on here rather than at each commit: only a closed chunk's end is read.
    dataEnd = chunkStart + BinaryFormat.logChunkHeaderSize + committedLength
    chunkStart = dataEnd + Self.padding(after: dataEnd)
    committedLength = 0
    committedCount = 0
  }

  /// Where a stop record goes: after the last chunk, in the space every chunk keeps
  /// free after itself (``StopRecord/reservedSize``).
  @exclusivity(unchecked) private var stopOffset: Int?

  /// Writes `record` where the next chunk would start (sealing the open chunk first),
  /// in space allocated already, so that it needs nothing the failure may have taken:
  /// no growth, no mapping. The file ends after it on ``close()``.
  func stop(_ record: StopRecord) {
    seal()
    unmap()
    guard descriptor >= 0, stopOffset == nil else { return }
    let bytes = record.encoded()
    let offset = chunkStart
    guard offset + bytes.count <= fileSize else { return }  // every chunk leaves room: never here
    // Everything but the sync first, then the sync: a kill in between leaves no record.
    bytes.withUnsafeBytes { raw in
      _ = pwriteAll(UnsafeRawBufferPointer(rebasing: raw[4...]), at: offset + 4, to: descriptor)
      _ = pwriteAll(UnsafeRawBufferPointer(rebasing: raw[..<4]), at: offset, to: descriptor)
    }
    stopOffset = offset
    dataEnd = offset + bytes.count
  }

  /// Updates the stop record's count of events not written, and the time of the last,
  /// with one 16-byte write in place.
  func noteUnwritten(count: UInt64, lastTime: UInt64) {
    guard descriptor >= 0, let stopOffset else { return }
    var words = (lastTime.littleEndian, StopRecord.countWord(count).littleEndian)
    withUnsafeBytes(of: &words) { raw in
      _ = pwriteAll(raw, at: stopOffset + StopRecord.lastUnwrittenTimeOffset, to: descriptor)
    }
  }

  /// Whether a stop record was written: no chunk starts after it.
  var isStopped: Bool { stopOffset != nil }

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

  /// Starts writing the file's bytes from `start` to `end` to the storage device, without
  /// waiting: a window the recorder has moved past holds sealed chunks only, which never
  /// change again. On Linux (`sync_file_range`), so that ``close()``'s `fsync` waits for
  /// the last window alone rather than for everything recorded
  /// (docs/decisions/0003-durable-file-windows.md). Elsewhere the system writes the
  /// pages back in its own time.
  private func startWriteback(from start: Int, to end: Int) {
    #if os(Linux)
      guard end > start else { return }
      _ = sync_file_range(descriptor, off_t(start), off_t(end - start), 2)  // SYNC_FILE_RANGE_WRITE
    #endif
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
  writeRetrying(bytes) { start, count, _ in write(descriptor, start, count) }
}

/// Writes all of `bytes` at file offset `offset` with `pwrite(2)`, retrying interrupted
/// and partial writes.
///
/// - Returns: `nil` when everything was written, else the `errno` of the failure.
func pwriteAll(_ bytes: UnsafeRawBufferPointer, at offset: Int, to descriptor: Int32) -> Int32? {
  writeRetrying(bytes) { start, count, written in pwrite(descriptor, start, count, off_t(offset + written)) }
}

/// Calls `write` with the bytes not written yet (and how many were) until all are, or
/// it fails other than by an interruption (its `errno`).
private func writeRetrying(
  _ bytes: UnsafeRawBufferPointer, _ write: (UnsafeRawPointer, Int, Int) -> Int
) -> Int32? {
  var written = 0
  while written < bytes.count {
    let result = write(bytes.baseAddress! + written, bytes.count - written, written)
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

#if os(Linux)
  /// Linux's `sync_file_range`, which Glibc imports only under _GNU_SOURCE.
  @_silgen_name("sync_file_range")
  private func sync_file_range(_ descriptor: Int32, _ offset: off_t, _ count: off_t, _ flags: UInt32) -> Int32
#endif
