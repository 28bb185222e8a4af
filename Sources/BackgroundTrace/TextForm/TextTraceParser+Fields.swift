/// Turns one event line's `key=value` fields into a typed ``TraceEvent/Kind``,
/// rejecting unknown, missing and mistyped fields.
struct FieldReader {
  let kind: EventTag
  let fields: [LineScanner.Field]
  let kindColumn: Int
  let scanner: LineScanner

  /// The event the fields make, checked against the kind's ``EventTag/spec``: field by
  /// field in its order, then as a whole (``TraceEvent/Kind/init(tag:fieldValues:)``).
  func build() throws(TraceFormatError) -> TraceEvent.Kind {
    let spec = kind.spec
    if spec.takesFreeFields {
      guard !fields.isEmpty else {
        throw scanner.error(at: kindColumn, "\(spec.name) needs at least one key=value pair")
      }
      return .envSet(fields.map { EnvironmentSetting(key: $0.key, value: $0.value.text) })
    }
    for field in fields where spec.index(of: field.key) == nil {
      let known = kind.fieldNames
      let expected =
        if let meant = Spelling.nearest(to: field.key, among: known) {
          "did you mean '\(meant)'?"
        } else {
          known.isEmpty ? "it takes no fields" : "expected \(known.joined(separator: ", "))"
        }
      throw scanner.error(at: field.keyColumn, "unknown field '\(field.key)' for \(spec.name); \(expected)")
    }
    var values: [FieldValue?] = []
    values.reserveCapacity(spec.fields.count)
    for fieldSpec in spec.fields {
      guard let field = field(fieldSpec.name) else {
        if fieldSpec.isRequired {
          throw scanner.error(at: kindColumn, FieldError.missing(fieldSpec.name, of: spec.name).message)
        }
        values.append(nil)
        continue
      }
      values.append(try value(of: field, as: fieldSpec.type))
    }
    do throws(FieldError) {
      return try TraceEvent.Kind(tag: kind, fieldValues: values)
    } catch {
      guard let name = error.field, let field = field(name) else { throw scanner.error(at: kindColumn, error.message) }
      throw scanner.error(at: error.isInName ? field.keyColumn : field.valueColumn, error.message)
    }
  }

  private func field(_ key: String) -> LineScanner.Field? {
    fields.first { $0.key == key }
  }

  /// The value of `field`, checked to be of `type`.
  private func value(of field: LineScanner.Field, as type: FieldType) throws(TraceFormatError) -> FieldValue {
    switch type {
    case .integer: return .integer(try integer(field))
    case .boolean: return .boolean(try boolean(field))
    case .seconds: return .seconds(try seconds(field))
    case .interval: return .interval(TraceInterval(nanoseconds: try seconds(field).nanoseconds))
    case .string: return .string(field.value.text)
    case .choice(let words):
      let word = field.value.text
      guard words.contains(word) else { throw mistyped(field, type.expectation) }
      return .choice(word)
    }
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

  private func mistyped(_ field: LineScanner.Field, _ expected: String) -> TraceFormatError {
    let found: String
    switch field.value {
    case .bare: found = field.value.text
    case .quoted(let text): found = TextTraceWriter.quoted(text)
    }
    return scanner.error(at: field.valueColumn, "expected \(expected) for '\(field.key)', found '\(found)'")
  }
}
