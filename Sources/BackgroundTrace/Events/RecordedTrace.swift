/// A whole trace in memory: its metadata and its events in time order.
///
/// Large traces need not be loaded whole: ``TraceReader`` streams events from a file.
public struct RecordedTrace: Sendable, Hashable {
  /// The `meta key=value` pairs, in the order recorded.
  public var meta: TraceMetadata
  /// The events, in non-decreasing time order.
  public var events: [TraceEvent]

  /// Creates a trace.
  public init(meta: TraceMetadata = TraceMetadata(), events: [TraceEvent] = []) {
    self.meta = meta
    self.events = events
  }
}

/// A trace's `meta` pairs (`platform=ios budget=30`), in the order recorded.
public struct TraceMetadata: Sendable, Hashable {
  /// One `key=value` pair.
  public struct Entry: Sendable, Hashable {
    /// The key: a bare word.
    public var key: String
    /// The value, as written.
    public var value: String

    /// Creates an entry.
    public init(key: String, value: String) {
      self.key = key
      self.value = value
    }
  }

  /// The pairs, in the order recorded; keys are unique.
  public private(set) var entries: [Entry]

  /// Creates metadata from pairs; a repeated key keeps its last value at its first place.
  public init(_ pairs: KeyValuePairs<String, String> = [:]) {
    entries = []
    for (key, value) in pairs { self[key] = value }
  }

  /// Creates metadata from entries; a repeated key keeps its last value at its first place.
  public init(entries: [Entry]) {
    self.entries = []
    for entry in entries { self[entry.key] = entry.value }
  }

  /// The value for `key`; setting `nil` removes it, setting a new key appends it.
  public subscript(key: String) -> String? {
    get { entries.first { $0.key == key }?.value }
    set {
      if let index = entries.firstIndex(where: { $0.key == key }) {
        if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
      } else if let newValue {
        entries.append(Entry(key: key, value: newValue))
      }
    }
  }

  /// Whether there are no pairs.
  public var isEmpty: Bool { entries.isEmpty }

  /// The background budget when no `meta budget=` says otherwise: 30 s, as on iOS 13
  /// and later.
  public static let defaultBudget = TraceInterval(nanoseconds: 30_000_000_000)

  /// The background budget this trace declares (`meta budget=SECONDS`), else
  /// ``defaultBudget``.
  public var budget: TraceInterval {
    self[Self.budgetSetting] ?? Self.defaultBudget
  }
}

extension TraceMetadata: ExpressibleByDictionaryLiteral {
  /// Creates metadata from a literal, keeping the order written: `["platform": "ios"]`.
  public init(dictionaryLiteral elements: (String, String)...) {
    self.init(entries: elements.map { Entry(key: $0.0, value: $0.1) })
  }
}

extension RecordedTrace {
  /// The events with `tag`, in trace order: `trace.events(.taskBegin)`.
  public func events(_ tag: EventTag) -> [TraceEvent] {
    events.filter { $0.kind.tag == tag }
  }
}
