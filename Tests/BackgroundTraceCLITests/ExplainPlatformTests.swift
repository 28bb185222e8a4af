import BackgroundTrace
import BackgroundTraceCheck
import Foundation
import Testing

/// `bgtrace explain` holds a trace to its platform's process model (`meta platform=`;
/// docs/platform-model.md, "Processes"), as the simulation does.
@Suite struct ExplainPlatformTests {
  private func inconsistencies(_ text: String, file: String = "platform.txt") throws -> [String] {
    let trace = try RecordedTrace(text: text, file: file)
    var explainer = TraceExplainer(meta: trace.meta)
    var messages: [String] = []
    for (index, event) in trace.events.enumerated() {
      messages += explainer.explain(LocatedEvent(event: event, location: index + 1)).inconsistencies.map(\.message)
    }
    return messages
  }

  /// Apple Developer Forums, "iOS Background Execution Limits": nothing but a task or a
  /// scheduler launch keeps an iOS app running, so its in-process queue cannot start
  /// work while the app is suspended or not running; it can once the app is woken.
  @Test func iOSWorkCannotStartWhileTheAppCannotRun() throws {
    #expect(
      try inconsistencies(
        """
        bgtrace 1
        meta platform=ios
        0 app.launch
        0 app.state to=active
        0 work.enqueue work=sync-1 limit=3
        0.1 work.start work=sync-1 attempt=0
        2.1 work.result work=sync-1 attempt=0 outcome=retry
        5 app.state to=background
        8 app.state to=suspended
        32.2 work.start work=sync-1 attempt=1
        34.2 work.result work=sync-1 attempt=1 outcome=retry
        100 app.terminate reason=memory
        200 work.start work=sync-1 attempt=2
        """) == [
          "sync-1 attempt 1 started at 32.2s while the app was suspended; on iOS an in-process work queue runs only while the app runs",
          "sync-1 attempt 2 started at 200s while the app was not running; on iOS an in-process work queue runs only while the app runs",
        ])
    // The same start right after the app is woken is consistent.
    #expect(
      try inconsistencies(
        """
        bgtrace 1
        meta platform=ios
        0 app.launch
        0 app.state to=active
        0 work.enqueue work=sync-1 limit=3
        5 app.state to=background
        8 app.state to=suspended
        500 app.state to=inactive
        500 work.start work=sync-1 attempt=0
        """
      ).isEmpty)
  }

  /// androidx `WorkerWrapper` (a running worker holds the process) and Android's lack
  /// of UIKit tasks and BGTaskScheduler.
  @Test func androidHasNoTasksNoLaunchesAndKeepsAWorkingProcessAlive() throws {
    #expect(
      try inconsistencies(
        """
        bgtrace 1
        meta platform=android
        0 app.launch
        0 app.state to=active
        1 task.begin id=1 name=Save
        2 task.end id=1
        3 work.enqueue work=sync-1
        3.1 work.start work=sync-1 attempt=0
        4 app.state to=background
        7 app.state to=suspended
        8 sched.launch ident=refresh run=1
        """) == [
          "task 1 began on Android, which has no UIKit background tasks",
          "the app was suspended at 7s while sync-1 was running; on Android a running worker keeps the process alive",
          "refresh launched on Android, which has no BGTaskScheduler",
        ])
  }

  /// The simulation and the explainer follow one model: every simulated golden, iOS and
  /// Android, explains with no inconsistency.
  @Test(arguments: ["ios", "android"])
  func everySimulatedGoldenIsConsistentWithItsPlatform(_ platform: String) throws {
    let folder = ExportFormatTests.root.appendingPathComponent("Traces/golden/\(platform)")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".txt") }
    #expect(!files.isEmpty)
    for file in files {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      #expect(try RecordedTrace(text: text, file: file).meta["platform"] == platform, "\(file)")
      #expect(try inconsistencies(text).isEmpty, "\(file)")
    }
  }

  /// A trace with no platform (or another one) gets neither platform's facts.
  @Test func aTraceOfNoKnownPlatformGetsNoPlatformFacts() throws {
    #expect(
      try inconsistencies(
        """
        bgtrace 1
        0 app.launch
        0 work.enqueue work=sync-1
        1 app.state to=background
        4 app.state to=suspended
        5 work.start work=sync-1 attempt=0
        6 task.begin id=1
        7 task.end id=1
        """
      ).isEmpty)
  }

  /// androidx `WorkSpec.calculateNextRunTime`: the first attempt waits for the initial
  /// delay (and a periodic request's flex); a start before it is inconsistent, one after
  /// it is not, and later attempts no longer wait for it.
  @Test func aStartBeforeTheInitialDelayIsInconsistent() throws {
    #expect(
      try inconsistencies(
        """
        bgtrace 1
        meta platform=android
        0 app.launch
        0 work.enqueue work=early initial=900
        0 work.enqueue work=sync initial=60 period=900 flex=300
        600 work.start work=early attempt=0
        600 work.result work=early attempt=0 outcome=success
        600 work.start work=sync attempt=0
        600 work.result work=sync attempt=0 outcome=success
        1500 work.start work=sync attempt=0
        1500 work.result work=sync attempt=0 outcome=success
        1500 work.enqueue work=late initial=5
        1505 work.start work=late attempt=0
        1505 work.result work=late attempt=0 outcome=retry
        1535 work.start work=late attempt=1
        """) == [
          "early attempt 0 started at 600s, before its enqueue allowed it at 900s",
          "sync attempt 0 started at 600s, before its enqueue allowed it at 660s",
        ])
  }

  /// androidx `WorkSpec.calculateNextRunTime`: periodic work with a next schedule time
  /// override runs at it, before its initial delay and flex; a start after the override
  /// is consistent, one before it is not.
  @Test func aStartAtTheScheduleOverrideIsConsistent() throws {
    #expect(
      try inconsistencies(
        """
        bgtrace 1
        meta platform=android
        0 app.launch
        0 work.enqueue work=soon period=900 flex=300 policy=keep initial=600 override=60
        0 work.enqueue work=later period=900 policy=keep override=300
        60.1 work.start work=soon attempt=0
        60.1 work.result work=soon attempt=0 outcome=success
        200 work.start work=later attempt=0
        """) == ["later attempt 0 started at 200s, before its enqueue allowed it at 300s"])
  }

  /// androidx `EnqueueRunnable` and `WorkerWrapper`: a work enqueued after another
  /// (`work.after`) is BLOCKED until it succeeds, so a start before that cannot happen;
  /// a start after it can.
  @Test func aStartBeforeItsPrerequisiteSucceededIsInconsistent() throws {
    #expect(
      try inconsistencies(
        """
        bgtrace 1
        meta platform=android
        0 app.launch
        0 work.enqueue work=a:1
        0 work.enqueue work=b:1
        0 work.after work=b:1 prerequisite=a:1
        0 work.enqueue work=c:1
        0 work.after work=c:1 prerequisite=a:1
        0.1 work.start work=a:1 attempt=0
        0.2 work.start work=b:1 attempt=0
        5 work.result work=a:1 attempt=0 outcome=success
        5.1 work.start work=c:1 attempt=0
        """) == ["b:1 attempt 0 started at 0.2s, before its prerequisite a:1 succeeded"])
  }
}
