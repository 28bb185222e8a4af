public import BackgroundTrace

/// What an exploration found: one ``ExplorationFailure`` per distinct kind of failure
/// (a checker rule, or the test's assertions), in ``ExplorationFailureKind`` order.
public struct ExplorationReport: Sendable {
  /// The scenario's name.
  public var scenario: String
  /// The seeds that ran, in order.
  public var seeds: [UInt64]
  /// Each distinct failure, shrunk.
  public var failures: [ExplorationFailure]

  /// Creates a report.
  public init(scenario: String, seeds: [UInt64], failures: [ExplorationFailure]) {
    self.scenario = scenario
    self.seeds = seeds
    self.failures = failures
  }

  /// Whether no run failed.
  public var isClean: Bool { failures.isEmpty }

  /// The reports of the shards of one exploration, merged into the report the whole
  /// exploration gives: every seed, and for each kind the failure with the lowest seed
  /// (shrinking depends only on the seed, so it is the one the whole run shrinks).
  public static func merging(_ reports: [ExplorationReport]) -> ExplorationReport {
    var byKind: [ExplorationFailureKind: ExplorationFailure] = [:]
    var failingSeeds: [ExplorationFailureKind: [UInt64]] = [:]
    for failure in reports.flatMap(\.failures) {
      failingSeeds[failure.kind, default: []].append(contentsOf: failure.failingSeeds)
      if let kept = byKind[failure.kind], kept.seed <= failure.seed { continue }
      byKind[failure.kind] = failure
    }
    let failures = byKind.keys.sorted().map { kind in
      var failure = byKind[kind]!
      failure.failingSeeds = failingSeeds[kind]!.sorted()
      return failure
    }
    return ExplorationReport(
      scenario: reports.first?.scenario ?? "", seeds: reports.flatMap(\.seeds).sorted(), failures: failures)
  }
}

/// One distinct failure: the first run that failed this way, and its shrunk form.
public struct ExplorationFailure: Sendable {
  /// The scenario's name.
  public var scenario: String
  /// What failed.
  public var kind: ExplorationFailureKind
  /// The seed of the first run that failed this way.
  public var seed: UInt64
  /// Every seed whose run failed this way, in order.
  public var failingSeeds: [UInt64]
  /// The failing run's choices.
  public var originalChoices: [UInt64]
  /// The failing run's trace.
  public var originalTrace: RecordedTrace
  /// The minimal choices: replaying them fails the same way.
  public var choices: [UInt64]
  /// The minimal trace.
  public var trace: RecordedTrace
  /// The first finding's message (or the assertion's) in the minimal trace.
  public var message: String
  /// How many candidate runs shrinking replayed.
  public var shrinkAttempts: Int

  /// The minimal trace's text, with `meta choices=` added so the file says how to
  /// reproduce it.
  public var minimalTraceText: String {
    var meta = trace.meta
    meta["choices"] = choices.map(String.init).joined(separator: ",")
    return RecordedTrace(meta: meta, events: trace.events).text
  }

  /// The Swift line that reproduces the minimal run, called on the scenario its comment
  /// names: `scenario.replay(choices: [0, 28000, 0], seed: 1)  // scenario "save"`. A
  /// scenario's name need not be a Swift identifier (`document-save`), so the line calls
  /// it `scenario`, as the test's own variable holding it is to be named.
  public var reproduction: String {
    let list = choices.map(String.init).joined(separator: ", ")
    return "scenario.replay(choices: [\(list)], seed: \(seed))  // scenario \"\(scenario)\""
  }

  /// `RULE: seed S, shrunk from A events to B events: PATH` (``headline``), as
  /// `bgtrace explore` prints it.
  public func line(path: String) -> String {
    "\(headline): \(path)"
  }

  /// `RULE: seed S, shrunk from A events to B events`, or `RULE: seed S, could not shrink
  /// its A events` when no smaller run fails the same way: how `bgtrace explore` and
  /// `expectNoTimingBugs` name the failure.
  public var headline: String {
    let original = originalTrace.events.count
    let minimal = trace.events.count
    let shrinking =
      minimal < original
      ? "shrunk from \(original) events to \(minimal) events" : "could not shrink its \(original) events"
    return "\(kind): seed \(seed), \(shrinking)"
  }

  /// The file name the minimal trace is written under: `SCENARIO.RULE.seedS.txt`. The seed
  /// decides the content, so shards writing to one directory never clash.
  public var fileName: String { "\(scenario).\(kind).seed\(seed).txt" }
}
