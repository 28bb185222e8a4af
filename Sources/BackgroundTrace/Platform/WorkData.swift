/// Key-value data a worker is given and returns (androidx `androidx.work.Data`): a
/// request's input (``WorkRequest/inputData``), a worker's output
/// (``WorkResult/success(_:)``, ``WorkResult/failure(_:)``) and its progress
/// (``WorkContext/setProgress(_:)``). Values have androidx's types: a boolean, a byte,
/// an int, a long, a float, a double or a string (which may be `nil`), or an array of
/// one of them.
///
/// WorkManager refuses data that takes more than ``maxBytes`` serialized
/// (``serializedSize``): `Data.Builder.build()` throws `IllegalStateException` ("Data
/// cannot occupy more than 10240 bytes when serialized").
public struct WorkData: Sendable, Hashable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
  /// One value, typed as androidx `Data` types it.
  public enum Value: Sendable, Hashable {
    case boolean(Bool)
    case byte(Int8)
    case int(Int32)
    case long(Int64)
    case float(Float)
    case double(Double)
    /// A string, or `null` (which androidx's mergers take for a string).
    case string(String?)
    case booleans([Bool])
    case bytes([Int8])
    case ints([Int32])
    case longs([Int64])
    case floats([Float])
    case doubles([Double])
    /// An array of strings, each possibly `null`.
    case strings([String?])

    /// The value's element type, the one an array and a single value share: what
    /// `ArrayCreatingInputMerger` compares (androidx: the value's class, or its array's
    /// component type).
    var elementType: Int {
      switch self {
      case .boolean, .booleans: 0
      case .byte, .bytes: 1
      case .int, .ints: 2
      case .long, .longs: 3
      case .float, .floats: 4
      case .double, .doubles: 5
      case .string, .strings: 6
      }
    }

    /// Whether it is an array.
    var isArray: Bool {
      switch self {
      case .boolean, .byte, .int, .long, .float, .double, .string: false
      case .booleans, .bytes, .ints, .longs, .floats, .doubles, .strings: true
      }
    }
  }

  /// The most bytes data may take serialized (androidx `Data.MAX_DATA_BYTES`, 10 KB).
  public static let maxBytes = 10 * 1024

  /// No values (androidx `Data.EMPTY`).
  public static let empty = WorkData()

  /// The values, by key.
  public var values: [String: Value]

  /// Data holding `values`.
  public init(_ values: [String: Value] = [:]) {
    self.values = values
  }

  /// Data holding the pairs given, the last value of a key winning.
  public init(dictionaryLiteral elements: (String, Value)...) {
    self.init(Dictionary(elements, uniquingKeysWith: { $1 }))
  }

  /// The value of `key`, if any.
  public subscript(key: String) -> Value? {
    get { values[key] }
    set { values[key] = newValue }
  }

  /// How many values it holds (androidx `Data.size()`).
  public var count: Int { values.count }

  /// Whether it holds no value.
  public var isEmpty: Bool { values.isEmpty }

  /// How many bytes WorkManager's serialization of it takes (androidx
  /// `Data.toByteArrayInternalV1`, which `Data.Builder.build()` runs to refuse data over
  /// ``maxBytes``): a 4-byte header and a 4-byte count, then per value a type byte, the
  /// value (a string as `DataOutputStream.writeUTF` writes it: a 2-byte length and its
  /// modified UTF-8; an array as a 4-byte count and its elements, a `null` string
  /// element as androidx's 55-character stand-in), then its key, written as a string.
  public var serializedSize: Int {
    func utf(_ string: String?) -> Int {
      // Modified UTF-8, per UTF-16 unit: 1 byte for U+0001-U+007F, 2 for U+0000 and up
      // to U+07FF, 3 above (a character outside the BMP is two units, 6 bytes).
      guard let string else { return 2 + 55 }  // NULL_STRING_V1
      return 2
        + string.utf16.reduce(0) { total, unit in
          total + (unit >= 0x01 && unit <= 0x7F ? 1 : unit <= 0x7FF ? 2 : 3)
        }
    }
    var size = 8
    for (key, value) in values {
      size += 1 + utf(key)
      switch value {
      case .boolean, .byte: size += 1
      case .int, .float: size += 4
      case .long, .double: size += 8
      case .string(let string): size += string.map { utf($0) } ?? 0  // null: the type byte alone
      case .booleans(let array): size += 4 + array.count
      case .bytes(let array): size += 4 + array.count
      case .ints(let array): size += 4 + 4 * array.count
      case .floats(let array): size += 4 + 4 * array.count
      case .longs(let array): size += 4 + 8 * array.count
      case .doubles(let array): size += 4 + 8 * array.count
      case .strings(let array): size += 4 + array.reduce(0) { $0 + utf($1) }
      }
    }
    return size
  }

  /// Whether WorkManager takes it: its ``serializedSize`` is at most ``maxBytes``
  /// (androidx `check(it.size() <= MAX_DATA_BYTES)`).
  public var fitsWorkManager: Bool { serializedSize <= Self.maxBytes }

  /// `{key: value, …}` in key order.
  public var description: String {
    "{" + values.keys.sorted().map { "\($0): \(values[$0]!)" }.joined(separator: ", ") + "}"
  }
}
