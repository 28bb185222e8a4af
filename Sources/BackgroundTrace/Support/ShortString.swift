/// A string of at most 15 UTF-8 bytes held in 16 bytes of its own, with no storage to
/// count references to: copying or destroying one calls nothing, where a `String`'s
/// copy calls into the runtime to retain its storage, even a string that small.
///
/// The lifecycle walker keeps the names of open tasks in this form, which the reader
/// computes once per string as it interns it.
@usableFromInline
package struct ShortString: Sendable, Equatable {
  /// The bytes, in memory order: the UTF-8 bytes first, zeros after them, and the
  /// count in the last byte.
  @usableFromInline var words: (UInt64, UInt64)

  /// The most UTF-8 bytes a short string holds.
  @inlinable package static var capacity: Int { 15 }

  /// The string whose UTF-8 bytes are `utf8`, or `nil` when they are more than
  /// ``capacity``.
  @inlinable
  package init?(utf8: UnsafeRawBufferPointer) {
    guard utf8.count <= Self.capacity else { return nil }
    var words: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &words) { raw in
      if let base = utf8.baseAddress { raw.baseAddress!.copyMemory(from: base, byteCount: utf8.count) }
      raw[Self.capacity] = UInt8(truncatingIfNeeded: utf8.count)
    }
    self.words = words
  }

  /// How many UTF-8 bytes it holds.
  @inlinable package var count: Int {
    withUnsafeBytes(of: words) { Int($0[Self.capacity]) }
  }

  /// The string.
  package var string: String {
    withUnsafeBytes(of: words) { String(decoding: UnsafeRawBufferPointer(rebasing: $0[..<count]), as: UTF8.self) }
  }

  /// Whether the two hold the same bytes.
  @inlinable
  package static func == (lhs: ShortString, rhs: ShortString) -> Bool {
    lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1
  }
}
