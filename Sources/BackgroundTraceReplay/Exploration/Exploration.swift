import BackgroundSimulation
import BackgroundTrace
public import BackgroundTraceCheck
import Dispatch
import Foundation
import Synchronization

/// Explores a scenario under many seeds, groups the failing runs by what failed, and
/// shrinks the first failing run of each group to a minimal one (docs/guides/exploration.md).
///
/// ```swift
/// let report = Exploration(runs: 1_000).explore(scenario)
/// for failure in report.failures { print(failure.line(path: "…")) }
/// ```
///
/// Run `n` (from 0) draws its choices from the seed `seed + n`. Runs are independent
/// (one ``/BackgroundSimulation/SimulatedSystem`` each) and run on all cores; the report depends only on the
/// seeds, never on thread scheduling: each group's representative is its failing run with
/// the lowest seed, and shrinking is deterministic.
public struct Exploration: Sendable {
  /// How many runs (before sharding).
  public var runs: Int
  /// The seed of run 0.
  public var seed: UInt64
  /// Which of the runs this job explores.
  public var shard: ExplorationShard
  /// The checker's configuration.
  public var checker: CheckerConfiguration
  /// Whether the checker's warnings fail a run too (errors always do).
  public var strict: Bool
  /// The most candidate runs shrinking one failure may replay.
  public var maximumShrinkAttempts: Int
  /// How many runs may go at once; `nil` uses every core.
  public var parallelism: Int?

  /// Creates an exploration.
  public init(
    runs: Int = 1_000, seed: UInt64 = 0, shard: ExplorationShard = .all,
    checker: CheckerConfiguration = CheckerConfiguration(), strict: Bool = false, maximumShrinkAttempts: Int = 5_000,
    parallelism: Int? = nil
  ) {
    self.runs = runs
    self.seed = seed
    self.shard = shard
    self.checker = checker
    self.strict = strict
    self.maximumShrinkAttempts = maximumShrinkAttempts
    self.parallelism = parallelism
  }

  /// The seeds this job runs, in order.
  public var seeds: [UInt64] {
    (0..<max(runs, 0)).filter(shard.contains(run:)).map { seed &+ UInt64($0) }
  }

  /// Runs the scenario under every seed of the shard and shrinks each distinct failure.
  public func explore(_ scenario: ExplorationScenario) -> ExplorationReport {
    let seeds = seeds
    let outcomes = Self.parallelMap(seeds, parallelism: parallelism) { seed in
      let result = scenario.run(Choices(seed: seed), checker: checker, strict: strict)
      return RunSummary(kinds: Set(result.failures.keys), events: result.trace.events.count)
    }
    var firstSeed: [ExplorationFailureKind: UInt64] = [:]
    var failingRuns: [ExplorationFailureKind: [UInt64]] = [:]
    for (seed, outcome) in zip(seeds, outcomes) {
      for kind in outcome.kinds {
        if firstSeed[kind] == nil { firstSeed[kind] = seed }
        failingRuns[kind, default: []].append(seed)
      }
    }
    let groups = firstSeed.keys.sorted().map { kind in (kind, firstSeed[kind]!, failingRuns[kind]!) }
    let failures = Self.parallelMap(groups, parallelism: parallelism) { kind, seed, failingSeeds in
      shrink(scenario, seed: seed, kind: kind, failingSeeds: failingSeeds)
    }
    return ExplorationReport(scenario: scenario.name, seeds: seeds, failures: failures)
  }

  /// Shrinks the run of `seed`, keeping `kind` failing.
  func shrink(
    _ scenario: ExplorationScenario, seed: UInt64, kind: ExplorationFailureKind, failingSeeds: [UInt64]
  ) -> ExplorationFailure {
    let original = scenario.run(Choices(seed: seed), checker: checker, strict: strict)
    var shrinker = Shrinker(
      choices: original.choices, events: original.trace.events.count, maximumAttempts: maximumShrinkAttempts
    ) { candidate in
      let result = scenario.replay(choices: candidate, seed: seed, checker: checker, strict: strict)
      guard result.failures[kind] != nil else { return nil }
      return Shrinker.Attempt(choices: result.choices, events: result.trace.events.count)
    }
    shrinker.shrink()
    let minimal = scenario.replay(choices: shrinker.best, seed: seed, checker: checker, strict: strict)
    return ExplorationFailure(
      scenario: scenario.name, kind: kind, seed: seed, failingSeeds: failingSeeds, originalChoices: original.choices,
      originalTrace: original.trace, choices: minimal.choices, trace: minimal.trace,
      message: minimal.failures[kind] ?? "", shrinkAttempts: shrinker.attempts)
  }

  private struct RunSummary: Sendable {
    var kinds: Set<ExplorationFailureKind>
    var events: Int
  }

  /// `transform` applied to each element on up to `parallelism` threads, results in
  /// the elements' order whatever order the threads finish in.
  static func parallelMap<Element: Sendable, Result: Sendable>(
    _ elements: [Element], parallelism: Int?, _ transform: @Sendable (Element) -> Result
  ) -> [Result] {
    guard !elements.isEmpty else { return [] }
    let workers = min(max(parallelism ?? defaultParallelism, 1), elements.count)
    let slots = Mutex<[Result?]>(Array(repeating: nil, count: elements.count))
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      while true {
        let index = next.add(1, ordering: .relaxed).oldValue
        guard index < elements.count else { return }
        let result = transform(elements[index])
        slots.withLock { $0[index] = result }
      }
    }
    return slots.withLock { $0.map { $0! } }
  }

  private static var defaultParallelism: Int { max(ProcessInfo.processInfo.activeProcessorCount, 1) }
}
