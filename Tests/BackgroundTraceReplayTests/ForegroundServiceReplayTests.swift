import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import Testing

/// Foreground services in a replay: a refusal is the recording's answer to the same
/// call, and the recorded `fgs.timeout` calls the service's `onTimeout` at its time.
@Suite struct ForegroundServiceReplayTests {
  /// A dataSync service that syncs for `sync` and stops, or stops in `onTimeout`.
  final class SyncingService: ForegroundService {
    let context: AsyncContext
    let sync: Duration
    init(context: AsyncContext, sync: Duration) {
      self.context = context
      self.sync = sync
    }

    func onStartCommand(_ control: ForegroundServiceControl) {
      guard (try? control.startForeground(type: .dataSync)) != nil else { return }
      let (context, sync) = (context, sync)
      context.run {
        try? await context.sleep(sync)
        control.stopSelf()
      }
    }

    func onTimeout(_ control: ForegroundServiceControl, type: ForegroundServiceType) { control.stopSelf() }
  }

  /// "sync" starts the service; a refused start is caught.
  final class App: BackgroundAppDelegate {
    let services: any ForegroundServices
    let context: AsyncContext
    init(services: any ForegroundServices, scheduler: VirtualTimeScheduler) {
      self.services = services
      self.context = AsyncContext(simulation: scheduler)
    }

    func perform(userAction action: String) {
      try? services.startForegroundService("sync", SyncingService(context: context, sync: .seconds(7 * 3600)))
    }
  }

  /// Recorded on Android 15: the user starts a 7-hour sync, which the system times out
  /// after 6 hours (the service stops in onTimeout); later, in the background, a second
  /// start is refused. The replay injects the timeout and answers the refusal.
  @Test func theTimeoutAndTheRefusalReplay() {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(15)
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launchApp { App(services: $0, scheduler: $0.scheduler) }
    system.advance(by: .seconds(1))
    system.userAction("sync")
    system.advance(by: .seconds(4))
    system.moveToBackground()
    system.advance(by: .seconds(6 * 3600))
    system.userAction("sync")
    system.advance(by: .seconds(60))
    let recorded = system.trace
    #expect(
      recorded.events.map(TextTraceWriter.line(for:)).filter { $0.contains(" fgs.") } == [
        "1 fgs.start service=sync", "1 fgs.foreground service=sync type=dataSync",
        "21601 fgs.timeout service=sync type=dataSync", "21601 fgs.stop service=sync", "21605 fgs.start service=sync",
        "21605 fgs.refuse service=sync reason=background",
      ])
    #expect(TraceChecker.check(recorded).map(\.rule) == [.fgsStartedInBackground])
    for timing in [Replayer.Timing.order, .exact] {
      let result = Replayer.replay(recorded, timing: timing) { App(services: $0, scheduler: $0.scheduler) }
      #expect(result.divergence == nil, "\(timing): \(String(describing: result.divergence))")
      #expect(result.unapplied.isEmpty)
      #expect(result.trace.events == recorded.events)
    }
  }
}
