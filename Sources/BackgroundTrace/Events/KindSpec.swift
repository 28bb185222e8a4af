/// What the vocabulary says of one event kind: its text name, which side produces it,
/// and its fields, in the order the text form writes them.
///
/// ``EventTag/spec`` declares one per kind (EventTag.swift); the text writer and
/// parser, the exporters, the encoder's checks and the docs' vocabulary tables follow
/// from it, and ``TraceEvent/Kind/fieldValues`` and
/// ``TraceEvent/Kind/init(tag:fieldValues:)`` convert between a kind's values and
/// these fields.
public struct KindSpec: Sendable, Hashable {
  /// The kind's name in the text form (`task.begin`).
  public let name: String
  /// Whether the system or the app produces events of this kind.
  public let side: EventSide
  /// The kind's fields, in the order the text form writes them.
  public let fields: [FieldSpec]
  /// Whether the kind takes free `key=value` pairs instead of ``fields`` (`env.set`).
  public let takesFreeFields: Bool
  /// One line saying what an event of this kind records.
  public let summary: String

  init(
    _ name: String, _ side: EventSide, _ fields: [FieldSpec], freeFields: Bool = false, _ summary: String
  ) {
    self.name = name
    self.side = side
    self.fields = fields
    self.takesFreeFields = freeFields
    self.summary = summary
  }

  /// The index in ``fields`` of the field named `name`.
  public func index(of name: String) -> Int? {
    fields.firstIndex { $0.name == name }
  }
}

/// One field of an event kind.
public struct FieldSpec: Sendable, Hashable {
  /// The field's name in the text form (`id`).
  public let name: String
  /// The type of its value.
  public let type: FieldType
  /// Whether every event of the kind has it.
  public let isRequired: Bool
  /// Whether its value may be the user's or the app's private data (a task's name, an
  /// input's value): what a recorder that redacts (``TracePrivacy/redacted``) replaces
  /// with a hash.
  public let isPrivate: Bool

  /// A field every event of the kind has.
  static func required(_ name: String, _ type: FieldType, private isPrivate: Bool = false) -> FieldSpec {
    FieldSpec(name: name, type: type, isRequired: true, isPrivate: isPrivate)
  }

  /// A field an event of the kind may leave out.
  static func optional(_ name: String, _ type: FieldType, private isPrivate: Bool = false) -> FieldSpec {
    FieldSpec(name: name, type: type, isRequired: false, isPrivate: isPrivate)
  }
}

/// The type of a field's value, as the text form writes it (``FieldValue`` is a value).
public enum FieldType: Sendable, Hashable {
  /// A non-negative integer.
  case integer
  /// `true` or `false`.
  case boolean
  /// A point in trace time, in seconds.
  case seconds
  /// A span, in seconds.
  case interval
  /// A string: a bare word or quoted.
  case string
  /// A word from a fixed set.
  case choice(words: [String])

  /// The words of `T`'s cases.
  static func choice<T: RawRepresentable & CaseIterable>(_: T.Type) -> FieldType where T.RawValue == String {
    .choice(words: T.allCases.map(\.rawValue))
  }

  /// What the text form expects for a value of this type, for error messages.
  public var expectation: String {
    switch self {
    case .integer: "a non-negative integer"
    case .boolean: "true or false"
    case .seconds, .interval: "a non-negative number of seconds with at most 9 fractional digits"
    case .string: "a string"
    case .choice(let words): "one of \(words.joined(separator: ", "))"
    }
  }
}

extension EventTag {
  /// What the vocabulary says of this kind (its declaration is `declaredSpec`).
  public var spec: KindSpec { Self.specs[Int(rawValue)] }

  /// The kind's name in the text form (`task.begin`).
  public var name: String { spec.name }

  /// Whether the system or the app produces events of this kind.
  public var side: EventSide { spec.side }

  /// The kind's field names, in the order the writer prints them (`env.set` has free keys).
  public var fieldNames: [String] { spec.fields.map(\.name) }

  /// The kind with this text name, or `nil`.
  public init?(name: some StringProtocol) {
    guard let kind = EventTag.byName[String(name)] else { return nil }
    self = kind
  }

  /// Every kind's spec, by raw value.
  private static let specs: [KindSpec] = {
    let largest = Int(allCases.map(\.rawValue).max() ?? 0)
    var specs = [KindSpec](repeating: KindSpec("", .neither, [], ""), count: largest + 1)
    for kind in allCases { specs[Int(kind.rawValue)] = kind.declaredSpec }
    return specs
  }()

  private static let byName: [String: EventTag] = Dictionary(
    uniqueKeysWithValues: allCases.map { ($0.name, $0) })
}

extension KindSpec {
  /// The vocabulary as docs/events.md lists it: a Markdown table of every kind, its
  /// binary code, side and fields, in code order. `swift test` checks that the page
  /// holds exactly this table.
  package static var vocabularyTable: String {
    var table = "| kind | code | side | fields | what it records |\n|---|---:|---|---|---|\n"
    for kind in EventTag.allCases.sorted(by: { $0.rawValue < $1.rawValue }) {
      let spec = kind.spec
      let fields =
        spec.takesFreeFields
        ? "free `key=value` pairs (at least one)"
        : spec.fields.isEmpty ? "—" : spec.fields.map(\.documentation).joined(separator: ", ")
      table += "| `\(spec.name)` | \(kind.rawValue) | \(spec.side.rawValue) | \(fields) | \(spec.summary) |\n"
    }
    return table
  }
}

extension FieldSpec {
  /// `id` (integer), or `name` (string, optional).
  fileprivate var documentation: String {
    let type: String =
      switch self.type {
      case .integer: "integer"
      case .boolean: "boolean"
      case .seconds: "seconds"
      case .interval: "interval"
      case .string: "string"
      case .choice(let words): words.map { "`\($0)`" }.joined(separator: " \\| ")
      }
    return "`\(name)` (\(type)\(isRequired ? "" : ", optional")\(isPrivate ? ", private" : ""))"
  }
}
