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

/// Why field values do not make an event of a kind: a required field is missing, a
/// value has the wrong type, or the fields contradict each other.
public struct FieldError: BackgroundTraceError, Hashable {
  /// The field at fault, or `nil` when the fault is the kind's (a missing field).
  public var field: String?
  /// Whether the fault is in the field's name (it should not be there) rather than its value.
  public var isInName: Bool
  /// What is wrong, in one sentence without a position.
  public var message: String

  /// Creates an error.
  public init(field: String?, isInName: Bool = false, message: String) {
    self.field = field
    self.isInName = isInName
    self.message = message
  }

  /// Always ``TraceErrorKind/malformedTrace``: the values make no event.
  public var kind: TraceErrorKind { .malformedTrace }
  /// `nil`: the values came from no named input (a reader that finds the fault in a
  /// file reports it as a ``TraceFormatError`` with the file and position).
  public var file: String? { nil }
  /// `nil`, as ``file``.
  public var position: TracePosition? { nil }

  /// Kind `kind` lacks its required field `field`: the fault is the kind's.
  static func missing(_ field: String, of kind: String) -> FieldError {
    FieldError(field: nil, message: "\(kind) is missing the required field '\(field)'")
  }
}

extension TraceEvent.Kind {
  /// Calls `visit` with the kind's field values, one per field of its ``EventTag/spec``,
  /// in that order; `nil` where an optional field is absent. None for `env.set`, whose
  /// pairs are its settings. The one place a kind's values are taken apart: the text
  /// writer, the exporters and the encoder's checks read them here, with no array built.
  @inline(__always)  // inlined, a reader of some fields (the encoder's checks) builds no others
  public func forEachFieldValue(_ visit: (FieldValue?) -> Void) {
    switch self {
    case .appLaunch, .envSet: break
    case .appState(let to):
      visit(.choice(to.rawValue))
    case .appTerminate(let reason):
      visit(reason.map(FieldValue.string))
    case .taskBegin(let id, let name):
      visit(.integer(id))
      visit(name.map(FieldValue.string))
    case .taskEnd(let id), .taskExpire(let id):
      visit(.integer(id))
    case .schedRegister(let ident, let ok):
      visit(.string(ident))
      visit(ok.map(FieldValue.boolean))
    case .schedSubmit(let submission):
      visit(.string(submission.identifier))
      visit(.choice(submission.type.rawValue))
      visit(submission.earliest.map(FieldValue.seconds))
      visit(submission.network.map(FieldValue.boolean))
      visit(submission.power.map(FieldValue.boolean))
      visit(submission.title.map(FieldValue.string))
      visit(submission.subtitle.map(FieldValue.string))
      visit(submission.strategy.map { .choice($0.rawValue) })
      visit(submission.resources.map { .choice($0.rawValue) })
    case .schedReject(let ident, let error):
      visit(.string(ident))
      visit(.choice(error.rawValue))
    case .schedCancel(.identifier(let ident)):
      visit(.string(ident))
      visit(nil)
    case .schedCancel(.all):
      visit(nil)
      visit(.boolean(true))
    case .schedLaunch(let ident, let run):
      visit(.string(ident))
      visit(.integer(run))
    case .schedExpire(let run, let reason):
      visit(.integer(run))
      visit(reason.map { .choice($0.rawValue) })
    case .schedComplete(let run, let success):
      visit(.integer(run))
      visit(.boolean(success))
    case .workEnqueue(let enqueue):
      visit(.string(enqueue.work))
      visit(enqueue.name.map(FieldValue.string))
      visit(enqueue.backoff.map { .choice($0.rawValue) })
      visit(enqueue.backoffDelay.map(FieldValue.interval))
      visit(enqueue.retryLimit.map(FieldValue.integer))
      visit(enqueue.period.map(FieldValue.interval))
      visit(enqueue.flex.map(FieldValue.interval))
      visit(enqueue.policy.map { .choice($0.rawValue) })
      visit(enqueue.expedited.map { .choice($0.rawValue) })
      visit(enqueue.initialDelay.map(FieldValue.interval))
      visit(enqueue.constraints.flatMap(WorkConstraint.field).map(FieldValue.string))
      visit(enqueue.nextScheduleTimeOverride.map(FieldValue.seconds))
      visit(enqueue.request.map { .string($0.description) })
      visit(enqueue.uniqueName.map(FieldValue.string))
    case .workStart(let work, let attempt):
      visit(.string(work))
      visit(.integer(attempt))
    case .workResult(let work, let attempt, let outcome, let tags):
      visit(.string(work))
      visit(.integer(attempt))
      visit(.choice(outcome.rawValue))
      visit(tags.map(FieldValue.string))
    case .workStop(let work, let attempt, let reason, let tags):
      visit(.string(work))
      visit(.integer(attempt))
      visit(.string(reason))
      visit(tags.map(FieldValue.string))
    case .workCancel(let work):
      visit(.string(work))
    case .input(let key, let value):
      visit(.string(key))
      visit(.string(value))
    case .mark(let label):
      visit(.string(label))
    case .netCreate(let session), .netWake(let session), .netEventsDone(let session), .netHandler(let session):
      visit(.string(session))
    case .netSubmit(let session, let task, let kind, let discretionary):
      visit(.string(session))
      visit(.integer(task))
      visit(.choice(kind.rawValue))
      visit(discretionary.map(FieldValue.boolean))
    case .netFinish(let session, let task, let outcome):
      visit(.string(session))
      visit(.integer(task))
      visit(.choice(outcome.rawValue))
    case .schedProgress(let run, let completed, let total):
      visit(.integer(run))
      visit(.integer(completed))
      visit(.integer(total))
    case .fgsStart(let service), .fgsStop(let service):
      visit(.string(service))
    case .fgsForeground(let service, let type):
      visit(.string(service))
      visit(type.map { .choice($0.rawValue) })
    case .fgsRefuse(let service, let reason):
      visit(.string(service))
      visit(.choice(reason.rawValue))
    case .fgsTimeout(let service, let type):
      visit(.string(service))
      visit(.choice(type.rawValue))
    case .workForeground(let work, let attempt):
      visit(.string(work))
      visit(.integer(attempt))
    case .workRefuse(let work, let attempt, let reason):
      visit(.string(work))
      visit(.integer(attempt))
      visit(.choice(reason.rawValue))
    case .workQuota(let work, let policy):
      visit(.string(work))
      visit(.choice(policy.rawValue))
    case .appAllowlist(let reason, let duration):
      visit(.choice(reason.rawValue))
      visit(.interval(duration))
    case .fileLock(let path, let shared):
      visit(.string(path))
      visit(.boolean(shared))
    case .fileUnlock(let path):
      visit(.string(path))
    case .workWait(let name, let reasons), .schedWait(let name, let reasons):
      visit(.string(name))
      visit(.string(WaitReason.field(reasons)))
    case .workAfter(let work, let prerequisite):
      visit(.string(work))
      visit(.string(prerequisite))
    case .alarmSet(let alarm, let time, let type, let window, let interval):
      visit(.string(alarm))
      visit(.seconds(time))
      visit(.choice(type.rawValue))
      visit(window.map(FieldValue.interval))
      visit(interval.map(FieldValue.interval))
    case .alarmFire(let alarm), .alarmCancel(let alarm):
      visit(.string(alarm))
    }
  }

  /// The kind's field values, one per field of its ``EventTag/spec``, in that order;
  /// `nil` where an optional field is absent. Empty for `env.set`, whose pairs are its
  /// settings.
  public var fieldValues: [FieldValue?] {
    var values: [FieldValue?] = []
    forEachFieldValue { values.append($0) }
    return values
  }

  /// The event of kind `tag` with `fieldValues`, one per field of the kind's
  /// ``EventTag/spec`` in that order (`nil`: absent). What the text parser and the log
  /// importers build events with.
  ///
  /// - Throws: ``FieldError`` when a required field is missing, a value has the wrong
  ///   type or is not a word of its choice, or the fields contradict each other;
  ///   `env.set`, whose fields are free pairs, is built from its settings instead.
  public init(tag: EventTag, fieldValues: [FieldValue?]) throws(FieldError) {
    guard fieldValues.count == tag.spec.fields.count else {
      throw FieldError(
        field: nil,
        message:
          "\(tag.name) takes \(tag.spec.fields.count) field \(tag.spec.fields.count == 1 ? "value" : "values"), one per field; got \(fieldValues.count)"
      )
    }
    let values = FieldValues(spec: tag.spec, values: fieldValues)
    switch tag {
    case .appLaunch: self = .appLaunch
    case .appState: self = .appState(to: try values.choice(0))
    case .appTerminate: self = .appTerminate(reason: try values.optionalString(0))
    case .taskBegin: self = .taskBegin(id: try values.integer(0), name: try values.optionalString(1))
    case .taskEnd: self = .taskEnd(id: try values.integer(0))
    case .taskExpire: self = .taskExpire(id: try values.integer(0))
    case .schedRegister: self = .schedRegister(identifier: try values.string(0), ok: try values.optionalBoolean(1))
    case .schedSubmit:
      let submission = SchedulerSubmission(
        identifier: try values.string(0), type: try values.choice(1), earliest: try values.optionalSeconds(2),
        network: try values.optionalBoolean(3), power: try values.optionalBoolean(4),
        title: try values.optionalString(5), subtitle: try values.optionalString(6),
        strategy: try values.optionalChoice(7), resources: try values.optionalChoice(8))
      if submission.type != .continued, let index = (5...8).first(where: { fieldValues[$0] != nil }) {
        let name = tag.spec.fields[index].name
        throw FieldError(
          field: name, isInName: true, message: "'\(name)' is for type=continued only, not type=\(submission.type)")
      }
      self = .schedSubmit(submission)
    case .schedReject: self = .schedReject(identifier: try values.string(0), error: try values.choice(1))
    case .schedCancel:
      switch (try values.optionalString(0), try values.optionalBoolean(1)) {
      case (let ident?, nil): self = .schedCancel(.identifier(ident))
      case (nil, true?): self = .schedCancel(.all)
      case (nil, false?): throw FieldError(field: "all", message: "expected all=true (or ident=…) for sched.cancel")
      case (nil, nil): throw FieldError(field: nil, message: "sched.cancel needs ident=… or all=true")
      case (_?, _?):
        throw FieldError(field: "all", isInName: true, message: "sched.cancel takes ident=… or all=true, not both")
      }
    case .schedLaunch: self = .schedLaunch(identifier: try values.string(0), run: try values.integer(1))
    case .schedExpire: self = .schedExpire(run: try values.integer(0), reason: try values.optionalChoice(1))
    case .schedComplete: self = .schedComplete(run: try values.integer(0), success: try values.boolean(1))
    case .workEnqueue:
      self = .workEnqueue(
        WorkEnqueue(
          work: try values.string(0), name: try values.optionalString(1), backoff: try values.optionalChoice(2),
          backoffDelay: try values.optionalInterval(3), retryLimit: try values.optionalInteger(4),
          period: try values.optionalInterval(5), flex: try values.optionalInterval(6),
          policy: try values.optionalChoice(7), expedited: try values.optionalChoice(8),
          initialDelay: try values.optionalInterval(9), constraints: try values.workConstraints(10),
          nextScheduleTimeOverride: try values.optionalSeconds(11), request: try values.requestID(12),
          uniqueName: try values.optionalString(13)))
    case .workStart: self = .workStart(work: try values.string(0), attempt: try values.integer(1))
    case .workResult:
      self = .workResult(
        work: try values.string(0), attempt: try values.integer(1), outcome: try values.choice(2),
        tags: try values.optionalString(3))
    case .workStop:
      self = .workStop(
        work: try values.string(0), attempt: try values.integer(1), reason: try values.string(2),
        tags: try values.optionalString(3))
    case .workCancel: self = .workCancel(work: try values.string(0))
    case .envSet: throw FieldError(field: nil, message: "env.set takes key=value pairs, built from its settings")
    case .input: self = .input(key: try values.string(0), value: try values.string(1))
    case .mark: self = .mark(label: try values.string(0))
    case .netCreate: self = .netCreate(session: try values.string(0))
    case .netSubmit:
      self = .netSubmit(
        session: try values.string(0), task: try values.integer(1), kind: try values.choice(2),
        discretionary: try values.optionalBoolean(3))
    case .netFinish:
      self = .netFinish(session: try values.string(0), task: try values.integer(1), outcome: try values.choice(2))
    case .netWake: self = .netWake(session: try values.string(0))
    case .netEventsDone: self = .netEventsDone(session: try values.string(0))
    case .netHandler: self = .netHandler(session: try values.string(0))
    case .schedProgress:
      self = .schedProgress(run: try values.integer(0), completed: try values.integer(1), total: try values.integer(2))
    case .fgsStart: self = .fgsStart(service: try values.string(0))
    case .fgsForeground: self = .fgsForeground(service: try values.string(0), type: try values.optionalChoice(1))
    case .fgsStop: self = .fgsStop(service: try values.string(0))
    case .fgsRefuse: self = .fgsRefuse(service: try values.string(0), reason: try values.choice(1))
    case .fgsTimeout: self = .fgsTimeout(service: try values.string(0), type: try values.choice(1))
    case .workForeground: self = .workForeground(work: try values.string(0), attempt: try values.integer(1))
    case .workRefuse:
      self = .workRefuse(work: try values.string(0), attempt: try values.integer(1), reason: try values.choice(2))
    case .workQuota: self = .workQuota(work: try values.string(0), policy: try values.choice(1))
    case .appAllowlist: self = .appAllowlist(reason: try values.choice(0), duration: try values.interval(1))
    case .fileLock: self = .fileLock(path: try values.string(0), shared: try values.boolean(1))
    case .fileUnlock: self = .fileUnlock(path: try values.string(0))
    case .workWait: self = .workWait(work: try values.string(0), reasons: try values.waitReasons(1))
    case .workAfter: self = .workAfter(work: try values.string(0), prerequisite: try values.string(1))
    case .alarmSet:
      let type: AlarmType = try values.choice(2)
      let window = try values.optionalInterval(3)
      // A window belongs to a setWindow alarm, which has one.
      if (type == .window) != (window != nil) {
        throw FieldError(
          field: "window", isInName: window != nil,
          message: type == .window ? "alarm.set type=window needs window=…" : "window= is for type=window only")
      }
      let interval = try values.optionalInterval(4)
      // An interval belongs to a repeating alarm, which has one.
      if (type == .repeating) != (interval != nil) {
        throw FieldError(
          field: "interval", isInName: interval != nil,
          message: type == .repeating
            ? "alarm.set type=repeating needs interval=…" : "interval= is for type=repeating only")
      }
      self = .alarmSet(
        alarm: try values.string(0), at: try values.seconds(1), type: type, window: window, interval: interval)
    case .alarmFire: self = .alarmFire(alarm: try values.string(0))
    case .alarmCancel: self = .alarmCancel(alarm: try values.string(0))
    case .schedWait: self = .schedWait(identifier: try values.string(0), reasons: try values.waitReasons(1))
    }
  }

  /// Calls `body` with each present field, in the canonical order of the text form
  /// (the kind's ``EventTag/spec``; `env.set` keys in the order recorded). What the
  /// text writer and the exporters write.
  public func forEachField(_ body: (_ name: String, _ value: FieldValue) -> Void) {
    if case .envSet(let settings) = self {
      for setting in settings { body(setting.key, .string(setting.value)) }
      return
    }
    let fields = tag.spec.fields
    var index = 0
    forEachFieldValue { value in
      if let value { body(fields[index].name, value) }
      index += 1
    }
  }
}

/// A kind's field values with its spec, read by position as typed values.
private struct FieldValues {
  let spec: KindSpec
  let values: [FieldValue?]

  /// One value per field of `spec` (the initializer checked the count).
  private func value(_ index: Int) -> FieldValue? { values[index] }

  private func missing(_ index: Int) -> FieldError {
    .missing(spec.fields[index].name, of: spec.name)
  }

  private func mistyped(_ index: Int) -> FieldError {
    let field = spec.fields[index]
    return FieldError(field: field.name, message: "expected \(field.type.expectation) for '\(field.name)'")
  }

  private func required<T>(_ index: Int, _ read: (Int) throws(FieldError) -> T?) throws(FieldError) -> T {
    guard let value = try read(index) else { throw missing(index) }
    return value
  }

  /// The value at `index` as `extract` reads it; `nil` when absent, an error when
  /// `extract` finds no value of its type there.
  private func optional<T>(_ index: Int, _ extract: (FieldValue) -> T?) throws(FieldError) -> T? {
    guard let value = value(index) else { return nil }
    guard let typed = extract(value) else { throw mistyped(index) }
    return typed
  }

  func optionalString(_ index: Int) throws(FieldError) -> String? {
    try optional(index) { if case .string(let string) = $0 { string } else { nil } }
  }

  func optionalInteger(_ index: Int) throws(FieldError) -> Int? {
    try optional(index) { if case .integer(let integer) = $0 { integer } else { nil } }
  }

  func optionalBoolean(_ index: Int) throws(FieldError) -> Bool? {
    try optional(index) { if case .boolean(let boolean) = $0 { boolean } else { nil } }
  }

  func optionalSeconds(_ index: Int) throws(FieldError) -> TraceTime? {
    try optional(index) { if case .seconds(let time) = $0 { time } else { nil } }
  }

  func optionalInterval(_ index: Int) throws(FieldError) -> TraceInterval? {
    try optional(index) { if case .interval(let interval) = $0 { interval } else { nil } }
  }

  func interval(_ index: Int) throws(FieldError) -> TraceInterval {
    guard let value = try optionalInterval(index) else { throw missing(index) }
    return value
  }

  func optionalChoice<T: RawRepresentable>(_ index: Int) throws(FieldError) -> T? where T.RawValue == String {
    try optional(index) { if case .choice(let word) = $0 { T(rawValue: word) } else { nil } }
  }

  func string(_ index: Int) throws(FieldError) -> String { try required(index, optionalString) }

  /// The reasons a `reasons=` string at `index` names (``WaitReason/parse(_:)``).
  func waitReasons(_ index: Int) throws(FieldError) -> Set<WaitReason> {
    guard let reasons = WaitReason.parse(try string(index)) else {
      let words = WaitReason.allCases.map(\.rawValue).joined(separator: ", ")
      throw FieldError(field: spec.fields[index].name, message: "expected words joined by + from \(words)")
    }
    return reasons
  }
  /// `needs=`: `nil` when absent.
  func workConstraints(_ index: Int) throws(FieldError) -> Set<WorkConstraint>? {
    guard let field = try optionalString(index) else { return nil }
    guard let constraints = WorkConstraint.parse(field) else {
      let words = WorkConstraint.allCases.map(\.rawValue).joined(separator: ", ")
      throw FieldError(field: spec.fields[index].name, message: "expected words joined by + from \(words)")
    }
    return constraints
  }
  func requestID(_ index: Int) throws(FieldError) -> WorkRequestID? {
    guard let field = try optionalString(index) else { return nil }
    guard let id = WorkRequestID(field) else {
      throw FieldError(
        field: spec.fields[index].name, message: "expected a UUID (8-4-4-4-12 hex digits), found \"\(field)\"")
    }
    return id
  }
  func integer(_ index: Int) throws(FieldError) -> Int { try required(index, optionalInteger) }
  func boolean(_ index: Int) throws(FieldError) -> Bool { try required(index, optionalBoolean) }
  func seconds(_ index: Int) throws(FieldError) -> TraceTime { try required(index, optionalSeconds) }
  func choice<T: RawRepresentable>(_ index: Int) throws(FieldError) -> T where T.RawValue == String {
    guard let value: T = try optionalChoice(index) else { throw missing(index) }
    return value
  }
}
