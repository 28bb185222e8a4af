public import BackgroundTrace

/// How two traces are compared.
public struct DiffOptions: Sendable, Hashable {
  /// How identifiers compare.
  public enum Identifiers: Sendable, Hashable {
    /// Up to a consistent renaming by first appearance (the default).
    case renamed
    /// As written.
    case exact
  }

  /// How times compare.
  public enum Times: Sendable, Hashable {
    /// Equal to the nanosecond (the default).
    case exact
    /// Ignored: only the order of events matters.
    case order
    /// Equal when they differ by at most this much.
    case tolerance(TraceInterval)
  }

  /// How identifiers compare.
  public var identifiers: Identifiers
  /// How times compare.
  public var times: Times

  /// Creates options; the defaults compare ids up to renaming and times exactly.
  public init(identifiers: Identifiers = .renamed, times: Times = .exact) {
    self.identifiers = identifiers
    self.times = times
  }
}

/// Where two traces first differ.
public struct Divergence: Sendable, Hashable, CustomStringConvertible {
  /// The 1-based event number in the expected trace (or 0 for the header and meta).
  public var expectedEvent: Int
  /// The 1-based event number in the actual trace.
  public var actualEvent: Int
  /// The expected line, or `nil` when the actual trace has an extra line here.
  public var expected: String?
  /// The actual line, or `nil` when the actual trace lacks the expected line.
  public var actual: String?

  /// One sentence naming the first divergence: the event number, the expected line and
  /// the actual one.
  public var description: String {
    switch (expected, actual) {
    case (let expected?, let actual?):
      "first divergence at event \(expectedEvent): expected '\(expected)', found '\(actual)'"
    case (let expected?, nil):
      "first divergence at event \(expectedEvent): expected '\(expected)', which the actual trace lacks"
    case (nil, let actual?):
      "first divergence at event \(actualEvent): the actual trace has an extra '\(actual)'"
    case (nil, nil):
      "no divergence"
    }
  }
}

/// The result of comparing an expected trace with an actual one.
public struct TraceDiff: Sendable, Hashable {
  /// Where the traces first differ; `nil` when they are the same under the options.
  public var firstDivergence: Divergence?
  /// A unified diff of the canonical text (empty when the traces are the same), whose
  /// first line names the first divergence.
  public var unified: String

  /// Whether the traces are the same under the options.
  public var isEqual: Bool { firstDivergence == nil }

  /// Compares two traces.
  ///
  /// - Parameters:
  ///   - expected: the golden trace.
  ///   - actual: the new trace.
  ///   - options: how identifiers and times compare.
  ///   - expectedName: the expected trace's name for the `---` line.
  ///   - actualName: the actual trace's name for the `+++` line.
  ///   - context: lines of context around each change.
  /// - Complexity: O((*n* + *m*) · *D*) for *D* differences (at most 4,000 are searched).
  public init(
    expected: Trace, actual: Trace, options: DiffOptions = DiffOptions(), expectedName: String = "expected",
    actualName: String = "actual", context: Int = 3
  ) {
    let old = DiffSide(expected, options: options)
    let new = DiffSide(actual, options: options)
    let edits = MyersDiff.edits(oldCount: old.lines.count, newCount: new.lines.count) { i, j in
      old.matches(i, new, j, times: options.times)
    }
    guard edits.contains(where: { if case .keep = $0 { false } else { true } }) else {
      firstDivergence = nil
      unified = ""
      return
    }
    firstDivergence = Self.divergence(edits, old, new)
    unified =
      firstDivergence!.description + "\n"
      + UnifiedDiff.format(
        edits, old: old.lines, new: new.lines, oldName: expectedName, newName: actualName, context: context)
  }

  private static func divergence(_ edits: [MyersDiff.Edit], _ old: DiffSide, _ new: DiffSide) -> Divergence {
    var oldIndex = 0
    var newIndex = 0
    for (position, edit) in edits.enumerated() {
      switch edit {
      case .keep(let o, let n):
        oldIndex = o + 1
        newIndex = n + 1
      case .delete(let o):
        var divergence = Divergence(
          expectedEvent: old.eventNumber(o), actualEvent: new.eventNumber(newIndex), expected: old.lines[o], actual: nil
        )
        // Pair it with the first insertion of the same change, if any: a replacement.
        for later in edits[(position + 1)...] {
          if case .delete = later { continue }
          if case .insert(let n) = later {
            divergence.actual = new.lines[n]
            divergence.actualEvent = new.eventNumber(n)
          }
          break
        }
        return divergence
      case .insert(let n):
        return Divergence(
          expectedEvent: old.eventNumber(oldIndex), actualEvent: new.eventNumber(n), expected: nil, actual: new.lines[n]
        )
      }
    }
    return Divergence(expectedEvent: 0, actualEvent: 0, expected: nil, actual: nil)
  }
}

/// One trace prepared for comparison: its canonical lines and comparison keys.
struct DiffSide {
  /// The canonical text lines: the header, the meta line if any, then one per event.
  var lines: [String]
  /// How many lines come before the first event.
  var headerLines: Int
  /// The comparison key of each line (header lines compare by text).
  var keys: [TraceEvent.Kind?]
  var times: [TraceTime]

  init(_ trace: Trace, options: DiffOptions) {
    let header = TextTraceWriter.headerAndMeta(trace.meta).split(separator: "\n").map(String.init)
    headerLines = header.count
    lines = header
    keys = Array(repeating: nil, count: header.count)
    times = Array(repeating: .zero, count: header.count)
    var renaming = IdentifierRenaming()
    for event in trace.events {
      lines.append(TextTraceWriter.line(for: event))
      keys.append(options.identifiers == .renamed ? renaming.rename(event.kind) : event.kind)
      times.append(event.time)
    }
  }

  /// The 1-based event number of line `index` (0 for header lines).
  func eventNumber(_ index: Int) -> Int { max(index - headerLines + 1, 0) }

  func matches(_ i: Int, _ other: DiffSide, _ j: Int, times mode: DiffOptions.Times) -> Bool {
    guard let key = keys[i], let otherKey = other.keys[j] else {
      return keys[i] == nil && other.keys[j] == nil && lines[i] == other.lines[j]
    }
    guard key == otherKey else { return false }
    switch mode {
    case .exact: return times[i] == other.times[j]
    case .order: return true
    case .tolerance(let tolerance):
      let (a, b) = (times[i].nanoseconds, other.times[j].nanoseconds)
      return (a > b ? a - b : b - a) <= tolerance.nanoseconds
    }
  }
}
