package import BackgroundTrace

/// Writes events as JSON Lines: one object per event, with `time` (seconds) and `kind`
/// first and then the kind's fields under their canonical names, exactly as the text
/// form has them: integers and seconds as numbers, booleans as booleans, words and
/// strings as strings, absent optional fields left out, `env.set` keys as fields.
///
/// ```
/// {"time":12.5,"kind":"task.begin","id":1,"name":"SaveDocument"}
/// ```
package enum JSONLinesExporter {
  /// Streams the events of `reader` inside `window` to `sink`, in pieces.
  ///
  /// - Throws: what the reader throws for malformed input.
  /// - Complexity: O(*n*) time, constant memory.
  package static func export(
    _ reader: inout TraceReader, window: TimeWindow?, to sink: @escaping (String) -> Void
  ) throws(TraceReadError) {
    var output = StreamedText<Never>(sink)
    while let located = try reader.next() {
      if let window {
        if located.event.time > window.to { break }
        if located.event.time < window.from { continue }
      }
      output.append(line(for: located.event) + "\n")
    }
    output.finish()
  }

  /// The JSON object of one event, without a line ending.
  static func line(for event: TraceEvent) -> String {
    var fields: [(String, String)] = [("time", event.time.description), ("kind", JSONText.string(event.kind.tag.name))]
    if case .envSet(let settings) = event.kind {
      appendEnvironment(settings, to: &fields)
      return JSONText.object(fields)
    }
    event.kind.forEachField { name, value in
      let json: String
      switch value {
      case .integer(let integer): json = String(integer)
      case .boolean(let boolean): json = boolean ? "true" : "false"
      case .seconds(let time): json = time.description
      case .interval(let interval): json = interval.description
      case .choice(let word), .string(let word): json = JSONText.string(word)
      }
      fields.append((name, json))
    }
    return JSONText.object(fields)
  }

  /// `env.set` keys become fields, each once (the last value wins, as it does for the
  /// environment); a key spelled `time` or `kind` is written `env.time`, `env.kind` so
  /// that it does not clash with the event's own fields.
  private static func appendEnvironment(_ settings: [EnvironmentSetting], to fields: inout [(String, String)]) {
    var seen: Set<String> = []
    for setting in settings.reversed() {
      let key = setting.key == "time" || setting.key == "kind" ? "env." + setting.key : setting.key
      guard seen.insert(key).inserted else { continue }
      fields.insert((key, JSONText.string(setting.value)), at: 2)
    }
  }
}
