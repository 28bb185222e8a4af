/// A field value of an event, typed as the text form writes it.
public enum FieldValue: Sendable, Hashable {
  /// A non-negative integer (`id=`, `run=`, `attempt=`, `limit=`).
  case integer(Int)
  /// `true` or `false`.
  case boolean(Bool)
  /// A point in trace time, in seconds (`earliest=`).
  case seconds(TraceTime)
  /// A span, in seconds (`delay=`, `period=`).
  case interval(TraceInterval)
  /// A word from a fixed set (`to=`, `type=`, `error=`, `outcome=`, `backoff=`, `policy=`).
  case choice(String)
  /// A string: a bare word or quoted when written.
  case string(String)
}

extension TraceEvent.Kind {
  /// Calls `body` with each present field, in the canonical order of the text form
  /// (``EventTag/fieldNames``; `env.set` keys in the order recorded). The one
  /// definition of a kind's fields that the text writer and the exporters share.
  public func forEachField(_ body: (_ name: String, _ value: FieldValue) -> Void) {
    func string(_ name: String, _ value: String?) { if let value { body(name, .string(value)) } }
    func integer(_ name: String, _ value: Int?) { if let value { body(name, .integer(value)) } }
    func boolean(_ name: String, _ value: Bool?) { if let value { body(name, .boolean(value)) } }
    func seconds(_ name: String, _ value: TraceTime?) { if let value { body(name, .seconds(value)) } }
    func interval(_ name: String, _ value: TraceInterval?) { if let value { body(name, .interval(value)) } }
    func choice(_ name: String, _ value: String?) { if let value { body(name, .choice(value)) } }
    switch self {
    case .appLaunch:
      break
    case .appState(let to):
      choice("to", to.rawValue)
    case .appTerminate(let reason):
      string("reason", reason)
    case .taskBegin(let id, let name):
      integer("id", id)
      string("name", name)
    case .taskEnd(let id), .taskExpire(let id):
      integer("id", id)
    case .schedRegister(let ident, let ok):
      string("ident", ident)
      boolean("ok", ok)
    case .schedSubmit(let submission):
      string("ident", submission.ident)
      choice("type", submission.type.rawValue)
      seconds("earliest", submission.earliest)
      boolean("network", submission.network)
      boolean("power", submission.power)
    case .schedReject(let ident, let error):
      string("ident", ident)
      choice("error", error.rawValue)
    case .schedCancel(.identifier(let ident)):
      string("ident", ident)
    case .schedCancel(.all):
      boolean("all", true)
    case .schedLaunch(let ident, let run):
      string("ident", ident)
      integer("run", run)
    case .schedExpire(let run):
      integer("run", run)
    case .schedComplete(let run, let success):
      integer("run", run)
      boolean("success", success)
    case .workEnqueue(let enqueue):
      string("work", enqueue.work)
      string("name", enqueue.name)
      choice("backoff", enqueue.backoff?.rawValue)
      interval("delay", enqueue.delay)
      integer("limit", enqueue.limit)
      interval("period", enqueue.period)
      interval("flex", enqueue.flex)
      choice("policy", enqueue.policy?.rawValue)
    case .workStart(let work, let attempt):
      string("work", work)
      integer("attempt", attempt)
    case .workResult(let work, let attempt, let outcome):
      string("work", work)
      integer("attempt", attempt)
      choice("outcome", outcome.rawValue)
    case .workStop(let work, let attempt, let reason):
      string("work", work)
      integer("attempt", attempt)
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
}
