/// `log show --style json` (an array of objects, pretty-printed over many lines) and
/// `log stream --style ndjson` (one object per line). Each object's `timestamp`,
/// `processID`, `processImagePath`, `subsystem`, `category` and `eventMessage` are read;
/// an object may span lines, and several may share one.
struct AppleLogJSONReader: LogStyleReader {
  /// The bytes of the object being read, from its `{`.
  private var object: [UInt8] = []
  private var nesting = JSONNesting()
  private var objectLine = 0
  /// What the objects the last line ended read as, in order.
  private var entries: [LineReading] = []
  /// The entries of `entries` after the one ``read(_:)`` returned, for ``nextPending()``.
  private var pending: [LineReading] = []
  /// The most bytes one object may take.
  static let maximumObjectLength = 1 << 20

  mutating func read(_ line: LogLineSplitter.Line) -> LineReading {
    entries.removeAll(keepingCapacity: true)
    pending.removeAll(keepingCapacity: true)
    var sawStructure = false
    for byte in line.bytes {
      if nesting.depth == 0 {
        switch byte {
        case 123:  // {
          nesting = JSONNesting()
          _ = nesting.take(byte)
          object.removeAll(keepingCapacity: true)
          object.append(byte)
          objectLine = line.number
          sawStructure = true
        case 91, 93, 44, 32, 9:  // [ ] , and blanks between objects
          sawStructure = true
        default:
          return .notInStyle
        }
        continue
      }
      if object.count < Self.maximumObjectLength { object.append(byte) }
      if nesting.take(byte) { entries.append(objectEntry()) }
    }
    if nesting.depth > 0 && object.count < Self.maximumObjectLength { object.append(10) }
    // One reading per line (the summary counts lines): the first entry, or the first
    // reading when none is one; the line's further entries are pending.
    let isEntry = { (reading: LineReading) in if case .entry = reading { true } else { false } }
    if let index = entries.firstIndex(where: isEntry) ?? entries.indices.first {
      pending = entries[(index + 1)...].filter(isEntry).reversed()
      return entries[index]
    }
    return sawStructure || nesting.depth > 0 || line.bytes.isEmpty ? .continuation : .notInStyle
  }

  mutating func nextPending() -> LineReading? { pending.popLast() }

  private func objectEntry() -> LineReading {
    guard object.count < Self.maximumObjectLength, let fields = JSONObjectFields.parse(object) else {
      return .notInStyle
    }
    var time: LogTimestamp?
    if let text = fields["timestamp"] {
      var bytes = Array(text.utf8)
      time = bytes.withUnsafeMutableBufferPointer { buffer in
        var scanner = LogBytes(UnsafeBufferPointer(buffer))
        return AppleLogFields.timestamp(&scanner, needsZone: false)
      }
    }
    let message = fields["eventMessage"] ?? ""
    let subsystem = fields["subsystem"] ?? ""
    let category = fields["category"] ?? ""
    let source = subsystem.isEmpty && category.isEmpty ? "" : "\(subsystem):\(category)"
    guard LogRelevance.apple(message: message, source: source) else { return .skipped(time, line: objectLine) }
    let process = fields["processImagePath"].map { path in String(path.split(separator: "/").last ?? "") }
    return .entry(
      LogRecord(
        time: time, pid: fields["processID"].flatMap { Int($0) }, process: process, source: source, message: message,
        line: objectLine))
  }
}

/// The top-level string and number fields of one JSON object (nested values skipped).
enum JSONObjectFields {
  static func parse(_ bytes: [UInt8]) -> [String: String]? {
    var fields: [String: String] = [:]
    var index = 0
    func skipBlanks() {
      while index < bytes.count, [32, 9, 10, 13].contains(bytes[index]) { index += 1 }
    }
    func string() -> String? {
      guard index < bytes.count, bytes[index] == 34 else { return nil }
      index += 1
      var text: [UInt8] = []
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        if byte == 34 { return String(decoding: text, as: UTF8.self) }
        guard byte == 92 else {
          text.append(byte)
          continue
        }
        guard index < bytes.count else { return nil }
        let escape = bytes[index]
        index += 1
        switch escape {
        case 110: text.append(10)
        case 116: text.append(9)
        case 114: text.append(13)
        case 98: text.append(8)
        case 102: text.append(12)
        case 117:
          guard index + 4 <= bytes.count,
            let scalar = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
          else { return nil }
          index += 4
          let value = Unicode.Scalar(scalar) ?? "\u{FFFD}"
          text.append(contentsOf: Array(String(Character(value)).utf8))
        default: text.append(escape)
        }
      }
      return nil
    }
    func skipValue() -> String? {
      skipBlanks()
      guard index < bytes.count else { return nil }
      switch bytes[index] {
      case 34: return string()
      case 123, 91:
        var nesting = JSONNesting()
        while index < bytes.count {
          let byte = bytes[index]
          index += 1
          if nesting.take(byte) { return "" }
        }
        return nil
      default:
        let start = index
        while index < bytes.count, ![44, 125, 93, 32, 10, 13, 9].contains(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
      }
    }
    skipBlanks()
    guard index < bytes.count, bytes[index] == 123 else { return nil }
    index += 1
    while true {
      skipBlanks()
      guard index < bytes.count else { return nil }
      if bytes[index] == 125 { return fields }
      guard let key = string() else { return nil }
      skipBlanks()
      guard index < bytes.count, bytes[index] == 58 else { return nil }
      index += 1
      guard let value = skipValue() else { return nil }
      fields[key] = value
      skipBlanks()
      guard index < bytes.count else { return nil }
      if bytes[index] == 44 {
        index += 1
      } else if bytes[index] != 125 {
        return nil
      }
    }
  }
}

/// Where a JSON text is, byte by byte: inside a string (just after a backslash in it,
/// or not), or how deep in objects and arrays.
struct JSONNesting {
  /// How many objects and arrays are open.
  private(set) var depth = 0
  private var inString = false
  private var escaped = false

  /// Takes the next byte; `true` when it closes the outermost object or array.
  mutating func take(_ byte: UInt8) -> Bool {
    if inString {
      if escaped {
        escaped = false
      } else if byte == 92 {  // \
        escaped = true
      } else if byte == 34 {  // "
        inString = false
      }
    } else if byte == 34 {
      inString = true
    } else if byte == 123 || byte == 91 {  // { [
      depth += 1
    } else if byte == 125 || byte == 93 {  // } ]
      depth -= 1
      return depth == 0
    }
    return false
  }
}
