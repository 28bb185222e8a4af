import BackgroundSimulation
import BackgroundTrace
import Testing

/// The choice stream (docs/guides/exploration.md): a seeded stream is
/// recorded, and its record replays it; past a replay's end every draw is zero.
@Suite struct ChoicesTests {
  @Test func theRecordReplaysTheSameDraws() {
    let generated = Choices(seed: 42)
    let first = (
      generated.int(in: 1...3), generated.duration(in: .seconds(1) ... .seconds(40)), generated.chance(percent: 50)
    )
    let replayed = Choices(replaying: generated.recorded, seed: 42)
    let second = (
      replayed.int(in: 1...3), replayed.duration(in: .seconds(1) ... .seconds(40)), replayed.chance(percent: 50)
    )
    #expect(first == second)
    #expect(replayed.recorded == generated.recorded)
  }

  @Test func drawsAreRecordedAsOffsetsFromTheLowerBoundAndClamped() {
    let choices = Choices(replaying: [2, 5_000, 99, 7])
    #expect(choices.int(in: 1...3) == 3)
    #expect(choices.duration(in: .seconds(1) ... .seconds(4)) == .milliseconds(4_000))  // clamped to 3000 ms
    #expect(choices.chance(percent: 10))
    #expect(choices.int(in: 10...12) == 12)
    #expect(choices.recorded == [2, 3_000, 99, 2])
  }

  /// SplitMix64 and Lemire's multiply-and-reject, computed by hand (an independent
  /// implementation): a seed's choices do not depend on the toolchain.
  @Test func aSeedsChoicesAreFixed() {
    let choices = Choices(seed: 1)
    #expect((0..<5).map { _ in choices.draw(upTo: 99) } == [56, 74, 97, 44, 44])
    #expect(choices.draw(upTo: 59_999) == 45_773)
    #expect(choices.draw(upTo: 2) == 2)
  }

  @Test func pastTheEndEveryDrawIsTheSimplest() {
    let choices = Choices(replaying: [])
    #expect(choices.int(in: 1...3) == 1)
    #expect(choices.duration(in: .seconds(5) ... .seconds(9)) == .seconds(5))
    #expect(!choices.chance(percent: 99))
    #expect(choices.recorded == [0, 0, 0])
  }

  @Test func theZeroChoiceIsFalseAndTheChanceIsItsShare() {
    let always = Choices(replaying: [0])
    #expect(always.chance(percent: 100))
    let never = Choices(replaying: [99])
    #expect(!never.chance(percent: 0))
    let edge = Choices(replaying: [74, 75])
    #expect(!edge.chance(percent: 25))
    #expect(edge.chance(percent: 25))
  }
}

/// The system's own random decisions draw from the run's choices.
@Suite struct SystemChoicesTests {
  /// The scheduler's launch delay (15 min – 8 h for a refresh by default), the fault
  /// plan's extra launch delay and the run's runtime (5–30 s) are each one choice, in
  /// milliseconds above the range's low end.
  @Test func launchDelaysAndRuntimesAreChoices() throws {
    var faults = FaultPlan()
    faults.extraLaunchDelay = .zero ... .seconds(10)
    let choices = Choices(replaying: [12_500, 2_000, 7_000], seed: 3)
    let system = SimulatedSystem(choices: choices, faults: faults)
    system.launch { system in
      system.register(forTaskWithIdentifier: "a", using: nil) { $0.expirationHandler = {} }
    }
    try system.submit(.refresh("a"))
    system.moveToBackground()
    system.advance(by: .seconds(930))
    #expect(choices.recorded == [12_500, 2_000, 7_000])
    #expect(system.trace.meta["seed"] == "3")
    // 900 + 12.5 + 2 = 914.5; the run gets 5 + 7 = 12 s.
    let lines = system.trace.events.map(TextTraceWriter.line(for:))
    #expect(lines.contains("914.5 sched.launch ident=a run=1"))
    #expect(lines.contains("926.5 sched.expire run=1"))
  }
}

/// The app's own choices (`SimulatedSystem.appChoices`): a stream of the system's seed,
/// apart from the system's decisions; under exploration, the run's own stream.
@Suite struct AppChoicesTests {
  /// SplitMix64 seeded with 1 ^ 0xA99C_4011_CE5A_99C0 and bounded by Lemire's method,
  /// worked out by hand (an independent implementation).
  @Test func aSeedsAppChoicesAreFixed() {
    let choices = SimulatedSystem(seed: 1).appChoices
    #expect(choices.seed == 1)
    #expect(choices.draw(upTo: 30_000) == 920)
    #expect(choices.draw(upTo: 30_000) == 14_813)
  }

  @Test func theSameSeedGivesTheSameAppChoices() {
    let first = SimulatedSystem(seed: 9).appChoices
    let second = SimulatedSystem(seed: 9).appChoices
    #expect((0..<4).map { _ in first.int(in: 0...1_000) } == (0..<4).map { _ in second.int(in: 0...1_000) })
  }

  /// Drawing the app's choices changes none of the system's decisions: a refresh
  /// request's launch delay is the same whether or not the app drew first.
  @Test func drawingThemLeavesTheSystemsDecisionsAlone() {
    func trace(drawingFirst: Bool) -> String {
      let system = SimulatedSystem(seed: 3)
      if drawingFirst { _ = system.appChoices.duration(in: .zero ... .seconds(60)) }
      system.launch { system in
        system.register(forTaskWithIdentifier: "refresh", using: nil) { task in task.setTaskCompleted(success: true) }
      }
      _ = try? system.submit(.refresh("refresh"))
      system.moveToBackground()
      system.advance(by: .seconds(10 * 3_600))
      return system.trace.text
    }
    #expect(trace(drawingFirst: true) == trace(drawingFirst: false))
    #expect(trace(drawingFirst: false).contains("sched.launch"))
  }

  @Test func underExplorationTheyAreTheRunsChoices() {
    let choices = Choices(seed: 5)
    let system = SimulatedSystem(choices: choices)
    #expect(system.appChoices === choices)
  }
}
