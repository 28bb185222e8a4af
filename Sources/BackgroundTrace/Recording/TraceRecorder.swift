#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Records events from any thread into one trace: in memory, streamed to a binary
/// file chunk by chunk, or both.
///
/// Recording is append-only and cheap: one lock, one clock read, one array append
/// (plus, when streaming, the event's few bytes of encoding). Events are stamped
/// inside the lock, so their times never decrease even across threads. When
/// streaming, a chunk is written as soon as it fills, on ``flush()``, and right after
/// an `app.state to=background` event, so a process killed in the background loses
/// at most the events since its last flush.
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
    var encoder: BinaryTraceEncoder?
    var output: [UInt8] = []
    var sink: FileSink?
    var lastTime: UInt64 = 0
    var count = 0
    var failure: ByteSourceError?
    var companions: [any AnyObject & Sendable] = []
  }

  /// The metadata the trace starts with.
  public let meta: TraceMetadata
  private let now: @Sendable () -> UInt64
  private let state: PthreadLocked<State>

  /// Creates a recorder that keeps the trace in memory.
  ///
  /// - Parameters:
  ///   - meta: the trace's metadata.
  ///   - clock: where event times come from; the trace starts at the clock's
  ///     current instant. Defaults to the monotonic `ContinuousClock`.
  public convenience init<C: Clock>(
    meta: TraceMetadata = TraceMetadata(), clock: C = ContinuousClock()
  ) where C.Duration == Duration {
    self.init(meta: meta, now: Self.elapsed(on: clock), sink: nil, keepsEvents: true, chunkPayloadLimit: 0)
  }

  /// Creates a recorder that streams the trace to a binary file as it goes.
  ///
  /// - Parameters:
  ///   - path: the file to create (an existing one is replaced).
  ///   - meta: the trace's metadata, written in the file header at once.
  ///   - clock: where event times come from. Defaults to `ContinuousClock`.
  ///   - keepsEvents: also keep the events in memory for ``trace``.
  ///   - chunkPayloadLimit: seal and write a chunk when its payload reaches this size.
  /// - Throws: ``ByteSourceError`` when the file cannot be created or written.
  public convenience init<C: Clock>(
    writingTo path: String, meta: TraceMetadata = TraceMetadata(), clock: C = ContinuousClock(),
    keepsEvents: Bool = false, chunkPayloadLimit: Int = BinaryFormat.defaultChunkPayload
  ) throws(ByteSourceError) where C.Duration == Duration {
    let sink = try FileSink(path: path)
    self.init(
      meta: meta, now: Self.elapsed(on: clock), sink: sink, keepsEvents: keepsEvents,
      chunkPayloadLimit: chunkPayloadLimit)
    try state.withLock { state throws(ByteSourceError) in
      try sink.write(state.encoder!.header())
    }
  }

  private init(
    meta: TraceMetadata, now: @escaping @Sendable () -> UInt64, sink: FileSink?, keepsEvents: Bool,
    chunkPayloadLimit: Int
  ) {
    self.meta = meta
    self.now = now
    var initial = State(keepsEvents: keepsEvents)
    if let sink {
      initial.sink = sink
      initial.encoder = BinaryTraceEncoder(meta: meta, chunkPayloadLimit: chunkPayloadLimit)
    }
    self.state = PthreadLocked(initial)
  }

  private static func elapsed<C: Clock>(on clock: C) -> @Sendable () -> UInt64 where C.Duration == Duration {
    let start = clock.now
    return {
      let elapsed = start.duration(to: clock.now)
      // A clock behind the start (even by less than a second, where `seconds` is 0 and
      // `attoseconds` negative) reads as the start.
      guard elapsed > .zero else { return 0 }
      let (seconds, attoseconds) = elapsed.components
      return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }
  }

  /// Records an event stamped with the recorder's clock.
  public func record(_ kind: TraceEvent.Kind) {
    state.withLock { state in
      append(kind, at: now(), to: &state)
    }
  }

  /// Records an event at an explicit time (a simulation's virtual time).
  ///
  /// A time earlier than the last recorded one is raised to it, so the trace stays
  /// in order.
  public func record(_ kind: TraceEvent.Kind, at time: TraceTime) {
    state.withLock { state in
      append(kind, at: time.nanoseconds, to: &state)
    }
  }

  @inline(__always)
  private func append(_ kind: TraceEvent.Kind, at nanoseconds: UInt64, to state: inout State) {
    let time = max(min(nanoseconds, TraceTime.max.nanoseconds), state.lastTime)
    state.lastTime = time
    state.count += 1
    let event = TraceEvent(time: TraceTime(nanoseconds: time), kind)
    if state.keepsEvents { state.events.append(event) }
    guard state.encoder != nil else { return }
    do {
      try state.encoder!.append(event, into: &state.output)
    } catch {
      // Times are clamped above and app-supplied integers come from the platform's
      // non-negative identifiers; keep the first problem to report on flush.
      if state.failure == nil {
        state.failure = ByteSourceError(file: state.sink?.path ?? "", message: error.description)
      }
    }
    if case .appState(to: .background) = kind { state.encoder!.flush(into: &state.output) }
    if !state.output.isEmpty { write(&state) }
  }

  private func write(_ state: inout State) {
    guard let sink = state.sink, state.failure == nil else {
      state.output.removeAll(keepingCapacity: true)
      return
    }
    do {
      try sink.write(state.output)
    } catch {
      state.failure = error
    }
    state.output.removeAll(keepingCapacity: true)
  }

  /// The recorder's current time: its clock's reading, never before the last event.
  public var currentTime: TraceTime {
    let reading = now()
    return state.withLock { TraceTime(nanoseconds: max(min(reading, TraceTime.max.nanoseconds), $0.lastTime)) }
  }

  /// How many events have been recorded.
  public var eventCount: Int { state.withLock { $0.count } }

  /// The trace so far (the events are kept only when the recorder keeps them).
  public var trace: Trace {
    state.withLock { Trace(meta: meta, events: $0.events) }
  }

  /// Keeps `companion` alive for as long as the recorder lives: an observer that records
  /// into this recorder (the UIKit lifecycle tracer) and that app code need not hold.
  ///
  /// The companion must not hold the recorder strongly, or neither is ever released.
  package func keepAlive(_ companion: any AnyObject & Sendable) {
    state.withLock { $0.companions.append(companion) }
  }

  /// Writes the events not yet written as a chunk, when streaming to a file.
  ///
  /// - Throws: the first ``ByteSourceError`` met while writing, if any.
  public func flush() throws(ByteSourceError) {
    try state.withLock { state throws(ByteSourceError) in
      state.encoder?.flush(into: &state.output)
      if !state.output.isEmpty { write(&state) }
      if let failure = state.failure { throw failure }
    }
  }

  /// Flushes and closes the output file; later events are kept in memory only.
  ///
  /// - Throws: the first ``ByteSourceError`` met while writing, if any.
  public func close() throws(ByteSourceError) {
    try flush()
    state.withLock { state in
      state.sink?.close()
      state.sink = nil
      state.encoder = nil
    }
  }

  deinit {
    try? flush()
  }
}

/// A value guarded by a pthread mutex.
///
/// The recorder does not use `Synchronization.Mutex` because on Linux that lock hands
/// itself over through the kernel (priority-inheritance futexes), which ThreadSanitizer
/// cannot see: it reports every contended `withLock` as a data race, so the recorder's
/// stress test could not run clean under `--sanitize=thread`. ThreadSanitizer
/// understands pthread mutexes.
private final class PthreadLocked<Value: ~Copyable>: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  init(_ value: consuming Value) {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    self.value = value
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
