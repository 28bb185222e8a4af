/// The records of a `dumpsys` dump, which is read whole: they are handed out oldest
/// first when it ends, whatever order the dump printed them in.
struct DumpRecords {
  private var records: [(record: LogRecord, order: Int)] = []
  private var ready: [LineReading] = []

  /// Adds a record; `order` puts records of one time in order, the lowest first.
  mutating func add(_ record: LogRecord, order: Int) {
    records.append((record, order))
  }

  /// The dump has ended: the first of its records, oldest first (``next()`` gives the rest).
  mutating func finish() -> LineReading? {
    ready = records.sorted {
      ($0.record.time?.nanoseconds ?? 0, $0.order) < ($1.record.time?.nanoseconds ?? 0, $1.order)
    }
    .map { .entry($0.record) }
    records.removeAll()
    return next()
  }

  /// The next record after ``finish()``, if any.
  mutating func next() -> LineReading? {
    ready.isEmpty ? nil : ready.removeFirst()
  }
}
