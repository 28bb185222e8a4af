#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file opened for writing (created or truncated), written with plain `write(2)`
/// so that what was written survives the process being killed.
/// Not thread-safe by itself: ``TraceRecorder`` uses it only under its lock.
final class FileSink: @unchecked Sendable {
  let path: String
  private var descriptor: Int32

  init(path: String) throws(ByteSourceError) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw ByteSourceError(file: path, message: "cannot create: \(String(cString: strerror(errno)))")
    }
    self.path = path
    self.descriptor = fd
  }

  deinit { close() }

  func write(_ bytes: [UInt8]) throws(ByteSourceError) {
    guard descriptor >= 0 else { throw ByteSourceError(file: path, message: "write after close") }
    if let error = bytes.withUnsafeBytes({ writeAll($0, to: descriptor) }) {
      throw ByteSourceError(file: path, message: "write failed: \(String(cString: strerror(error)))")
    }
  }

  func close() {
    if descriptor >= 0 {
      _ = systemClose(descriptor)
      descriptor = -1
    }
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
