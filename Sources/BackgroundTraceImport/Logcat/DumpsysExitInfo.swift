import BackgroundTrace

/// `adb shell dumpsys activity exit-info [PACKAGE]`: the process exits the system kept
/// (`ApplicationExitInfo`), each record over several lines, newest first, read into
/// records oldest first when the dump ends. AOSP `ApplicationExitInfo.dump` prints a
/// record one field a line up to Android 12 (`subreason=` from 12) and, from Android 13,
/// on three lines (`timestamp= pid= … user=`, `process= reason= subreason= status=`,
/// `importance= … description= state= trace=`); `AppExitInfoTracker` heads it with
/// `package: NAME` and `Historical Process Exit for uid=N`.
struct DumpsysExitInfoReader: LogStyleReader {
  private var fields: [String: String] = [:]
  private var recordLine: Int?
  private var records = DumpRecords()

  /// The keys of a record's fields, as `ApplicationExitInfo.dump` prints them: a value
  /// runs to the next of them on its line.
  static let keys = [
    "timestamp", "pid", "realUid", "packageUid", "definingUid", "user", "process", "reason", "subreason", "status",
    "importance", "pss", "rss", "description", "state", "trace",
  ]

  mutating func read(_ line: LogLineSplitter.Line) -> LineReading {
    let text = String(decoding: line.bytes, as: UTF8.self)
    let trimmed = text.drop { $0 == " " || $0 == "\t" }
    if trimmed.hasPrefix("ApplicationExitInfo #"), trimmed.hasSuffix(":") {
      endRecord()
      recordLine = line.number
      return .continuation
    }
    if trimmed.hasPrefix("ACTIVITY MANAGER PROCESS EXIT INFO") || trimmed.hasPrefix("Last Timestamp of Persistence")
      || trimmed.hasPrefix("package: ") || trimmed.hasPrefix("Historical Process Exit for uid=")
    {
      endRecord()
      return .continuation
    }
    if trimmed.isEmpty { return .continuation }
    guard recordLine != nil, let read = Self.fields(of: trimmed) else {
      endRecord()
      return .notInStyle
    }
    fields.merge(read) { _, new in new }
    return .continuation
  }

  mutating func finish() -> LineReading? {
    endRecord()
    return records.finish()
  }

  mutating func nextPending() -> LineReading? { records.next() }

  /// The `key=value` fields of one line of a record; `nil` when the line does not start
  /// with one of ``keys``.
  static func fields(of line: Substring) -> [String: String]? {
    var starts: [(key: String, range: Range<Substring.Index>)] = []
    var index = line.startIndex
    while index < line.endIndex {
      if index == line.startIndex || line[line.index(before: index)] == " " {
        for key in keys where line[index...].hasPrefix(key + "=") {
          starts.append((key, index..<line.index(index, offsetBy: key.count + 1)))
          break
        }
      }
      index = line.index(after: index)
    }
    guard let first = starts.first, first.range.lowerBound == line.startIndex else { return nil }
    var fields: [String: String] = [:]
    for (position, start) in starts.enumerated() {
      let end = position + 1 < starts.count ? starts[position + 1].range.lowerBound : line.endIndex
      var value = line[start.range.upperBound..<end]
      while value.last == " " { value.removeLast() }
      fields[start.key] = String(value)
    }
    return fields
  }

  private mutating func endRecord() {
    defer {
      fields.removeAll()
      recordLine = nil
    }
    guard let line = recordLine, let pid = fields["pid"].flatMap({ Int($0) }), let process = fields["process"],
      let reason = fields["reason"]
    else { return }
    let time: LogTimestamp? = fields["timestamp"].flatMap { stamp in
      var bytes = Array(stamp.utf8)
      return bytes.withUnsafeMutableBufferPointer { buffer in
        var scanner = LogBytes(UnsafeBufferPointer(buffer))
        return LogcatFields.dateTime(&scanner)
      }
    }
    let message = "reason=\(reason)" + (fields["subreason"].map { " subreason=\($0)" } ?? "")
    // Newest first in the dump: of two records of one time, the later one is older.
    records.add(
      LogRecord(
        time: time, pid: pid, process: process, source: ExitInfoReason.source, message: message, line: line,
        origin: .exitInfo),
      order: -line)
  }
}

/// What the trace says of an `ApplicationExitInfo` record's reason
/// (`app.terminate reason=`), from `REASON_*` and `SUBREASON_*` as
/// `ApplicationExitInfo.reasonCodeToString` and `subreasonToString` print them.
enum ExitInfoReason {
  /// The records' ``LogRecord/source``, as a message names it.
  static let source = "exit-info"

  /// The reading of a record's `reason=N (NAME) subreason=M (NAME)`.
  static func message(of record: LogRecord) -> MessageReading {
    guard let pid = record.pid, let process = record.process else { return .malformed(expected: "a pid and a process") }
    let text = record.message
    guard let reason = code(after: "reason=", in: text) else {
      return .malformed(expected: "reason=N (NAME)")
    }
    let subreason = code(after: " subreason=", in: text)
    return .message(.processExited(pid: pid, name: process, reason: word(reason: reason, subreason: subreason)))
  }

  /// `app.terminate reason=`: `crash` (`REASON_CRASH`, `REASON_CRASH_NATIVE`), `anr`,
  /// `force-stopped` (`REASON_USER_REQUESTED` with `SUBREASON_FORCE_STOP`), otherwise
  /// `exited: ` and the printed names, lowercased.
  static func word(reason: (code: Int, name: String), subreason: (code: Int, name: String)?) -> String {
    switch (reason.code, subreason?.code) {
    case (4, _), (5, _): return "crash"
    case (6, _): return "anr"
    case (10, 21?): return TerminationReason.forceStop
    default:
      let detail = subreason.flatMap { $0.code == 0 ? nil : " (\($0.name.lowercased()))" } ?? ""
      return "exited: \(reason.name.lowercased())\(detail)"
    }
  }

  /// `N (NAME)` after `key` in `text`, the name up to its matching parenthesis
  /// (`APP CRASH(EXCEPTION)` holds one of its own).
  private static func code(after key: String, in text: String) -> (code: Int, name: String)? {
    guard let keyRange = text.firstRange(of: key) else { return nil }
    let rest = text[keyRange.upperBound...]
    let digits = rest.prefix { $0.isNumber }
    guard let code = Int(digits) else { return nil }
    var name = ""
    var afterDigits = rest.dropFirst(digits.count)
    if afterDigits.hasPrefix(" (") {
      afterDigits = afterDigits.dropFirst(2)
      var depth = 1
      for character in afterDigits {
        if character == "(" { depth += 1 }
        if character == ")" {
          depth -= 1
          if depth == 0 { break }
        }
        name.append(character)
      }
    }
    return (code, name)
  }
}
