import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceTesting
import Testing

/// The scenario `bgtrace demo` runs (`DemoScenario`): the sample app, built from the
/// seeds' code, launched, used, left with a 45 s save at 12 s, a refresh launched hours
/// later (the realistic launch policy) and an analytics sync that fails twice before it
/// succeeds.
@Suite struct DemoScenarioExampleTests {
  /// The deliberate bug: the save outlasts the budget (entered at 12 s, expiration at
  /// 41 s, suspension at once), and ends `.invalid` when the app is next woken — by the
  /// refresh launch at 28434.133 s. The sync's third attempt, due at 96.3 s, waits for
  /// that launch too: on iOS an in-process work queue cannot wake a suspended app. The
  /// invalid end is the only finding.
  @Test func theDemoHasExactlyOneFindingTheInvalidEnd() {
    let trace = DemoScenario.run().trace

    #expect(ExampleTrace.findings(in: trace) == ["task-unknown-end @ 28434.133 task.end id=0"])
    #expect(
      ExampleTrace.lines(" task.", in: trace) == [
        "2 task.begin id=1 name=FlushLogs",
        "2.8 task.end id=1",
        "12 task.begin id=2 name=SaveDocument",
        "41 task.expire id=2",
        "41 task.end id=2",
        "28434.133 task.end id=0",
      ])
    #expect(
      ExampleTrace.lines(" work.result ", in: trace) == [
        "4.1 work.result work=sync-1 attempt=0 outcome=retry",
        "36.2 work.result work=sync-1 attempt=1 outcome=retry",
        "28436.133 work.result work=sync-1 attempt=2 outcome=success",
      ])
    expectTrace(
      trace, matchesGolden: "demo-scenario", checks: .all(except: [.taskUnknownEnd]),
      directory: ExampleTrace.iosGoldens)
  }

  /// With the `DocumentManager` fix the same run is clean, and differs only by the
  /// missing `task.end id=0`.
  @Test func theFixedDemoIsClean() {
    let trace = DemoScenario.run(fixed: true).trace
    let buggy = DemoScenario.run().trace

    #expect(ExampleTrace.findings(in: trace).isEmpty)
    #expect(ExampleTrace.lines(" task.end id=0 ", in: trace).isEmpty)
    #expect(trace.events == buggy.events.filter { $0.kind != .taskEnd(id: 0) })
    expectTrace(
      trace, matchesGolden: "demo-scenario-fixed", checks: ExampleTrace.clean,
      directory: ExampleTrace.iosGoldens)
  }
}
