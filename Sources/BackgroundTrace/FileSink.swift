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
    var written = 0
    while written < bytes.count {
      let result = bytes.withUnsafeBytes { raw in
        systemWrite(descriptor, raw.baseAddress! + written, raw.count - written)
      }
      if result < 0 {
        if errno == EINTR { continue }
        throw ByteSourceError(file: path, message: "write failed: \(String(cString: strerror(errno)))")
      }
      written += result
    }
  }

  func close() {
    if descriptor >= 0 {
      _ = systemClose(descriptor)
      descriptor = -1
    }
  }
}

private func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, pointer, count)
}

private func systemClose(_ fd: Int32) -> Int32 {
  close(fd)
}
