package import BackgroundTrace

/// Splits a log into lines as it reads it, in blocks: memory stays flat in the log's
/// length, whatever its size.
///
/// A line ends at LF; a CR before the LF is dropped (CRLF logs read as LF ones). The
/// last line needs no LF. A line longer than ``maximumLineLength`` is not kept: it is
/// handed over as ``Line/isOverlong`` with no bytes, and its bytes are skipped as they
/// arrive, so a 10 MB line costs no 10 MB buffer.
package struct LogLineSplitter {
  /// One line: its number (from 1) and its bytes without the line end.
  package struct Line: @unchecked Sendable {
    /// The line's number in its log, from 1.
    package var number: Int
    /// The line's bytes, valid only during the call that hands them over.
    package var bytes: UnsafeBufferPointer<UInt8>
    /// Whether the line was longer than ``LogLineSplitter/maximumLineLength`` (its
    /// bytes are then empty).
    package var isOverlong: Bool

    /// Line `number`, of `bytes` (valid while it is read).
    package init(number: Int, bytes: UnsafeBufferPointer<UInt8>, isOverlong: Bool) {
      self.number = number
      self.bytes = bytes
      self.isOverlong = isOverlong
    }
  }

  /// The longest line kept, in bytes: longer lines are skipped.
  package static let maximumLineLength = 1 << 20
  /// How much is read at a time.
  package static let blockSize = 256 * 1024

  private var source: any ByteSource

  /// Creates a splitter over `source`.
  package init(_ source: some ByteSource) {
    self.source = source
  }

  /// Calls `body` with each line, in order, until the log ends or `body` throws.
  ///
  /// - Throws: what `body` throws, or what `unreadable` makes of the byte source's
  ///   ``/BackgroundTrace/ByteSourceError``.
  package mutating func forEachLine<Failure: Error>(
    unreadable: (ByteSourceError) -> Failure, _ body: (Line) throws(Failure) -> Void
  ) throws(Failure) {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(Self.blockSize * 2)
    var number = 0
    var skippingOverlong = false
    while true {
      let read: Int
      do throws(ByteSourceError) { read = try source.read(into: &buffer, count: Self.blockSize) } catch {
        throw unreadable(error)
      }
      let atEnd = read == 0
      var consumed = 0
      try buffer.withUnsafeBufferPointer { (all) throws(Failure) in
        let count = all.count
        var start = 0
        while start < count {
          guard let newline = Self.indexOfNewline(in: all, from: start) else { break }
          if skippingOverlong {
            skippingOverlong = false
          } else {
            number += 1
            var end = newline
            if end > start && all[end - 1] == 13 { end -= 1 }
            try body(Line(number: number, bytes: UnsafeBufferPointer(rebasing: all[start..<end]), isOverlong: false))
          }
          start = newline + 1
        }
        consumed = start
        if atEnd && start < count && !skippingOverlong {
          number += 1
          var end = count
          if all[end - 1] == 13 { end -= 1 }
          try body(Line(number: number, bytes: UnsafeBufferPointer(rebasing: all[start..<end]), isOverlong: false))
          consumed = count
        } else if count - start > Self.maximumLineLength {
          // Too long to keep: report it once, then drop its bytes until its end.
          if !skippingOverlong {
            number += 1
            try body(Line(number: number, bytes: UnsafeBufferPointer(start: nil, count: 0), isOverlong: true))
            skippingOverlong = true
          }
          consumed = count
        }
      }
      if atEnd { return }
      if consumed > 0 { buffer.removeSubrange(0..<consumed) }
    }
  }

  /// Calls `body` with each line, in order, until the log ends or `body` throws.
  ///
  /// - Throws: what `body` throws, or the byte source's failure as a ``LogImportError``.
  package mutating func forEachLine(_ body: (Line) throws(LogImportError) -> Void) throws(LogImportError) {
    try forEachLine(unreadable: LogImportError.init(unreadable:), body)
  }

  @inline(__always)
  private static func indexOfNewline(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    var index = start
    let count = bytes.count
    while index < count {
      if bytes[index] == 10 { return index }
      index &+= 1
    }
    return nil
  }
}

/// Not Sendable: it owns a byte source.
@available(*, unavailable)
extension LogLineSplitter: Sendable {}
