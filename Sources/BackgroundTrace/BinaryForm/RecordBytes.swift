/// The bytes a ``ChunkEncoder`` appends records to: a growable buffer whose stores are
/// unchecked once room for them is reserved (``reserve(_:)``), where an array checks
/// its capacity and uniqueness at every byte. A value, as an array is: a copy is made
/// on the first reserve after sharing.
///
/// Sendable as an array is: its bytes are written only through a uniquely referenced
/// storage, and `base` is that storage's address.
struct RecordBytes: @unchecked Sendable {
  /// Written only while uniquely referenced (after ``reserve(_:)``), as an array's
  /// storage is: shared copies only read it.
  private final class Storage: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int

    init(capacity: Int) {
      self.capacity = capacity
      base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }
  }

  private var storage: Storage
  /// `storage.base`, kept beside it so that a store is one store, not a load of the
  /// storage's address first.
  private var base: UnsafeMutablePointer<UInt8>
  /// How many bytes the buffer holds.
  private(set) var count = 0

  /// An empty buffer with room for `capacity` bytes.
  init(capacity: Int) {
    storage = Storage(capacity: max(capacity, 16))
    base = storage.base
  }

  /// Makes room for `extra` more bytes, which ``appendUnchecked(_:)`` may then store:
  /// one check for all of them.
  @inline(__always)
  mutating func reserve(_ extra: Int) {
    if count &+ extra > storage.capacity || !isKnownUniquelyReferenced(&storage) { reallocate(for: extra) }
  }

  private mutating func reallocate(for extra: Int) {
    let copy = Storage(capacity: max(storage.capacity * 2, count + extra))
    copy.base.update(from: storage.base, count: count)
    storage = copy
    base = copy.base
  }

  /// Empties the buffer, keeping its room.
  mutating func removeAll() { count = 0 }

  /// Stores `byte` after the last one, in room ``reserve(_:)`` made.
  @inline(__always)
  mutating func appendUnchecked(_ byte: UInt8) {
    base[count] = byte
    count &+= 1
  }

  /// The byte at `index`, below ``count``.
  subscript(index: Int) -> UInt8 {
    get {
      precondition(index >= 0 && index < count)
      return storage.base[index]
    }
    set {
      precondition(index >= 0 && index < count)
      reserve(0)  // unshared before the store
      storage.base[index] = newValue
    }
  }

  /// Sets `bits` in the byte at `index` (a record's tag, its flags known once its fields
  /// are written), with no uniqueness check: the caller stored bytes through
  /// ``reserve(_:)`` since the last time the buffer could have been shared, as the encoder
  /// does within one `append`.
  @inline(__always)
  mutating func setFlags(_ bits: UInt8, at index: Int) {
    precondition(index >= 0 && index < count)
    base[index] |= bits
  }

  /// Inserts `bytes` at `index`, moving the bytes after it.
  mutating func insert(contentsOf bytes: [UInt8], at index: Int) {
    precondition(index >= 0 && index <= count)
    reserve(bytes.count)
    (storage.base + index + bytes.count).update(from: storage.base + index, count: count - index)
    bytes.withUnsafeBufferPointer { (storage.base + index).update(from: $0.baseAddress!, count: bytes.count) }
    count += bytes.count
  }

  /// Copies the `length` bytes from `offset` to `destination`: what the durable writer
  /// commits of each record, with no closure (whose context would be retained per call).
  @inline(__always)
  func copyBytes(from offset: Int, count length: Int, to destination: UnsafeMutableRawPointer) {
    precondition(offset >= 0 && length >= 0 && offset + length <= count)
    destination.copyMemory(from: storage.base + offset, byteCount: length)
  }

  /// Calls `body` with the bytes.
  func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try body(UnsafeRawBufferPointer(start: storage.base, count: count))
  }

  /// The bytes, as an array.
  var array: [UInt8] { withUnsafeBytes { Array($0) } }
}

extension RecordBytes: ByteAppending {
  @inline(__always)
  mutating func append(_ byte: UInt8) { appendUnchecked(byte) }
}

/// Where ``Varint`` appends its bytes: an array, or a ``RecordBytes`` whose room was
/// reserved.
protocol ByteAppending {
  mutating func append(_ byte: UInt8)
}

extension Array: ByteAppending where Element == UInt8 {}
