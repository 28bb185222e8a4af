extension TraceEvent.Kind {
  /// Whether some field of this kind is a point in trace time (of type
  /// ``FieldType/seconds``, such as `sched.submit earliest=`), whether or not this event
  /// has it.
  package var hasTimeFields: Bool { Self.tagsWithTimeFields[Int(tag.rawValue)] }

  /// The kind with the value of each of its time fields (those of type
  /// ``FieldType/seconds`` in the vocabulary, present in this event) replaced by
  /// `transform`'s, in field order; absent fields stay absent. `self` when the kind has
  /// none. What `bgtrace diff` and a replay use to compare those times apart from the
  /// rest of the event.
  package func mappingTimeFields(_ transform: (TraceTime) -> TraceTime) -> TraceEvent.Kind {
    guard hasTimeFields else { return self }
    let mapped = fieldValues.map { value -> FieldValue? in
      guard case .seconds(let time) = value else { return value }
      return .seconds(transform(time))
    }
    // A time field's value never decides whether the fields make an event.
    return (try? TraceEvent.Kind(tag: tag, fieldValues: mapped)) ?? self
  }

  /// The values of the kind's time fields present in this event, in field order.
  package var timeFieldValues: [TraceTime] {
    guard hasTimeFields else { return [] }
    var times: [TraceTime] = []
    forEachFieldValue { value in
      if case .seconds(let time) = value { times.append(time) }
    }
    return times
  }

  /// Whether any field of the kind with this raw tag is a point in time, by raw value.
  private static let tagsWithTimeFields = EventTag.table { $0.type == .seconds }
}

extension EventTag {
  /// For each kind, by raw value, whether one of its declared fields is `field`: a
  /// table read once per event instead of the kind's spec.
  static func table(where field: (FieldSpec) -> Bool) -> [Bool] {
    var tags = [Bool](repeating: false, count: Int(largestCode) + 1)
    for tag in allCases { tags[Int(tag.rawValue)] = tag.spec.fields.contains(where: field) }
    return tags
  }
}
