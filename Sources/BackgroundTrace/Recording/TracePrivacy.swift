/// Whether a recorder keeps the private fields of the events it records — task names,
/// unique work names, input values (the fields the vocabulary marks private, docs/events.md) —
/// or redacts them, for traces recorded outside the lab.
///
/// Redacting works as `os_log`'s `<private>` with hashing: each value becomes
/// `private-` and 12 hex digits of a keyed hash whose key is random per recorder and
/// written nowhere, so within one trace a value always becomes the same word (the
/// checker still matches a task's begin and end, a replay still matches the app's
/// actions), while nothing in the file tells what it was. The trace's metadata says so
/// (`privacy=redacted`).
public enum TracePrivacy: Sendable, Hashable {
  /// Record every value as given.
  case visible
  /// Replace each private field's value with a hash that is stable within the trace.
  case redacted

  /// The metadata key a redacting recorder adds, with the value `redacted`.
  public static let metaKey = "privacy"

  /// The metadata `meta` with what this privacy says of the trace.
  func marking(_ meta: TraceMetadata) -> TraceMetadata {
    guard self == .redacted else { return meta }
    var meta = meta
    meta[Self.metaKey] = "redacted"
    return meta
  }
}

/// Replaces private values with `private-` and 12 hex digits of a hash keyed by a
/// random key of its own (SipHash, the standard library's `Hasher`, which the process
/// seeds at random as well).
struct PrivateValueRedactor: Sendable {
  private let key: (UInt64, UInt64)

  init() {
    var generator = SystemRandomNumberGenerator()
    key = (generator.next(), generator.next())
  }

  /// `value` redacted: the same word for the same value, for this redactor.
  func redact(_ value: String) -> String {
    var hasher = Hasher()
    hasher.combine(key.0)
    hasher.combine(key.1)
    hasher.combine(value)
    let hash = UInt64(bitPattern: Int64(hasher.finalize())) & 0xFFFF_FFFF_FFFF
    let digits = String(hash, radix: 16)
    return "private-" + String(repeating: "0", count: 12 - digits.count) + digits
  }

  /// `kind` with its private fields redacted.
  func redact(_ kind: TraceEvent.Kind) -> TraceEvent.Kind {
    kind.mappingPrivateFields(redact)
  }
}
