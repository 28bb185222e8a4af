#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a reader gets bytes from: a file, standard input or memory.
public protocol ByteSource {
  /// Reads up to `count` bytes, appending them to `buffer`.
  ///
  /// - Returns: how many bytes were appended; 0 at the end of the input.
  /// - Throws: ``ByteSourceError`` when the underlying read fails.
  mutating func read(into buffer: inout [UInt8], count: Int) throws(ByteSourceError) -> Int
}

/// A read that failed below the trace format (an I/O error).
///
/// Its description names the file and what went wrong, as in `trace.bgtrace: read failed: …`.
public struct ByteSourceError: BackgroundTraceError, Hashable {
  /// The file's name (a path, or `<stdin>`).
  public var file: String?
  /// What went wrong.
  public var message: String

  /// Creates an error.
  public init(file: String, message: String) {
    self.file = file
    self.message = message
  }

  /// Always ``TraceErrorKind/io``.
  public var kind: TraceErrorKind { .io }
  /// `nil`: the failure is in reading or writing, not at a place in the trace.
  public var position: TracePosition? { nil }
}

/// Bytes held in memory.
public struct MemoryByteSource: ByteSource, Sendable {
  private let bytes: [UInt8]
  private var offset = 0

  /// Creates a source over `bytes`.
  public init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Appends up to `count` of the bytes not yet read to `buffer`; never fails.
  ///
  /// - Parameters:
  ///   - buffer: where the bytes go.
  ///   - count: the most bytes to read.
  /// - Returns: how many bytes were appended; 0 once every byte has been read.
  public mutating func read(into buffer: inout [UInt8], count: Int) -> Int {
    let end = min(bytes.count, offset + count)
    buffer.append(contentsOf: bytes[offset..<end])
    defer { offset = end }
    return end - offset
  }
}

/// A file read through its descriptor; closes it when done if it opened it.
public final class FileByteSource: ByteSource {
  /// The input's name for errors (the path, or `<stdin>`).
  public let name: String
  private let descriptor: Int32
  private let ownsDescriptor: Bool
  /// Where `read(2)` writes before the bytes are appended to the caller's buffer.
  private var scratch: [UInt8] = []

  /// Opens the file at `path` for reading.
  ///
  /// - Throws: ``ByteSourceError`` when it cannot be opened (missing, a directory, no permission).
  public init(path: String) throws(ByteSourceError) {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else {
      throw ByteSourceError(file: path, message: "cannot open: \(String(cString: strerror(errno)))")
    }
    var info = stat()
    if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
      close(fd)
      throw ByteSourceError(file: path, message: "is a directory, not a trace file")
    }
    name = path
    descriptor = fd
    ownsDescriptor = true
  }

  /// Reads standard input.
  public init(standardInput: Void = ()) {
    name = "<stdin>"
    descriptor = 0
    ownsDescriptor = false
  }

  /// Reads the open `descriptor`, named `name`; closes it when done if `owned`.
  package init(descriptor: Int32, name: String, owned: Bool) {
    self.name = name
    self.descriptor = descriptor
    ownsDescriptor = owned
  }

  deinit {
    if ownsDescriptor { close(descriptor) }
  }

  /// Reads up to `count` bytes with `read(2)`, retrying when interrupted.
  ///
  /// - Parameters:
  ///   - buffer: where the bytes go; it is left as it was when the read fails.
  ///   - count: the most bytes to read.
  /// - Returns: how many bytes were appended; 0 at the end of the file.
  /// - Throws: ``ByteSourceError`` when `read(2)` fails.
  public func read(into buffer: inout [UInt8], count: Int) throws(ByteSourceError) -> Int {
    // Read into a scratch block kept between reads, then copy what arrived: growing
    // `buffer` first would zero-fill `count` bytes on every read, most of them never used.
    if scratch.count < count { scratch = [UInt8](repeating: 0, count: count) }
    while true {
      let got = scratch.withUnsafeMutableBytes { raw in systemRead(descriptor, raw.baseAddress!, count) }
      if got < 0 && errno == EINTR { continue }
      guard got >= 0 else {
        throw ByteSourceError(file: name, message: "read failed: \(String(cString: strerror(errno)))")
      }
      buffer.append(contentsOf: scratch[..<got])
      return got
    }
  }
}

/// `read(2)` under a name that does not collide with ``ByteSource/read(into:count:)``.
@inline(__always)
private func systemRead(_ fd: Int32, _ pointer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(fd, pointer, count)
}

/// Not Sendable: it owns a file descriptor and a read buffer.
@available(*, unavailable)
extension FileByteSource: Sendable {}
