import BackgroundSimulation
import BackgroundTrace
import Testing

/// The canonical text lines of a trace's events (no header, no meta).
private func eventLines(_ trace: RecordedTrace) -> [String] {
  trace.events.map(TextTraceWriter.line(for:))
}

/// A system whose app was launched in the foreground at 0 and did nothing yet.
private func launchedSystem(
  configuration: SimulationConfiguration = SimulationConfiguration(), faults: FaultPlan = .none
) -> SimulatedSystem {
  let system = SimulatedSystem(seed: 1, configuration: configuration, faults: faults)
  system.launch { _ in }
  return system
}

/// UIKit background tasks against docs/platform-model.md "UIKit background tasks".
@Suite struct UIKitHostModelTests {
  @Test func expirationHandlerRunsOneSecondBeforeTheThirtySecondBudgetEnds() {
    let system = launchedSystem()
    system.advance(by: .seconds(10))
    nonisolated(unsafe) var id = BackgroundTaskID.invalid  // UIKit's handler is @MainActor @Sendable
    id = system.beginBackgroundTask(withName: "Save") { system.endBackgroundTask(id) }
    system.moveToBackground()
    system.advance(by: .seconds(120))
    // Background at 10 s; budget 30 s, handlers 1 s before it ends: 10 + 30 − 1 = 39.
    // The handler ends the last task, so the app is suspended at once (39).
    #expect(
      eventLines(system.trace) == [
        "0 app.launch",
        "0 app.state to=active",
        "10 task.begin id=1 name=Save",
        "10 app.state to=inactive",
        "10 app.state to=background",
        "39 task.expire id=1",
        "39 task.end id=1",
        "39 app.state to=suspended",
      ])
  }

  @Test func theBudgetIsConfigurable() {
    var configuration = SimulationConfiguration()
    configuration.budget = .seconds(180)
    let system = launchedSystem(configuration: configuration)
    system.advance(by: .seconds(10))
    _ = system.beginBackgroundTask(withName: "Save", expirationHandler: nil)
    system.moveToBackground()
    system.advance(by: .seconds(600))
    // The iOS 7–12 budget: 10 + 180 − 1 = 189 expire; the watchdog at 10 + 180 = 190.
    let lines = eventLines(system.trace).suffix(2)
    #expect(Array(lines) == ["189 task.expire id=1", "190 app.terminate reason=watchdog"])
  }

  @Test func aTaskNotEndedAfterItsExpirationHandlerGetsTheAppKilledByTheWatchdogAtTheBudget() {
    let system = launchedSystem()
    system.advance(by: .seconds(10))
    nonisolated(unsafe) var handlerRuns = 0  // UIKit's handler is @MainActor @Sendable
    _ = system.beginBackgroundTask(withName: "Upload") { handlerRuns += 1 }
    system.moveToBackground()
    system.advance(by: .seconds(120))
    // Expire at 10 + 30 − 1 = 39; still open at 10 + 30 = 40: watchdog (0x8badf00d).
    #expect(
      eventLines(system.trace).suffix(3) == [
        "10 app.state to=background",
        "39 task.expire id=1",
        "40 app.terminate reason=watchdog",
      ])
    #expect(handlerRuns == 1)
    #expect(system.state == nil)
  }

  @Test func theSystemRefusesATaskWithInvalidWhenTheAppIsSuspended() {
    let system = launchedSystem()
    system.advance(by: .seconds(5))
    system.moveToBackground()
    system.advance(by: .seconds(15))
    let id = system.beginBackgroundTask(withName: "Late", expirationHandler: nil)
    system.advance(by: .seconds(120))
    #expect(id == .invalid)
    #expect(id.rawValue == 0)
    // Background at 5 with no task: suspended 3 s later (8). The refused task never
    // expires and nothing kills the app.
    #expect(
      eventLines(system.trace).suffix(3) == [
        "5 app.state to=background",
        "8 app.state to=suspended",
        "20 task.begin id=0 name=Late",
      ])
  }

  @Test func anAppWithNoTaskIsSuspendedThreeSecondsAfterEnteringTheBackground() {
    let system = launchedSystem()
    system.advance(by: .seconds(12.5))
    system.moveToBackground()
    system.advance(by: .seconds(2.999))
    #expect(system.state == .background)
    system.advance(by: .milliseconds(1))
    #expect(system.state == .suspended)
    // 12.5 + 3 = 15.5.
    #expect(eventLines(system.trace).last == "15.5 app.state to=suspended")
  }

  @Test func theAppIsSuspendedAsSoonAsItsLastTaskEndsInTheBackground() {
    let system = launchedSystem()
    let first = system.beginBackgroundTask(withName: "A", expirationHandler: nil)
    let second = system.beginBackgroundTask(withName: "B", expirationHandler: nil)
    system.advance(by: .seconds(5))
    system.moveToBackground()
    system.advance(by: .seconds(5))
    system.endBackgroundTask(first)
    system.advance(by: .seconds(2))
    #expect(system.state == .background)  // one task still open at 12, past 5 + 3 = 8
    system.endBackgroundTask(second)
    system.advance(by: .seconds(60))
    #expect(
      eventLines(system.trace).suffix(4) == [
        "5 app.state to=background",
        "10 task.end id=1",
        "12 task.end id=2",
        "12 app.state to=suspended",
      ])
  }

  @Test func backgroundTimeRemainingIsInfiniteInTheForegroundAndCountsDownInTheBackground() {
    let system = launchedSystem()
    #expect(system.backgroundTimeRemaining == .greatestFiniteMagnitude)
    _ = system.beginBackgroundTask(withName: "Save", expirationHandler: nil)
    system.advance(by: .seconds(10))
    #expect(system.backgroundTimeRemaining == .greatestFiniteMagnitude)  // a task, but active
    system.moveToBackground()
    #expect(system.backgroundTimeRemaining == 30)
    system.advance(by: .seconds(12.5))
    #expect(system.backgroundTimeRemaining == 17.5)  // 30 − 12.5
    system.moveToForeground()
    #expect(system.backgroundTimeRemaining == .greatestFiniteMagnitude)
    system.moveToBackground()
    // The budget starts over on each entry into the background: 30 − 5 = 25.
    system.advance(by: .seconds(5))
    #expect(system.backgroundTimeRemaining == 25)
  }

  @Test
  func backgroundTimeRemainingStartsCountingDownOnceATaskExists() {
    let system = launchedSystem()
    system.advance(by: .seconds(10))
    system.moveToBackground()
    system.advance(by: .seconds(1))
    // "counts down in the background once a task exists": none yet at 11.
    #expect(system.backgroundTimeRemaining == .greatestFiniteMagnitude)
    _ = system.beginBackgroundTask(withName: "Save", expirationHandler: nil)
    system.advance(by: .seconds(1))
    // The budget runs from entering the background (10): 30 − (12 − 10) = 28.
    #expect(system.backgroundTimeRemaining == 28)
  }

  @Test func identifiersStartAtOneGrowAreNeverReusedAndRestartAfterARelaunch() {
    let system = launchedSystem()
    let first = system.beginBackgroundTask(withName: nil, expirationHandler: nil)
    let second = system.beginBackgroundTask(withName: nil, expirationHandler: nil)
    system.endBackgroundTask(second)
    let third = system.beginBackgroundTask(withName: nil, expirationHandler: nil)
    #expect([first, second, third].map(\.rawValue) == [1, 2, 3])
    system.advance(by: .seconds(1))
    system.relaunch()
    let afterRelaunch = system.beginBackgroundTask(withName: nil, expirationHandler: nil)
    #expect(afterRelaunch.rawValue == 1)
    #expect(
      eventLines(system.trace).suffix(4) == [
        "1 app.terminate reason=user",
        "1 app.launch",
        "1 app.state to=active",
        "1 task.begin id=1",
      ])
  }

  @Test func endingAnEndedOrUnknownIdentifierIsHarmlessToTheApp() {
    let system = launchedSystem()
    let id = system.beginBackgroundTask(withName: nil, expirationHandler: nil)
    system.endBackgroundTask(id)
    system.endBackgroundTask(id)
    system.endBackgroundTask(BackgroundTaskID(rawValue: 7))
    system.advance(by: .seconds(1))
    #expect(system.state == .active)
    #expect(eventLines(system.trace).suffix(3) == ["0 task.end id=1", "0 task.end id=1", "0 task.end id=7"])
  }

  @Test func anEarlyExpirationFaultMovesTheExpirationEarlier() {
    var faults = FaultPlan()
    faults.earlyExpiration = .seconds(10)
    let system = launchedSystem(faults: faults)
    system.advance(by: .seconds(10))
    nonisolated(unsafe) var id = BackgroundTaskID.invalid  // UIKit's handler is @MainActor @Sendable
    id = system.beginBackgroundTask(withName: "Save") { system.endBackgroundTask(id) }
    system.moveToBackground()
    system.advance(by: .seconds(120))
    // Background at 10; budget 30 − 10 early = 20; handlers 1 s before: 10 + 20 − 1 = 29
    // (39 without the fault).
    #expect(
      eventLines(system.trace).suffix(3) == [
        "29 task.expire id=1",
        "29 task.end id=1",
        "29 app.state to=suspended",
      ])
  }
}
