import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Records events from any thread into one trace: in memory, streamed to a binary
/// file, or both.
///
/// Recording is append-only and cheap. In memory, each thread appends to its own
/// buffer without a lock (one clock read, one store of the event, one release store of
/// the count), so threads record in parallel; ``trace`` interleaves the buffers by time, so times never
/// decrease. When streaming to a file, events take one lock and are stamped inside it,
/// and each event is committed to the file before ``record(_:)`` returns: the open
/// chunk is a shared memory mapping of the file, so an event survives the process
/// being killed at any moment (a watchdog's `SIGKILL` included). What survives power
/// loss is what was synced: the recorder syncs (`msync`, `fsync`) on ``flush()`` and
/// ``close()`` only; it seals the open chunk, without syncing, when it fills and right
/// after an `app.state to=background` event (docs/FORMAT.md, "Durability").
///
/// ```swift
/// let recorder = try TraceRecorder(writingTo: "/tmp/run.bgtrace", meta: ["platform": "ios"])
/// recorder.record(.taskBegin(id: 1, name: "SaveDocument"))
/// try recorder.close()
/// ```
public final class TraceRecorder: Sendable {
  private struct State: ~Copyable {
    var events: [TraceEvent] = []
    var keepsEvents: Bool
    var writer: DurableTraceWriter?
    var lastTime: UInt64 = 0
    var count = 0
    var failure: TraceRecordingError?
    var companions: [any AnyObject & Sendable] = []
  }

  /// The metadata the trace starts with.
  public let meta: TraceMetadata
  private let clock: RecorderClock
  /// Streaming: the file, and the events when kept, under one lock.
  private let state: Locked<State>
  /// In memory only: per-thread buffers.
  private let shards: RecorderShards?
  /// `shards`' id, or 0 when streaming: read on every event instead of `shards` itself,
  /// so that recording threads never write a shared reference count.
  private let shardsID: UInt64
  /// Set at the first ``record(_:at:)``: from then on every event goes through `state`,
  /// in the order recorded, as a simulation needs.
  private let givenTimes = Atomic<Bool>(false)
  private let path: String
  /// Set when the recorder redacts private fields (``TracePrivacy/redacted``).
  private let redactor: PrivateValueRedactor?

  /// Creates a recorder that keeps the trace in memory.
  ///
  /// - Parameters:
  ///   - meta: the trace's metadata.
  ///   - clock: where event times come from; the trace starts at the clock's
  ///     current instant. Defaults to the monotonic `ContinuousClock`.
  ///   - privacy: whether private fields (task names, input values) are kept or
  ///     redacted (``TracePrivacy``).
  public convenience init<C: Clock>(
    meta: TraceMetadata = TraceMetadata(), clock: C = ContinuousClock(), privacy: TracePrivacy = .visible
  ) where C.Duration == Duration {
    self.init(
      meta: privacy.marking(meta), clock: RecorderClock(clock), writer: nil, keepsEvents: true, path: "",
      privacy: privacy)
  }

  /// Creates a recorder that streams the trace to a binary file as it goes, committing
  /// each event to the file before ``record(_:)`` returns.
  ///
  /// - Parameters:
  ///   - path: the file to create. Only one recorder writes a file at a time: the file
  ///     is locked while recording, and a path another recorder holds (in this process or
  ///     another) is an error naming the holder.
  ///   - replacing: replace a file that exists already (unless a recorder holds it);
  ///     when false, an existing file is an error.
  ///   - meta: the trace's metadata, written in the file header at once.
  ///   - clock: where event times come from. Defaults to `ContinuousClock`.
  ///   - keepsEvents: also keep the events in memory for ``trace``.
  ///   - chunkPayloadLimit: seal a chunk when its body reaches this size.
  ///   - privacy: whether private fields (task names, input values) are kept or
  ///     redacted (``TracePrivacy``).
  /// - Throws: ``TraceRecordingError`` when the file cannot be created or written, or
  ///   another recorder holds it (``TraceErrorKind/fileInUse``).
  public convenience init<C: Clock>(
    writingTo path: String, replacing: Bool = false, meta: TraceMetadata = TraceMetadata(),
    clock: C = ContinuousClock(), keepsEvents: Bool = false, chunkPayloadLimit: Int = BinaryFormat.defaultChunkPayload,
    privacy: TracePrivacy = .visible
  ) throws(TraceRecordingError) where C.Duration == Duration {
    let meta = privacy.marking(meta)
    let writer = try DurableTraceWriter(
      path: path, meta: meta, chunkPayloadLimit: chunkPayloadLimit, replacing: replacing)
    self.init(
      meta: meta, clock: RecorderClock(clock), writer: writer, keepsEvents: keepsEvents, path: path,
      privacy: privacy)
  }

  private init(
    meta: TraceMetadata, clock: RecorderClock, writer: DurableTraceWriter?, keepsEvents: Bool,
    path: String, privacy: TracePrivacy
  ) {
    self.meta = meta
    self.redactor = privacy == .redacted ? PrivateValueRedactor() : nil
    self.clock = clock
    self.path = path
    let streaming = writer != nil
    var initial = State(keepsEvents: keepsEvents)
    initial.writer = writer
    self.state = Locked(initial)
    self.shards = streaming ? nil : RecorderShards()
    self.shardsID = shards?.id ?? 0
  }

  /// Records an event stamped with the recorder's clock.
  public func record(_ kind: consuming TraceEvent.Kind) {
    // `consuming`: the caller's copy becomes the event, where a borrowed one is copied.
    if let redactor, kind.hasPrivateFields { return record(redacted: redactor.redact(kind)) }
    record(redacted: kind)
  }

  /// Records an event whose private fields were redacted if they are to be.
  @inline(__always)
  private func record(redacted kind: consuming TraceEvent.Kind) {
    if shardsID != 0, !givenTimes.load(ordering: .relaxed) {
      let time = clock.now()
      // +0: the thread's slot and the registry keep the shard alive, so it is used with no
      // retain and release, which an `unowned(unsafe)` reference takes at every event
      // (docs/decisions/0005-recorder-shard-reference.md). The closure moves the event
      // out of `pending`, where capturing `kind` would copy it.
      let shard = RecorderShards.cached(forRecorder: shardsID) ?? shards!.register()
      var pending = Optional(kind)
      shard._withUnsafeGuaranteedRef { $0.append(pending.take().unsafelyUnwrapped, at: time) }
      return
    }
    state.withLock { state in
      append(kind, at: clock.now(), to: &state)
    }
  }

  /// Records an event at an explicit time (a simulation's virtual time).
  ///
  /// Once a recorder has been given a time, its events keep the order they were
  /// recorded in, whichever thread records them (a simulation records from its own
  /// thread and from main-actor code at the same virtual instant): they go through one
  /// lock rather than per-thread buffers. A time earlier than the last recorded one is
  /// raised to it, so the trace stays in order.
  public func record(_ kind: TraceEvent.Kind, at time: TraceTime) {
    if let redactor, kind.hasPrivateFields { return record(redactor.redact(kind), redactedAt: time) }
    record(kind, redactedAt: time)
  }

  private func record(_ kind: TraceEvent.Kind, redactedAt time: TraceTime) {
    if shards != nil, !givenTimes.load(ordering: .relaxed) {
      givenTimes.store(true, ordering: .relaxed)
      // Start after whatever the per-thread buffers hold.
      let last = shards!.all.map(\.lastTime).max() ?? 0
      state.withLock { $0.lastTime = max($0.lastTime, last) }
    }
    state.withLock { state in
      append(kind, at: time.nanoseconds, to: &state)
    }
  }

  // Inlined, as is the writer's `append`: each call's entry and exit cost about 20
  // instructions an event (docs/decisions/0001-recorder-chunk-encoding.md).
  @inline(__always)
  private func append(_ kind: TraceEvent.Kind, at nanoseconds: UInt64, to state: inout State) {
    let time = max(min(nanoseconds, TraceTime.max.nanoseconds), state.lastTime)
    state.lastTime = time
    state.count += 1
    if state.keepsEvents { state.events.append(TraceEvent(time: TraceTime(nanoseconds: time), kind)) }
    // Through optional chaining, which changes the writer in place: a test against nil
    // copied the writer, and retained what it holds, at every event. A failure is only
    // ever set with a writer.
    guard case .none = state.failure else {
      state.writer?.noteUnwritten(at: time)
      return
    }
    do {
      guard try state.writer?.append(kind, at: time) != nil else { return }  // in memory only
    } catch {
      switch error {
      case .encoding(let error): state.failure = TraceRecordingError(file: path, encoding: error)
      case .file(let error): state.failure = error
      }
      let failure = state.failure!
      var reason = failure.message
      if case .event(let number)? = failure.position { reason = "event \(number): \(reason)" }
      state.writer!.stop(reason: reason, unwrittenTime: time)
      return
    }
    // Seal on going to the background (not sync: an fsync waits on the storage device,
    // too long for `record`), so a suspended app's file ends in a sealed, checksummed chunk.
    if case .appState(to: .background) = kind { seal(&state, sync: false) }
  }

  /// Seals the open chunk and, with `sync`, writes the file to the device.
  private func seal(_ state: inout State, sync: Bool) {
    guard state.writer != nil else { return }
    let open = state.writer!.hasOpenChunk
    state.writer!.seal()
    guard sync, open, state.failure == nil else { return }
    do {
      try state.writer!.file.sync()
    } catch {
      state.failure = error
      state.writer!.stop(reason: error.message, unwrittenTime: nil)
    }
  }

  /// The first failure met while writing the file, if any: from then on the recorder
  /// writes no more events, and the file ends in a stop record that says why and
  /// counts the events recorded after it (docs/FORMAT.md, "Stop record"). Readers
  /// report those events as lost. `record` never throws or traps for it; read this (or
  /// call ``flush()``) to learn of it.
  public var failure: TraceRecordingError? { state.withLock { $0.failure } }

  /// How many recorded events were not written to the file, because writing had
  /// failed (``failure``); 0 when recording in memory only.
  public var unwrittenEventCount: Int { state.withLock { Int($0.writer?.unwrittenCount ?? 0) } }

  /// The recorder's current time: its clock's reading, never before the last event.
  public var currentTime: TraceTime {
    let reading = clock.now()
    let stamped = state.withLock { $0.lastTime }
    let last = max(stamped, shards?.all.map(\.lastTime).max() ?? 0)
    return TraceTime(nanoseconds: max(min(reading, TraceTime.max.nanoseconds), last))
  }

  /// How many events have been recorded.
  public var eventCount: Int {
    let stamped = state.withLock { $0.count }
    return stamped + (shards?.all.reduce(0) { $0 + $1.count } ?? 0)
  }

  /// The trace so far (the events are kept only when the recorder keeps them).
  public var trace: RecordedTrace {
    let stamped = state.withLock { $0.events }
    guard let shards else { return RecordedTrace(meta: meta, events: stamped) }
    let clocked = shards.merged()
    if stamped.isEmpty { return RecordedTrace(meta: meta, events: clocked) }
    if clocked.isEmpty { return RecordedTrace(meta: meta, events: stamped) }
    // Both kinds of event: merged by time, events given a time first at a tie.
    var events: [TraceEvent] = []
    events.reserveCapacity(stamped.count + clocked.count)
    var (i, j) = (0, 0)
    while i < stamped.count || j < clocked.count {
      if j == clocked.count || (i < stamped.count && stamped[i].time <= clocked[j].time) {
        events.append(stamped[i])
        i += 1
      } else {
        events.append(clocked[j])
        j += 1
      }
    }
    return RecordedTrace(meta: meta, events: events)
  }

  /// Keeps `companion` alive for as long as the recorder lives: an observer that records
  /// into this recorder (the UIKit lifecycle tracer) and that app code need not hold.
  ///
  /// The companion must not hold the recorder strongly, or neither is ever released.
  package func keepAlive(_ companion: any AnyObject & Sendable) {
    state.withLock { $0.companions.append(companion) }
  }

  /// Seals the open chunk and syncs the file to the device, when streaming to a file.
  /// Every recorded event is in the file already (it survives the process being
  /// killed); after `flush` it also survives power loss.
  ///
  /// - Throws: the first ``TraceRecordingError`` met while writing, if any.
  public func flush() throws(TraceRecordingError) {
    try state.withLock { state throws(TraceRecordingError) in
      seal(&state, sync: true)
      if let failure = state.failure { throw failure }
    }
  }

  /// Seals the last chunk, cuts the file to its data, syncs and closes it; later events
  /// are kept in memory only.
  ///
  /// - Throws: the first ``TraceRecordingError`` met while writing, if any.
  public func close() throws(TraceRecordingError) {
    try state.withLock { state throws(TraceRecordingError) in
      guard state.writer != nil else { return }
      state.writer!.seal()
      do throws(TraceRecordingError) {
        try state.writer!.file.close()
      } catch {
        if state.failure == nil { state.failure = error }
      }
      state.writer = nil
      if let failure = state.failure { throw failure }
    }
  }

  deinit {
    try? close()
  }
}
