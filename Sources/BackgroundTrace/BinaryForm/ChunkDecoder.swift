/// Decodes a chunk's records into events, checking every byte: a record that does not
/// parse is a ``ChunkDecoder/Failure``, never a trap.
struct ChunkDecoder {
  struct Failure: Error {
    /// The offset in the payload where decoding stopped.
    var offset: Int
    var message: String
  }

  /// Reads a sealed chunk's string table.
  ///
  /// With `predictedIDs` (the predicted-identifiers feature), flag bit 1 of task and run records means the id
  /// or run is the predicted one (docs/FORMAT.md, "Predicted identifiers").
  ///
  /// - Returns: a decoder at the first record, whose ``record(_:)`` then decodes and
  ///   checks the records one by one, and the payload offset of the first record.
  static func start(
    _ payload: UnsafeRawBufferPointer, baseTime: UInt64, predictedIDs: Bool = false
  ) throws(Failure) -> (decoder: ChunkDecoder, recordsStart: Int) {
    var cursor = ByteCursor(payload)
    let strings = try stringTable(&cursor)
    return (ChunkDecoder(strings: strings, time: baseTime, predictedIDs: predictedIDs), cursor.offset)
  }

  /// Decodes the body of a log chunk: exactly `count` records, interleaved with string
  /// definitions, using all of `body` (docs/FORMAT.md, "Log chunks").
  ///
  /// On failure `events` is left as it was.
  static func decodeLog(
    _ body: UnsafeRawBufferPointer, count: Int, baseTime: UInt64, predictedIDs: Bool,
    into events: inout LogChunkEvents
  ) throws(Failure) {
    let start = events.count
    var cursor = ByteCursor(body)
    do throws(Failure) {
      try decodeLogEntries(&cursor, count: count, baseTime: baseTime, predictedIDs: predictedIDs, into: &events)
      guard events.count - start == count else {
        throw Failure(
          offset: cursor.offset, message: "\(events.count - start) records where the commit word says \(count)")
      }
    } catch {
      events.removeAppended(from: start)
      throw error
    }
  }

  /// Decodes the whole records at the start of a log chunk body cut short (the file
  /// ends inside it), at most `count`; the entry the cut falls in does not parse, as no
  /// prefix of an entry is an entry.
  static func decodeLogPrefix(
    _ body: UnsafeRawBufferPointer, count: Int, baseTime: UInt64, predictedIDs: Bool,
    into events: inout LogChunkEvents
  ) {
    var cursor = ByteCursor(body)
    try? decodeLogEntries(&cursor, count: count, baseTime: baseTime, predictedIDs: predictedIDs, into: &events)
  }

  /// Decodes entries until the bytes end, appending each record's event; throws at the
  /// first entry that does not parse or a record beyond `count`, keeping what was decoded.
  private static func decodeLogEntries(
    _ cursor: inout ByteCursor, count: Int, baseTime: UInt64, predictedIDs: Bool,
    into events: inout LogChunkEvents
  ) throws(Failure) {
    let body = cursor.buffer
    let start = events.count
    var decoder = ChunkDecoder(strings: [], time: baseTime, predictedIDs: predictedIDs)
    // The events' string ids are the decoder's indexes: they share its table.
    defer { events.strings = decoder.strings }
    while !cursor.isAtEnd {
      let offset = cursor.offset
      if body[offset] == BinaryFormat.stringDefinitionTag {
        cursor.offset += 1
        guard let length = cursor.varint(), length <= UInt64(cursor.remaining),
          let bytes = cursor.bytes(Int(length))
        else { throw Failure(offset: offset, message: "string runs past the committed bytes") }
        guard let string = text(bytes) else {
          throw Failure(offset: offset, message: "string is not valid UTF-8")
        }
        decoder.define(string)
        continue
      }
      guard events.count - start < count else {
        throw Failure(offset: offset, message: "\(cursor.remaining) bytes after the last committed record")
      }
      var event = CompactEvent(time: 0, tag: .appLaunch)
      try decoder.compactRecord(&cursor, into: &event)
      events.append(event, settingIDs: decoder.settingIDs)
    }
  }

  private static func stringTable(_ cursor: inout ByteCursor) throws(Failure) -> [String] {
    guard let count = cursor.varint(), count <= UInt64(cursor.remaining) else {
      throw Failure(offset: cursor.offset, message: "bad string table size")
    }
    var strings: [String] = []
    strings.reserveCapacity(Int(count))
    for _ in 0..<count {
      let offset = cursor.offset
      guard let length = cursor.varint(), length <= UInt64(cursor.remaining),
        let bytes = cursor.bytes(Int(length))
      else { throw Failure(offset: offset, message: "string runs past the end of the chunk") }
      guard let string = text(bytes) else {
        throw Failure(offset: offset, message: "string is not valid UTF-8")
      }
      strings.append(string)
    }
    return strings
  }

  /// The string whose UTF-8 bytes are `bytes`, or `nil` when they are not valid UTF-8.
  ///
  /// ASCII, checked eight bytes at a time, is decoded without `String(validating:as:)`,
  /// which looks up generic metadata for every string; ASCII is valid UTF-8, so the
  /// result is the same.
  static func text(_ bytes: UnsafeRawBufferPointer) -> String? {
    var offset = 0
    var high: UInt64 = 0
    while offset + 8 <= bytes.count {
      high |= bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      offset += 8
    }
    while offset < bytes.count {
      high |= UInt64(bytes[offset])
      offset += 1
    }
    if high & 0x8080_8080_8080_8080 == 0 { return String(decoding: bytes, as: UTF8.self) }
    return String(validating: bytes, as: UTF8.self)
  }

  /// The largest flags value each kind defines (docs/FORMAT.md), as a switch rather than
  /// a table: a global array costs a lazy-initialization check per event.
  @inline(__always)
  static func largestFlags(_ kind: EventTag) -> UInt8 {
    guard let kind = kind.handLaid else { return 0 }  // a record laid out from its spec has no flags
    return switch kind {
    case .appState: AppLifecycleState.largestWireCode
    case .appTerminate, .taskBegin, .schedCancel, .schedComplete, .schedExpire: 1
    case .schedRegister: 2  // a tri-state
    case .schedSubmit: 6  // the request type (bits 0 and 2, not both), and whether `earliest` is present
    case .schedReject: SchedulerRejection.largestWireCode
    case .workResult: WorkOutcome.largestWireCode | WorkTagsFlag.result
    case .workStop: WorkTagsFlag.stop
    case .workEnqueue: EnqueueFlag.initialDelay | EnqueueFlag.constraints | EnqueueFlag.scheduleOverride
    case .netSubmit: 5  // the transfer kind, and the `discretionary` tri-state
    case .netFinish: TransferOutcome.largestWireCode
    case .appLaunch, .taskEnd, .taskExpire, .schedLaunch, .workStart, .workCancel, .envSet, .input, .mark,
      .netCreate, .netWake, .netEventsDone, .netHandler:
      0
    }
  }

  /// The largest flags value each kind defines with predicted identifiers, whose task and run records
  /// add bit 1, "predicted" (docs/FORMAT.md, "Predicted identifiers").
  @inline(__always)
  static func largestPredictedFlags(_ kind: EventTag) -> UInt8 {
    guard let handLaid = kind.handLaid else { return largestFlags(kind) }
    return switch handLaid {
    case .taskBegin, .schedComplete, .schedExpire: 3
    case .taskEnd, .taskExpire, .schedLaunch: 2
    case .appLaunch, .appState, .appTerminate, .schedRegister, .schedSubmit, .schedReject, .schedCancel, .workEnqueue,
      .workStart, .workResult, .workStop, .workCancel, .envSet, .input, .mark, .netCreate, .netSubmit, .netFinish,
      .netWake, .netEventsDone, .netHandler:
      largestFlags(kind)
    }
  }

  /// The chunk's strings, by index.
  private(set) var strings: [String]
  /// `strings.count`, which is a call per string reference otherwise.
  private var stringCount: UInt64
  /// The id each chunk string has in the events ``compactRecord(_:into:)`` decodes: its
  /// own index, until the reader interns the chunk's strings (``internStrings(_:)``),
  /// once per chunk, when it is its trace-wide id in the reader's ``InternedStrings``.
  private(set) var stringIDs: [UInt32]
  /// Whether ``stringIDs`` are the chunk strings' trace-wide ids.
  private(set) var stringsInterned = false

  /// Appends a string a log chunk defines.
  mutating func define(_ string: String) {
    stringIDs.append(UInt32(strings.count))
    strings.append(string)
    stringCount += 1
  }

  /// Gives the chunk's strings their trace-wide ids in `table`.
  mutating func internStrings(_ table: inout InternedStrings) {
    for index in stringIDs.indices { stringIDs[index] = table.intern(strings[index]) }
    stringsInterned = true
  }
  /// The key and value ids, alternating, of the `env.set` record ``compactRecord(_:)``
  /// read last, for the reader to intern as a setting list.
  var settingIDs: [UInt32] = []
  var time: UInt64
  var predictedIDs = false
  var lastTaskID: Int64 = 0
  var lastRun: Int64 = 0
  /// An event with every field empty, copied over the caller's event at each record
  /// (``compactRecord(_:into:)``): made once, so that the copy reads stores long
  /// completed.
  private let emptyEvent = CompactEvent(time: 0, tag: .appLaunch)

  init(strings: [String], time: UInt64, predictedIDs: Bool = false) {
    self.strings = strings
    stringCount = UInt64(strings.count)
    stringIDs = Array(0..<UInt32(strings.count))
    self.time = time
    self.predictedIDs = predictedIDs
  }

  /// Parses and checks a record's tag byte and time delta, advancing the time: the
  /// first part of ``record(_:)`` and ``compactRecord(_:)``.
  @_transparent  // `@inline(__always)` leaves it a call, one per record
  private mutating func recordHead(_ cursor: inout ByteCursor) throws(Failure) -> (
    kind: EventTag, flags: UInt8, start: Int, suffixed: Bool
  ) {
    let start = cursor.offset
    guard let tag = cursor.byte() else { throw Failure(offset: start, message: "missing event") }
    let code = tag & 0x1F
    var flags = tag >> 5
    var suffixed = false
    let kind: EventTag
    // Every code below the extended tag is a kind (`WireCodeStabilityTests` pins them),
    // so only the tag codes need a check: no global is read per record.
    if code >= SpecLayout.extendedKindTag {
      guard code == SpecLayout.extendedKindTag else {
        throw Failure(offset: start, message: "unknown event kind tag \(code)")
      }
      if tag == RecordSuffix.marker {
        // A hand-laid record with a suffix follows; only `work.enqueue` takes one
        // (docs/FORMAT.md, "Record suffixes"). Checked here, off the common path.
        guard let inner = cursor.byte(), inner & 0x1F == EventTag.workEnqueue.rawValue else {
          throw Failure(offset: start, message: "a record suffix on a kind that takes none")
        }
        (kind, flags, suffixed) = (.workEnqueue, inner >> 5, true)
      } else {
        // A code of 32 or more follows the tag byte, and only such a code: each kind has
        // one encoding (docs/FORMAT.md, "Record").
        guard let extended = cursor.varint(), extended >= UInt64(SpecLayout.firstExtendedCode) else {
          throw Failure(offset: start, message: "bad extended event kind code")
        }
        guard extended <= UInt64(UInt8.max), let extendedKind = EventTag(rawValue: UInt8(extended)) else {
          throw Failure(offset: start, message: "unknown event kind tag \(extended)")
        }
        kind = extendedKind
      }
    } else {
      // The cases are declared in code order, and the codes below 30 run from 0 without
      // a gap (pinned in `WireCodeStabilityTests`), so such a code is the enum's bit
      // pattern, its declaration index (`EventTag(rawValue:)` is a call per record).
      kind = unsafeBitCast(code, to: EventTag.self)
    }
    let delta = try scaled(&cursor)
    guard delta <= UInt64(Int64.max) - time else {
      throw Failure(offset: start, message: "time overflows")
    }
    time += delta
    guard flags <= Self.largestFlags(kind) || (predictedIDs && flags <= Self.largestPredictedFlags(kind)) else {
      throw Failure(offset: start, message: "\(kind.name): unknown flags \(flags)")
    }
    return (kind, flags, start, suffixed)
  }

  /// Parses and checks the next record, advancing the time and the predicted
  /// identifiers, and returns its event: the record decoded as ``compactRecord(_:into:)``
  /// decodes it (the one decoder of records), then built whole, its strings looked up
  /// in `interned` once the reader interned the chunk's strings (``stringsInterned``),
  /// else in the chunk's own table.
  @inline(__always)
  mutating func record(
    _ cursor: inout ByteCursor, interned: borrowing InternedStrings
  ) throws(Failure) -> TraceEvent {
    var compact = CompactEvent(time: 0, tag: .appLaunch)
    try compactRecord(&cursor, into: &compact)
    if compact.tag == .envSet {
      return stringsInterned
        ? settingsEvent(compact, strings: interned) : settingsEvent(compact, strings: ChunkStrings(strings: strings))
    }
    // Built here, inlined, not in a function of its own: passed to one, the event just
    // decoded is copied with wide loads of the decoder's narrow stores, which stall.
    if stringsInterned { return TraceEvent(compact, strings: interned) }
    return TraceEvent(compact, strings: ChunkStrings(strings: strings))
  }

  /// The `env.set` event `compact`, just decoded, stands for: its settings are the pairs
  /// ``compactRecord(_:into:)`` left in ``settingIDs``.
  @inline(__always)
  private func settingsEvent(_ compact: borrowing CompactEvent, strings: borrowing some StringTable) -> TraceEvent {
    var settings: [EnvironmentSetting] = []
    settings.reserveCapacity(settingIDs.count / 2)
    for index in stride(from: 0, to: settingIDs.count, by: 2) {
      settings.append(EnvironmentSetting(key: strings[settingIDs[index]], value: strings[settingIDs[index + 1]]))
    }
    return TraceEvent(time: TraceTime(nanoseconds: compact.time), .envSet(settings))
  }

  /// Parses and checks the next record, advancing the time and the predicted
  /// identifiers, into `event`, a ``CompactEvent`` whose strings are ``stringIDs``: the
  /// chunk's own string indexes, or their trace-wide ids once the reader interned them.
  /// An `env.set`'s settings are left in ``settingIDs`` for the caller to intern.
  ///
  /// It writes the caller's event in place, over a copy of ``emptyEvent``: an event
  /// built here, returned or assigned, would be copied with wide loads of the narrow
  /// stores just made, which stall until those stores complete (store forwarding
  /// fails), on every record.
  @inline(__always)
  mutating func compactRecord(_ cursor: inout ByteCursor, into event: inout CompactEvent) throws(Failure) {
    let (kind, flags, start, suffixed) = try recordHead(&cursor)
    func fail(_ message: String) -> Failure {
      Failure(offset: start, message: "\(kind.name): \(message)")
    }
    event = emptyEvent
    event.time = time
    event.tag = kind
    guard let handLaid = kind.handLaid else {
      try specRecord(kind, &cursor, into: &event, fail: fail)
      return
    }
    switch handLaid {
    case .appLaunch:
      break
    case .appState, .schedRegister, .schedReject:
      event.flags = flags
      if kind != .appState { event.string = try stringID(&cursor) }
    case .workResult:
      event.flags = flags & ~WorkTagsFlag.result
      guard event.flags <= WorkOutcome.largestWireCode else { throw fail("unknown flags \(flags)") }
      event.string = try stringID(&cursor)
      event.number = Int64(try integer(&cursor))
      if flags & WorkTagsFlag.result != 0 { event.secondString = try stringID(&cursor) }
    case .appTerminate:
      event.flags = flags
      if flags == 1 { event.string = try stringID(&cursor) }
    case .taskBegin:
      event.number = Int64(try taskID(&cursor, predicted: flags & 2 != 0, step: 1))
      event.flags = flags & 1
      if flags & 1 == 1 { event.string = try stringID(&cursor) }
    case .taskEnd, .taskExpire:
      guard flags & 1 == 0 else { throw fail("unknown flags \(flags)") }
      event.number = Int64(try taskID(&cursor, predicted: flags & 2 != 0, step: 0))
    case .schedSubmit:
      guard flags & 5 != 5 else { throw fail("unknown flags \(flags)") }
      guard let requirements = cursor.byte(), requirements & 0x3 != 3, requirements >> 2 & 0x3 != 3,
        flags & 4 != 0 || requirements >> 4 == 0
      else {
        throw fail("bad requirement flags")
      }
      event.flags = flags
      event.options = requirements
      event.string = try stringID(&cursor)
      if flags & 2 != 0 { event.interval = try scaled(&cursor) }
      if requirements & SubmitRequirements.title != 0 { event.secondString = try stringID(&cursor) }
      if requirements & SubmitRequirements.subtitle != 0 { event.thirdString = try stringID(&cursor) }
      if requirements & SubmitRequirements.strategy != 0 {
        event.backoffCode = try Self.code(ContinuedProcessingStrategy.self, "strategy", &cursor, fail: fail).wireCode
      }
      if requirements & SubmitRequirements.resources != 0 {
        event.policyCode = try Self.code(ContinuedProcessingResource.self, "resources", &cursor, fail: fail).wireCode
      }
    case .schedCancel:
      event.flags = flags
      if flags != 1 { event.string = try stringID(&cursor) }
    case .schedLaunch:
      guard flags & 1 == 0 else { throw fail("unknown flags \(flags)") }
      event.string = try stringID(&cursor)
      event.number = Int64(try run(&cursor, predicted: flags & 2 != 0, step: 1))
    case .schedExpire:
      event.number = Int64(try run(&cursor, predicted: flags & 2 != 0, step: 0))
      event.flags = flags & 1
      if flags & 1 == 1 { event.options = try Self.code(ExpirationReason.self, "reason", &cursor, fail: fail).wireCode }
    case .schedComplete:
      event.number = Int64(try run(&cursor, predicted: flags & 2 != 0, step: 0))
      event.flags = flags & 1
    case .workEnqueue:
      try compactEnqueue(&cursor, into: &event, fail: fail)
      // After every presence-byte field: a record without it keeps its bytes.
      if flags & EnqueueFlag.initialDelay != 0 { event.initialDelay = try scaled(&cursor) }
      if flags & EnqueueFlag.constraints != 0 {
        guard let bits = cursor.varint(), WorkConstraint.constraints(bits: bits) != nil else { throw fail("bad needs") }
        event.constraintBits = UInt16(bits)
      }
      if flags & EnqueueFlag.scheduleOverride != 0 { event.scheduleOverride = try scaled(&cursor) }
      if suffixed {
        let all = RecordSuffix.request | RecordSuffix.uniqueName
        guard let bits = cursor.varint(), bits != 0, bits & ~all == 0 else { throw fail("bad suffix presence bits") }
        if bits & RecordSuffix.request != 0 {
          let index = try string(&cursor)
          guard WorkRequestID(strings[Int(index)]) != nil else { throw fail("bad request id") }
          event.thirdString = stringIDs[index]
        }
        if bits & RecordSuffix.uniqueName != 0 { event.fourthString = try stringID(&cursor) }
      }
    case .workStart, .workStop:
      event.string = try stringID(&cursor)
      event.number = Int64(try integer(&cursor))
      if kind == .workStop {
        event.secondString = try stringID(&cursor)
        // The tags' string id, kept where a stop has no other use for the slot.
        if flags & WorkTagsFlag.stop != 0 { event.thirdString = try stringID(&cursor) }
        event.flags = flags
      }
    case .workCancel, .mark:
      event.string = try stringID(&cursor)
    case .envSet:
      guard let count = cursor.varint(), count >= 1, count <= UInt64(cursor.remaining / 2) else {
        throw fail("bad setting count")
      }
      settingIDs.removeAll(keepingCapacity: true)
      for _ in 0..<count {
        settingIDs.append(try stringID(&cursor))
        settingIDs.append(try stringID(&cursor))
      }
      event.number = Int64(count)
    case .input:
      event.string = try stringID(&cursor)
      event.secondString = try stringID(&cursor)
    case .netCreate, .netWake, .netEventsDone, .netHandler:
      event.string = try stringID(&cursor)
    case .netSubmit, .netFinish:
      guard kind == .netFinish || flags >> 1 != 3 else { throw fail("bad discretionary flags") }
      event.flags = flags
      event.string = try stringID(&cursor)
      event.number = Int64(try integer(&cursor))
    }
  }

  /// The fields of a record of a kind from ``SpecLayout/firstCode`` on, as its spec lays
  /// them out, into their slots of `event`. The values are then checked as a
  /// ``TraceEvent/Kind`` would take them, so that every record decoded makes an event.
  private func specRecord(
    _ kind: EventTag, _ cursor: inout ByteCursor, into event: inout CompactEvent, fail: (String) -> Failure
  ) throws(Failure) {
    let values = try specFields(SpecLayout.of(kind), &cursor, into: &event, fail: fail)
    do {
      _ = try TraceEvent.Kind(tag: kind, fieldValues: values)
    } catch {
      throw fail(error.message)
    }
  }

  /// Fields laid out as `layout` says, into their slots of `event`; returns their values,
  /// one per field (`nil`: absent), strings from the chunk's table.
  func specFields(
    _ layout: SpecLayout, _ cursor: inout ByteCursor, into event: inout CompactEvent, fail: (String) -> Failure
  ) throws(Failure) -> [FieldValue?] {
    var presence = UInt64(1) << layout.optionalCount - 1
    if layout.optionalCount > 0 {
      guard let bits = cursor.varint(), bits <= presence else { throw fail("bad presence bits") }
      presence = bits
    }
    event.options = UInt8(truncatingIfNeeded: presence)
    var values: [FieldValue?] = []
    values.reserveCapacity(layout.fields.count)
    for (field, slot) in zip(layout.fields, layout.slots) {
      if let bit = slot.presenceBit, presence & 1 << bit == 0 {
        values.append(nil)
        continue
      }
      switch field.type {
      case .integer:
        let integer = try self.integer(&cursor)
        event.setNumberSlot(slot.index, UInt64(integer))
        values.append(.integer(integer))
      case .seconds:
        let nanoseconds = try scaled(&cursor)
        event.setNumberSlot(slot.index, nanoseconds)
        values.append(.seconds(TraceTime(nanoseconds: nanoseconds)))
      case .interval:
        let nanoseconds = try scaled(&cursor)
        event.setNumberSlot(slot.index, nanoseconds)
        values.append(.interval(TraceInterval(nanoseconds: nanoseconds)))
      case .boolean:
        guard let byte = cursor.byte(), byte <= 1 else { throw fail("bad \(field.name)") }
        event.setCodeSlot(slot.index, byte)
        values.append(.boolean(byte == 1))
      case .choice(let words):
        guard let code = cursor.varint(), code < UInt64(words.count) else { throw fail("bad \(field.name)") }
        event.setCodeSlot(slot.index, UInt8(code))
        values.append(.choice(words[Int(code)]))
      case .string:
        let index = try string(&cursor)
        event.setStringSlot(slot.index, stringIDs[index])
        values.append(.string(strings[index]))
      }
    }
    return values
  }

  /// A `work.enqueue` record's fields after its time, as ``enqueue(_:fail:)`` reads them.
  private func compactEnqueue(
    _ cursor: inout ByteCursor, into event: inout CompactEvent, fail: (String) -> Failure
  ) throws(Failure) {
    let presence = try Self.presence(&cursor, fail: fail)
    event.presence = presence
    event.string = try stringID(&cursor)
    if presence.contains(.name) { event.secondString = try stringID(&cursor) }
    if presence.contains(.backoff) {
      event.backoffCode = try Self.code(BackoffPolicy.self, "backoff", &cursor, fail: fail).wireCode
    }
    if presence.contains(.backoffDelay) { event.interval = try scaled(&cursor) }
    if presence.contains(.retryLimit) { event.number = Int64(try integer(&cursor)) }
    if presence.contains(.period) { event.period = try scaled(&cursor) }
    if presence.contains(.policy) {
      event.policyCode = try Self.code(ExistingWorkPolicy.self, "policy", &cursor, fail: fail).wireCode
    }
    if presence.contains(.flex) { event.flex = try scaled(&cursor) }
    if presence.contains(.expedited) {  // the record's flags are 0: the code is kept there
      event.flags = try Self.code(ExpeditedPolicy.self, "expedited", &cursor, fail: fail).wireCode
    }
  }

  /// A `work.enqueue` record's presence byte.
  @inline(__always)
  private static func presence(
    _ cursor: inout ByteCursor, fail: (String) -> Failure
  ) throws(Failure) -> EnqueuePresence {
    guard let raw = cursor.byte(), EnqueuePresence.known.isSuperset(of: EnqueuePresence(rawValue: raw)) else {
      throw fail("bad presence flags")
    }
    return EnqueuePresence(rawValue: raw)
  }

  /// A byte holding the code of a `T`, the field `field`.
  @inline(__always)
  private static func code<T: WireCoded>(
    _: T.Type, _ field: String, _ cursor: inout ByteCursor, fail: (String) -> Failure
  ) throws(Failure) -> T {
    guard let raw = cursor.byte(), let value = T(wireCode: raw) else { throw fail("bad \(field)") }
    return value
  }

  /// A string reference as its id in the events decoded (``stringIDs``).
  @inline(__always)
  private func stringID(_ cursor: inout ByteCursor) throws(Failure) -> UInt32 {
    stringIDs[try string(&cursor)]
  }

  @inline(__always)
  private func scaled(_ cursor: inout ByteCursor) throws(Failure) -> UInt64 {
    let offset = cursor.offset
    guard let (raw, high) = cursor.wideVarint() else { throw Failure(offset: offset, message: "truncated time") }
    let unit: UInt64 =
      switch raw & 3 {
      case 0: 1
      case 1: 1_000
      case 2: 1_000_000
      default: 1_000_000_000
      }  // BinaryFormat.timeUnits, without a global array's lazy-initialization check
    let count = raw >> 2 | high << 62
    // A count below 2^32 times a unit below 2^30 is below 2^62: no overflow to check,
    // and a 64-bit multiply instead of the 128-bit one the check needs.
    if count >> 32 == 0 { return count &* unit }
    let (value, overflow) = count.multipliedReportingOverflow(by: unit)
    guard !overflow, value <= UInt64(Int64.max) else {
      throw Failure(offset: offset, message: "time value out of range")
    }
    return value
  }

  /// A string reference: its index in the string table.
  @inline(__always)
  private func string(_ cursor: inout ByteCursor) throws(Failure) -> Int {
    let offset = cursor.offset
    guard let index = cursor.varint(), index < stringCount else {
      throw Failure(offset: offset, message: "string reference out of range")
    }
    return Int(index)
  }

  @inline(__always)
  private func integer(_ cursor: inout ByteCursor) throws(Failure) -> Int {
    let offset = cursor.offset
    guard let value = cursor.varint(), value <= UInt64(Int.max) else {
      throw Failure(offset: offset, message: "integer out of range")
    }
    return Int(value)
  }

  /// A task id: the previous one + `step` when `predicted`, else a delta field.
  @inline(__always)
  private mutating func taskID(_ cursor: inout ByteCursor, predicted: Bool, step: Int64) throws(Failure) -> Int {
    lastTaskID =
      predicted ? try self.predicted(lastTaskID, step, at: cursor.offset) : try delta(&cursor, from: lastTaskID)
    return Int(lastTaskID)
  }

  /// A run number: the previous one + `step` when `predicted`, else a delta field.
  @inline(__always)
  private mutating func run(_ cursor: inout ByteCursor, predicted: Bool, step: Int64) throws(Failure) -> Int {
    lastRun = predicted ? try self.predicted(lastRun, step, at: cursor.offset) : try delta(&cursor, from: lastRun)
    return Int(lastRun)
  }

  @inline(__always)
  private func predicted(_ previous: Int64, _ step: Int64, at offset: Int) throws(Failure) -> Int64 {
    let (value, overflow) = previous.addingReportingOverflow(step)
    guard !overflow else { throw Failure(offset: offset, message: "identifier out of range") }
    return value
  }

  @inline(__always)
  private func delta(_ cursor: inout ByteCursor, from previous: Int64) throws(Failure) -> Int64 {
    let offset = cursor.offset
    guard let raw = cursor.varint() else { throw Failure(offset: offset, message: "truncated identifier") }
    let (value, overflow) = previous.addingReportingOverflow(Varint.unzigzag(raw))
    guard !overflow, value >= 0 else { throw Failure(offset: offset, message: "identifier out of range") }
    return value
  }
}

/// A chunk's own string table, as ``ChunkDecoder/record(_:)`` looks strings up in it.
struct ChunkStrings: StringTable {
  let strings: [String]

  @inline(__always)
  subscript(id: UInt32) -> String { strings[Int(id)] }

  /// Never asked: a record just decoded keeps its `env.set` pairs in
  /// ``ChunkDecoder/settingIDs``, and ``ChunkDecoder/record(_:interned:)`` builds that
  /// event from them.
  func settings(_ list: UInt32) -> [EnvironmentSetting] {
    preconditionFailure("a chunk's setting lists are not kept; its decoder's settingIDs are")
  }
}
