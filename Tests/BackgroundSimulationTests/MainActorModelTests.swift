import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import Testing

/// Main-actor app code runs under the simulation's control when the configuration says
/// so: work sent to the main actor runs at the virtual instant it was sent, in order,
/// in the simulation and in the replay (docs/platform-model.md#main-actor-code).
@Suite struct MainActorModelTests {
  /// A view model, as UIKit apps write them: main-actor state.
  @MainActor final class NoteViewModel {
    var status = "editing"
    var log: [String] = []
  }

  /// Saves a note in a background task; the save's steps report to the main-actor view
  /// model (`await MainActor.run`), and the expiration handler hops to the main actor to
  /// end the task (`Task { @MainActor in … }`), as one of the ported samples does.
  final class NoteSaver: BackgroundAppDelegate, @unchecked Sendable {
    let host: any BackgroundTaskHost
    let context: AsyncContext
    let model: NoteViewModel
    let saveTakes: Duration

    /// The virtual time, as the main-actor steps read it.
    let now: @Sendable () -> TraceTime

    init(
      host: any BackgroundTaskHost, context: AsyncContext, model: NoteViewModel, saveTakes: Duration,
      now: @escaping @Sendable () -> TraceTime
    ) {
      self.now = now
      self.host = host
      self.context = context
      self.model = model
      self.saveTakes = saveTakes
    }

    func didEnterBackground() {
      let (host, model, now) = (host, model, now)
      let task = TaskBox()
      task.id = host.beginBackgroundTask(withName: "SaveNote") {
        Task { @MainActor in
          model.status = "expired"
          model.log.append("expired at \(now())")
          host.endBackgroundTask(task.id)
        }
      }
      let (sleep, saveTakes) = (context.sleep, saveTakes)
      context.run {
        await MainActor.run { model.log.append("saving at \(now())") }
        try? await sleep(saveTakes)
        let ended = await MainActor.run {
          model.log.append("saved at \(now())")
          guard model.status != "expired" else { return false }
          model.status = "saved"
          return true
        }
        if ended { host.endBackgroundTask(task.id) }
      }
    }
  }

  final class TaskBox: @unchecked Sendable {
    var id = BackgroundTaskID.invalid
  }

  private func simulate(saveTakes: Duration) async -> (trace: RecordedTrace, log: [String]) {
    var configuration = SimulationConfiguration()
    configuration.drivesMainActor = true
    let system = SimulatedSystem(seed: 5, configuration: configuration)
    let model = NoteViewModel()
    system.launchApp {
      NoteSaver(
        host: $0, context: AsyncContext(simulation: $0.scheduler), model: model, saveTakes: saveTakes,
        now: { system.now })
    }
    system.advance(by: .seconds(1))
    system.moveToBackground()
    system.advance(by: .seconds(60))
    return (system.trace, await model.log)
  }

  @Test func mainActorStepsRunAtTheirVirtualInstant() async {
    let (trace, log) = await simulate(saveTakes: .seconds(5))
    #expect(log == ["saving at 1", "saved at 6"])
    #expect(trace.events(.taskEnd).map(\.time) == [TraceTime(seconds: 6)])
    #expect(trace.findings().isEmpty)
  }

  @Test func aMainActorExpirationHandlerEndsTheTaskAtTheExpiration() async {
    let (trace, log) = await simulate(saveTakes: .seconds(45))
    #expect(log == ["saving at 1", "expired at 30"])  // suspended once the task ended: the save never resumes
    #expect(trace.events(.taskExpire).map(\.time) == [TraceTime(seconds: 30)])
    #expect(trace.events(.taskEnd).map(\.time) == [TraceTime(seconds: 30)])
    #expect(trace.findings().isEmpty)
  }

  @Test func theSameRunTwentyTimesAndItsReplayAgree() async {
    let (first, _) = await simulate(saveTakes: .seconds(45))
    for _ in 0..<20 {
      let (again, log) = await simulate(saveTakes: .seconds(45))
      #expect(again.text == first.text)
      #expect(log == ["saving at 1", "expired at 30"])
    }
    let model = NoteViewModel()
    let result = Replayer.replay(first, timing: .exact, drivesMainActor: true) { platform in
      NoteSaver(
        host: platform, context: AsyncContext(simulation: platform.scheduler), model: model, saveTakes: .seconds(45),
        now: { platform.scheduler.now })
    }
    #expect(result.divergence == nil, "\(String(describing: result.divergence))")
    #expect(result.trace.text == first.text)
    #expect(await model.log == ["saving at 1", "expired at 30"])
  }
}
