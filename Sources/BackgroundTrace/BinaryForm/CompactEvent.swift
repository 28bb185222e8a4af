/// One event as ``BinaryTraceReader/nextCompact()`` hands it out: a plain value with no
/// reference in it (copying or dropping one retains and releases nothing), whose
/// string fields are small integer ids into the reader's ``InternedStrings``, interned
/// once per chunk string rather than per event.
///
/// The fields mean what the binary record's do (docs/FORMAT.md, the record table),
/// with identifiers and run numbers resolved and version 3's "predicted" flag bit
/// dropped:
///
/// | kind | ``flags`` | ``options`` | ``string`` | ``secondString`` | ``number`` | intervals |
/// |---|---|---|---|---|---|---|
/// | `app.state` | state code | | | | | |
/// | `app.terminate` | 1: has reason | | reason | | | |
/// | `task.begin` | 1: has name | | name | | id | |
/// | `task.end`, `task.expire` | | | | | id | |
/// | `sched.register` | ok: 0 absent, 1 true, 2 false | | ident | | | |
/// | `sched.submit` | bit 0 processing, bit 1 has earliest | requirement byte | ident | | | ``interval``: earliest |
/// | `sched.reject` | error code | | ident | | | |
/// | `sched.cancel` | 1: all | | ident | | | |
/// | `sched.launch` | | | ident | | run | |
/// | `sched.expire` | | | | | run | |
/// | `sched.complete` | 1: success | | | | run | |
/// | `work.enqueue` | | presence byte | work | name | limit | delay, ``period``, ``flex`` |
/// | `work.start` | | | work | | attempt | |
/// | `work.result` | outcome code | | work | | attempt | |
/// | `work.stop` | | | work | reason | attempt | |
/// | `work.cancel` | | | work | | | |
/// | `env.set` | | | setting list id | | setting count | |
/// | `input` | | | key | value | | |
/// | `mark` | | | label | | | |
///
/// A string field a kind does not use, or leaves out, is ``noString``.
/// ``TraceEvent/init(_:strings:)`` turns one back into a ``TraceEvent``.
public struct CompactEvent: Sendable, Hashable, BitwiseCopyable {
  /// The id of a string field that is absent.
  public static let noString = UInt32.max

  /// When the event happened, in nanoseconds since the trace started.
  public var time: UInt64
  /// The event's kind.
  public var tag: EventTag
  /// The kind's small enumerated field or presence bits (see the table above).
  public var flags: UInt8 = 0
  /// `sched.submit`'s requirement byte, `work.enqueue`'s presence byte (docs/FORMAT.md).
  public var options: UInt8 = 0
  /// `work.enqueue`'s backoff code, when ``options`` bit 1 says it is present.
  public var backoff: UInt8 = 0
  /// `work.enqueue`'s policy code, when ``options`` bit 5 says it is present.
  public var policy: UInt8 = 0
  /// The first string field's id (or `env.set`'s setting list id).
  public var string: UInt32 = CompactEvent.noString
  /// The second string field's id.
  public var secondString: UInt32 = CompactEvent.noString
  /// The task id, run, attempt, enqueue limit or setting count.
  public var number: Int64 = 0
  /// `sched.submit`'s earliest begin or `work.enqueue`'s backoff delay, in nanoseconds.
  public var interval: UInt64 = 0
  /// `work.enqueue`'s period, in nanoseconds.
  public var period: UInt64 = 0
  /// `work.enqueue`'s flex interval, in nanoseconds.
  public var flex: UInt64 = 0

  /// An event of kind `tag` at `time` with every other field empty.
  @inlinable
  public init(time: UInt64, tag: EventTag) {
    self.time = time
    self.tag = tag
  }
}

/// The fields of each kind, as ``TraceEvent/Kind`` has them: what a reader of compact
/// events needs to take one apart without building the whole ``TraceEvent``. Each is
/// meaningful only for the kinds it names; `strings` is the table of the reader that
/// returned the event.
extension CompactEvent {
  /// `app.state`'s state.
  public var appState: AppState { ChunkDecoder.appState(flags) }

  /// `app.terminate`'s reason.
  public func terminateReason(strings: borrowing InternedStrings) -> String? {
    flags == 1 ? strings[string] : nil
  }

  /// `task.begin`'s name.
  @inlinable
  public func taskName(strings: borrowing InternedStrings) -> String? {
    flags & 1 == 1 ? strings[string] : nil
  }

  /// `sched.register`'s `ok=`.
  public var ok: Bool? { ChunkDecoder.tristate(flags) }

  /// `sched.submit`'s request.
  public func submission(strings: borrowing InternedStrings) -> SchedulerSubmission {
    SchedulerSubmission(
      ident: strings[string], type: flags & 1 == 1 ? .processing : .refresh,
      earliest: flags & 2 != 0 ? TraceTime(nanoseconds: interval) : nil,
      network: ChunkDecoder.tristate(options & 0x3), power: ChunkDecoder.tristate(options >> 2))
  }

  /// `sched.reject`'s error.
  public var rejection: SchedulerRejection { ChunkDecoder.rejection(flags) }

  /// `sched.cancel`'s target.
  public func cancelTarget(strings: borrowing InternedStrings) -> SchedulerCancelTarget {
    flags == 1 ? .all : .identifier(strings[string])
  }

  /// `sched.complete`'s `success=`.
  @inlinable
  public var success: Bool { flags & 1 == 1 }

  /// `work.enqueue`'s request.
  public func workEnqueue(strings: borrowing InternedStrings) -> WorkEnqueue {
    // Built in one initializer call: filled in field by field, the enqueue was copied
    // into the result and destroyed, each through its type's value witnesses.
    WorkEnqueue(
      work: strings[string],
      name: options & 1 != 0 ? strings[secondString] : nil,
      backoff: options & 2 != 0 ? ChunkDecoder.backoffs[Int(backoff)] : nil,
      delay: options & 4 != 0 ? TraceInterval(nanoseconds: interval) : nil,
      limit: options & 8 != 0 ? Int(number) : nil,
      period: options & 16 != 0 ? TraceInterval(nanoseconds: period) : nil,
      flex: options & 64 != 0 ? TraceInterval(nanoseconds: flex) : nil,
      policy: options & 32 != 0 ? ChunkDecoder.policies[Int(policy)] : nil)
  }

  /// `work.result`'s outcome.
  public var outcome: WorkOutcome { ChunkDecoder.outcome(flags) }
}

/// The strings of the events a ``BinaryTraceReader`` handed out as ``CompactEvent``s,
/// each stored once per trace under a small integer id, and the setting lists of
/// their `env.set` events, also stored once per distinct list.
///
/// Strings are told apart by their UTF-8 bytes, so a trace's text survives the round
/// trip byte for byte (canonically equivalent spellings, which `String` calls equal,
/// get different ids). It grows with the distinct strings of the trace, which the
/// trace's bytes bound.
public struct InternedStrings: Sendable {
  /// The strings, by id.
  public private(set) var strings: [String] = []
  /// Each string's hash, by id: probing compares it before the bytes, and growing the
  /// table does not hash again.
  private var hashes: [UInt64] = []
  /// Each string's ``StableHash``, by id, computed once as it is interned: the checker
  /// looks identifiers up by it, and hashing a string per event cost it 4% of its
  /// instructions (callgrind on bgtrace-bench `--profile-check`).
  private var stableHashes: [StableHash] = []
  /// An open-addressing table of ids + 1 (0: empty), a power of two long and at most
  /// half full, probed linearly from a hash's low bits: one hash per string, never
  /// again as the table grows, and one probe per chunk string, where
  /// `[String: UInt32]` cost three times as much (bgtrace-bench `--profile-compact`).
  private var slots = [UInt32](repeating: 0, count: 64)
  /// Each setting list's key and value ids, alternating.
  private var settingLists: [[UInt32]] = []
  private var settingListIDs: [[UInt32]: UInt32] = [:]

  /// How many times the table started afresh (``removeAll()``): ids handed out in an
  /// earlier generation name other strings, or none, in a later one.
  public private(set) var generation = 0

  /// An empty table.
  public init() {}

  /// How many distinct strings the table holds.
  public var count: Int { strings.count }

  /// Forgets every string and setting list, keeping the storage, and starts the next
  /// ``generation``.
  mutating func removeAll() {
    strings.removeAll(keepingCapacity: true)
    hashes.removeAll(keepingCapacity: true)
    stableHashes.removeAll(keepingCapacity: true)
    for index in slots.indices { slots[index] = 0 }
    settingLists.removeAll(keepingCapacity: true)
    settingListIDs.removeAll(keepingCapacity: true)
    generation += 1
  }

  /// The string with id `id`.
  @inlinable
  public subscript(id: UInt32) -> String { strings[Int(id)] }

  /// The ``StableHash`` of the string with id `id`.
  package func stableHash(_ id: UInt32) -> StableHash { stableHashes[Int(id)] }

  /// The id of `string`, if a chunk read so far holds it: look a string up once, then
  /// compare ids.
  public func id(of string: String) -> UInt32? {
    var bytes = string
    return bytes.withUTF8 { find(UnsafeRawBufferPointer($0), hash: Self.hash(UnsafeRawBufferPointer($0))).id }
  }

  /// The settings of the `env.set` setting list `list` (``CompactEvent/string``).
  public func settings(_ list: UInt32) -> [EnvironmentSetting] {
    let pairs = settingLists[Int(list)]
    return stride(from: 0, to: pairs.count, by: 2).map {
      EnvironmentSetting(key: strings[Int(pairs[$0])], value: strings[Int(pairs[$0 + 1])])
    }
  }

  /// The key and value string ids of the `env.set` setting list `list`.
  public func settingIDs(_ list: UInt32) -> [(key: UInt32, value: UInt32)] {
    let pairs = settingLists[Int(list)]
    return stride(from: 0, to: pairs.count, by: 2).map { (pairs[$0], pairs[$0 + 1]) }
  }

  /// The id of `string`, adding it if it is new.
  mutating func intern(_ string: String) -> UInt32 {
    var bytes = string
    let (found, slot, hash, stableHash) = bytes.withUTF8 { utf8 in
      let raw = UnsafeRawBufferPointer(utf8)
      let hash = Self.hash(raw)
      let (id, slot) = find(raw, hash: hash)
      return (id, slot, hash, id == nil ? StableHash(utf8: raw) : StableHash.zero)
    }
    if let found { return found }
    let id = UInt32(strings.count)
    strings.append(string)
    hashes.append(hash)
    stableHashes.append(stableHash)
    slots[slot] = id + 1
    if 2 * strings.count > slots.count { grow() }
    return id
  }

  /// The id of the string whose UTF-8 bytes are `bytes`, or the empty slot where it
  /// would go.
  private func find(_ bytes: UnsafeRawBufferPointer, hash: UInt64) -> (id: UInt32?, slot: Int) {
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let entry = slots[slot]
      if entry == 0 { return (nil, slot) }
      let id = Int(entry - 1)
      if hashes[id] == hash && strings[id].utf8.elementsEqual(bytes) { return (UInt32(id), slot) }
      slot = (slot + 1) & mask
    }
  }

  /// Doubles the slots, placing every id again by its stored hash.
  private mutating func grow() {
    slots = [UInt32](repeating: 0, count: 2 * slots.count)
    let mask = slots.count - 1
    for (id, hash) in hashes.enumerated() {
      var slot = Int(truncatingIfNeeded: hash) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = UInt32(id + 1)
    }
  }

  /// A 64-bit hash of `bytes`: `Hasher`'s, seeded per process, so that no input can
  /// be built to make every string collide (which would make interning quadratic).
  @inline(__always)
  private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hasher = Hasher()
    hasher.combine(bytes: bytes)
    return UInt64(truncatingIfNeeded: hasher.finalize())
  }

  /// The id of the setting list whose key and value ids alternate in `pairs`, adding it
  /// if it is new.
  mutating func internSettings(_ pairs: [UInt32]) -> UInt32 {
    // A trace has a few distinct lists: comparing with each is cheaper than hashing.
    if settingLists.count <= 8 {
      if let index = settingLists.firstIndex(of: pairs) { return UInt32(index) }
    } else if let id = settingListIDs[pairs] {
      return id
    }
    let id = UInt32(settingLists.count)
    settingLists.append(pairs)
    settingListIDs[pairs] = id
    return id
  }
}

extension CompactEvent {
  /// `event` with its strings interned in `strings`: what ``BinaryTraceReader/nextCompact()``
  /// returns for an event decoded whole (a version 2 log chunk's).
  public init(_ event: TraceEvent, interning strings: inout InternedStrings) {
    self.init(time: event.time.nanoseconds, tag: event.kind.tag)
    let tristate = ChunkEncoder.tristate
    switch event.kind {
    case .appLaunch:
      break
    case .appState(let state):
      flags = ChunkDecoder.code(of: state, in: ChunkDecoder.appStates)
    case .appTerminate(let reason):
      if let reason {
        flags = 1
        string = strings.intern(reason)
      }
    case .taskBegin(let id, let name):
      number = Int64(id)
      if let name {
        flags = 1
        string = strings.intern(name)
      }
    case .taskEnd(let id), .taskExpire(let id):
      number = Int64(id)
    case .schedRegister(let ident, let ok):
      string = strings.intern(ident)
      flags = tristate(ok)
    case .schedSubmit(let submission):
      string = strings.intern(submission.ident)
      flags = (submission.type == .processing ? 1 : 0) | (submission.earliest == nil ? 0 : 2)
      interval = submission.earliest?.nanoseconds ?? 0
      options = tristate(submission.network) | tristate(submission.power) << 2
    case .schedReject(let ident, let error):
      string = strings.intern(ident)
      flags = ChunkDecoder.code(of: error, in: ChunkDecoder.rejections)
    case .schedCancel(let target):
      switch target {
      case .identifier(let ident): string = strings.intern(ident)
      case .all: flags = 1
      }
    case .schedLaunch(let ident, let run):
      string = strings.intern(ident)
      number = Int64(run)
    case .schedExpire(let run):
      number = Int64(run)
    case .schedComplete(let run, let success):
      number = Int64(run)
      flags = success ? 1 : 0
    case .workEnqueue(let enqueue):
      options = ChunkEncoder.presence(of: enqueue)
      string = strings.intern(enqueue.work)
      if let name = enqueue.name { secondString = strings.intern(name) }
      backoff = enqueue.backoff.map { ChunkDecoder.code(of: $0, in: ChunkDecoder.backoffs) } ?? 0
      interval = enqueue.delay?.nanoseconds ?? 0
      number = Int64(enqueue.limit ?? 0)
      period = enqueue.period?.nanoseconds ?? 0
      policy = enqueue.policy.map { ChunkDecoder.code(of: $0, in: ChunkDecoder.policies) } ?? 0
      flex = enqueue.flex?.nanoseconds ?? 0
    case .workStart(let work, let attempt):
      string = strings.intern(work)
      number = Int64(attempt)
    case .workResult(let work, let attempt, let outcome):
      string = strings.intern(work)
      number = Int64(attempt)
      flags = ChunkDecoder.code(of: outcome, in: ChunkDecoder.outcomes)
    case .workStop(let work, let attempt, let reason):
      string = strings.intern(work)
      number = Int64(attempt)
      secondString = strings.intern(reason)
    case .workCancel(let work):
      string = strings.intern(work)
    case .envSet(let settings):
      var pairs: [UInt32] = []
      pairs.reserveCapacity(2 * settings.count)
      for setting in settings {
        pairs.append(strings.intern(setting.key))
        pairs.append(strings.intern(setting.value))
      }
      string = strings.internSettings(pairs)
      number = Int64(settings.count)
    case .input(let key, let value):
      string = strings.intern(key)
      secondString = strings.intern(value)
    case .mark(let label):
      string = strings.intern(label)
    }
  }
}

extension TraceEvent {
  /// The event `compact` stands for, its strings looked up in `strings` (the table of
  /// the reader that returned it).
  public init(_ compact: CompactEvent, strings: borrowing InternedStrings) {
    let number = Int(compact.number)
    func text(_ id: UInt32) -> String { strings[id] }
    let kind: Kind
    switch compact.tag {
    case .appLaunch: kind = .appLaunch
    case .appState: kind = .appState(to: compact.appState)
    case .appTerminate: kind = .appTerminate(reason: compact.terminateReason(strings: strings))
    case .taskBegin: kind = .taskBegin(id: number, name: compact.taskName(strings: strings))
    case .taskEnd: kind = .taskEnd(id: number)
    case .taskExpire: kind = .taskExpire(id: number)
    case .schedRegister: kind = .schedRegister(ident: text(compact.string), ok: compact.ok)
    case .schedSubmit: kind = .schedSubmit(compact.submission(strings: strings))
    case .schedReject: kind = .schedReject(ident: text(compact.string), error: compact.rejection)
    case .schedCancel: kind = .schedCancel(compact.cancelTarget(strings: strings))
    case .schedLaunch: kind = .schedLaunch(ident: text(compact.string), run: number)
    case .schedExpire: kind = .schedExpire(run: number)
    case .schedComplete: kind = .schedComplete(run: number, success: compact.success)
    case .workEnqueue: kind = .workEnqueue(compact.workEnqueue(strings: strings))
    case .workStart: kind = .workStart(work: text(compact.string), attempt: number)
    case .workResult: kind = .workResult(work: text(compact.string), attempt: number, outcome: compact.outcome)
    case .workStop:
      kind = .workStop(work: text(compact.string), attempt: number, reason: text(compact.secondString))
    case .workCancel: kind = .workCancel(work: text(compact.string))
    case .envSet: kind = .envSet(strings.settings(compact.string))
    case .input: kind = .input(key: text(compact.string), value: text(compact.secondString))
    case .mark: kind = .mark(label: text(compact.string))
    }
    self.init(time: TraceTime(nanoseconds: compact.time), kind)
  }
}

/// The compact events a ``BinaryTraceReader`` decoded ahead for
/// ``BinaryTraceReader/nextCompact()``. Copies of a reader share it and only read it;
/// a reader that decodes the next batch into a shared one makes its own first.
@usableFromInline
final class CompactEventBuffer {
  /// How many events a batch holds.
  static var capacity: Int { 64 }
  /// The events.
  @usableFromInline let base: UnsafeMutablePointer<CompactEvent>

  init() { base = .allocate(capacity: Self.capacity) }

  deinit { base.deallocate() }
}

/// Not Sendable: its events are written through a pointer, by one reader at a time.
@available(*, unavailable)
extension CompactEventBuffer: Sendable {}
