import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceTesting
import Testing

/// The seed's `sendCriticalData` (article 001): each send begins a UIKit background
/// task and stores its id in one property; the request's completion, or the expiration
/// handler, ends the stored id and resets it to `.invalid`.
///
/// Called a second time before the first send finishes, the second begin overwrites the
/// stored id: task 1 is never ended, the first completion ends task 2, and the second
/// completion ends `.invalid` (the reset turns the "second end of task 2" into an end of
/// id 0, so the checker reports `task-unknown-end`, not `task-double-end`).
@Suite struct CriticalDataExampleTests {
  /// Launches the app and sends twice in the foreground, at 1 s and 2 s, each request
  /// taking 10 s: the completions come at 11 s and 12 s.
  static func sendTwice() -> (SimulatedSystem, CriticalDataSender) {
    let system = SimulatedSystem(seed: 1)
    let sender = CriticalDataSender(host: system, context: AsyncContext(simulation: system.scheduler))
    system.launchApp { _ in UserActionApp { ExampleActions.criticalData($0, sender) } }
    system.advance(by: .seconds(1))
    system.userAction("send:10")
    system.advance(by: .seconds(1))
    system.userAction("send:10")
    system.advance(by: .seconds(18))
    return (system, sender)
  }

  /// The user stays in the app: task 1 is still open when the trace ends (a leak).
  @Test func sendingTwiceLeaksTheOverwrittenTask() {
    let (system, sender) = Self.sendTwice()
    let trace = system.trace

    #expect(
      ExampleTrace.lines(" task.", in: trace) == [
        "1 task.begin id=1 name=SendCriticalData",
        "2 task.begin id=2 name=SendCriticalData",
        "11 task.end id=2",
        "12 task.end id=0",
      ])
    // The trace ends at its last event, so the leak is located there too.
    #expect(
      ExampleTrace.findings(in: trace) == ["task-unknown-end @ 12 task.end id=0", "task-leaked @ 12 task.end id=0"])
    #expect(
      ExampleTrace.messages(in: trace).last?.hasPrefix(#"task 1 ("SendCriticalData") begun at 1s was not ended"#)
        == true)
    #expect(sender.savedForRetry == 0)
    expectTrace(
      trace, matchesGolden: "critical-data-twice-leaks",
      checks: .all(except: [.taskUnknownEnd, .taskLeaked]), directory: ExampleTrace.iosGoldens)
  }

  /// The user then leaves the app at 20 s with task 1 still open: its expiration handler
  /// runs at 49 s and ends the stored id, which is `.invalid` by then, so task 1 stays
  /// open and the watchdog kills the app at 50 s. The checker reports the leak as
  /// `task-expired-not-ended` (the process ended after the expiration), not `task-leaked`.
  @Test func sendingTwiceThenLeavingGetsTheAppKilledByTheWatchdog() {
    let (system, sender) = Self.sendTwice()
    system.moveToBackground()
    system.advance(by: .seconds(60))
    let trace = system.trace

    #expect(
      ExampleTrace.lines(" task.", in: trace) == [
        "1 task.begin id=1 name=SendCriticalData",
        "2 task.begin id=2 name=SendCriticalData",
        "11 task.end id=2",
        "12 task.end id=0",
        "49 task.expire id=1",
        "49 task.end id=0",
      ])
    #expect(
      ExampleTrace.lines(" app.", in: trace).suffix(3) == [
        "20 app.state to=inactive",
        "20 app.state to=background",
        "50 app.terminate reason=watchdog",
      ])
    #expect(
      ExampleTrace.findings(in: trace) == [
        "task-unknown-end @ 12 task.end id=0",
        "task-unknown-end @ 49 task.end id=0",
        "task-expired-not-ended @ 50 app.terminate reason=watchdog",
      ])
    #expect(sender.savedForRetry == 1)
    expectTrace(
      trace, matchesGolden: "critical-data-twice-watchdog",
      checks: .all(except: [.taskUnknownEnd, .taskExpiredNotEnded]), directory: ExampleTrace.iosGoldens)
  }

  /// One send in the background, finishing well within the budget: clean, and the app
  /// is suspended as soon as its task ends.
  @Test func sendingOnceIsClean() {
    let system = SimulatedSystem(seed: 1)
    let sender = CriticalDataSender(host: system, context: AsyncContext(simulation: system.scheduler))
    system.launchApp { _ in UserActionApp { ExampleActions.criticalData($0, sender) } }
    system.advance(by: .seconds(2))
    system.moveToBackground()
    system.userAction("send:5")
    system.advance(by: .seconds(60))
    let trace = system.trace

    #expect(ExampleTrace.findings(in: trace).isEmpty)
    #expect(ExampleTrace.lines(" task.", in: trace) == ["2 task.begin id=1 name=SendCriticalData", "7 task.end id=1"])
    #expect(ExampleTrace.lines(" app.", in: trace).last == "7 app.state to=suspended")
    #expect(sender.savedForRetry == 0)
    expectTrace(trace, matchesGolden: "critical-data-once", directory: ExampleTrace.iosGoldens)
  }

  /// A failed send saves the data for a retry and still ends its task once.
  @Test func aFailedSendIsSavedForRetryAndClean() {
    let system = SimulatedSystem(seed: 1)
    let sender = CriticalDataSender(host: system, context: AsyncContext(simulation: system.scheduler))
    system.launchApp { _ in UserActionApp { ExampleActions.criticalData($0, sender) } }
    system.moveToBackground()
    system.userAction("send:5:fail")
    system.advance(by: .seconds(60))

    #expect(ExampleTrace.findings(in: system.trace).isEmpty)
    #expect(
      ExampleTrace.lines(" task.", in: system.trace) == ["0 task.begin id=1 name=SendCriticalData", "5 task.end id=1"])
    #expect(sender.savedForRetry == 1)
  }
}
