import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceReplay
import Testing

/// A replayed `enqueue(_:policy: .update)` does what the simulation did in the
/// recording (androidx `WorkerUpdater.enqueueUniquelyNamedPeriodic` and
/// `updateWorkImpl`): it changes the settings of the one request a name holds and
/// nothing else, refuses a name that holds a chain, and leaves finished work alone.
/// Each test records a run, then replays it against the same app with `.exact` timing.
/// Work starts 0.1 s after it is due.
@Suite struct ReplayedUpdateTests {
  private let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))

  /// Succeeds with `n` in its output.
  private struct Produces: BackgroundWorker {
    func doWork(_ context: WorkContext) async -> WorkResult { .success(["n": .int(1)]) }
  }

  /// Succeeds when its input holds `n`, else fails.
  private struct NeedsInput: BackgroundWorker {
    func doWork(_ context: WorkContext) async -> WorkResult { context.inputData["n"] == nil ? .failure : .success }
  }

  private func record(_ app: @escaping (any WorkQueue) -> UserActionApp, actions: [(Double, String)], until end: Double)
    -> [String]
  {
    system.launchApp { app($0) }
    for (time, action) in actions {
      system.advance(to: TraceTime(seconds: time))
      system.userAction(action)
    }
    system.advance(to: TraceTime(seconds: end))
    return system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") }
  }

  private func expectSameReplay(_ app: @escaping (any WorkQueue) -> UserActionApp) {
    let replay = Replayer.replay(system.trace, timing: .exact) { app($0) }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(replay.trace.events == system.trace.events)
  }

  /// An update of work that waits for another keeps what it waits for, and so the
  /// other's output in its input: androidx's update copies the WorkSpec's settings,
  /// and its dependencies are rows of their own (`WorkerUpdater.updateWorkImpl`).
  @Test func anUpdateKeepsWhatTheWorkWaitsFor() {
    func app(_ queue: any WorkQueue) -> UserActionApp {
      UserActionApp { action in
        if action == "enqueue" {
          try? queue.enqueue(WorkRequest(work: "produce", initialDelay: .seconds(10), worker: Produces()), policy: nil)
          try? queue.enqueue(WorkRequest(work: "consume", worker: NeedsInput()), after: ["produce"])
        } else {
          try? queue.enqueue(WorkRequest(work: "consume", tags: ["updated"], worker: NeedsInput()), policy: .update)
        }
      }
    }
    let lines = record(app, actions: [(0, "enqueue"), (1, "update")], until: 30)
    #expect(
      lines.filter { $0.contains(" work.result ") } == [
        "10.1 work.result work=produce attempt=0 outcome=success",
        "10.2 work.result work=consume attempt=0 outcome=success tags=updated",
      ])
    #expect(lines.contains { $0.hasPrefix("1 work.enqueue work=consume") && $0.contains("policy=update") })
    expectSameReplay(app)
  }

  /// An update of a name that holds a request appended behind another is refused, and
  /// nothing is recorded: androidx `enqueueUniquelyNamedPeriodic` fails with "Can't
  /// apply UPDATE policy to the chains of work." when the name holds more than one
  /// WorkSpec.
  @Test func anUpdateOfAChainIsRefused() {
    func app(_ queue: any WorkQueue) -> UserActionApp {
      UserActionApp { action in
        switch action {
        case "first":
          try? queue.enqueue(WorkRequest(work: "sync", initialDelay: .seconds(10), worker: Produces()), policy: .append)
        case "second":
          try? queue.enqueue(WorkRequest(work: "sync", worker: NeedsInput()), policy: .append)
        default:
          try? queue.enqueue(WorkRequest(work: "sync", worker: NeedsInput()), policy: .update)
        }
      }
    }
    let lines = record(app, actions: [(0, "first"), (1, "second"), (2, "update")], until: 30)
    #expect(!lines.contains { $0.contains("policy=update") })
    #expect(
      lines.filter { $0.contains(" work.result ") } == [
        "10.1 work.result work=sync attempt=0 outcome=success",
        "10.2 work.result work=sync attempt=0 outcome=success",
      ])
    expectSameReplay(app)
  }

  /// An update of one-time work that finished changes nothing and records nothing
  /// (androidx `updateWorkImpl` answers `NOT_APPLIED` for finished work).
  @Test func anUpdateOfFinishedWorkRecordsNothing() {
    func app(_ queue: any WorkQueue) -> UserActionApp {
      UserActionApp { action in
        try? queue.enqueue(WorkRequest(work: "sync", worker: Produces()), policy: action == "first" ? nil : .update)
      }
    }
    let lines = record(app, actions: [(0, "first"), (10, "update")], until: 20)
    #expect(!lines.contains { $0.contains("policy=update") })
    #expect(lines.filter { $0.contains(" work.result ") } == ["0.1 work.result work=sync attempt=0 outcome=success"])
    expectSameReplay(app)
  }
}
