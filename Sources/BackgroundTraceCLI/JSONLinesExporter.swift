import BackgroundTrace

/// Writes events as JSON Lines: one object per event, with `time` (seconds) and `kind`
/// first and then the kind's fields under their canonical names, exactly as the text
/// form has them: integers and seconds as numbers, booleans as booleans, words and
/// strings as strings, absent optional fields left out, `env.set` keys as fields.
///
/// ```
/// {"time":12.5,"kind":"task.begin","id":1,"name":"SaveDocument"}
/// ```
enum JSONLinesExporter {
  /// Streams the events of `reader` inside `window` to `console`.
  ///
  /// - Throws: what the reader throws for malformed input.
  /// - Complexity: O(*n*) time, constant memory.
  static func export(_ reader: inout TraceReader, window: TimeWindow?, console: some Console) throws {
    var text = ""
    while let located = try reader.next() {
      if let window {
        if located.event.time > window.to { break }
        if located.event.time < window.from { continue }
      }
      text += line(for: located.event)
      text += "\n"
      if text.utf8.count >= 64 * 1024 {
        console.write(text)
        text = ""
      }
    }
    console.write(text)
  }

  /// The JSON object of one event, without a line ending.
  static func line(for event: TraceEvent) -> String {
    var fields: [(String, String)] = [("time", event.time.description), ("kind", JSONText.string(event.kind.tag.name))]
    func string(_ key: String, _ value: String?) {
      if let value { fields.append((key, JSONText.string(value))) }
    }
    func int(_ key: String, _ value: Int?) {
      if let value { fields.append((key, String(value))) }
    }
    func bool(_ key: String, _ value: Bool?) {
      if let value { fields.append((key, value ? "true" : "false")) }
    }
    func seconds(_ key: String, _ value: TraceTime?) {
      if let value { fields.append((key, value.description)) }
    }
    switch event.kind {
    case .appLaunch:
      break
    case .appState(let to):
      string("to", to.rawValue)
    case .appTerminate(let reason):
      string("reason", reason)
    case .taskBegin(let id, let name):
      int("id", id)
      string("name", name)
    case .taskEnd(let id), .taskExpire(let id):
      int("id", id)
    case .schedRegister(let ident, let ok):
      string("ident", ident)
      bool("ok", ok)
    case .schedSubmit(let submission):
      string("ident", submission.ident)
      string("type", submission.type.rawValue)
      seconds("earliest", submission.earliest)
      bool("network", submission.network)
      bool("power", submission.power)
    case .schedReject(let ident, let error):
      string("ident", ident)
      string("error", error.rawValue)
    case .schedCancel(.identifier(let ident)):
      string("ident", ident)
    case .schedCancel(.all):
      bool("all", true)
    case .schedLaunch(let ident, let run):
      string("ident", ident)
      int("run", run)
    case .schedExpire(let run):
      int("run", run)
    case .schedComplete(let run, let success):
      int("run", run)
      bool("success", success)
    case .workEnqueue(let enqueue):
      string("work", enqueue.work)
      string("name", enqueue.name)
      string("backoff", enqueue.backoff?.rawValue)
      seconds("delay", enqueue.delay)
      int("limit", enqueue.limit)
      seconds("period", enqueue.period)
      string("policy", enqueue.policy?.rawValue)
    case .workStart(let work, let attempt):
      string("work", work)
      int("attempt", attempt)
    case .workResult(let work, let attempt, let outcome):
      string("work", work)
      int("attempt", attempt)
      string("outcome", outcome.rawValue)
    case .workStop(let work, let attempt, let reason):
      string("work", work)
      int("attempt", attempt)
      string("reason", reason)
    case .workCancel(let work):
      string("work", work)
    case .envSet(let settings):
      appendEnvironment(settings, to: &fields)
    case .input(let key, let value):
      string("key", key)
      string("value", value)
    case .mark(let label):
      string("label", label)
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
