import BackgroundTrace

/// The baseline the binary form is measured against: one event as a flat JSON
/// object with the canonical field names, encoded and decoded by Foundation.
struct JSONLinesEvent: Codable {
  var time: UInt64
  var kind: String
  var id: Int?
  var name: String?
  var to: String?
  var reason: String?
  var ident: String?
  var ok: Bool?
  var type: String?
  var earliest: UInt64?
  var error: String?
  var all: Bool?
  var run: Int?
  var success: Bool?
  var work: String?
  var attempt: Int?
  var outcome: String?
  var limit: Int?
  var key: String?
  var value: String?
  var label: String?
  var env: [String: String]?
  var session: String?
  var task: Int?
  var discretionary: Bool?
  /// The fields of a kind laid out from its spec (code 27 on), by name, as text.
  var fields: [String: String]?

  init(_ event: TraceEvent) {
    time = event.time.nanoseconds
    kind = event.kind.tag.name
    switch event.kind {
    case .appLaunch: break
    case .appState(let state): to = state.rawValue
    case .appTerminate(let reason): self.reason = reason
    case .taskBegin(let id, let name):
      self.id = id
      self.name = name
    case .taskEnd(let id), .taskExpire(let id): self.id = id
    case .schedRegister(let ident, let ok):
      self.ident = ident
      self.ok = ok
    case .schedSubmit(let submission):
      ident = submission.identifier
      type = submission.type.rawValue
      earliest = submission.earliest?.nanoseconds
    case .schedReject(let ident, let error):
      self.ident = ident
      self.error = error.rawValue
    case .schedCancel(.identifier(let ident)): self.ident = ident
    case .schedCancel(.all): all = true
    case .schedLaunch(let ident, let run):
      self.ident = ident
      self.run = run
    case .schedExpire(let run, _): self.run = run
    case .schedComplete(let run, let success):
      self.run = run
      self.success = success
    case .workEnqueue(let enqueue):
      work = enqueue.work
      name = enqueue.name
      limit = enqueue.retryLimit
    case .workStart(let work, let attempt):
      self.work = work
      self.attempt = attempt
    case .workResult(let work, let attempt, let outcome, _):
      self.work = work
      self.attempt = attempt
      self.outcome = outcome.rawValue
    case .workStop(let work, let attempt, let reason, _):
      self.work = work
      self.attempt = attempt
      self.reason = reason
    case .workCancel(let work): self.work = work
    case .envSet(let settings): env = Dictionary(settings.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    case .input(let key, let value):
      self.key = key
      self.value = value
    case .mark(let label): self.label = label
    case .netCreate(let session), .netWake(let session), .netEventsDone(let session), .netHandler(let session):
      self.session = session
    case .netSubmit(let session, let task, let kind, let discretionary):
      self.session = session
      self.task = task
      type = kind.rawValue
      self.discretionary = discretionary
    case .netFinish(let session, let task, let outcome):
      self.session = session
      self.task = task
      self.outcome = outcome.rawValue
    default:
      var fields: [String: String] = [:]
      event.kind.forEachField { name, value in
        switch value {
        case .integer(let integer): fields[name] = String(integer)
        case .boolean(let boolean): fields[name] = String(boolean)
        case .seconds(let time): fields[name] = time.description
        case .interval(let interval): fields[name] = interval.description
        case .choice(let word), .string(let word): fields[name] = word
        }
      }
      self.fields = fields
    }
  }
}
