public import BackgroundSimulation
public import BackgroundTrace
public import BackgroundTraceCheck

/// A scenario to explore: a closure that drives a ``/BackgroundSimulation/SimulatedSystem`` with timing drawn
/// from its run's ``/BackgroundSimulation/Choices`` (docs/guides/exploration.md).
///
/// ```swift
/// let scenario = ExplorationScenario("save") { run in
///   let system = run.makeSystem()
///   system.launch { _ in }
///   system.advance(by: run.choices.duration(in: .zero ... .seconds(10)))
///   system.moveToBackground()
/// }
/// ```
public struct ExplorationScenario: Sendable {
  /// The scenario's name, as `bgtrace explore` lists it.
  public let name: String
  /// One line saying what it does.
  public let summary: String
  let body: @Sendable (ExplorationRun) -> Void

  /// Creates a scenario.
  ///
  /// - Parameters:
  ///   - name: its name (letters, digits and `-`, so it can name a file).
  ///   - summary: one line saying what it does.
  ///   - body: drives the system; it creates it with ``ExplorationRun/makeSystem(configuration:faults:meta:)``
  ///     and draws every time, duration and decision from ``ExplorationRun/choices``.
  public init(_ name: String, summary: String = "", _ body: @escaping @Sendable (ExplorationRun) -> Void) {
    self.name = name
    self.summary = summary
    self.body = body
  }

  /// Runs the scenario once on `choices` and checks its trace.
  ///
  /// - Parameters:
  ///   - choices: the stream to draw from: ``/BackgroundSimulation/Choices/init(seed:)`` for a fresh run,
  ///     ``/BackgroundSimulation/Choices/init(replaying:seed:)`` to reproduce one.
  ///   - checker: the checker's configuration.
  ///   - strict: whether warnings fail the run too.
  /// - Returns: the run's trace, its choices and what failed.
  public func run(
    _ choices: Choices, checker: CheckerConfiguration = CheckerConfiguration(), strict: Bool = false
  ) -> ExplorationRunResult {
    let run = ExplorationRun(choices: choices, scenario: name)
    body(run)
    let trace = run.system?.trace ?? RecordedTrace(meta: TraceMetadata(), events: [])
    var failures: [ExplorationFailureKind: String] = [:]
    for finding in TraceChecker.check(trace, configuration: checker)
    where strict || finding.severity == .error {
      failures[.rule(finding.rule)] = failures[.rule(finding.rule)] ?? finding.message
    }
    if let message = run.assertionFailures.first { failures[.assertion] = message }
    return ExplorationRunResult(seed: choices.seed, choices: choices.recorded, trace: trace, failures: failures)
  }

  /// Runs the scenario on a recorded choice sequence, as a reproduction line says.
  public func replay(
    choices: [UInt64], seed: UInt64 = 0, checker: CheckerConfiguration = CheckerConfiguration(), strict: Bool = false
  ) -> ExplorationRunResult {
    run(Choices(replaying: choices, seed: seed), checker: checker, strict: strict)
  }
}

/// One run of a scenario: its choice stream, the system it drives, and the assertions
/// of the test's own that failed.
public final class ExplorationRun: @unchecked Sendable {
  /// The stream every timing decision of the run draws from.
  public let choices: Choices
  /// The scenario's name, recorded as `meta explore=`.
  public let scenario: String
  /// The system the scenario created.
  public private(set) var system: SimulatedSystem?
  /// The messages of the failed ``expect(_:_:)`` calls, in order.
  public private(set) var assertionFailures: [String] = []

  init(choices: Choices, scenario: String) {
    self.choices = choices
    self.scenario = scenario
  }

  /// Creates the run's system, drawing its random decisions from ``choices``. Call it
  /// once; the run checks its trace.
  public func makeSystem(
    configuration: SimulationConfiguration = SimulationConfiguration(), faults: FaultPlan = .none,
    meta: TraceMetadata = TraceMetadata()
  ) -> SimulatedSystem {
    var meta = meta
    meta["explore"] = meta["explore"] ?? scenario
    let system = SimulatedSystem(choices: choices, configuration: configuration, faults: faults, meta: meta)
    self.system = system
    return system
  }

  /// An assertion of the test's own: when `condition` is false the run fails (as
  /// `assertion`), besides whatever the checker finds.
  public func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { assertionFailures.append(message()) }
  }
}

/// What made a run fail: a checker rule, or an assertion of the test's own.
public enum ExplorationFailureKind: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The checker found this rule.
  case rule(Rule)
  /// An ``ExplorationRun/expect(_:_:)`` failed.
  case assertion

  /// The rule's id, or `assertion`.
  public var description: String {
    switch self {
    case .rule(let rule): rule.id
    case .assertion: "assertion"
    }
  }

  /// Rules in the order ``/BackgroundTraceCheck/Rule`` declares them, then assertions.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.order < rhs.order }

  private var order: Int {
    switch self {
    case .rule(let rule): Rule.allCases.firstIndex(of: rule) ?? 0
    case .assertion: Rule.allCases.count
    }
  }
}

/// One run's outcome.
public struct ExplorationRunResult: Sendable {
  /// The seed of the run's choices.
  public var seed: UInt64
  /// The choices the run drew, which replay it exactly.
  public var choices: [UInt64]
  /// The trace it recorded.
  public var trace: RecordedTrace
  /// What failed, with the first message of each kind.
  public var failures: [ExplorationFailureKind: String]
}
