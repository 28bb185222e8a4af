public import BackgroundTrace
public import BackgroundTraceCheck

/// Where a replay's app actions first differ from the recorded ones.
public struct ReplayDivergence: Sendable, Hashable, CustomStringConvertible {
  /// The recorded event number of the expected action (or of the first action after
  /// the spot, when the replay did something extra); `nil` past the end.
  public var eventNumber: Int?
  /// When it happened (the expected action's time, or the extra action's).
  public var time: TraceTime
  /// The recorded action, or `nil` when the replay did something the recording did not.
  public var expected: String?
  /// The replayed action, or `nil` when the replay did not do the recorded one.
  ///
  /// Under ``Replayer/Timing/order`` it is written on the recording's clock when there
  /// is an expected action: at the expected action's time, each time a field carries as
  /// far from it as the app's was from its own action, so the two lines differ only
  /// where they were compared (an extra action past the recording's end keeps its
  /// replayed time). Under ``Replayer/Timing/exact`` it is the replayed event's line.
  public var actual: String?
  /// The recorded actions just before the divergence, for context.
  public var context: [String]

  /// One sentence saying where the replay diverges, what the recording expected and what
  /// the app did.
  public var description: String {
    let place = eventNumber.map { "event \($0)" } ?? "the end of the recording"
    switch (expected, actual) {
    case (let expected?, let actual?):
      return "replay diverges at \(place) (\(time)s): expected '\(expected)', the app did '\(actual)'"
    case (let expected?, nil):
      return "replay diverges at \(place) (\(time)s): expected '\(expected)', the app did not do it"
    case (nil, let actual?):
      return "replay diverges at \(place) (\(time)s): the app did '\(actual)', which the recording does not have"
    case (nil, nil):
      return "no divergence"
    }
  }
}

/// A recorded system decision the replay could not apply, because the app's code now
/// behaves differently (an expiration for a task it never began).
public struct UnappliedDecision: Sendable, Hashable, CustomStringConvertible {
  /// The recorded event number.
  public var eventNumber: Int
  /// The decision's canonical line.
  public var line: String
  /// Why it did not apply.
  public var reason: String

  /// The decision's event number and line, and why it was not applied.
  public var description: String { "event \(eventNumber) '\(line)' not applied: \(reason)" }
}

/// What a replay produced.
public struct ReplayResult: Sendable {
  /// The trace the replay recorded: the injected decisions and the app's new actions.
  public var trace: RecordedTrace
  /// Where the app's actions first differ from the recording; `nil` when they match.
  public var divergence: ReplayDivergence?
  /// Recorded decisions that no longer applied.
  public var unapplied: [UnappliedDecision]
  /// The checker's findings on the replayed trace.
  public var findings: [Finding]

  /// Whether the app did exactly what the recording says.
  public var reproduces: Bool { divergence == nil }
}

/// Two replays of one recording that differ from each other: the app's code depends on
/// something the recording does not hold (the wall clock, a random number, thread
/// timing) rather than on the recorded inputs.
public struct Nondeterminism: Sendable, Hashable, CustomStringConvertible {
  /// The 1-based event number where the two replays split.
  public var eventNumber: Int
  /// The first replay's event there.
  public var first: String?
  /// The second replay's event there.
  public var second: String?

  /// Where the two replays split, with a hint at the usual causes.
  public var description: String {
    "the app is nondeterministic: two replays split at event \(eventNumber) ('\(first ?? "end of trace")' vs '\(second ?? "end of trace")'); read the wall clock, random numbers and I/O through RecordedInputs"
  }
}
