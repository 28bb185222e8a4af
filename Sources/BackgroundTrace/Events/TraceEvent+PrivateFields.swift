extension TraceEvent.Kind {
  /// Whether some field of this kind is private (``FieldSpec/isPrivate``), whether or
  /// not this event has it.
  package var hasPrivateFields: Bool { Self.tagsWithPrivateFields[Int(tag.rawValue)] }

  /// The kind with the value of each of its private fields present in this event
  /// replaced by `transform`'s, in field order; `self` when it has none.
  ///
  /// An `input` whose key names a system value (`system.…`, such as
  /// `system.backgroundTimeRemaining`) is the system's answer, not the app's data, and
  /// keeps its value: a replay hands it back to the app as a number.
  package func mappingPrivateFields(_ transform: (String) -> String) -> TraceEvent.Kind {
    guard hasPrivateFields else { return self }
    if case .input(let key, _) = self, key.hasPrefix(Self.systemInputPrefix) { return self }
    let fields = tag.spec.fields
    var index = 0
    var mapped: [FieldValue?] = []
    mapped.reserveCapacity(fields.count)
    forEachFieldValue { value in
      defer { index += 1 }
      guard fields[index].isPrivate, case .string(let string)? = value else {
        mapped.append(value)
        return
      }
      mapped.append(.string(transform(string)))
    }
    // A string field's value never decides whether the fields make an event.
    return (try? TraceEvent.Kind(tag: tag, fieldValues: mapped)) ?? self
  }

  /// The values of the private fields present in this event, in field order (none for
  /// a system input).
  package var privateFieldValues: [String] {
    var values: [String] = []
    _ = mappingPrivateFields { value in
      values.append(value)
      return value
    }
    return values
  }

  /// The prefix of the `input` keys whose values are the system's answers.
  package static let systemInputPrefix = "system."

  /// Whether any field of the kind with this raw tag is private, by raw value.
  private static let tagsWithPrivateFields = EventTag.table(where: \.isPrivate)
}
