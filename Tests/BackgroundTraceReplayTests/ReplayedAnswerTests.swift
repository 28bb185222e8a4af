import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceReplay
import Testing

/// Every answer the app reads from the system replays as the recorded run gave it,
/// faults included: under an early-expiration fault the replay answers
/// `backgroundTimeRemaining` with the 10 s the run had, not the trace's 30 s budget.
@Suite struct ReplayedAnswerTests {
  /// Uploads on entering the background only when there is time for it; otherwise ends
  /// its task at once (a common guard: `if application.backgroundTimeRemaining < 20`).
  final class CarefulUploader: BackgroundAppDelegate, @unchecked Sendable {
    let host: any BackgroundTaskHost
    let context: AsyncContext
    init(host: any BackgroundTaskHost, context: AsyncContext) {
      self.host = host
      self.context = context
    }

    func didEnterBackground() {
      let id = host.beginBackgroundTask(withName: "Upload", expirationHandler: nil)
      guard host.backgroundTimeRemaining >= 20 else {
        host.endBackgroundTask(id)
        return
      }
      let sleep = context.sleep
      context.run { [host] in
        try? await sleep(.seconds(15))
        host.endBackgroundTask(id)
      }
    }
  }

  @Test func anEarlyExpirationFaultReplaysItsShortBudget() throws {
    var faults = FaultPlan()
    faults.earlyExpiration = .seconds(20)
    let system = SimulatedSystem(seed: 11, faults: faults)
    system.launchApp { CarefulUploader(host: $0, context: AsyncContext(simulation: $0.scheduler)) }
    system.advance(by: .seconds(1))
    system.moveToBackground()
    system.advance(by: .seconds(30))
    let recorded = system.trace
    #expect(
      recorded.text.split(separator: "\n").filter { $0.contains("task.") || $0.contains("input") } == [
        "1 task.begin id=1 name=Upload",
        "1 input key=system.backgroundTimeRemaining value=10",
        "1 task.end id=1",
      ])

    let result = Replayer.replay(recorded, timing: .exact) {
      CarefulUploader(host: $0, context: AsyncContext(simulation: $0.scheduler))
    }
    #expect(result.divergence == nil, "\(String(describing: result.divergence))")
    #expect(result.trace.text == recorded.text)
  }

  @Test func theTracingWrapperRecordsTheAnswerItPassesOn() {
    let system = SimulatedSystem(seed: 1)
    let recorder = TraceRecorder()
    let host = TracingBackgroundTaskHost(base: system, recorder: recorder)
    system.launch { _ in }
    #expect(host.backgroundTimeRemaining == .greatestFiniteMagnitude)
    #expect(recorder.trace.events.map(\.kind) == [.input(key: "system.backgroundTimeRemaining", value: "foreground")])
  }
}
