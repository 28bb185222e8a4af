/// A whole trace to and from the binary form.
extension RecordedTrace {
  /// Decodes a whole binary trace, recovering what is intact.
  ///
  /// - Returns: the trace and the damage found (empty for an intact file).
  /// - Throws: ``TraceFormatError`` when the bytes are not a binary trace of a
  ///   supported version.
  public static func decode(
    binary bytes: [UInt8], file: String? = nil
  ) throws(TraceFormatError) -> (trace: RecordedTrace, damage: [TraceDamage]) {
    do throws(TraceReadError) {
      var reader = try BinaryTraceReader(source: MemoryByteSource(bytes), file: file)
      var events: [TraceEvent] = []
      while let located = try TraceReadError.reading({ () throws(ByteSourceError) in try reader.next() }) {
        events.append(located.event)
      }
      return (RecordedTrace(meta: reader.meta, events: events), reader.damage)
    } catch {
      switch error {
      case .malformed(let error): throw error
      case .unreadable(let error):
        // A memory source has no I/O to fail; should that change, the error still
        // reaches the caller in the shape this function promises.
        throw TraceFormatError(file: file, position: .byte(offset: 0), message: error.message)
      }
    }
  }

  /// The binary form with default chunking.
  ///
  /// - Throws: ``TraceEncodingError`` when events are out of time order.
  public func binary() throws(TraceEncodingError) -> [UInt8] {
    try BinaryTraceEncoder.encode(self)
  }
}
