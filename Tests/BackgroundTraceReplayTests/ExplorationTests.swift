import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import Testing

/// Exploration and shrinking (docs/guides/exploration.md).
@Suite struct ExplorationTests {
  /// Taps after pauses of up to 10 s, up to five times; a pause of 7 s or more fails
  /// the test's own assertion.
  static let longPause = ExplorationScenario("long-pause") { run in
    let system = run.makeSystem()
    system.launch { _ in }
    var pauses: [Duration] = []
    for _ in 0..<run.choices.int(in: 0...5) {
      let pause = run.choices.duration(in: .zero ... .seconds(10))
      pauses.append(pause)
      system.advance(by: pause)
      system.userAction("tap")
    }
    run.expect(!pauses.contains { $0 >= .seconds(7) }, "a pause of 7 s or more")
  }

  @Test func shrinkingFindsTheSmallestFailingChoices() throws {
    let report = Exploration(runs: 50).explore(Self.longPause)
    let failure = try #require(report.failures.first)
    #expect(report.failures.map(\.kind) == [.assertion])
    // One tap, after exactly 7 s: the count lowered to 1, the pause to the threshold.
    #expect(failure.choices == [1, 7_000])
    #expect(failure.message == "a pause of 7 s or more")
    #expect(
      failure.trace.text == """
        bgtrace 1
        meta explore=long-pause platform=ios seed=\(failure.seed) budget=30
        0 app.launch
        0 app.state to=active
        7 mark label=user:tap

        """)
    #expect(
      failure.reproduction == "scenario.replay(choices: [1, 7000], seed: \(failure.seed))  // scenario \"long-pause\"")
    #expect(Self.longPause.replay(choices: failure.choices).failures[.assertion] != nil)
  }

  /// A run that fails without drawing a choice has nothing to shrink: its headline says
  /// so, rather than "shrunk from 3 events to 3 events".
  @Test func aFailureWithNothingToShrinkSaysItCouldNotShrink() throws {
    let alwaysFails = ExplorationScenario("always-fails") { run in
      let system = run.makeSystem()
      system.launch { _ in }
      system.userAction("tap")
      run.expect(false, "always")
    }
    let failure = try #require(Exploration(runs: 3).explore(alwaysFails).failures.first)
    #expect(failure.trace.events.count == failure.originalTrace.events.count)
    #expect(failure.headline == "assertion: seed 0, could not shrink its 3 events")
    #expect(failure.line(path: "/tmp/x.txt") == "assertion: seed 0, could not shrink its 3 events: /tmp/x.txt")
    let shrunk = try #require(Exploration(runs: 50).explore(Self.longPause).failures.first)
    #expect(shrunk.headline.hasPrefix("assertion: seed \(shrunk.seed), shrunk from "))
  }

  @Test func theSameSeedGivesTheSameMinimalTrace() {
    let scenario = CriticalSendScenario.scenario(fixed: false)
    let one = Exploration(runs: 200, seed: 9, parallelism: 1).explore(scenario)
    let other = Exploration(runs: 200, seed: 9, parallelism: 4).explore(scenario)
    #expect(!one.failures.isEmpty)
    #expect(one.failures.map(\.minimalTraceText) == other.failures.map(\.minimalTraceText))
    #expect(one.failures.map(\.seed) == other.failures.map(\.seed))
    #expect(one.failures.map(\.failingSeeds) == other.failures.map(\.failingSeeds))
  }

  @Test func shardsTogetherRunExactlyTheUnshardedRuns() {
    let scenario = DocumentSaveScenario.scenario(fixed: false)
    let whole = Exploration(runs: 300, seed: 5).explore(scenario)
    let shards = (1...3).map { Exploration(runs: 300, seed: 5, shard: ExplorationShard($0, of: 3)!).explore(scenario) }
    #expect(shards.map { $0.seeds.count } == [100, 100, 100])
    #expect(Set(shards.flatMap(\.seeds)) == Set(whole.seeds))
    #expect(shards.flatMap(\.seeds).count == whole.seeds.count)
    #expect(shards[1].seeds.prefix(3) == [6, 9, 12])
    let merged = ExplorationReport.merging(shards)
    #expect(merged.seeds == whole.seeds)
    #expect(merged.failures.map(\.kind) == whole.failures.map(\.kind))
    #expect(merged.failures.map(\.seed) == whole.failures.map(\.seed))
    #expect(merged.failures.map(\.failingSeeds) == whole.failures.map(\.failingSeeds))
    #expect(merged.failures.map(\.minimalTraceText) == whole.failures.map(\.minimalTraceText))
  }

  @Test func shardsParseAsKOfN() {
    #expect(ExplorationShard(parsing: "2/4") == ExplorationShard(2, of: 4))
    #expect(ExplorationShard(parsing: "0/4") == nil)
    #expect(ExplorationShard(parsing: "5/4") == nil)
    #expect(ExplorationShard(parsing: "1/") == nil)
    #expect(ExplorationShard(parsing: "1/1") == .all)
  }

  /// Two or three sends with pauses of up to 200 s and requests of 1–5 s: they overlap in
  /// under 5% of runs, and 1,000 runs find it.
  @Test func aBugInFewerThanFivePercentOfRunsIsFoundWithinAThousand() throws {
    let scenario = CriticalSendScenario.scenario(
      name: "critical-send-rare", fixed: false, pause: .zero ... .seconds(200), request: .seconds(1) ... .seconds(5))
    let report = Exploration(runs: 1_000).explore(scenario)
    let unknownEnd = try #require(report.failures.first { $0.kind == .rule(.taskUnknownEnd) })
    #expect(unknownEnd.failingSeeds.count > 0)
    #expect(unknownEnd.failingSeeds.count < 50)
    // The shrunk run: two sends at once, the second's request ending first.
    let lines = unknownEnd.trace.events.map(TextTraceWriter.line(for:)).filter { $0.contains(" task.") }
    #expect(
      lines == [
        "0 task.begin id=1 name=SendCriticalData",
        "0 task.begin id=2 name=SendCriticalData",
        "1 task.end id=2",
        "1 task.end id=0",
      ])
  }

  @Test func everyShippedBuggyScenarioFailsAndItsFixExploresClean() {
    for scenario in ExplorationScenarios.all {
      let report = Exploration(runs: 1_000).explore(scenario)
      if scenario.name.hasSuffix("-fixed") {
        #expect(report.isClean, "\(scenario.name): \(report.failures.map(\.kind))")
        continue
      }
      // Each seed example's bug, the background download's session never recreated, and
      // the background transfer's handler lost to the other session's wake.
      let expected: ExplorationFailureKind =
        switch scenario.name {
        case "background-download": .rule(.netNotRecreated)
        case "background-transfer": .rule(.netHandlerNotCalled)
        case "sync-service": .rule(.fgsNotPromoted)
        // A run SwiftUI completed while its work was still detached: the checker sees a
        // clean trace, the scenario's assertion the unfinished check.
        case "notification-refresh": .assertion
        case "long-upload": .rule(.workForegroundRefused)
        // The stall's consequence: the expired task is never completed, and iOS kills the app.
        case "continued-upload": .rule(.schedNotCompleted)
        // The early handler is a warning; the scenario's assertion finds the results the
        // suspended app never got.
        case "swiftui-download": .assertion
        case "exposure-tasks": .rule(.schedNotCompleted)
        default: .rule(.taskUnknownEnd)
        }
      #expect(report.failures.map(\.kind).contains(expected), "\(scenario.name)")
      for failure in report.failures {
        #expect(failure.trace.events.count < failure.originalTrace.events.count, "\(scenario.name) \(failure.kind)")
        guard failure.kind != .assertion else { continue }
        let rules = TraceChecker.check(failure.trace).map { ExplorationFailureKind.rule($0.rule) }
        #expect(rules.contains(failure.kind), "\(scenario.name) \(failure.kind)")
      }
    }
  }

  @Test func theShippedScenariosHaveTheirNames() {
    #expect(
      ExplorationScenarios.all.map(\.name) == [
        "document-save", "document-save-fixed", "critical-send", "critical-send-fixed", "sample-app",
        "sample-app-fixed", "background-download", "background-download-fixed", "background-transfer",
        "background-transfer-fixed", "sync-service", "sync-service-fixed", "notification-refresh",
        "notification-refresh-fixed", "long-upload", "long-upload-fixed", "continued-upload",
        "continued-upload-fixed", "swiftui-download", "swiftui-download-fixed", "exposure-tasks",
        "exposure-tasks-fixed",
      ])
    #expect(ExplorationScenarios.named("critical-send")?.name == "critical-send")
    #expect(ExplorationScenarios.named("nope") == nil)
  }

  /// With warnings failing runs too, exploring the continued-processing upload finds the
  /// stall itself (`sched-progress-stalled`, a warning), and the fix stays clean over
  /// 1,000 runs.
  @Test func strictExplorationFindsTheStalledContinuedUpload() {
    let strict = Exploration(runs: 1_000, strict: true)
    let buggy = strict.explore(ContinuedUploadScenario.scenario(fixed: false))
    #expect(buggy.failures.map(\.kind).contains(.rule(.schedProgressStalled)))
    let fixed = strict.explore(ContinuedUploadScenario.scenario(fixed: true))
    #expect(fixed.isClean, "\(fixed.failures.map(\.kind))")
  }

  /// docs/guides/exploration.md's scenario, on the seed's DocumentManager (which has the
  /// bug) instead of the guide's uploader (which has none).
  @Test func theReadmeScenarioFindsTheSaveBug() throws {
    let scenario = ExplorationScenario("save") { run in
      let system = run.makeSystem()
      let documents = DocumentManager(host: system, context: AsyncContext(simulation: system.scheduler))
      system.launch { _ in }
      system.advance(by: run.choices.duration(in: .zero ... .seconds(10)))  // the user uses the app
      system.moveToBackground()
      documents.save(taking: run.choices.duration(in: .seconds(1) ... .seconds(40)))
      if run.choices.chance(percent: 80) {  // the user comes back, or never does
        system.advance(by: run.choices.duration(in: .zero ... .seconds(120)))
        system.moveToForeground()
      }
      system.advance(by: .seconds(60))
      run.expect(documents.completedSaves <= 1, "one save")  // an assertion of the test's own
    }
    let report = Exploration(runs: 1_000).explore(scenario)
    let failure = try #require(report.failures.first)
    #expect(report.failures.map(\.kind) == [.rule(.taskUnknownEnd)])
    // No time in the app, a save of 1 + 28 s: it finishes as the expiration handler runs.
    #expect(failure.choices == [0, 28_000, 0])
    #expect(failure.reproduction == #"scenario.replay(choices: [0, 28000, 0], seed: 1)  // scenario "save""#)
  }

  /// Exploring the sample app found a bug no scripted test had: two `flush-logs` in a
  /// row overwrite the first task's id in the BackgroundTaskManager (keyed by name).
  @Test func exploringTheSampleAppFindsTheNamedTaskOverwrite() throws {
    let report = Exploration(runs: 1_000).explore(SampleAppScenario.scenario(fixed: false))
    #expect(report.failures.map(\.kind) == [.rule(.taskUnknownEnd), .rule(.taskExpiredNotEnded)])
    let overwrite = try #require(report.failures.last)
    let tasks = overwrite.trace.events.map(TextTraceWriter.line(for:)).filter { $0.contains(" task.") }
    #expect(
      tasks.prefix(6) == [
        "0 task.begin id=1 name=FlushLogs",
        "0 task.begin id=2 name=FlushLogs",
        "0 task.begin id=3 name=SaveDocument",
        "0.8 task.end id=2",
        "1 task.end id=3",
        "29 task.expire id=1",
      ])
  }
}
