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
/// buffer (one uncontended atomic lock, one clock read, one array append), so threads
/// record in parallel; ``trace`` interleaves the buffers by time, so times never
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
    var failure: ByteSourceError?
  }

  /// The metadata the trace starts with.
  public let meta: TraceMetadata
  private let clock: RecorderClock
  /// Streaming: the file, and the events when kept, under one lock.
  private let state: PthreadLocked<State>
  /// In memory only: per-thread buffers.
  private let shards: RecorderShards?
  private let path: String

  /// Creates a recorder that keeps the trace in memory.
  ///
  /// - Parameters:
  ///   - meta: the trace's metadata.
  ///   - clock: where event times come from; the trace starts at the clock's
  ///     current instant. Defaults to the monotonic `ContinuousClock`.
  public convenience init<C: Clock>(
    meta: TraceMetadata = TraceMetadata(), clock: C = ContinuousClock()
  ) where C.Duration == Duration {
    self.init(meta: meta, clock: RecorderClock(clock), writer: nil, keepsEvents: true, path: "")
  }

  /// Creates a recorder that streams the trace to a binary file as it goes, committing
  /// each event to the file before ``record(_:)`` returns.
  ///
  /// - Parameters:
  ///   - path: the file to create (an existing one is replaced).
  ///   - meta: the trace's metadata, written in the file header at once.
  ///   - clock: where event times come from. Defaults to `ContinuousClock`.
  ///   - keepsEvents: also keep the events in memory for ``trace``.
  ///   - chunkPayloadLimit: seal a chunk when its body reaches this size.
  /// - Throws: ``ByteSourceError`` when the file cannot be created or written.
  public convenience init<C: Clock>(
    writingTo path: String, meta: TraceMetadata = TraceMetadata(), clock: C = ContinuousClock(),
    keepsEvents: Bool = false, chunkPayloadLimit: Int = BinaryFormat.defaultChunkPayload
  ) throws(ByteSourceError) where C.Duration == Duration {
    let writer = try DurableTraceWriter(path: path, meta: meta, chunkPayloadLimit: chunkPayloadLimit)
    self.init(meta: meta, clock: RecorderClock(clock), writer: writer, keepsEvents: keepsEvents, path: path)
  }

  private init(
    meta: TraceMetadata, clock: RecorderClock, writer: DurableTraceWriter?, keepsEvents: Bool,
    path: String
  ) {
    self.meta = meta
    self.clock = clock
    self.path = path
    let streaming = writer != nil
    var initial = State(keepsEvents: keepsEvents)
    initial.writer = writer
    self.state = PthreadLocked(initial)
    self.shards = streaming ? nil : RecorderShards()
  }

  /// Records an event stamped with the recorder's clock.
  public func record(_ kind: TraceEvent.Kind) {
    if let shards {
      let time = clock.now()
      shards.current()._withUnsafeGuaranteedRef { $0.withLock { Self.append(kind, at: time, to: &$0) } }
      return
    }
    state.withLock { state in
      append(kind, at: clock.now(), to: &state)
    }
  }

  /// Records an event at an explicit time (a simulation's virtual time).
  ///
  /// A time earlier than the last recorded one (in memory: the last one this thread
  /// recorded) is raised to it, so the trace stays in order.
  public func record(_ kind: TraceEvent.Kind, at time: TraceTime) {
    if let shards {
      shards.current()._withUnsafeGuaranteedRef { $0.withLock { Self.append(kind, at: time.nanoseconds, to: &$0) } }
      return
    }
    state.withLock { state in
      append(kind, at: time.nanoseconds, to: &state)
    }
  }

  @inline(__always)
  private static func append(_ kind: TraceEvent.Kind, at nanoseconds: UInt64, to shard: inout Shard.State) {
    let time = max(min(nanoseconds, TraceTime.max.nanoseconds), shard.lastTime)
    shard.lastTime = time
    shard.append(TraceEvent(time: TraceTime(nanoseconds: time), kind))
  }

  private func append(_ kind: TraceEvent.Kind, at nanoseconds: UInt64, to state: inout State) {
    let time = max(min(nanoseconds, TraceTime.max.nanoseconds), state.lastTime)
    state.lastTime = time
    state.count += 1
    let event = TraceEvent(time: TraceTime(nanoseconds: time), kind)
    if state.keepsEvents { state.events.append(event) }
    guard state.writer != nil, state.failure == nil else { return }
    do {
      try state.writer!.append(event)
    } catch {
      switch error {
      case .encoding(let error): state.failure = ByteSourceError(file: path, message: error.description)
      case .file(let error): state.failure = error
      }
    }
    // Seal (not sync: an fsync takes milliseconds, too long for `record`) on going to
    // the background, so a suspended app's file ends in a sealed, checksummed chunk.
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
    }
  }

  /// The recorder's current time: its clock's reading, never before the last event.
  public var currentTime: TraceTime {
    let reading = clock.now()
    let last =
      if let shards {
        shards.all.map { shard in shard.withLock { $0.lastTime } }.max() ?? 0
      } else {
        state.withLock { $0.lastTime }
      }
    return TraceTime(nanoseconds: max(min(reading, TraceTime.max.nanoseconds), last))
  }

  /// How many events have been recorded.
  public var eventCount: Int {
    if let shards {
      return shards.all.reduce(0) { count, shard in count + shard.withLock { $0.count } }
    }
    return state.withLock { $0.count }
  }

  /// The trace so far (the events are kept only when the recorder keeps them).
  public var trace: Trace {
    if let shards { return Trace(meta: meta, events: shards.merged()) }
    return state.withLock { Trace(meta: meta, events: $0.events) }
  }

  /// Seals the open chunk and syncs the file to the device, when streaming to a file.
  /// Every recorded event is in the file already (it survives the process being
  /// killed); after `flush` it also survives power loss.
  ///
  /// - Throws: the first ``ByteSourceError`` met while writing, if any.
  public func flush() throws(ByteSourceError) {
    try state.withLock { state throws(ByteSourceError) in
      seal(&state, sync: true)
      if let failure = state.failure { throw failure }
    }
  }

  /// Seals the last chunk, cuts the file to its data, syncs and closes it; later events
  /// are kept in memory only.
  ///
  /// - Throws: the first ``ByteSourceError`` met while writing, if any.
  public func close() throws(ByteSourceError) {
    try state.withLock { state throws(ByteSourceError) in
      guard state.writer != nil else { return }
      state.writer!.seal()
      do throws(ByteSourceError) {
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
