#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Byte-level scanning shared by the style parsers and the message readers: they read a
/// line's header, or a message, from its bytes, with no string built until a line is
/// known to matter.
struct LogBytes {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  var atEnd: Bool { index >= bytes.count }
  var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

  /// Reads exactly `count` decimal digits.
  @inline(__always)
  mutating func digits(_ count: Int) -> Int? {
    guard index + count <= bytes.count else { return nil }
    var value = 0
    for offset in 0..<count {
      let byte = bytes[index + offset]
      guard byte >= 48 && byte <= 57 else { return nil }
      value = value * 10 + Int(byte - 48)
    }
    index += count
    return value
  }

  /// Reads one or more decimal digits (at most 18).
  @inline(__always)
  mutating func number() -> Int? {
    var value = 0
    let start = index
    while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57, index - start < 18 {
      value = value * 10 + Int(bytes[index] - 48)
      index += 1
    }
    return index > start ? value : nil
  }

  /// Reads a fraction's digits (after the dot) as nanoseconds; `count` is how many were read.
  @inline(__always)
  mutating func fractionNanoseconds() -> (nanoseconds: Int64, count: Int)? {
    var value: Int64 = 0
    var count = 0
    while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
      if count < 9 { value = value * 10 + Int64(bytes[index] - 48) }
      count += 1
      index += 1
    }
    guard count > 0 else { return nil }
    var scaled = value
    for _ in min(count, 9)..<9 { scaled *= 10 }
    return (scaled, count)
  }

  @inline(__always)
  mutating func expect(_ byte: UInt8) -> Bool {
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  @inline(__always)
  mutating func expect(_ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    let pattern = text.utf8Start
    for offset in 0..<count where bytes[index + offset] != pattern[offset] { return false }
    index += count
    return true
  }

  /// Skips spaces and tabs; returns how many.
  @discardableResult
  @inline(__always)
  mutating func skipBlanks() -> Int {
    let start = index
    while index < bytes.count, bytes[index] == 32 || bytes[index] == 9 { index += 1 }
    return index - start
  }

  /// Reads up to the next blank (or the end), returning the range; empty if none.
  @inline(__always)
  mutating func word() -> Range<Int> {
    let start = index
    while index < bytes.count, bytes[index] != 32, bytes[index] != 9 { index += 1 }
    return start..<index
  }

  /// Reads up to (not including) `byte`, returning the range; nil if `byte` does not come.
  @inline(__always)
  mutating func upTo(_ byte: UInt8) -> Range<Int>? {
    var end = index
    while end < bytes.count, bytes[end] != byte { end += 1 }
    guard end < bytes.count else { return nil }
    defer { index = end }
    return index..<end
  }

  /// Where `text` first occurs at or after `start`, compared byte for byte.
  func find(_ text: StaticString, from start: Int) -> Range<Int>? {
    let count = text.utf8CodeUnitCount
    guard count > 0 else { return start..<start }
    guard let base = bytes.baseAddress else { return nil }
    let pattern = text.utf8Start
    var at = start
    let last = bytes.count - count
    while at <= last {
      guard let found = memchr(base + at, Int32(pattern[0]), last + 1 - at) else { return nil }
      at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
      var matched = 1
      while matched < count && bytes[at + matched] == pattern[matched] { matched += 1 }
      if matched == count { return at..<at + count }
      at += 1
    }
    return nil
  }

  func string(_ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  func rest() -> String { string(index..<bytes.count) }

  func starts(_ range: Range<Int>, with text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    guard range.count >= count else { return false }
    let pattern = text.utf8Start
    for offset in 0..<count where bytes[range.lowerBound + offset] != pattern[offset] { return false }
    return true
  }

  func equals(_ range: Range<Int>, _ text: StaticString) -> Bool {
    range.count == text.utf8CodeUnitCount && starts(range, with: text)
  }
}

/// Calendar arithmetic for the log styles' wall-clock times (proleptic Gregorian, UTC).
enum LogCalendar {
  /// Days from 1970-01-01 to `year`-`month`-`day`.
  static func days(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date `days` after 1970-01-01 (the inverse of ``days(year:month:day:)``).
  static func date(days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// The year of `time`, nanoseconds since the epoch.
  static func year(of time: Int64) -> Int {
    let nanosecondsPerDay: Int64 = 86_400 * 1_000_000_000
    let days = time >= 0 ? time / nanosecondsPerDay : (time - nanosecondsPerDay + 1) / nanosecondsPerDay
    return date(days: Int(days)).year
  }

  /// `time` with its year moved by `years`, the month, day and time of day kept (a
  /// dated time put in a yearless log's frame, ``YearlessClock``).
  static func moving(_ time: Int64, byYears years: Int) -> Int64 {
    let nanosecondsPerDay: Int64 = 86_400 * 1_000_000_000
    let days = Int(time >= 0 ? time / nanosecondsPerDay : (time - nanosecondsPerDay + 1) / nanosecondsPerDay)
    let date = date(days: days)
    let withinDay = time - Int64(days) * nanosecondsPerDay
    let moved = Self.days(year: date.year + years, month: date.month, day: date.day)
    return Int64(moved) * nanosecondsPerDay + withinDay
  }

  /// Nanoseconds since the epoch of a wall-clock time, less `offsetSeconds` (the zone's
  /// offset east of UTC); nil for an impossible date or time, or a year outside
  /// 1900–2200.
  static func nanoseconds(
    year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, nanosecond: Int64,
    offsetSeconds: Int = 0
  ) -> Int64? {
    guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
    // Years a log can hold: anything else is garbage that happens to look like a date
    // (and would overflow 64-bit nanoseconds past 2262).
    guard (1900...2200).contains(year) else { return nil }
    let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
    return Int64(seconds) * 1_000_000_000 + nanosecond
  }

  /// Reads `HH:MM:SS` and an optional `.fraction`.
  static func clock(_ scanner: inout LogBytes) -> (hour: Int, minute: Int, second: Int, nanosecond: Int64)? {
    guard let hour = scanner.digits(2), scanner.expect(58), let minute = scanner.digits(2), scanner.expect(58),
      let second = scanner.digits(2)
    else { return nil }
    var nanosecond: Int64 = 0
    if scanner.peek == 46 {
      scanner.index += 1
      guard let fraction = scanner.fractionNanoseconds() else { return nil }
      nanosecond = fraction.nanoseconds
    }
    return (hour, minute, second, nanosecond)
  }

  /// Reads `YYYY-MM-DD HH:MM:SS` with an optional `.fraction`, then its zone as `zone`
  /// reads it (`nil` from `zone`: none, read as UTC; no time when `zone` throws out the
  /// line by returning `.none`).
  static func dateTime(_ scanner: inout LogBytes, zone: (inout LogBytes) -> Int??) -> LogTimestamp? {
    guard let year = scanner.digits(4), scanner.expect(45), let month = scanner.digits(2), scanner.expect(45),
      let day = scanner.digits(2), scanner.expect(32), let time = clock(&scanner), let offset = zone(&scanner)
    else { return nil }
    return nanoseconds(
      year: year, month: month, day: day, hour: time.hour, minute: time.minute, second: time.second,
      nanosecond: time.nanosecond, offsetSeconds: offset ?? 0
    ).map { LogTimestamp(nanoseconds: $0) }
  }

  /// Reads a zone offset `+HHMM`, `-HHMM`, `+HH:MM` or `Z`, as seconds east of UTC.
  static func zone(_ scanner: inout LogBytes) -> Int? {
    if scanner.expect(90) { return 0 }
    guard let sign = scanner.peek, sign == 43 || sign == 45 else { return nil }
    scanner.index += 1
    guard let hours = scanner.digits(2) else { return nil }
    _ = scanner.expect(58)
    guard let minutes = scanner.digits(2) else { return nil }
    let offset = hours * 3600 + minutes * 60
    return sign == 45 ? -offset : offset
  }
}
