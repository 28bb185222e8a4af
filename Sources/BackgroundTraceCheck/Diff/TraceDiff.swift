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
    /// Ignored, the event's own and those of its fields of type ``/BackgroundTrace/FieldType/seconds``
    /// (`earliest=`): only the order of events matters. The diff then shows no times.
    case order
    /// Equal when they differ by at most this much, the event's own and those of its
    /// fields of type ``/BackgroundTrace/FieldType/seconds``.
    case tolerance(TraceInterval)
  }

  /// How identifiers compare.
  public var identifiers: Identifiers
  /// How times compare.
  public var times: Times
  /// Whether the `meta` lines are compared. When not (the default), a difference in
  /// them is reported as ``TraceDiff/metaDifference`` and leaves the traces equal:
  /// two runs of one scenario under different seeds record the same events.
  public var comparesMeta: Bool

  /// Creates options; the defaults compare ids up to renaming and times exactly, and
  /// leave the `meta` lines out.
  public init(identifiers: Identifiers = .renamed, times: Times = .exact, comparesMeta: Bool = false) {
    self.identifiers = identifiers
    self.times = times
    self.comparesMeta = comparesMeta
  }
}

/// Two traces' `meta` lines, when they differ and are not compared.
public struct MetaDifference: Sendable, Hashable, CustomStringConvertible {
  /// The expected trace's `meta` line, or `nil` when it has none.
  public var expected: String?
  /// The actual trace's `meta` line, or `nil` when it has none.
  public var actual: String?

  /// One sentence naming both lines.
  public var description: String {
    "the meta lines differ (not compared): expected \(expected.map { "'\($0)'" } ?? "none"), found \(actual.map { "'\($0)'" } ?? "none")"
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

  /// The two `meta` lines when they differ and ``DiffOptions/comparesMeta`` is false;
  /// `nil` otherwise. It does not make the traces differ.
  public var metaDifference: MetaDifference?

  /// Whether the traces are the same under the options.
  public var isEqual: Bool { firstDivergence == nil }

  /// Compares two traces.
  ///
  /// Lines that are the same under the options show as the expected trace writes
  /// them, removed lines as the expected trace does, added lines as the actual trace
  /// does; with ``DiffOptions/Times/order`` no line shows a time (time fields show as
  /// `NAME=*`). Hunk headers count lines of the canonical text, meta line included.
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
    expected: RecordedTrace, actual: RecordedTrace, options: DiffOptions = DiffOptions(),
    expectedName: String = "expected",
    actualName: String = "actual", context: Int = 3
  ) {
    let showsHeader = options.comparesMeta || (expected.meta.isEmpty && actual.meta.isEmpty)
    let old = DiffSide(expected, options: options, showsHeader: showsHeader)
    let new = DiffSide(actual, options: options, showsHeader: showsHeader)
    metaDifference =
      options.comparesMeta || old.metaLine == new.metaLine
      ? nil : MetaDifference(expected: old.metaLine, actual: new.metaLine)
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
        edits, old: old.lines, new: new.lines, oldName: expectedName, newName: actualName, context: context,
        oldLineNumber: old.lineNumber, newLineNumber: new.lineNumber)
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
