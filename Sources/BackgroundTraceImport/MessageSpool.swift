import BackgroundTrace

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The messages an import's one pass read, kept in order until the pass has chosen the
/// app, then read back once to write that app's events.
///
/// Memory stays flat in the log's length: the messages are kept as bytes
/// (``SpooledMessage``) in a buffer of about ``bufferLimit``; past it, each full buffer
/// is written to a temporary file as one chunk (its length, then its bytes) and read
/// back chunk by chunk. The file is unlinked as soon as it is made, so nothing is left
/// behind whatever way the import ends. A log whose messages fit in the buffer (most
/// captures) never touches the disk.
final class MessageSpool {
  /// How many bytes of messages are kept in memory before they go to the file.
  static let bufferLimit = 1 << 20

  private var writer = SpoolWriter()
  private var descriptor: Int32 = -1
  /// Bytes written to the file.
  private var fileLength: Int64 = 0
  /// Messages appended.
  private(set) var count = 0

  init() {}

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// Appends one message.
  ///
  /// - Throws: ``ByteSourceError`` when the temporary file cannot be made or written.
  func append(_ message: SpooledMessage) throws(ByteSourceError) {
    message.encode(into: &writer)
    count += 1
    if writer.bytes.count >= Self.bufferLimit { try spill() }
  }

  /// Calls `body` with each message, in the order appended, once: the spool is empty
  /// after (its file closed), whether `body` throws or not.
  ///
  /// - Throws: what `body` throws; ``LogImportFailure/importing(_:)`` when the
  ///   temporary file cannot be read.
  func replay(_ body: (SpooledMessage) throws(LogImportFailure) -> Void) throws(LogImportFailure) {
    defer {
      if descriptor >= 0 { close(descriptor) }
      descriptor = -1
      fileLength = 0
      writer.bytes = []
      count = 0
    }
    guard descriptor >= 0 else {
      try writer.bytes.withUnsafeBufferPointer { (bytes) throws(LogImportFailure) in try Self.decode(bytes, body) }
      return
    }
    var offset: Int64 = 0
    var chunk: [UInt8] = []
    do throws(ByteSourceError) {
      // The rest goes to the file too, so that only one chunk is in memory at a time.
      if !writer.bytes.isEmpty { try spill() }
    } catch {
      throw .importing(LogImportError(unreadable: error))
    }
    writer.bytes = []
    while offset < fileLength {
      var length = 0
      do throws(ByteSourceError) {
        var header: Int64 = 0
        try withUnsafeMutableBytes(of: &header) { (bytes) throws(ByteSourceError) in try readFully(bytes, at: offset) }
        length = Int(Int64(littleEndian: header))
        if chunk.count < length { chunk = [UInt8](repeating: 0, count: length) }
        try chunk.withUnsafeMutableBufferPointer { (bytes) throws(ByteSourceError) in
          try readFully(
            UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: bytes[..<length])), at: offset + 8)
        }
      } catch {
        throw .importing(LogImportError(unreadable: error))
      }
      offset += 8 + Int64(length)
      try chunk.withUnsafeBufferPointer { (bytes) throws(LogImportFailure) in
        try Self.decode(UnsafeBufferPointer(rebasing: bytes[..<length]), body)
      }
    }
  }

  private static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, _ body: (SpooledMessage) throws(LogImportFailure) -> Void
  ) throws(LogImportFailure) {
    var reader = SpoolReader(bytes)
    while !reader.atEnd { try body(SpooledMessage.decode(&reader)) }
  }

  /// Writes the buffer to the file as one chunk (made on the first spill).
  private func spill() throws(ByteSourceError) {
    if descriptor < 0 { descriptor = try Self.makeTemporaryFile() }
    var length = Int64(writer.bytes.count).littleEndian
    try withUnsafeBytes(of: &length) { (bytes) throws(ByteSourceError) in try writeFully(bytes) }
    try writer.bytes.withUnsafeBufferPointer { (bytes) throws(ByteSourceError) in
      try writeFully(UnsafeRawBufferPointer(bytes))
    }
    writer.bytes.removeAll(keepingCapacity: true)
  }

  /// Appends `bytes` to the file.
  private func writeFully(_ bytes: UnsafeRawBufferPointer) throws(ByteSourceError) {
    var done = 0
    while done < bytes.count {
      let wrote = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(fileLength))
      if wrote < 0 && errno == EINTR { continue }
      guard wrote > 0 else { throw Self.failure("write", errno) }
      done += wrote
      fileLength += Int64(wrote)
    }
  }

  /// Fills `bytes` from the file at `offset`.
  private func readFully(_ bytes: UnsafeMutableRawBufferPointer, at offset: Int64) throws(ByteSourceError) {
    var done = 0
    while done < bytes.count {
      let got = pread(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
      if got < 0 && errno == EINTR { continue }
      guard got > 0 else { throw Self.failure("read", got < 0 ? errno : EIO) }
      done += got
    }
  }

  /// A file in `$TMPDIR` (else `/tmp`), unlinked at once: it lives as long as its descriptor.
  private static func makeTemporaryFile() throws(ByteSourceError) -> Int32 {
    let folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array((folder.hasSuffix("/") ? folder : folder + "/").utf8CString.dropLast())
    template += Array("bgtrace-import-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw failure("create", errno) }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    return descriptor
  }

  private static func failure(_ what: String, _ code: Int32) -> ByteSourceError {
    ByteSourceError(
      file: "the import's temporary file", message: "cannot \(what) it: \(String(cString: strerror(code)))")
  }
}

/// Not Sendable: it owns a file descriptor.
@available(*, unavailable)
extension MessageSpool: Sendable {}
