/// The bytes a ``ChunkEncoder`` appends records to: a growable buffer whose stores are
/// unchecked once room for them is reserved (``reserve(_:)``), where an array checks
/// its capacity and uniqueness at every byte. A value, as an array is: a copy is made
/// on the first reserve after sharing.
///
/// Sendable as an array is: its bytes are written only through a uniquely referenced
/// storage, and `base` is that storage's address, unless the buffer is bound to memory
/// its owner provides (``bind(to:capacity:count:)``), which only that owner writes.
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

  /// The buffer's own room, used whenever it is not bound to memory it does not own.
  private var storage: Storage
  /// Where the bytes are: `storage.base`, or memory the buffer is bound to
  /// (``bind(to:capacity:count:)``). Kept beside `storage` so that a store is one store,
  /// not a load of the storage's address first.
  private var base: UnsafeMutablePointer<UInt8>
  /// The room at `base`.
  private var capacity: Int
  /// How many bytes the buffer holds.
  private(set) var count = 0

  /// An empty buffer with room for `capacity` bytes.
  init(capacity: Int) {
    storage = Storage(capacity: max(capacity, 16))
    base = storage.base
    self.capacity = storage.capacity
  }

  /// Whether the bytes are written straight into memory the buffer does not own (the
  /// durable recorder's open chunk in the file's mapping), rather than into its own room.
  var isBound: Bool { base != storage.base }

  /// Writes from now on into `capacity` bytes at `memory`, whose first `count` bytes are
  /// the buffer's bytes: no copy is made. A store that needs more room than that moves
  /// the bytes into the buffer's own room, which ``isBound`` then tells.
  ///
  /// Bound, the buffer is not a value: a copy writes the same memory. Only its owner may
  /// write it, and it is unbound (``removeAll()``) before the memory goes.
  mutating func bind(to memory: UnsafeMutableRawPointer, capacity: Int, count: Int) {
    precondition(count >= 0 && count <= capacity)
    base = memory.assumingMemoryBound(to: UInt8.self)
    self.capacity = capacity
    self.count = count
  }

  /// Makes room for `extra` more bytes, which ``appendUnchecked(_:)`` may then store:
  /// one check for all of them. Bound, the buffer owns nothing another copy could share,
  /// so only the room is checked.
  @inline(__always)
  mutating func reserve(_ extra: Int) {
    if count &+ extra > capacity || (base == storage.base && !isKnownUniquelyReferenced(&storage)) {
      reallocate(for: extra)
    }
  }

  /// Moves the bytes into new room of the buffer's own, for `extra` more.
  private mutating func reallocate(for extra: Int) {
    let copy = Storage(capacity: max(storage.capacity * 2, count + extra))
    copy.base.update(from: base, count: count)
    storage = copy
    base = copy.base
    capacity = copy.capacity
  }

  /// Empties the buffer, keeping its own room; a bound buffer is unbound.
  mutating func removeAll() {
    count = 0
    base = storage.base
    capacity = storage.capacity
  }

  /// Stores `byte` after the last one, in room ``reserve(_:)`` made.
  @inline(__always)
  mutating func appendUnchecked(_ byte: UInt8) {
    base[count] = byte
    count &+= 1
  }

  /// Stores `bytes` after the last one.
  mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count)
    UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
    count &+= bytes.count
  }

  /// The byte at `index`, below ``count``.
  subscript(index: Int) -> UInt8 {
    get {
      precondition(index >= 0 && index < count)
      return base[index]
    }
    set {
      precondition(index >= 0 && index < count)
      reserve(0)  // unshared before the store
      base[index] = newValue
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

  /// Inserts `byte` at `index`, moving the bytes after it.
  mutating func insert(_ byte: UInt8, at index: Int) {
    precondition(index >= 0 && index <= count)
    reserve(1)
    (base + index + 1).update(from: base + index, count: count - index)
    base[index] = byte
    count += 1
  }

  /// Inserts `bytes` at `index`, moving the bytes after it.
  mutating func insert(contentsOf bytes: RecordBytes, at index: Int) {
    precondition(index >= 0 && index <= count)
    reserve(bytes.count)
    (base + index + bytes.count).update(from: base + index, count: count - index)
    (base + index).update(from: bytes.base, count: bytes.count)
    count += bytes.count
  }

  /// Copies the `length` bytes from `offset` to `destination`, with no closure (whose
  /// context would be retained per call).
  @inline(__always)
  func copyBytes(from offset: Int, count length: Int, to destination: UnsafeMutableRawPointer) {
    precondition(offset >= 0 && length >= 0 && offset + length <= count)
    destination.copyMemory(from: base + offset, byteCount: length)
  }

  /// Calls `body` with the bytes.
  func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try body(UnsafeRawBufferPointer(start: base, count: count))
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
