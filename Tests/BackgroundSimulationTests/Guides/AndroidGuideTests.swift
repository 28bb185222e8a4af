import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import BackgroundTraceTesting
import Testing

/// docs/guides/android.md: a WorkManager worker in Swift, its requests, an Android
/// simulation with its device state, the checker, WorkInfo, a golden and exploration.
@Suite struct AndroidGuideTests {
  /// Replays the guide's golden (`GoldenReplayTests`): the app enqueues at launch.
  static func app(on platform: ReplayPlatform) -> any BackgroundAppDelegate {
    NewsApp(queue: platform) { true }
  }

  @Test func theSyncsRunOnWiFiAndEverySixHours() throws {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.networkMetered = true  // on cellular data at first
    let system = SimulatedSystem(seed: 3, configuration: configuration)
    system.launchApp { system in NewsApp(queue: system) { true } }
    system.advance(to: TraceTime(seconds: 1800))
    system.setEnvironment(metered: false)  // home Wi-Fi
    system.advance(to: TraceTime(seconds: 24 * 3600))

    #expect(TraceChecker.check(system.trace).isEmpty)
    let now = try #require(system.workInfos(forUniqueWork: "news-now").first)
    #expect(now.state == .succeeded && now.runAttemptCount == 1)
    let periodic = try #require(system.workInfos(forUniqueWork: "news-periodic").first)
    #expect(periodic.state == .enqueued && periodic.runAttemptCount == 0)
    #expect(periodic.nextScheduleTime == TraceTime(seconds: 105_000.4))
    #expect(system.workInfos(byTag: "news").count == 2)
    expectTrace(system.trace, matchesGolden: "news-sync", directory: ExampleTrace.androidGoldens)
  }

  /// The guide's trace excerpt, worked out by hand: the sync now waits for Wi-Fi; the
  /// periodic one's first period opens after its 10-minute delay and the first 5 of its
  /// 6 hours (a flex of 1 hour), at 18,600 s, then every 6 hours after the last run, each
  /// 0.1 s after it is due; the next after the day's four is due at 105,000.4 s.
  @Test func theTraceSaysWhy() throws {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.networkMetered = true
    let system = SimulatedSystem(seed: 3, configuration: configuration)
    system.launchApp { system in NewsApp(queue: system) { true } }
    system.advance(to: TraceTime(seconds: 1800))
    system.setEnvironment(metered: false)
    system.advance(to: TraceTime(seconds: 24 * 3600))
    let lines = system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") }
    #expect(
      lines == [
        "0 work.enqueue work=news-now name=NewsSyncWorker backoff=linear delay=30 limit=3 policy=replace "
          + "needs=unmetered",
        "0 work.enqueue work=news-periodic name=NewsSyncWorker limit=3 period=21600 flex=3600 policy=keep "
          + "initial=600 needs=network+battery-not-low",
        "0 work.wait work=news-now reasons=network",
        "1800 work.start work=news-now attempt=0",
        "1800 work.result work=news-now attempt=0 outcome=success tags=news",
        "18600.1 work.start work=news-periodic attempt=0",
        "18600.1 work.result work=news-periodic attempt=0 outcome=success tags=news",
        "40200.2 work.start work=news-periodic attempt=0",
        "40200.2 work.result work=news-periodic attempt=0 outcome=success tags=news",
        "61800.3 work.start work=news-periodic attempt=0",
        "61800.3 work.result work=news-periodic attempt=0 outcome=success tags=news",
        "83400.4 work.start work=news-periodic attempt=0",
        "83400.4 work.result work=news-periodic attempt=0 outcome=success tags=news",
      ])
  }

  @Test func aFlakyNetworkNeverOutlastsTheRetryLimit() {
    let scenario = ExplorationScenario("news-sync") { run in
      var configuration = SimulationConfiguration(platform: .android)
      configuration.batteryLevel = run.choices.int(in: 10...100)
      let system = run.makeSystem(configuration: configuration)
      let network = FlakyNetwork(failures: run.choices.int(in: 0...6))
      system.launchApp { system in NewsApp(queue: system) { network.fetch() } }
      system.advance(by: .seconds(7 * 3600))
    }
    expectNoTimingBugs(in: scenario, exploration: Exploration(runs: 50))
  }

  @Test func theSettingsScreenChangesTheSync() throws {
    let system = SimulatedSystem(seed: 3, configuration: SimulationConfiguration(platform: .android))
    system.launchApp { system in NewsApp(queue: system) { true } }
    system.advance(to: TraceTime(seconds: 60))

    // The user picks hourly syncs: UPDATE keeps the request, its id and its enqueue time.
    try system.enqueue(
      WorkRequest(
        work: "news-periodic", name: "NewsSyncWorker", retryLimit: 3, period: .seconds(3600), tags: ["news"],
        requiredNetworkType: .connected, requiresBatteryNotLow: true, worker: NewsSyncWorker { true }),
      policy: .update)
    let periodic = try #require(system.workInfos(forUniqueWork: "news-periodic").first)
    #expect(periodic.generation == 1)
    #expect(periodic.periodicity?.repeatInterval.seconds == 3600)

    // The user turns news off: every request tagged "news" is cancelled.
    system.cancelAllWork(byTag: "news")
    #expect(system.workInfos(byTag: "news").allSatisfy { $0.state.isFinished })
  }

  @Test func theDigestRunsInStepsAndAtSeven() throws {
    let system = SimulatedSystem(seed: 3, configuration: SimulationConfiguration(platform: .android))
    system.launch { _ in }

    // Two feeds are fetched side by side, then merged, then the digest is posted.
    func step(_ name: String) -> WorkRequest {
      WorkRequest(work: name, tags: ["digest"], requiredNetworkType: .connected, worker: NewsSyncWorker { true })
    }
    try system.beginWith([step("fetch-world"), step("fetch-sport")]).then(step("merge")).then(step("post")).enqueue()
    system.advance(to: TraceTime(seconds: 60))
    #expect(system.workInfos(byTag: "digest").map(\.state) == Array(repeating: .succeeded, count: 4))

    // A refresh fetches both feeds side by side under one unique name, then reindexes.
    // Refreshing twice keeps the refresh already under way: the second enqueues nothing.
    func refresh() -> WorkContinuation {
      system.beginUniqueWork("refresh", policy: .keep, [step("fetch-world"), step("fetch-sport")])
        .then(step("reindex"))
    }
    #expect(try refresh().enqueue() == ["reindex:1"])
    #expect(try refresh().enqueue() == [])

    // The morning refresh runs at 7:00 (25,200 s), not a day after it was enqueued.
    var morning = WorkRequest(work: "morning", period: .seconds(86_400), worker: NewsSyncWorker { true })
    morning.setNextScheduleTimeOverride(TraceTime(seconds: 25_200))
    try system.enqueue(morning, policy: .update)
    system.advance(to: TraceTime(seconds: 26_000))
    // The override is spent by the run: the next one is a period after it.
    let next = try #require(system.workInfos(forUniqueWork: "morning").first?.nextScheduleTime)
    #expect(next == TraceTime(seconds: 111_600.1))
  }

  /// Sets the morning briefing's alarm when the user asks for it, with `type`.
  final class BriefingApp: BackgroundAppDelegate {
    let alarms: any AlarmScheduling
    let type: AlarmType
    init(alarms: any AlarmScheduling, type: AlarmType) {
      self.alarms = alarms
      self.type = type
    }
    func perform(userAction action: String) {
      try? alarms.setAlarm("briefing", after: .seconds(4000), type: type)
    }
  }

  @Test func theBriefingGoesOffInDozeOnlyIfAllowedWhileIdle() throws {
    for type in [AlarmType.exact, .exactAllowWhileIdle] {
      var configuration = SimulationConfiguration(platform: .android)
      configuration.exactAlarmsPermitted = true  // the user granted "Alarms & reminders"
      let system = SimulatedSystem(seed: 3, configuration: configuration)
      system.launchApp { system in BriefingApp(alarms: system, type: type) }
      system.userAction("remind-me")
      system.moveToBackground()
      system.setDeviceState(screenOn: false, stationary: true)  // the phone lies on the desk
      system.advance(to: TraceTime(seconds: 8000))
      let fired = system.trace.events.first { $0.kind == .alarmFire(alarm: "briefing") }?.time
      // setExact waits for deep Doze's maintenance window; setExactAndAllowWhileIdle does not.
      #expect(fired == TraceTime(seconds: type == .exact ? 7200 : 4000))
      #expect(TraceChecker.check(system.trace).map(\.rule) == (type == .exact ? [.alarmExactDeferred] : []))
    }
  }

  /// Each fetch returns how many stories it got; the merge adds them up.
  struct Fetch: BackgroundWorker {
    let stories: Int32
    func doWork(_ context: WorkContext) async -> WorkResult { .success(["stories": .int(stories)]) }
  }

  struct Merge: BackgroundWorker {
    func doWork(_ context: WorkContext) async -> WorkResult {
      guard case .ints(let counts)? = context.inputData["stories"] else { return .failure }
      return .success(["total": .int(counts.reduce(0, +))])
    }
  }

  /// With the battery usage "Restricted", the sync now runs while the app is open at
  /// launch (0.1 s); the periodic sync's first period opens at 18,600 s (the first
  /// test's) with the app in the background, so it waits, for the restriction alone,
  /// until the user opens the app at 72,000 s.
  @Test func aRestrictedAppSyncsOnlyWhenItIsOpen() throws {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.backgroundRestricted = true  // the user set battery usage to "Restricted"
    let system = SimulatedSystem(seed: 3, configuration: configuration)
    system.launchApp { system in NewsApp(queue: system) { true } }
    system.advance(to: TraceTime(seconds: 60))
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 72_000))
    system.moveToForeground()  // the user opens the app in the evening
    let starts = system.trace.events.filter { $0.kind.tag == .workStart }.map(\.time)
    #expect(starts == [TraceTime(seconds: 0.1), TraceTime(seconds: 72_000)])
    #expect(
      system.trace.events.contains {
        $0.time == TraceTime(seconds: 18_600)
          && $0.kind == .workWait(work: "news-periodic", reasons: [.backgroundRestriction])
      })
    // The guide's `explain --why` sentence.
    #expect(
      RequestHistory(of: "news-periodic", in: system.trace)?.lines.contains(
        "  18600s to 72000s (53400s): waited: the user had restricted the app's background use, and its jobs run "
          + "only while it is on top or runs a foreground service.") == true)
  }

  @Test func theMergeAddsUpBothFeeds() throws {
    let system = SimulatedSystem(seed: 3, configuration: SimulationConfiguration(platform: .android))
    var merge = WorkRequest(work: "merge", tags: ["digest"], worker: Merge())
    merge.inputMerger = .arrayCreating  // both fetches' "stories" in one array
    let world = WorkRequest(work: "world", worker: Fetch(stories: 12))
    let sport = WorkRequest(work: "sport", worker: Fetch(stories: 5))
    try system.beginWith([world, sport]).then(merge).enqueue()
    system.advance(to: TraceTime(seconds: 60))
    #expect(system.workInfos(byTag: "digest").first?.outputData == ["total": .int(17)])
  }
}
