/// Turns one event line's `key=value` fields into a typed ``TraceEvent/Kind``,
/// rejecting unknown, missing and mistyped fields.
struct FieldReader {
  let kind: EventTag
  let fields: [LineScanner.Field]
  let kindColumn: Int
  let scanner: LineScanner

  func build() throws(TraceFormatError) -> TraceEvent.Kind {
    if kind != .envSet {
      let known = kind.fieldNames
      for field in fields where !known.contains(field.key) {
        let expected = known.isEmpty ? "it takes no fields" : "expected \(known.joined(separator: ", "))"
        throw scanner.error(at: field.keyColumn, "unknown field '\(field.key)' for \(kind.name); \(expected)")
      }
    }
    switch kind {
    case .appLaunch:
      return .appLaunch
    case .appState:
      return .appState(to: try required("to", choice))
    case .appTerminate:
      return .appTerminate(reason: try optional("reason", string))
    case .taskBegin:
      return .taskBegin(id: try required("id", integer), name: try optional("name", string))
    case .taskEnd:
      return .taskEnd(id: try required("id", integer))
    case .taskExpire:
      return .taskExpire(id: try required("id", integer))
    case .schedRegister:
      return .schedRegister(ident: try required("ident", string), ok: try optional("ok", boolean))
    case .schedSubmit:
      return .schedSubmit(
        SchedulerSubmission(
          ident: try required("ident", string), type: try required("type", choice),
          earliest: try optional("earliest", seconds), network: try optional("network", boolean),
          power: try optional("power", boolean)))
    case .schedReject:
      return .schedReject(ident: try required("ident", string), error: try required("error", choice))
    case .schedCancel:
      return .schedCancel(try cancelTarget())
    case .schedLaunch:
      return .schedLaunch(ident: try required("ident", string), run: try required("run", integer))
    case .schedExpire:
      return .schedExpire(run: try required("run", integer))
    case .schedComplete:
      return .schedComplete(run: try required("run", integer), success: try required("success", boolean))
    case .workEnqueue:
      return .workEnqueue(
        WorkEnqueue(
          work: try required("work", string), name: try optional("name", string),
          backoff: try optional("backoff", choice), delay: try optional("delay", interval),
          limit: try optional("limit", integer), period: try optional("period", interval),
          flex: try optional("flex", interval), policy: try optional("policy", choice)))
    case .workStart:
      return .workStart(work: try required("work", string), attempt: try required("attempt", integer))
    case .workResult:
      return .workResult(
        work: try required("work", string), attempt: try required("attempt", integer),
        outcome: try required("outcome", choice))
    case .workStop:
      return .workStop(
        work: try required("work", string), attempt: try required("attempt", integer),
        reason: try required("reason", string))
    case .workCancel:
      return .workCancel(work: try required("work", string))
    case .envSet:
      guard !fields.isEmpty else {
        throw scanner.error(at: kindColumn, "env.set needs at least one key=value pair")
      }
      return .envSet(fields.map { EnvironmentSetting(key: $0.key, value: $0.value.text) })
    case .input:
      return .input(key: try required("key", string), value: try required("value", string))
    case .mark:
      return .mark(label: try required("label", string))
    }
  }

  private func cancelTarget() throws(TraceFormatError) -> SchedulerCancelTarget {
    let ident = try optional("ident", string)
    let all = try optional("all", boolean)
    switch (ident, all) {
    case (let ident?, nil):
      return .identifier(ident)
    case (nil, true?):
      return .all
    case (nil, false?):
      throw scanner.error(at: field("all")!.valueColumn, "expected all=true (or ident=…) for sched.cancel")
    case (nil, nil):
      throw scanner.error(at: kindColumn, "sched.cancel needs ident=… or all=true")
    case (_?, _?):
      throw scanner.error(at: field("all")!.keyColumn, "sched.cancel takes ident=… or all=true, not both")
    }
  }

  // MARK: Typed access

  private typealias Convert<T> = (LineScanner.Field) throws(TraceFormatError) -> T

  private func field(_ key: String) -> LineScanner.Field? {
    fields.first { $0.key == key }
  }

  private func required<T>(_ key: String, _ convert: Convert<T>) throws(TraceFormatError) -> T {
    guard let field = field(key) else {
      throw scanner.error(at: kindColumn, "\(kind.name) is missing the required field '\(key)'")
    }
    return try convert(field)
  }

  private func optional<T>(_ key: String, _ convert: Convert<T>) throws(TraceFormatError) -> T? {
    guard let field = field(key) else { return nil }
    return try convert(field)
  }

  private func string(_ field: LineScanner.Field) -> String {
    field.value.text
  }

  private func integer(_ field: LineScanner.Field) throws(TraceFormatError) -> Int {
    guard case .bare(let bytes) = field.value, let value = Self.parseInteger(bytes) else {
      throw mistyped(field, "a non-negative integer")
    }
    return value
  }

  static func parseInteger(_ bytes: ArraySlice<UInt8>) -> Int? {
    guard !bytes.isEmpty else { return nil }
    var value = 0
    for byte in bytes {
      let digit = byte &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      let (times10, o1) = value.multipliedReportingOverflow(by: 10)
      let (next, o2) = times10.addingReportingOverflow(Int(digit))
      guard !o1, !o2 else { return nil }
      value = next
    }
    return value
  }

  private func boolean(_ field: LineScanner.Field) throws(TraceFormatError) -> Bool {
    if case .bare(let bytes) = field.value {
      if bytes.elementsEqual("true".utf8) { return true }
      if bytes.elementsEqual("false".utf8) { return false }
    }
    throw mistyped(field, "true or false")
  }

  private func seconds(_ field: LineScanner.Field) throws(TraceFormatError) -> TraceTime {
    guard case .bare(let bytes) = field.value, let time = TraceTime.parse(utf8: bytes) else {
      throw mistyped(field, "a non-negative number of seconds with at most 9 fractional digits")
    }
    return time
  }

  private func interval(_ field: LineScanner.Field) throws(TraceFormatError) -> TraceInterval {
    TraceInterval(nanoseconds: try seconds(field).nanoseconds)
  }

  private func choice<T: RawRepresentable & CaseIterable>(
    _ field: LineScanner.Field
  ) throws(TraceFormatError) -> T where T.RawValue == String {
    guard let value = T(rawValue: field.value.text) else {
      let options = T.allCases.map(\.rawValue).joined(separator: ", ")
      throw mistyped(field, "one of \(options)")
    }
    return value
  }

  private func mistyped(_ field: LineScanner.Field, _ expected: String) -> TraceFormatError {
    let found: String
    switch field.value {
    case .bare: found = field.value.text
    case .quoted(let text): found = TextTraceWriter.quoted(text)
    }
    return scanner.error(at: field.valueColumn, "expected \(expected) for '\(field.key)', found '\(found)'")
  }
}
