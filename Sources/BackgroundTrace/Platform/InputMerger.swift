/// How a request's input is made from its own ``WorkRequest/inputData`` and the output
/// of the work it waits for (androidx `InputMerger`, set with
/// `OneTimeWorkRequest.Builder.setInputMerger`). androidx `WorkerWrapper.runWorker`
/// merges the request's own input first, then each prerequisite's output; periodic
/// work takes its own input alone.
public enum InputMerger: String, Sendable, Hashable, CaseIterable {
  /// `OneTimeWorkRequest`'s default (androidx `OverwritingInputMerger`): every key of
  /// every input, a later input's value overwriting an earlier one's.
  case overwriting
  /// androidx `ArrayCreatingInputMerger`: a key seen once keeps its value, an array
  /// as it is and a single value as an array of one; a key seen again has the values
  /// joined into one array, in input order. Values of different types under one key
  /// are refused (androidx throws `IllegalArgumentException`).
  case arrayCreating

  /// The merge of `inputs`, in order.
  ///
  /// - Throws: ``InputMergeError`` when ``arrayCreating`` meets one key with values of
  ///   two types.
  public func merge(_ inputs: [WorkData]) throws(InputMergeError) -> WorkData {
    var merged = WorkData()
    for input in inputs {
      for key in input.values.keys.sorted() {
        let value = input.values[key]!
        switch self {
        case .overwriting:
          merged.values[key] = value
        case .arrayCreating:
          guard let existing = merged.values[key] else {
            merged.values[key] = value.isArray ? value : Self.array(of: [value])
            continue
          }
          guard existing.elementType == value.elementType else { throw InputMergeError(key: key) }
          merged.values[key] = Self.array(of: [existing, value])
        }
      }
    }
    return merged
  }

  /// One array of the elements of `values`, all of one element type, in order.
  private static func array(of values: [WorkData.Value]) -> WorkData.Value {
    func elements<T>(_ single: (WorkData.Value) -> [T]?) -> [T] { values.flatMap { single($0) ?? [] } }
    switch values[0] {
    case .boolean, .booleans:
      return .booleans(
        elements {
          if case .boolean(let v) = $0 { [v] } else if case .booleans(let a) = $0 { a } else { nil }
        })
    case .byte, .bytes:
      return .bytes(elements { if case .byte(let v) = $0 { [v] } else if case .bytes(let a) = $0 { a } else { nil } })
    case .int, .ints:
      return .ints(elements { if case .int(let v) = $0 { [v] } else if case .ints(let a) = $0 { a } else { nil } })
    case .long, .longs:
      return .longs(elements { if case .long(let v) = $0 { [v] } else if case .longs(let a) = $0 { a } else { nil } })
    case .float, .floats:
      return .floats(
        elements { if case .float(let v) = $0 { [v] } else if case .floats(let a) = $0 { a } else { nil } })
    case .double, .doubles:
      return .doubles(
        elements { if case .double(let v) = $0 { [v] } else if case .doubles(let a) = $0 { a } else { nil } })
    case .string, .strings:
      return .strings(
        elements { if case .string(let v) = $0 { [v] } else if case .strings(let a) = $0 { a } else { nil } })
    }
  }
}

/// `ArrayCreatingInputMerger` met one key with values of two types (androidx throws
/// `IllegalArgumentException`); the attempt fails before its worker runs.
public struct InputMergeError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The key whose values differ in type.
  public var key: String

  /// An error for `key`.
  public init(key: String) {
    self.key = key
  }

  /// What went wrong, naming the key.
  public var description: String { "the inputs hold values of different types for '\(key)'" }
}
