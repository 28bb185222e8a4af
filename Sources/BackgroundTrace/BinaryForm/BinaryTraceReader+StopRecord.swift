/// Reading the stop record a recorder leaves when it could not go on writing
/// (docs/FORMAT.md, "Stop record").
extension BinaryTraceReader {
  /// Reads the stop record at the position and reports what the recording did not
  /// write; `false` when the bytes there are not an intact stop record (the caller
  /// treats them as damaged bytes).
  mutating func readStopRecord() throws(ByteSourceError) -> Bool {
    _ = try ensure(StopRecord.fixedSize + StopRecord.maximumReason)
    let record = buffer.withUnsafeBytes { raw in
      StopRecord(UnsafeRawBufferPointer(rebasing: raw[position..<buffer.count]))
    }
    guard let record else { return false }
    closeGap(before: record.eventsWritten, sequence: record.sequence)
    let start = offset
    let unwritten: String
    switch record.unwrittenEvents {
    case 0?: unwritten = "no event was recorded after it"
    case 1?:
      unwritten = "1 event recorded after it, at \(TraceTime(nanoseconds: record.firstUnwrittenTime))s, was not written"
    case let count?:
      unwritten =
        "\(count) events recorded after it, from \(TraceTime(nanoseconds: record.firstUnwrittenTime))s "
        + "to \(TraceTime(nanoseconds: record.lastUnwrittenTime))s, were not written"
    case nil: unwritten = "an unknown number of events recorded after it were not written"
    }
    let after =
      record.eventsWritten == 0
      ? "before its first event"
      : "after event \(record.eventsWritten) (at \(TraceTime(nanoseconds: record.lastWrittenTime))s)"
    report(
      at: start, length: record.size, lost: record.unwrittenEvents.map { Int(clamping: $0) },
      "the recording stopped writing \(after): \(record.reason); \(unwritten)", kind: .recordingStopped,
      endsTrace: record.unwrittenEvents != 0)
    position += record.size
    expectedEvent = max(expectedEvent, record.eventsWritten)
    return true
  }
}
