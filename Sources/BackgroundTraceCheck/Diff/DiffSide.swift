import BackgroundTrace

/// One trace prepared for comparison: the lines the diff shows, and what each line is
/// compared by.
///
/// The meta line is a line of the diff only when meta is compared. When it is not and
/// either trace has one, neither side shows its header either, so that every shown line
/// keeps its canonical line number and each hunk covers the lines it counts.
///
/// An event compares by its kind with its identifiers renamed (unless they compare
/// exactly) and its times (its own and those of its fields of type
/// ``FieldType/seconds``, such as `earliest=`) set aside, so that ``DiffOptions/times``
/// decides how every time compares, from the vocabulary's declared field types.
struct DiffSide {
  /// The lines the diff shows: the header and the meta line when ``DiffOptions/comparesMeta``
  /// or neither trace has a meta line, then one per event. Canonical text, or without
  /// times when only the order of events matters.
  var lines: [String]
  /// How many lines come before the first event.
  var headerLines: Int
  /// The canonical `meta` line, or `nil` when the trace has none.
  var metaLine: String?
  /// How many lines of the canonical text come before ``lines``.
  private var hiddenLines: Int
  /// The comparison key of each line: the kind, renamed, with its time fields zeroed
  /// (`nil` for header lines, which compare by text).
  private var keys: [TraceEvent.Kind?]
  /// Each line's event time.
  private var times: [TraceTime]
  /// Each line's time field values, in field order (empty for most kinds).
  private var fieldTimes: [[TraceTime]]

  /// Prepares `trace`; `showsHeader` says whether its header and meta lines are lines of
  /// the diff (both sides must agree, or the header would differ).
  init(_ trace: RecordedTrace, options: DiffOptions, showsHeader: Bool) {
    metaLine =
      trace.meta.isEmpty
      ? nil : TextTraceWriter.headerAndMeta(trace.meta).split(separator: "\n").last.map(String.init)
    lines = []
    if showsHeader {
      lines.append(TextTraceWriter.header)
      if let metaLine { lines.append(metaLine) }
      hiddenLines = 0
    } else {
      hiddenLines = metaLine == nil ? 1 : 2
    }
    headerLines = lines.count
    keys = Array(repeating: nil, count: headerLines)
    times = Array(repeating: .zero, count: headerLines)
    fieldTimes = Array(repeating: [], count: headerLines)
    var renaming = IdentifierRenaming()
    for event in trace.events {
      lines.append(options.times == .order ? Self.lineWithoutTimes(event.kind) : TextTraceWriter.line(for: event))
      let kind = options.identifiers == .renamed ? renaming.rename(event.kind) : event.kind
      let (key, eventFieldTimes) = Self.settingTimesAside(kind)
      keys.append(key)
      times.append(event.time)
      fieldTimes.append(eventFieldTimes)
    }
  }

  /// The 1-based event number of line `index` (0 for header lines).
  func eventNumber(_ index: Int) -> Int { max(index - headerLines + 1, 0) }

  /// The 1-based line number of line `index` in the trace's canonical text (which has
  /// the header and meta lines, shown or not).
  func lineNumber(_ index: Int) -> Int { index + 1 + hiddenLines }

  /// Whether line `i` of this side and line `j` of `other` are the same under `mode`.
  func matches(_ i: Int, _ other: DiffSide, _ j: Int, times mode: DiffOptions.Times) -> Bool {
    guard let key = keys[i], let otherKey = other.keys[j] else {
      return keys[i] == nil && other.keys[j] == nil && lines[i] == other.lines[j]
    }
    guard key == otherKey, Self.matches(times[i], other.times[j], mode) else { return false }
    // Equal keys have the same time fields present, so the two lists pair up.
    return zip(fieldTimes[i], other.fieldTimes[j]).allSatisfy { Self.matches($0, $1, mode) }
  }

  private static func matches(_ a: TraceTime, _ b: TraceTime, _ mode: DiffOptions.Times) -> Bool {
    switch mode {
    case .exact: return a == b
    case .order: return true
    case .tolerance(let tolerance):
      let (a, b) = (a.nanoseconds, b.nanoseconds)
      return (a > b ? a - b : b - a) <= tolerance.nanoseconds
    }
  }

  /// `kind` with each time field zeroed (present fields stay present), and the times it
  /// held, in field order.
  private static func settingTimesAside(_ kind: TraceEvent.Kind) -> (TraceEvent.Kind, [TraceTime]) {
    guard kind.hasTimeFields else { return (kind, []) }
    return (kind.mappingTimeFields { _ in .zero }, kind.timeFieldValues)
  }

  /// The event's canonical line without its time, its time fields written `NAME=*`: what
  /// `--time order` shows, so that no line shows a time the comparison ignored.
  static func lineWithoutTimes(_ kind: TraceEvent.Kind) -> String {
    var line = kind.tag.name
    kind.forEachField { name, value in
      line += " \(name)="
      switch value {
      case .integer(let integer): line += String(integer)
      case .boolean(let boolean): line += boolean ? "true" : "false"
      case .seconds: line += "*"
      case .interval(let interval): line += interval.description
      case .choice(let word): line += word
      case .string(let string): line += TextTraceWriter.quotedIfNeeded(string)
      }
    }
    return line
  }
}
