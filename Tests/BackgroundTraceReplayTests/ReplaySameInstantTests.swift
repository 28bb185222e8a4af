import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import Testing

/// A system decision recorded right after an app action at the same instant is
/// replayed after it too, however the app's timers were set. Each app below reaches its
/// action through two sleeps, so its last timer is set after the decision's; the
/// replay still applies the app's action first.
@Suite struct ReplaySameInstantTests {
  /// The everyday iOS case: the last task ends and the app is suspended at once.
  @Test func endThenSuspendAtTheSameInstant() throws {
    let recorded = try RecordedTrace(
      text: """
        bgtrace 1
        0 app.launch
        0 app.state to=active
        2 app.state to=background
        2 task.begin id=1 name=Upload
        8 task.end id=1
        8 app.state to=suspended

        """)
    for timing in [Replayer.Timing.order, .exact] {
      let result = Replayer.replay(recorded, timing: timing) { platform in
        ScriptedApp(platform) { app in
          let id = platform.beginBackgroundTask(withName: "Upload", expirationHandler: nil)
          app.afterTwoSleeps(of: .seconds(3)) { platform.endBackgroundTask(id) }
        }
      }
      #expect(result.divergence == nil, "\(timing): \(String(describing: result.divergence))")
      #expect(result.unapplied.isEmpty)
      #expect(result.findings.isEmpty)
      #expect(result.trace.text == recorded.text)
    }
  }

  /// The other way round: the decision was recorded first at its instant, and the app
  /// timer due then was set long before the decision's (at launch).
  @Test func decisionThenAppTimerAtTheSameInstant() throws {
    let recorded = try RecordedTrace(
      text: """
        bgtrace 1
        0 app.launch
        0 app.state to=active
        5 app.state to=background
        5 task.begin id=1 name=Save
        5 task.end id=1

        """)
    let result = Replayer.replay(recorded, timing: .exact) { platform in
      ScriptedApp(
        platform,
        onLaunch: { app in
          app.afterSleeping(.seconds(5)) {
            platform.endBackgroundTask(platform.beginBackgroundTask(withName: "Save", expirationHandler: nil))
          }
        })
    }
    #expect(result.divergence == nil, "\(String(describing: result.divergence))")
    #expect(result.trace.text == recorded.text)
  }

  /// One task ends at the instant another one's expiration arrives.
  @Test func endThenExpireAtTheSameInstant() throws {
    let recorded = try RecordedTrace(
      text: """
        bgtrace 1
        0 app.launch
        0 app.state to=active
        1 app.state to=background
        1 task.begin id=1 name=Short
        1 task.begin id=2 name=Long
        29 task.end id=1
        29 task.expire id=2
        29 task.end id=2

        """)
    let result = Replayer.replay(recorded, timing: .exact) { platform in
      ScriptedApp(platform) { app in
        let short = platform.beginBackgroundTask(withName: "Short", expirationHandler: nil)
        let long = Box<BackgroundTaskID>()
        long.value = platform.beginBackgroundTask(withName: "Long") { platform.endBackgroundTask(long.value!) }
        app.afterTwoSleeps(of: .seconds(14)) { platform.endBackgroundTask(short) }
      }
    }
    #expect(result.divergence == nil, "\(String(describing: result.divergence))")
    #expect(result.trace.text == recorded.text)
  }

  /// A launched scheduler task completes and the app is suspended at the same instant.
  @Test func completeThenSuspendAtTheSameInstant() throws {
    let recorded = try RecordedTrace(
      text: """
        bgtrace 1
        0 app.launch
        0 sched.register ident=refresh
        0 app.state to=background
        0 sched.launch ident=refresh run=1
        6 sched.complete run=1 success=true
        6 app.state to=suspended

        """)
    let result = Replayer.replay(recorded, timing: .exact) { platform in
      ScriptedApp(
        platform,
        onLaunch: { app in
          platform.register(forTaskWithIdentifier: "refresh", using: nil) { task in
            app.afterTwoSleeps(of: .seconds(3)) { task.setTaskCompleted(success: true) }
          }
        })
    }
    #expect(result.divergence == nil, "\(String(describing: result.divergence))")
    #expect(result.trace.text == recorded.text)
  }

  /// A worker's result and the start of another worker at the same instant.
  @Test func resultThenStartAtTheSameInstant() throws {
    let recorded = try RecordedTrace(
      text: """
        bgtrace 1
        0 app.launch
        0 work.enqueue work=a
        0 work.enqueue work=b
        2 work.start work=a attempt=0
        10 work.result work=a attempt=0 outcome=success
        10 work.start work=b attempt=0
        10 work.result work=b attempt=0 outcome=success

        """)
    let result = Replayer.replay(recorded, timing: .exact) { platform in
      ScriptedApp(
        platform,
        onLaunch: { _ in
          let clock = platform.clock
          try! platform.enqueue(
            WorkRequest(work: "a", worker: SleepingWorker(clock: clock, sleeps: [.seconds(4), .seconds(4)])),
            policy: nil)
          try! platform.enqueue(WorkRequest(work: "b", worker: SleepingWorker(clock: clock, sleeps: [])), policy: nil)
        })
    }
    #expect(result.divergence == nil, "\(String(describing: result.divergence))")
    #expect(result.trace.text == recorded.text)
  }
}

/// A reference a closure can fill in after it is created (the `var bgTask` pattern).
private final class Box<Value>: @unchecked Sendable {
  var value: Value?
}

/// An app whose launch and background callbacks are closures, with a method that runs
/// its last step after two sleeps on the virtual clock.
private final class ScriptedApp: BackgroundAppDelegate, @unchecked Sendable {
  let platform: ReplayPlatform
  let onLaunch: (ScriptedApp) -> Void
  let onBackground: (ScriptedApp) -> Void

  init(
    _ platform: ReplayPlatform, onLaunch: @escaping (ScriptedApp) -> Void = { _ in },
    onBackground: @escaping (ScriptedApp) -> Void = { _ in }
  ) {
    self.platform = platform
    self.onLaunch = onLaunch
    self.onBackground = onBackground
  }

  convenience init(_ platform: ReplayPlatform, onBackground: @escaping (ScriptedApp) -> Void) {
    self.init(platform, onLaunch: { _ in }, onBackground: onBackground)
  }

  func didFinishLaunching() { onLaunch(self) }
  func didEnterBackground() { onBackground(self) }

  /// Runs `step` after sleeping `each` twice on the replay's clock.
  func afterTwoSleeps(of each: Duration, _ step: @escaping @Sendable () -> Void) {
    afterSleeping([each, each], step)
  }

  /// Runs `step` after the given sleeps, one after another, on the replay's clock.
  func afterSleeping(_ sleeps: Duration..., step: @escaping @Sendable () -> Void) {
    afterSleeping(sleeps, step)
  }

  private func afterSleeping(_ sleeps: [Duration], _ step: @escaping @Sendable () -> Void) {
    let clock = platform.clock
    Task(executorPreference: platform.scheduler.executor) {
      for sleep in sleeps { try? await clock.sleep(for: sleep) }
      step()
    }
  }
}

/// A worker that sleeps on the virtual clock, then succeeds.
private struct SleepingWorker: BackgroundWorker {
  let clock: VirtualClock
  let sleeps: [Duration]

  func doWork(_ context: WorkContext) async -> WorkResult {
    for sleep in sleeps { try? await clock.sleep(for: sleep) }
    return .success
  }
}
