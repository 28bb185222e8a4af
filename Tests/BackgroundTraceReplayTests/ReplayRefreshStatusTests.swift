import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceReplay
import Testing

/// A replay takes Background App Refresh's setting from the recorded
/// `input key=system.backgroundRefreshStatus` (what `UIKitBackgroundTaskHost
/// .recordBackgroundRefreshStatus(in:)` records on a device): with it `denied` or
/// `restricted`, a refresh or processing submission the recording did not answer is
/// rejected `unavailable`, as `SimulatedSystem` rejects it with `backgroundRefreshEnabled`
/// off. Apple, BGTaskScheduler.Error.Code.unavailable
/// (https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/code/unavailable):
/// "The user has disabled background refresh in settings"; BackgroundTasks.framework's
/// BGTaskScheduler.h (iOS 26.0 SDK): `BGTaskSchedulerErrorCodeUnavailable` — "The user has
/// disabled background refresh in settings".
@Suite struct ReplayRefreshStatusTests {
  /// Schedules its refresh at launch, and (the new code under replay) a processing
  /// cleanup after it, whether or not the refresh was accepted.
  final class SchedulingApp: BackgroundAppDelegate {
    let scheduler: any TaskScheduling
    var rejections: [SchedulerRejection] = []
    init(scheduler: any TaskScheduling) {
      self.scheduler = scheduler
    }
    func didFinishLaunching() {
      for request in [TaskRequest.refresh("com.example.refresh"), .processing("com.example.cleanup")] {
        do {
          try scheduler.submit(request)
        } catch {
          rejections.append(error.code)
        }
      }
    }
  }

  /// A device trace, written by hand as the adapters record it: the status at launch,
  /// then the refresh's submission and its rejection.
  static func deviceTrace(status: String, rejected: Bool) -> String {
    """
    bgtrace 1
    0 app.launch
    0 input key=system.backgroundRefreshStatus value=\(status)
    0.25 sched.submit ident=com.example.refresh type=refresh
    \(rejected ? "0.25 sched.reject ident=com.example.refresh error=unavailable\n" : "")
    """
  }

  @Test(arguments: ["denied", "restricted"])
  func withRefreshOffTheReplayRejectsWhatTheRecordingDidNotAnswer(status: String) throws {
    let recorded = try RecordedTrace(text: Self.deviceTrace(status: status, rejected: true))
    var app: SchedulingApp?
    let result = Replayer.replay(recorded) { platform in
      let made = SchedulingApp(scheduler: platform)
      app = made
      return made
    }
    #expect(app?.rejections == [.unavailable, .unavailable])
    // The setting is in the replay's trace too, at its recorded time.
    #expect(
      result.trace.events.first { if case .input = $0.kind { true } else { false } }
        == TraceEvent(time: .zero, .input(key: "system.backgroundRefreshStatus", value: status)))
    #expect(
      result.trace.events.map(\.kind).filter { if case .schedReject = $0 { true } else { false } } == [
        .schedReject(identifier: "com.example.refresh", error: .unavailable),
        .schedReject(identifier: "com.example.cleanup", error: .unavailable),
      ])
  }

  @Test func withRefreshAvailableTheNewSubmissionIsAccepted() throws {
    let recorded = try RecordedTrace(text: Self.deviceTrace(status: "available", rejected: false))
    var app: SchedulingApp?
    let result = Replayer.replay(recorded) { platform in
      let made = SchedulingApp(scheduler: platform)
      app = made
      return made
    }
    #expect(app?.rejections == [])
    #expect(!result.trace.events.contains { if case .schedReject = $0.kind { true } else { false } })
  }

  /// A recorded answer to the same request wins over the setting: the user may have
  /// turned refresh back on without a new status being recorded.
  @Test func aRecordedAcceptanceWinsOverTheSetting() throws {
    let recorded = try RecordedTrace(text: Self.deviceTrace(status: "denied", rejected: false))
    var app: SchedulingApp?
    _ = Replayer.replay(recorded) { platform in
      let made = SchedulingApp(scheduler: platform)
      app = made
      return made
    }
    #expect(app?.rejections == [.unavailable])
  }
}
