import BackgroundSimulation
import BackgroundTrace
import Testing

/// When the simulated BGTaskScheduler launches, and for how long: the realistic default
/// against Apple's documents, and the immediate policy that tests opt into
/// (docs/platform-model.md, "BGTaskScheduler").
@Suite struct LaunchPolicyTests {
  /// An app that registers `refresh` and `process`, completes every run when `completes`
  /// and otherwise only sets an expiration handler that completes it.
  final class App: BackgroundAppDelegate {
    let scheduler: any TaskScheduling
    let completes: Bool
    init(scheduler: any TaskScheduling, completes: Bool = true) {
      self.scheduler = scheduler
      self.completes = completes
    }
    func didFinishLaunching() {
      for identifier in ["refresh", "process"] {
        scheduler.register(forTaskWithIdentifier: identifier, using: nil) { [completes] task in
          if completes {
            task.setTaskCompleted(success: true)
          } else {
            task.expirationHandler = { task.setTaskCompleted(success: false) }
          }
        }
      }
    }
  }

  /// (time, line) of every `sched.launch` and `sched.expire`.
  private func runs(_ system: SimulatedSystem) -> [(time: TraceTime, kind: TraceEvent.Kind)] {
    system.trace.events.compactMap { event in
      switch event.kind {
      case .schedLaunch, .schedExpire: (event.time, event.kind)
      default: nil
      }
    }
  }

  /// Apple, *Starting and Terminating Tasks During Development*: "The delay between the
  /// time you schedule a background task and when the system launches your app to run
  /// the task can be many hours." The default waits 15 min to 8 h past the earliest
  /// date — over many seeds, never sooner and never later — and not always the same.
  @Test func byDefaultARefreshLaunchesMinutesToHoursAfterItsEarliestDate() throws {
    var delays: Set<Int64> = []
    for seed in UInt64(1)...40 {
      let system = SimulatedSystem(seed: seed)
      system.launchApp { App(scheduler: $0) }
      try system.submit(.refresh("refresh", earliestBeginDelay: .seconds(600)))
      system.moveToBackground()
      system.advance(by: .seconds(10 * 3600))
      let launches = runs(system).filter { if case .schedLaunch = $0.kind { true } else { false } }
      try #require(launches.count == 1, "seed \(seed)")
      let delay = launches[0].time.interval(since: TraceTime(seconds: 600))
      #expect(delay >= TraceInterval(seconds: 900) && delay <= TraceInterval(seconds: 8 * 3600), "seed \(seed)")
      delays.insert(Int64(delay.seconds))
    }
    #expect(delays.count > 20)
  }

  /// Apple Developer Forums: refresh runs get up to 30 s and are often cut to a few
  /// seconds. The default draws 5 to 30 s per run; the expiration is the run's end.
  @Test func byDefaultARefreshRunGetsFiveToThirtySeconds() throws {
    var runtimes: Set<Int64> = []
    for seed in UInt64(1)...40 {
      let system = SimulatedSystem(seed: seed)
      system.launchApp { App(scheduler: $0, completes: false) }
      try system.submit(.refresh("refresh"))
      system.moveToBackground()
      system.advance(by: .seconds(10 * 3600))
      let times = runs(system).map(\.time)
      try #require(times.count == 2, "seed \(seed)")
      let runtime = times[1].interval(since: times[0])
      #expect(runtime >= TraceInterval(seconds: 5) && runtime <= TraceInterval(seconds: 30), "seed \(seed)")
      runtimes.insert(Int64(runtime.seconds))
    }
    #expect(runtimes.count > 10)
  }

  /// Apple, `BGProcessingTask`: "Processing tasks run only when the device is idle." A
  /// processing request that does not require external power still waits for the
  /// charger (the model's idle device).
  @Test func byDefaultAProcessingTaskWaitsForAnIdleDevice() throws {
    let system = SimulatedSystem(seed: 3)
    system.launchApp { App(scheduler: $0) }
    try system.submit(.processing("process"))
    system.moveToBackground()
    system.advance(by: .seconds(72 * 3600))
    #expect(runs(system).isEmpty)
    system.setEnvironment(charging: true)
    let plugged = system.now
    system.advance(by: .seconds(72 * 3600))
    // Its delay (at most 48 h) ran out while the device was busy: it launches as soon
    // as the device is idle.
    let launched = try #require(runs(system).first)
    #expect(launched.time == plugged)
  }

  /// Apple, `BGProcessingTask`: "The system terminates any background processing tasks
  /// running when the user starts using the device." Opening the app, or unplugging
  /// the charger, 20 s into a run launched on entering the background, expires it at
  /// once rather than after its 3 minutes.
  @Test(arguments: ["opens the app", "unplugs the charger"])
  func aProcessingRunExpiresWhenTheUserTakesTheDevice(_ user: String) throws {
    var configuration = SimulationConfiguration()
    configuration.charging = true
    configuration.launchPolicy.processingDelay = .zero ... .zero
    let system = SimulatedSystem(seed: 3, configuration: configuration)
    system.launchApp { App(scheduler: $0, completes: false) }
    try system.submit(.processing("process"))
    system.moveToBackground()
    system.advance(by: .seconds(20))
    if user == "opens the app" { system.moveToForeground() } else { system.setEnvironment(charging: false) }
    system.advance(by: .seconds(600))
    #expect(runs(system).map(\.time) == [TraceTime(seconds: 0), TraceTime(seconds: 20)])
  }

  /// The opt-in for fast tests: launch at the earliest date with the full runtime, and
  /// processing tasks without waiting for the charger.
  @Test func theImmediatePolicyLaunchesAtTheEarliestDateWithTheFullRuntime() throws {
    var configuration = SimulationConfiguration()
    configuration.launchPolicy = .immediate
    let system = SimulatedSystem(seed: 3, configuration: configuration)
    system.launchApp { App(scheduler: $0, completes: false) }
    try system.submit(.refresh("refresh", earliestBeginDelay: .seconds(100)))
    try system.submit(.processing("process", earliestBeginDelay: .seconds(200)))
    system.moveToBackground()
    system.advance(by: .seconds(1000))
    #expect(
      runs(system).map { TextTraceWriter.line(for: TraceEvent(time: $0.time, $0.kind)) } == [
        "100 sched.launch ident=refresh run=1", "130 sched.expire run=1",
        "200 sched.launch ident=process run=2", "380 sched.expire run=2",
      ])
  }
}
