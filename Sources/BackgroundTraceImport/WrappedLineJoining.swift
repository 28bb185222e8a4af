/// Reads a style whose entries are one line each when the log was hard-wrapped, as a
/// log pasted into an issue or a forum often is: a line that is not in the style,
/// right after an entry the import reads, continues that entry's message.
///
/// The entry is held until the next line shows whether it goes on, so each entry is
/// handed over one line late (at once at the end of the log). The continuation is
/// joined with one blank, or none where the line before ended in one (a wrap at a
/// blank keeps it there). A line of blanks, a line of the style or its header ends the
/// entry. The lines not in the style after an entry the import skips go on with that
/// entry, and are skipped with it; before any entry they are lines not in the style.
struct WrappedLineJoining<Base: LogStyleReader>: LogStyleReader {
  private var base: Base
  private var held: LogRecord?
  /// Whether the last entry was one the import skips: the lines that go on with it are
  /// skipped too.
  private var inSkippedEntry = false
  /// What the last line gave besides the reading ``read(_:)`` returned, in order.
  private var pending: [LineReading] = []

  /// Joins wrapped lines of `base`'s style.
  init(_ base: Base) {
    self.base = base
  }

  var heldEntryLine: Int? { held?.line }

  var joinsWrappedLines: Bool { true }

  mutating func read(_ line: LogLineSplitter.Line) -> LineReading {
    take(base.read(line), line: line)
    while let more = base.nextPending() { take(more, line: line) }
    return pending.isEmpty ? .continuation : pending.removeFirst()
  }

  mutating func nextPending() -> LineReading? {
    pending.isEmpty ? nil : pending.removeFirst()
  }

  mutating func finish() -> LineReading? {
    if let last = base.finish() { take(last, line: nil) }
    while let more = base.nextPending() { take(more, line: nil) }
    if let held { pending.append(.entry(held)) }
    held = nil
    return pending.isEmpty ? nil : pending.removeFirst()
  }

  private mutating func take(_ reading: LineReading, line: LogLineSplitter.Line?) {
    let goesOn: Bool =
      if case .notInStyle = reading, let line {
        line.bytes.contains { !MessageContinuation.isBlank($0) }
      } else {
        false
      }
    if goesOn && held == nil && inSkippedEntry {
      pending.append(.continuation)
      return
    }
    if goesOn, let line, held != nil {
      MessageContinuation.append(line.bytes, to: &held!.message)
      pending.append(.continuation)
      return
    }
    if let entry = held {
      pending.append(.entry(entry))
      held = nil
    }
    if case .skipped = reading { inSkippedEntry = true } else { inSkippedEntry = false }
    if case .entry(let record) = reading {
      held = record
    } else {
      pending.append(reading)
    }
  }
}
