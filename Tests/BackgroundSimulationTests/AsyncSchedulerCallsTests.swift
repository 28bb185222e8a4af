import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceReplay
import Testing

/// Registers `refresh` at each launch and completes each run; notes what
/// `pendingTaskRequests()` answered after its submit and in each run.
private final class PendingApp: BackgroundAppDelegate {
  let scheduler: any TaskScheduling
  let pending: (any TaskScheduling) -> [TaskRequest]
  var answers: [[String]] = []

  init(scheduler: any TaskScheduling, pending: @escaping (any TaskScheduling) -> [TaskRequest]) {
    self.scheduler = scheduler
    self.pending = pending
  }

  func didFinishLaunching() {
    scheduler.register(forTaskWithIdentifier: "refresh", using: nil) { [self] task in
      answers.append(pending(scheduler).map(\.identifier))
      task.setTaskCompleted(success: true)
    }
  }

  func perform(userAction action: String) {
    try? scheduler.submit(.refresh("refresh", earliestBeginDelay: .seconds(100)))
    answers.append(pending(scheduler).map(\.identifier))
  }
}

/// `pendingTaskRequests() async` and iOS 27's `submitTaskRequest(_:) async throws`
/// through the protocol, the tracing wrapper, the simulation and a replay.
@Suite struct AsyncSchedulerCallsTests {
  @Test func theTracingWrapperRecordsAnAsyncSubmitAsASubmit() async throws {
    var configuration = SimulationConfiguration()
    configuration.permittedIdentifiers = ["refresh"]
    let system = SimulatedSystem(seed: 5, configuration: configuration)
    let recorder = TraceRecorder(clock: system.clock)
    let scheduler: any TaskScheduling = TracingTaskScheduler(base: system, recorder: recorder)
    system.launch { _ in scheduler.register(forTaskWithIdentifier: "refresh", using: nil) { _ in } }
    try await scheduler.submitTaskRequest(.refresh("refresh", earliestBeginDelay: .seconds(60)))
    await #expect(throws: TaskSchedulerError(.notPermitted)) {
      try await scheduler.submitTaskRequest(.refresh("other"))
    }
    #expect(await scheduler.pendingTaskRequests() == [.refresh("refresh", earliestBeginDelay: .seconds(60))])
    #expect(
      recorder.trace.events.map(TextTraceWriter.line(for:)) == [
        "0 sched.register ident=refresh", "0 sched.submit ident=refresh type=refresh earliest=60",
        "0 sched.submit ident=other type=refresh", "0 sched.reject ident=other error=notPermitted",
      ])
  }

  /// A replay answers `pendingTaskRequests()` with what the app submitted there and the
  /// recording has neither rejected nor launched, as the simulation did.
  @Test func aReplayAnswersPendingRequestsAsTheRecordedRunSawThem() {
    var configuration = SimulationConfiguration()
    configuration.launchPolicy = .immediate
    let system = SimulatedSystem(seed: 5, configuration: configuration)
    system.launchApp { PendingApp(scheduler: $0) { ($0 as? SimulatedSystem)?.pendingTaskRequests() ?? [] } }
    system.userAction("submit")
    let recordedAnswers = system.app(as: PendingApp.self)?.answers
    system.moveToBackground()
    system.advance(by: .seconds(200))
    #expect(recordedAnswers == [["refresh"]])

    var replayed: PendingApp?
    let result = Replayer.replay(system.trace) { platform in
      let app = PendingApp(scheduler: platform) { ($0 as? ReplayPlatform)?.pendingTaskRequests() ?? [] }
      replayed = app
      return app
    }
    #expect(result.divergence == nil)
    #expect(replayed?.answers == [["refresh"], []])
  }
}
