/// The events of the log chunk a ``BinaryTraceReader`` is handing out, decoded whole
/// when the chunk is loaded (a sealed chunk's are decoded one by one as they are read,
/// see ``ChunkPayload``): compact events whose string ids are the chunk's own, with
/// the chunk's strings and the setting lists of its `env.set` events. ``take()``
/// builds the next one as a ``TraceEvent``; ``takeCompact(interning:)`` gives it the
/// reader's trace-wide string ids. A value, as the reader is: a copy of a reader reads
/// on from where it was copied.
struct LogChunkEvents: StringTable {
  private var events: [CompactEvent] = []
  /// The chunk's strings, by the ids its events hold.
  var strings: [String] = []
  private var settingLists: [[UInt32]] = []
  /// Each chunk string's trace-wide id, once ``takeCompact(interning:)`` interned them
  /// in the table of that generation.
  private var internedIDs: [UInt32] = []
  private var internedGeneration: Int?
  /// Events `0..<consumed` were handed out.
  private(set) var consumed = 0

  var count: Int { events.count }
  var isEmpty: Bool { events.isEmpty }

  /// The time of the last event decoded, if any.
  var lastTime: UInt64? { events.last?.time }

  /// Drops every event and string, to decode the next chunk.
  mutating func removeAll() {
    events.removeAll(keepingCapacity: true)
    strings.removeAll(keepingCapacity: true)
    settingLists.removeAll(keepingCapacity: true)
    internedGeneration = nil
    consumed = 0
  }

  /// Appends a decoded record; an `env.set`'s setting pairs are `settingIDs`.
  mutating func append(_ event: CompactEvent, settingIDs: [UInt32]) {
    var event = event
    if event.tag == .envSet {
      event.string = UInt32(settingLists.count)
      settingLists.append(settingIDs)
    }
    events.append(event)
  }

  /// Drops the events from `start` on (the ones a failed decode appended).
  mutating func removeAppended(from start: Int) {
    events.removeSubrange(start...)
  }

  subscript(id: UInt32) -> String { strings[Int(id)] }

  func settings(_ list: UInt32) -> [EnvironmentSetting] {
    let pairs = settingLists[Int(list)]
    return stride(from: 0, to: pairs.count, by: 2).map {
      EnvironmentSetting(key: strings[Int(pairs[$0])], value: strings[Int(pairs[$0 + 1])])
    }
  }

  /// The next event not yet read, built whole.
  mutating func take() -> TraceEvent {
    precondition(consumed < events.count)
    defer { consumed += 1 }
    return TraceEvent(events[consumed], strings: self)
  }

  /// The next event not yet read, its strings given their ids in `table`.
  mutating func takeCompact(interning table: inout InternedStrings) -> CompactEvent {
    precondition(consumed < events.count)
    if internedGeneration != table.generation {
      internedIDs = strings.map { table.intern($0) }
      internedGeneration = table.generation
    }
    var event = events[consumed]
    consumed += 1
    if event.tag == .envSet {
      event.string = table.internSettings(settingLists[Int(event.string)].map { internedIDs[Int($0)] })
    } else {
      if event.string != CompactEvent.noString { event.string = internedIDs[Int(event.string)] }
      if event.secondString != CompactEvent.noString { event.secondString = internedIDs[Int(event.secondString)] }
      if event.thirdString != CompactEvent.noString { event.thirdString = internedIDs[Int(event.thirdString)] }
      if event.fourthString != CompactEvent.noString { event.fourthString = internedIDs[Int(event.fourthString)] }
    }
    return event
  }
}

/// The payload of the sealed chunk a ``BinaryTraceReader`` is reading, copied out of
/// its read buffer. Copies of a reader share it and only read it; a reader that loads
/// the next chunk into a shared one makes its own first.
final class ChunkPayload {
  private var base: UnsafeMutableRawPointer
  private var capacity: Int
  /// The payload.
  private(set) var bytes: UnsafeRawBufferPointer

  init() {
    capacity = 0
    base = .allocate(byteCount: 1, alignment: 8)
    bytes = UnsafeRawBufferPointer(start: base, count: 0)
  }

  deinit { base.deallocate() }

  /// Holds a copy of `payload` instead.
  func replace(with payload: UnsafeRawBufferPointer) {
    if payload.count > capacity {
      base.deallocate()
      capacity = Swift.max(payload.count, 64 * 1024)
      base = .allocate(byteCount: capacity, alignment: 8)
    }
    if let source = payload.baseAddress { base.copyMemory(from: source, byteCount: payload.count) }
    bytes = UnsafeRawBufferPointer(start: base, count: payload.count)
  }
}
