/// Console.app (macOS) showing a connected device's log, its entries selected and copied:
/// one line an entry, its columns joined by tabs, `TYPE\tTIME\tPROCESS\tMESSAGE`, where
/// TYPE is `default`, `info`, `debug`, `error` or `fault` and TIME is
/// `HH:MM:SS.ffffff±ZZZZ` (the date and a blank before the zone as Console shows them:
/// `2024-05-11 10:19:47.176223 +0200`). With the Library column shown, its one word comes
/// between the process and the message (`SpringBoard\tFrontBoard\t[…] Setting …`). Apple
/// documents no layout for the copy; this is the one public pastes of device logs have
/// (docs/import.md).
///
/// A message of several lines (a descriptor, a dictionary) goes on in lines with no
/// header, which are not in the style: ``WrappedLineJoining`` joins them to the entry
/// they follow, as it joins a hard-wrapped line's parts. The entries carry no
/// process id. A time with no date is counted from 2000-01-01, a day more each time it is
/// more than 12 hours earlier than the one before (the copy passed midnight).
struct ConsoleAppReader: LogStyleReader {
  private var clock = DatelessClock()

  mutating func read(_ line: LogLineSplitter.Line) -> LineReading {
    var scanner = LogBytes(line.bytes)
    guard Self.type(&scanner), scanner.expect(9), let time = timestamp(&scanner), scanner.expect(9),
      let process = scanner.upTo(9), !process.isEmpty
    else { return .notInStyle }
    scanner.index += 1
    Self.skipLibrary(&scanner)
    let message = scanner.index..<scanner.bytes.count
    guard LogRelevance.apple(scanner, message) else { return .skipped(time, line: line.number) }
    return .entry(
      LogRecord(
        time: time, pid: nil, process: scanner.string(process), source: "", message: scanner.string(message),
        line: line.number))
  }

  /// The Type column's word.
  private static func type(_ scanner: inout LogBytes) -> Bool {
    scanner.expect("default") || scanner.expect("info") || scanner.expect("debug") || scanner.expect("error")
      || scanner.expect("fault")
  }

  /// `[YYYY-MM-DD ]HH:MM:SS[.ffffff][ ]±ZZZZ` (the zone optional: none is read as UTC).
  private mutating func timestamp(_ scanner: inout LogBytes) -> LogTimestamp? {
    let start = scanner.index
    if let dated = LogCalendar.dateTime(
      &scanner,
      zone: { scanner in
        _ = scanner.expect(32)
        return .some(LogCalendar.zone(&scanner))
      })
    {
      return dated
    }
    scanner.index = start
    guard let time = LogCalendar.clock(&scanner) else { return nil }
    _ = scanner.expect(32)
    let offset = LogCalendar.zone(&scanner) ?? 0
    return clock.timestamp(
      hour: time.hour, minute: time.minute, second: time.second, nanosecond: time.nanosecond, offsetSeconds: offset)
  }

  /// The Library column, when shown: one word (a framework's or image's name) and a tab
  /// before the message.
  private static func skipLibrary(_ scanner: inout LogBytes) {
    let start = scanner.index
    var index = start
    let bytes = scanner.bytes
    while index < bytes.count, index - start <= 64 {
      let byte = bytes[index]
      if byte == 9 {
        if index > start { scanner.index = index + 1 }
        return
      }
      // Letters, digits, `.`, `_`, `-`, `+`: an image's name.
      let isNameByte =
        (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) || byte == 46
        || byte == 95 || byte == 45 || byte == 43
      guard isNameByte else { return }
      index += 1
    }
  }
}

/// Times with no date (Console.app's copy): counted from 2000-01-01, a day more each
/// time one is more than 12 hours earlier than the one before.
struct DatelessClock {
  private var days = 0
  private var last: Int64?

  mutating func timestamp(hour: Int, minute: Int, second: Int, nanosecond: Int64, offsetSeconds: Int) -> LogTimestamp? {
    guard hour < 24, minute < 60, second < 61 else { return nil }
    let day: Int64 = 86_400 * 1_000_000_000
    let base = Int64(LogCalendar.days(year: 2000, month: 1, day: 1)) * day
    let clock = Int64(hour * 3600 + minute * 60 + second - offsetSeconds) * 1_000_000_000 + nanosecond
    var time = base + Int64(days) * day + clock
    if let last, time < last - day / 2 {
      days += 1
      time += day
    }
    last = time
    return LogTimestamp(nanoseconds: time, hasYear: false)
  }
}
