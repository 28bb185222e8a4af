import BackgroundExamples
import BackgroundSimulation
import BackgroundTraceTesting
import Synchronization
import Testing

/// The seed's `BackgroundTaskManager` (articles 000, 002, 003, 004): named UIKit
/// background tasks, each ended once by name, reading `backgroundTimeRemaining` at
/// each start; its expiration handler ends the task by name.
@Suite struct TaskManagerExampleTests {
  /// Two tasks start in the foreground at 1 s (Upload, Prefetch); Prefetch ends at 3 s;
  /// the user leaves at 5 s; Flush starts at 5 s and Cleanup at 9 s; Flush and Upload
  /// end at 12 s (Upload twice, which the manager ignores); Cleanup runs until its
  /// expiration at 34 s (5 + 30 − 1), where the handler ends it and the app is suspended.
  @Test func namedTasksEachEndOnceAndTheExpirationHandlerEndsTheLast() {
    let system = SimulatedSystem(seed: 1)
    let manager = BackgroundTaskManager(host: system)
    let expired = Mutex<[String]>([])  // appended to by a sendable expiration handler
    system.launchApp { _ in
      UserActionApp { ExampleActions.taskManager($0, manager) { name in expired.withLock { $0.append(name) } } }
    }
    system.advance(by: .seconds(1))
    system.userAction("start:Upload")
    system.userAction("start:Prefetch")
    system.advance(by: .seconds(2))
    system.userAction("end:Prefetch")
    system.advance(by: .seconds(2))
    system.moveToBackground()
    system.userAction("start:Flush")
    system.advance(by: .seconds(4))
    system.userAction("start-noting:Cleanup")
    system.advance(by: .seconds(3))
    system.userAction("end:Flush")
    system.userAction("end:Upload")
    system.userAction("end:Upload")
    system.advance(by: .seconds(60))
    let trace = system.trace

    #expect(ExampleTrace.findings(in: trace).isEmpty)
    #expect(
      ExampleTrace.lines(" task.", in: trace) == [
        "1 task.begin id=1 name=Upload",
        "1 task.begin id=2 name=Prefetch",
        "3 task.end id=2",
        "5 task.begin id=3 name=Flush",
        "9 task.begin id=4 name=Cleanup",
        "12 task.end id=3",
        "12 task.end id=1",
        "34 task.expire id=4",
        "34 task.end id=4",
      ])
    #expect(ExampleTrace.lines(" app.", in: trace).last == "34 app.state to=suspended")
    #expect(expired.withLock { $0 } == ["Cleanup"])
    // Effectively infinite in the foreground; in the background the budget left
    // since entering it at 5 s: 30 s at 5 s, 26 s at 9 s.
    #expect(manager.remainingAtStart == [.greatestFiniteMagnitude, .greatestFiniteMagnitude, 30, 26])
    #expect(manager.remainingAtStart.suffix(2).allSatisfy { $0 <= 30 })
    expectTrace(
      trace, matchesGolden: "task-manager-named-tasks", directory: ExampleTrace.iosGoldens)
  }

  /// A name started again before it ended overwrites the stored id, as in the seed:
  /// the first task is never ended and the watchdog kills the app after its expiration.
  @Test func aNameStartedTwiceLosesItsFirstTask() {
    let system = SimulatedSystem(seed: 1)
    let manager = BackgroundTaskManager(host: system)
    system.launch { _ in }
    system.moveToBackground()
    manager.startTask(name: "Upload")
    manager.startTask(name: "Upload")
    system.advance(by: .seconds(60))

    // Both handlers run at 29 s; the first ends the stored id (task 2), the second
    // finds the name gone; task 1 stays open until the watchdog at 30 s.
    #expect(
      ExampleTrace.lines(" task.", in: system.trace) == [
        "0 task.begin id=1 name=Upload",
        "0 task.begin id=2 name=Upload",
        "29 task.expire id=1",
        "29 task.end id=2",
      ])
    #expect(ExampleTrace.findings(in: system.trace) == ["task-expired-not-ended @ 30 app.terminate reason=watchdog"])
  }
}
