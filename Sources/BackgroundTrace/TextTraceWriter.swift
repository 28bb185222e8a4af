/// Writes the canonical text form of traces (`bgtrace 1`, then one event per line).
///
/// Canonical means: times without exponent or trailing zeros, fields in the order of
/// ``EventKind/fieldNames``, absent optional fields left out, values quoted only when
/// they are not bare words, one space between tokens, LF line endings.
public enum TextTraceWriter {
  /// The header line's text, without the line ending.
  public static let header = "bgtrace 1"

  /// The canonical text of a whole trace.
  ///
  /// - Complexity: O(*n*) in the number of events.
  public static func text(of trace: Trace) -> String {
    var output = headerAndMeta(trace.meta)
    for event in trace.events {
      appendLine(for: event, to: &output)
    }
    return output
  }

  /// The header line and the `meta` line (if any), each ending in LF.
  public static func headerAndMeta(_ meta: TraceMetadata) -> String {
    var output = header + "\n"
    if !meta.isEmpty {
      output += "meta"
      for entry in meta.entries {
        output += " \(entry.key)=\(quotedIfNeeded(entry.value))"
      }
      output += "\n"
    }
    return output
  }

  /// The canonical line of one event, without the line ending.
  public static func line(for event: TraceEvent) -> String {
    var line = ""
    appendLine(for: event, to: &line)
    line.removeLast()
    return line
  }

  /// Appends the canonical line of `event`, with its LF, to `output`.
  public static func appendLine(for event: TraceEvent, to output: inout String) {
    output += event.time.description
    output += " "
    output += event.kind.tag.name
    appendFields(of: event.kind, to: &output)
    output += "\n"
  }

  private static func appendFields(of kind: TraceEvent.Kind, to output: inout String) {
    func field(_ key: String, _ value: String) {
      output += " "
      output += key
      output += "="
      output += value
    }
    func string(_ key: String, _ value: String?) {
      if let value { field(key, quotedIfNeeded(value)) }
    }
    func int(_ key: String, _ value: Int?) {
      if let value { field(key, String(value)) }
    }
    func bool(_ key: String, _ value: Bool?) {
      if let value { field(key, value ? "true" : "false") }
    }
    func time(_ key: String, _ value: TraceTime?) {
      if let value { field(key, value.description) }
    }
    switch kind {
    case .appLaunch:
      break
    case .appState(let to):
      field("to", to.rawValue)
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
      field("type", submission.type.rawValue)
      time("earliest", submission.earliest)
      bool("network", submission.network)
      bool("power", submission.power)
    case .schedReject(let ident, let error):
      string("ident", ident)
      field("error", error.rawValue)
    case .schedCancel(.identifier(let ident)):
      string("ident", ident)
    case .schedCancel(.all):
      field("all", "true")
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
      time("delay", enqueue.delay)
      int("limit", enqueue.limit)
      time("period", enqueue.period)
      string("policy", enqueue.policy?.rawValue)
    case .workStart(let work, let attempt):
      string("work", work)
      int("attempt", attempt)
    case .workResult(let work, let attempt, let outcome):
      string("work", work)
      int("attempt", attempt)
      field("outcome", outcome.rawValue)
    case .workStop(let work, let attempt, let reason):
      string("work", work)
      int("attempt", attempt)
      string("reason", reason)
    case .workCancel(let work):
      string("work", work)
    case .envSet(let settings):
      for setting in settings { string(setting.key, setting.value) }
    case .input(let key, let value):
      string("key", key)
      string("value", value)
    case .mark(let label):
      string("label", label)
    }
  }

  /// Whether `text` can be written without quotes: `[A-Za-z0-9._:/+-]+`.
  public static func isBareWord(_ text: some StringProtocol) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy(isWordByte)
  }

  static func isWordByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
      UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "+"), UInt8(ascii: "-"):
      true
    default:
      false
    }
  }

  /// `text` as a bare word when it is one, otherwise double-quoted with escapes.
  public static func quotedIfNeeded(_ text: String) -> String {
    isBareWord(text) ? text : quoted(text)
  }

  /// `text` double-quoted, with `\"` `\\` `\n` `\t` and `\u{HEX}` escapes for control characters.
  public static func quoted(_ text: String) -> String {
    var quoted = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": quoted += "\\\""
      case "\\": quoted += "\\\\"
      case "\n": quoted += "\\n"
      case "\t": quoted += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          quoted += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          quoted.unicodeScalars.append(scalar)
        }
      }
    }
    quoted += "\""
    return quoted
  }
}
