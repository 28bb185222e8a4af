/// Encodes the events of one chunk: a string table plus one record per event.
///
/// Each record is a tag byte (kind in the low 5 bits, 3 bits of per-kind flags), the
/// time delta as a unit-scaled varint, then the kind's fields. Task ids and run numbers
/// are ZigZag deltas from the previous id or run in the chunk, because they mostly grow
/// by one. With `predictedIDs` (docs/FORMAT.md "Predicted identifiers"), an
/// id or run that is the one predicted — the previous one + 1 for a begin or launch, the
/// previous one for an end, expiration or completion — is flag bit 1 instead of a delta
/// byte. All predictors reset per chunk, so every chunk decodes alone.
///
/// With `inlineStrings` (a log chunk, docs/FORMAT.md "Log chunks"), a string's first
/// use is preceded by its definition entry in ``records``, so that every prefix of
/// whole entries decodes alone; ``payload()`` is not used then.
struct ChunkEncoder {
  let inlineStrings: Bool
  /// Whether records use predicted identifiers.
  let predictedIDs: Bool
  private(set) var strings: [String] = []
  private var stringIndex = StringIndexTable()
  private var stringBytes = 0
  private(set) var records: RecordBytes
  private(set) var eventCount: UInt32 = 0
  private(set) var baseTime: UInt64
  private var lastTime: UInt64
  private var lastTaskID: Int64 = 0
  private var lastRun: Int64 = 0
  /// Definitions of the strings the record being appended uses first (inline mode).
  private var definitions = RecordBytes(capacity: 256)
  /// Whether the record being appended has a value with no binary form.
  private var sawInvalidValue = false

  init(
    baseTime: UInt64, inlineStrings: Bool = false, predictedIDs: Bool = false,
    capacity: Int = BinaryFormat.defaultChunkPayload + 256
  ) {
    self.baseTime = baseTime
    self.lastTime = baseTime
    self.inlineStrings = inlineStrings
    self.predictedIDs = predictedIDs
    records = RecordBytes(capacity: capacity)
  }

  /// Starts the next chunk at `baseTime`: the encoder as new, its buffers emptied in place
  /// rather than new ones allocated (the recorder seals a chunk at every move to the
  /// background, so this runs often). Every stored property but the two settings is
  /// reset here; `startNextChunkResetsEveryField` in the tests compares the result with a
  /// new encoder's output.
  mutating func startNextChunk(baseTime: UInt64) {
    self.baseTime = baseTime
    lastTime = baseTime
    lastTaskID = 0
    lastRun = 0
    eventCount = 0
    stringBytes = 0
    sawInvalidValue = false
    records.removeAll()
    strings.removeAll(keepingCapacity: true)
    stringIndex.removeAll()
    definitions.removeAll()
  }

  /// Encodes the records from now on straight into `capacity` bytes at `memory`, whose
  /// first `count` bytes are the records so far: the durable writer's open chunk, so that
  /// a record is in the file's mapping as it is encoded. A record that needs more room
  /// moves the records into the encoder's own buffer (``recordsAreBound`` then false);
  /// ``startNextChunk(baseTime:)`` unbinds them.
  mutating func bindRecords(to memory: UnsafeMutableRawPointer, capacity: Int, count: Int) {
    records.bind(to: memory, capacity: capacity, count: count)
  }

  /// Whether the records are encoded into the memory ``bindRecords(to:capacity:count:)``
  /// gave.
  var recordsAreBound: Bool { records.isBound }

  /// The room ``append(_:at:)`` reserves for a record, enough for every kind but
  /// `env.set` (which reserves for its pairs) and the spec layout (for its fields): the
  /// tag, a longer kind code (2 bytes) and the time (10), then at most `work.enqueue`'s
  /// fields (a presence byte, two string references of at most 5 bytes, three codes,
  /// four varints of at most 10).
  static let recordRoom = 1 + 2 + 10 + 1 + 2 * 5 + 3 + 4 * 10

  /// The size the payload would have if sealed now.
  var payloadSize: Int { records.count + stringBytes + 10 }

  var isEmpty: Bool { eventCount == 0 }

  /// The time of the last event appended (or the base time).
  var time: UInt64 { lastTime }

  /// The payload: the string table, then the records.
  func payload() -> [UInt8] {
    var payload: [UInt8] = []
    payload.reserveCapacity(payloadSize)
    Varint.append(UInt64(strings.count), to: &payload)
    for string in strings {
      Varint.append(UInt64(string.utf8.count), to: &payload)
      payload.append(contentsOf: string.utf8)
    }
    records.withUnsafeBytes { payload.append(contentsOf: $0) }
    return payload
  }

  /// Appends one event; its time must not be earlier than the previous one's.
  mutating func append(_ event: TraceEvent) {
    append(event.kind, at: event.time.nanoseconds)
  }

  /// Appends one event of kind `kind` at `time` (ns); the time must not be earlier than
  /// the previous one's. The recorder encodes this way, with no ``TraceEvent`` built.
  ///
  /// - Returns: `false` when a field has no binary form (a negative integer, a time or
  ///   interval past the largest, an `env.set` with no pairs): what was appended is then
  ///   not a valid record, and the caller must not use the encoder further
  ///   (``TraceEvent/Kind/encodingProblem`` says which field). The recorder checks this
  ///   way, as it stops at such an event; ``BinaryTraceEncoder`` checks before encoding.
  @discardableResult
  mutating func append(_ kind: TraceEvent.Kind, at time: UInt64) -> Bool {
    assert(time >= lastTime, "the writer checks order before encoding")
    sawInvalidValue = false
    let tagIndex = records.count
    records.reserve(Self.recordRoom)
    let code = kind.tag.rawValue
    if code < SpecLayout.firstExtendedCode {
      records.append(code)
    } else {
      records.append(SpecLayout.extendedKindTag)
      Varint.append(UInt64(code), to: &records)
    }
    appendScaled(time - lastTime)
    lastTime = time
    eventCount += 1
    var flags: UInt8 = 0
    var suffixed = false
    switch kind {
    case .appLaunch:
      break
    case .appState(let to):
      flags = to.wireCode
    case .appTerminate(let reason):
      if let reason {
        flags = 1
        appendString(reason)
      }
    case .taskBegin(let id, let name):
      flags = appendTaskID(id, predicted: lastTaskID &+ 1)
      if let name {
        flags |= 1
        appendString(name)
      }
    case .taskEnd(let id), .taskExpire(let id):
      flags = appendTaskID(id, predicted: lastTaskID)
    case .schedRegister(let ident, let ok):
      flags = Tristate.code(ok)
      appendString(ident)
    case .schedSubmit(let submission):
      flags = submission.type.wireCode | (submission.earliest != nil ? 2 : 0)
      if submission.type != .continued && submission.hasContinuedFields { sawInvalidValue = true }
      records.append(SubmitRequirements.byte(of: submission))
      appendString(submission.identifier)
      if let earliest = submission.earliest { appendScaled(bounded(earliest.nanoseconds)) }
      // A continued-processing request's fields came later: they go last.
      if let title = submission.title { appendString(title) }
      if let subtitle = submission.subtitle { appendString(subtitle) }
      if let strategy = submission.strategy { records.append(strategy.wireCode) }
      if let resources = submission.resources { records.append(resources.wireCode) }
    case .schedReject(let ident, let error):
      flags = error.wireCode
      appendString(ident)
    case .schedCancel(.identifier(let ident)):
      appendString(ident)
    case .schedCancel(.all):
      flags = 1
    case .schedLaunch(let ident, let run):
      appendString(ident)
      flags = appendRun(run, predicted: lastRun &+ 1)
    case .schedExpire(let run, let reason):
      flags = appendRun(run, predicted: lastRun)
      // The reason came later: behind flags bit 0, after the run.
      if let reason {
        flags |= 1
        records.append(reason.wireCode)
      }
    case .schedComplete(let run, let success):
      flags = appendRun(run, predicted: lastRun) | (success ? 1 : 0)
    case .workEnqueue(let enqueue):
      appendEnqueue(enqueue)
      if let initialDelay = enqueue.initialDelay {  // came later: behind flags bit 0, last
        flags = EnqueueFlag.initialDelay
        appendScaled(bounded(initialDelay.nanoseconds))
      }
      if let constraints = enqueue.constraints {  // came later still: bit 1, after the delay
        flags |= EnqueueFlag.constraints
        Varint.append(WorkConstraint.bits(constraints), to: &records)
      }
      if let scheduleOverride = enqueue.nextScheduleTimeOverride {  // bit 2, after the constraints
        flags |= EnqueueFlag.scheduleOverride
        appendScaled(bounded(scheduleOverride.nanoseconds))
      }
      // Came once the flags were full: in the suffix, each behind its presence bit.
      if enqueue.request != nil || enqueue.uniqueName != nil {
        Varint.append(
          (enqueue.request != nil ? RecordSuffix.request : 0)
            | (enqueue.uniqueName != nil ? RecordSuffix.uniqueName : 0),
          to: &records)
        if let request = enqueue.request { appendString(request.description) }
        if let uniqueName = enqueue.uniqueName { appendString(uniqueName) }
        suffixed = true
      }
    case .workStart(let work, let attempt):
      appendString(work)
      Varint.append(natural(attempt), to: &records)
    case .workResult(let work, let attempt, let outcome, let tags):
      flags = outcome.wireCode | (tags != nil ? WorkTagsFlag.result : 0)
      appendString(work)
      Varint.append(natural(attempt), to: &records)
      if let tags { appendString(tags) }  // came later: last
    case .workStop(let work, let attempt, let reason, let tags):
      flags = tags != nil ? WorkTagsFlag.stop : 0
      appendString(work)
      Varint.append(natural(attempt), to: &records)
      appendString(reason)
      if let tags { appendString(tags) }  // came later: last
    case .workCancel(let work):
      appendString(work)
    case .envSet(let settings):
      records.reserve(10 + 10 * settings.count)  // each pair: two string references
      Varint.append(UInt64(settings.count), to: &records)
      if settings.isEmpty { sawInvalidValue = true }
      for setting in settings {
        appendString(setting.key)
        appendString(setting.value)
      }
    case .input(let key, let value):
      appendString(key)
      appendString(value)
    case .mark(let label):
      appendString(label)
    case .netCreate(let session), .netWake(let session), .netEventsDone(let session), .netHandler(let session):
      appendString(session)
    case .netSubmit(let session, let task, let kind, let discretionary):
      flags = kind.wireCode | Tristate.code(discretionary) << 1
      appendString(session)
      Varint.append(natural(task), to: &records)
    case .netFinish(let session, let task, let outcome):
      flags = outcome.wireCode
      appendString(session)
      Varint.append(natural(task), to: &records)
    default:
      appendSpecLayout(kind)
    }
    records.setFlags(flags << 5, at: tagIndex)
    if suffixed { records.insert(RecordSuffix.marker, at: tagIndex) }
    if definitions.count != 0 {
      records.insert(contentsOf: definitions, at: tagIndex)
      definitions.removeAll()
    }
    return !sawInvalidValue
  }

  /// `value` as a varint's payload, noting a negative one as a value with no binary form.
  @inline(__always)
  private mutating func natural(_ value: Int) -> UInt64 {
    if value < 0 { sawInvalidValue = true }
    return UInt64(bitPattern: Int64(value))
  }

  /// `nanoseconds`, noting one past the largest trace time or interval as a value with no
  /// binary form.
  @inline(__always)
  private mutating func bounded(_ nanoseconds: UInt64) -> UInt64 {
    if nanoseconds > UInt64(Int64.max) { sawInvalidValue = true }
    return nanoseconds
  }

  private mutating func appendEnqueue(_ enqueue: WorkEnqueue) {
    records.append(EnqueuePresence(of: enqueue).rawValue)
    appendString(enqueue.work)
    if let name = enqueue.name { appendString(name) }
    if let backoff = enqueue.backoff { records.append(backoff.wireCode) }
    if let delay = enqueue.backoffDelay { appendScaled(bounded(delay.nanoseconds)) }
    if let limit = enqueue.retryLimit { Varint.append(natural(limit), to: &records) }
    if let period = enqueue.period { appendScaled(bounded(period.nanoseconds)) }
    if let policy = enqueue.policy { records.append(policy.wireCode) }
    // Last, after the fields of the first layout, so a record without it is unchanged.
    if let flex = enqueue.flex { appendScaled(bounded(flex.nanoseconds)) }
    if let expedited = enqueue.expedited { records.append(expedited.wireCode) }  // bit 7, after flex
  }

  /// The fields of a kind from ``SpecLayout/firstCode`` on, as its spec lays them out.
  private mutating func appendSpecLayout(_ kind: TraceEvent.Kind) {
    appendSpecFields(kind.fieldValues, layout: SpecLayout.of(kind.tag))
  }

  /// `values`, one per field of `layout` (`nil`: absent), as the spec layout writes them.
  mutating func appendSpecFields(_ values: [FieldValue?], layout: SpecLayout) {
    records.reserve(10 + 10 * values.count)  // the presence bits, then at most 10 bytes a field
    if layout.optionalCount > 0 {
      var presence: UInt64 = 0
      for (slot, value) in zip(layout.slots, values) {
        if let bit = slot.presenceBit, value != nil { presence |= 1 << bit }
      }
      Varint.append(presence, to: &records)
    }
    for (field, value) in zip(layout.fields, values) {
      switch value {
      case nil: break
      case .integer(let integer): Varint.append(natural(integer), to: &records)
      case .boolean(let boolean): records.append(boolean ? 1 : 0)
      case .seconds(let time): appendScaled(bounded(time.nanoseconds))
      case .interval(let interval): appendScaled(bounded(interval.nanoseconds))
      case .string(let string): appendString(string)
      case .choice(let word):
        guard case .choice(let words) = field.type, let code = words.firstIndex(of: word) else {
          preconditionFailure("the field \(field.name) has a word outside its choice: \(word)")
        }
        Varint.append(UInt64(code), to: &records)
      }
    }
  }

  @inline(__always)
  private mutating func appendScaled(_ nanoseconds: UInt64) {
    // The coarsest unit that divides the value; a real clock's deltas are mostly not
    // whole microseconds, so the test for that comes first.
    var unit: UInt64 = 0
    var value = nanoseconds
    if value % 1_000 != 0 || value == 0 {
      unit = 0
    } else if value % 1_000_000 != 0 {
      value /= 1_000
      unit = 1
    } else if value % 1_000_000_000 != 0 {
      value /= 1_000_000
      unit = 2
    } else {
      value /= 1_000_000_000
      unit = 3
    }
    if value < 1 << 62 {
      Varint.append(value << 2 | unit, to: &records)
    } else {
      // Only nanosecond values of 2^62 ns (146 years) or more: `value << 2 | unit` needs
      // 65 bits, written as a 10-byte LEB128 whose last byte holds bits 63 and 64.
      Varint.appendWide(low: value << 2 | unit, high: value >> 62, to: &records)
    }
  }

  /// Writes a task id; returns the flags that say it was predicted (2), or 0.
  @inline(__always)
  private mutating func appendTaskID(_ id: Int, predicted: Int64) -> UInt8 {
    defer { lastTaskID = Int64(id) }
    if id < 0 { sawInvalidValue = true }
    if predictedIDs && Int64(id) == predicted { return 2 }
    Varint.append(Varint.zigzag(Int64(id) &- lastTaskID), to: &records)
    return 0
  }

  /// Writes a run number; returns the flags that say it was predicted (2), or 0.
  @inline(__always)
  private mutating func appendRun(_ run: Int, predicted: Int64) -> UInt8 {
    defer { lastRun = Int64(run) }
    if run < 0 { sawInvalidValue = true }
    if predictedIDs && Int64(run) == predicted { return 2 }
    Varint.append(Varint.zigzag(Int64(run) &- lastRun), to: &records)
    return 0
  }

  /// Writes a reference to `string`, defining it if it is new to the chunk. A string
  /// met again with the same bits (a literal, a small string) is found inline; any other
  /// takes a call (``tableIndex(ofMissed:)``), so the switch in ``append(_:at:)`` inlines
  /// only the common case.
  @inline(__always)
  private mutating func appendString(_ string: String) {
    if let index = stringIndex.recentIndex(of: string) {
      Varint.append(index, to: &records)
    } else {
      Varint.append(tableIndex(ofMissed: string), to: &records)
    }
  }

  /// The index of `string`, not among the strings last met, in the chunk's string table,
  /// defining it if it is new.
  @inline(never)
  private mutating func tableIndex(ofMissed string: String) -> UInt64 {
    let hash = StringIndexTable.hash(string)
    if let index = stringIndex.index(of: string, hash: hash, in: strings) {
      stringIndex.noteRecent(strings[Int(index)], index: index)
      return index
    }
    let index = UInt64(strings.count)
    stringIndex.insert(index: strings.count, hash: hash)
    strings.append(string)
    stringIndex.noteRecent(strings[Int(index)], index: index)
    stringBytes += string.utf8.count + 2
    if inlineStrings {
      definitions.reserve(1 + 10)
      definitions.append(BinaryFormat.stringDefinitionTag)
      Varint.append(UInt64(string.utf8.count), to: &definitions)
      // The bytes in one copy; the byte-at-a-time append of a UTF8View took most of a
      // miss's cost. (`withUTF8` makes a bridged string native first.)
      var native = string
      native.withUTF8 { definitions.append(contentsOf: UnsafeRawBufferPointer($0)) }
    }
    return index
  }

}
