import BackgroundTraceCLI
import Foundation
import TestSupport
import Testing

/// `bgtrace explain PATH --why NAME`: one request's history (docs/cli.md), with a clear
/// error for a name the trace does not hold.
@Suite struct ExplainWhyCommandTests {
  private let demo = Repository.traces.appendingPathComponent("examples/demo.txt").path

  /// The demo's sync: two retries, then its third attempt, due at 96.2 s, waits in
  /// the app's in-process queue until the refresh launch wakes the app at 28434.133 s.
  @Test func theDemosSyncWaitsForTheAppToRun() {
    let result = run("explain", demo, "--why", "sync-1")
    #expect(result.status == .success)
    #expect(result.errors == "")
    #expect(
      result.output == """
        work sync-1
          2s: enqueued (policy keep; at most 3 retries; needs network).
          2.1s: attempt 0 started.
          4.1s: attempt 0 returned retry.
          4.1s to 34.1s (30s): not due: its backoff (30s) had not passed.
          34.2s: attempt 1 started.
          36.2s: attempt 1 returned retry.
          36.2s to 96.2s (60s): not due: its backoff (60s) had not passed.
          96.2s to 28434.133s (28337.933s): waited: the app was not running, and the work is in its own in-process queue.
          28434.133s: attempt 2 started.
          28436.133s: attempt 2 returned success.

        """)
  }

  /// An alarm: `alarm-exact-deferred`'s trace, a `setExact` alarm due at 4,000 s in deep
  /// Doze (from 3,600 s), which goes off when the maintenance window opens at 7,200 s;
  /// up to 5,000 s it has not gone off yet. AOSP `AlarmManagerService` holds it until
  /// `mPendingIdleUntil` (docs/platform-model.md, "Alarms").
  @Test func anAlarmDeepDozeHeldSaysWhy() {
    let fires = Repository.traces.appendingPathComponent("rules/alarm-exact-deferred.fires.txt").path
    let held =
      "deep Doze holds an alarm set with setExact (exact) until its maintenance window or its end "
      + "(AlarmManagerService: mPendingIdleUntil)."
    let result = run("explain", fires, "--why", "backup")
    #expect(result.status == .success)
    #expect(
      result.output == """
        alarm backup
          0s: set with setExact (exact), to go off at 4000s.
          4000s to 7200s (3200s): held: \(held)
          7200s: went off, 3200s after its time.

        """)
    let until = run("explain", fires, "--why", "backup", "--until", "5000")
    #expect(
      until.output == """
        alarm backup
          0s: set with setExact (exact), to go off at 4000s.
          4000s to the end at 5000s (1000s): not gone off: \(held)

        """)
  }

  /// The near miss's alarms: the allow-while-idle one goes off on time in deep Doze;
  /// the inexact one, due at 3,700 s, goes off at the window: its own window and deep
  /// Doze both held it.
  @Test func anInexactAlarmsWindowAndDozeAreBothSaid() {
    let nearMiss = Repository.traces.appendingPathComponent("rules/alarm-exact-deferred.near-miss.txt").path
    #expect(
      run("explain", nearMiss, "--why", "backup").output == """
        alarm backup
          0s: set with setExactAndAllowWhileIdle (exact-allow-while-idle), to go off at 4000s.
          4000s: went off on time.

        """)
    #expect(
      run("explain", nearMiss, "--why", "reminder").output == """
        alarm reminder
          0s: set with set (inexact), to go off at 3700s.
          3700s to 7200s (3500s): held: an inexact alarm may go off up to three quarters of the 3700s it was set \
        ahead after its time (at most an hour from Android 12); deep Doze holds an alarm set with set (inexact) until \
        its maintenance window or its end (AlarmManagerService: mPendingIdleUntil).
          7200s: went off, 3500s after its time.

        """)
  }

  @Test func untilStopsTheHistory() {
    let result = run("explain", demo, "--why", "com.example.refresh", "--until", "100")
    #expect(result.status == .success)
    #expect(
      result.output == """
        scheduler request com.example.refresh
          0s: submitted (refresh, earliest begin date 3600s).
          0s to the end at 100s (100s): not due: its earliest begin date (3600s) had not come.

        """)
  }

  /// `bgtrace explain PATH --why name` on `trace`, written to a file of its own.
  private func why(_ name: String, in trace: String) throws -> (
    status: BackgroundTraceCLI.ExitStatus, output: String, errors: String
  ) {
    let directory = try TemporaryDirectory()
    let path = directory.path("trace.txt")
    try Data(trace.utf8).write(to: URL(fileURLWithPath: path))
    return run("explain", path, "--why", name)
  }

  /// Periodic work with a next schedule time override waits for the override, not its
  /// initial delay (androidx `WorkSpec.calculateNextRunTime`).
  @Test func aScheduleOverrideIsWhatTheFirstRunWaitsFor() throws {
    let result = try why(
      "soon",
      in: """
        bgtrace 1
        meta platform=android
        0 app.launch
        0 work.enqueue work=soon period=900 policy=keep initial=600 override=60
        60.1 work.start work=soon attempt=0

        """)
    #expect(
      result.output == """
        work soon
          0s: enqueued (periodic, every 900s; initial delay 600s; next schedule time override 60s; policy keep).
          0s to 60s (60s): not due: its next schedule time override (60s) had not come.
          60.1s: attempt 0 started.

        """)
  }

  /// A work enqueued after others waits for them to succeed (androidx `BLOCKED`), and
  /// once the last has, for its own initial delay from then.
  @Test func aBlockedWorkWaitsForItsPrerequisites() throws {
    let result = try why(
      "c:1",
      in: """
        bgtrace 1
        meta platform=android
        0 app.launch
        0 work.enqueue work=a:1
        0 work.enqueue work=b:1
        0 work.enqueue work=c:1 initial=10
        0 work.after work=c:1 prerequisite=a:1
        0 work.after work=c:1 prerequisite=b:1
        0.1 work.start work=a:1 attempt=0
        0.1 work.start work=b:1 attempt=0
        4 work.result work=a:1 attempt=0 outcome=success
        6 work.result work=b:1 attempt=0 outcome=success
        16.1 work.start work=c:1 attempt=0

        """)
    #expect(
      result.output == """
        work c:1
          0s: enqueued (initial delay 10s).
          0s: runs only once a:1 has succeeded.
          0s: runs only once b:1 has succeeded.
          0s to 4s (4s): not due: its prerequisites a:1, b:1 had not succeeded.
          4s: its prerequisite a:1 succeeded.
          4s to 6s (2s): not due: its prerequisite b:1 had not succeeded.
          6s: its prerequisite b:1 succeeded.
          6s to 16s (10s): not due: its initial delay (10s) had not passed.
          16.1s: attempt 0 started.

        """)
  }

  @Test func aNameTheTraceDoesNotHoldIsBadInputNamingTheOnesItDoes() {
    let result = run("explain", demo, "--why", "sync")
    #expect(result.status == .badInput)
    #expect(result.output == "")
    #expect(
      result.errors
        == "bgtrace: \(demo) has no work, scheduler request or alarm named 'sync'; it names com.example.refresh, sync-1\n"
    )
  }

  @Test func whyAndAliveDoNotGoTogether() {
    let result = run("explain", demo, "--why", "sync-1", "--alive")
    #expect(result.status == .badInput)
    #expect(result.errors.contains("'--why' and '--alive' cannot be used together"))
  }

  /// A device log is imported in memory first: the PingWorker request the paho MQTT
  /// client enqueues as the capture ends, with what the log cannot tell.
  @Test func aDeviceLogIsImportedInMemory() {
    let log = Repository.traces.appendingPathComponent("import/android/studio-new-paho-pingworker-cancelled.log").path
    let result = run("explain", log, "--why", "792c6da1-ab12-4ae0-adae-c0f6f25b71eb")
    #expect(result.status == .success)
    #expect(
      result.output == """
        work 792c6da1-ab12-4ae0-adae-c0f6f25b71eb
          0.051s: enqueued.
          0.051s to the end at 0.051s (0s): still due, not started: this trace records no reasons (recorded on a device or imported from a log), so it cannot tell why.

        """)
    #expect(result.errors.hasPrefix("bgtrace: \(log): a device log ("))
  }
}
