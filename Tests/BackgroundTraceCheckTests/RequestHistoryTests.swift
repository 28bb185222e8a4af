import BackgroundTrace
import BackgroundTraceCheck
import Foundation
import TestSupport
import Testing

/// ``RequestHistory`` on traces that record no reasons (a device's, an imported log's):
/// what their other events let it infer, and what it cannot tell, said as such. The
/// simulation's recorded reasons are `WaitReasonTests`' (BackgroundSimulationTests).
@Suite struct RequestHistoryTests {
  private func trace(_ path: String) throws -> RecordedTrace {
    let url = Repository.traces.appendingPathComponent(path)
    return try RecordedTrace(text: try String(contentsOf: url, encoding: .utf8), file: path)
  }

  /// Traces/examples/refresh-from-a-device.txt: due at 60 s, in the foreground until
  /// 100 s (40 s of the wait), launched at 500 s; why the other 400 s, only iOS knows.
  @Test func aDeviceTraceSaysWhatItCanInferAndNamesTheRest() throws {
    let history = try #require(
      RequestHistory(of: "com.example.refresh", in: trace("examples/refresh-from-a-device.txt")))
    #expect(!history.recordsReasons)
    #expect(
      history.lines == [
        "scheduler request com.example.refresh",
        "  0s: submitted (refresh, earliest begin date 60s).",
        "  0s to 60s (60s): not due: its earliest begin date (60s) had not come.",
        "  60s to 500s (440s): due, not started: the app was in the foreground for 40s of it, and scheduled tasks "
          + "launch only in the background; this trace records no reasons (recorded on a device or imported from a "
          + "log), so it cannot tell what else held it.",
        "  500s: launched as run 1.",
        "  500s: submitted (refresh, earliest begin date 4100s).",
        "  500s to the end at 508s (8s): not due: its earliest begin date (4100s) had not come.",
        "  505s: run 1 completed (success=true).",
      ])
  }

  /// Traces/import/android/studio-new-paho-pingworker-cancelled: the app cancels the
  /// PingWorker, WorkManager interrupts its attempt, and a new request is enqueued as
  /// the capture ends, not started: the log does not say why.
  @Test func anImportedLogNamesWhatItCannotTell() throws {
    let trace = try trace("import/android/studio-new-paho-pingworker-cancelled.expected.txt")
    #expect(
      RequestHistory(of: "40669dfb-b0cf-4f14-8c9c-2aeadc2ccb4e", in: trace)?.lines == [
        "work 40669dfb-b0cf-4f14-8c9c-2aeadc2ccb4e",
        "  0.018s: the app cancelled it.",
        "  0.024s: attempt 0 stopped: the log says it was stopped, not why (Processor's "
          + "\"WorkerWrapper interrupted for\", or a job history stop that names no STOP_REASON).",
      ])
    #expect(
      RequestHistory(of: "792c6da1-ab12-4ae0-adae-c0f6f25b71eb", in: trace)?.lines == [
        "work 792c6da1-ab12-4ae0-adae-c0f6f25b71eb",
        "  0.051s: enqueued.",
        "  0.051s to the end at 0.051s (0s): still due, not started: this trace records no reasons (recorded on a "
          + "device or imported from a log), so it cannot tell why.",
      ])
  }

  /// `--until` cuts the history: a wait still open there is said to run to that end.
  @Test func untilCutsTheHistory() throws {
    let history = try #require(
      RequestHistory(
        of: "com.example.refresh", in: trace("examples/refresh-from-a-device.txt"), until: TraceTime(seconds: 200)))
    #expect(
      history.lines.last
        == "  60s to the end at 200s (140s): still due, not started: the app was in the foreground for 40s of it, "
        + "and scheduled tasks launch only in the background; this trace records no reasons (recorded on a device "
        + "or imported from a log), so it cannot tell what else held it.")
  }

  /// A force stop in a trace that records no reasons (`app.terminate
  /// reason=force-stopped`, as `bgtrace import` writes for ActivityManager's `Force
  /// stopping` line): the work's attempt 1 is due at 31 s (the 30 s backoff from its
  /// enqueue at 1 s), and the app stays stopped until it is launched at 100 s, all
  /// 69 s of the wait.
  @Test func aForceStopIsNamedInTheWaitItExplains() throws {
    let trace = try RecordedTrace(
      text: """
        bgtrace 1
        meta platform=android
        0 app.launch
        1 work.enqueue work=sync
        1.1 work.start work=sync attempt=0
        10 app.terminate reason=force-stopped
        10 work.stop work=sync attempt=0 reason=terminated
        100 app.launch
        100 work.start work=sync attempt=1
        130 work.result work=sync attempt=1 outcome=success

        """, file: "force-stop.txt")
    let history = try #require(RequestHistory(of: "sync", in: trace))
    #expect(
      history.lines.contains(
        "  31s to 100s (69s): due, not started: the user had force-stopped the app for all of it, and Android runs "
          + "none of a stopped app's work until the user opens it; this trace records no reasons (recorded on a "
          + "device or imported from a log), so it cannot tell what else held it."), "\(history.lines)")
  }

  @Test func aNameTheTraceDoesNotHoldHasNoHistory() throws {
    let trace = try trace("examples/refresh-from-a-device.txt")
    #expect(RequestHistory(of: "com.example.other", in: trace) == nil)
    #expect(RequestHistory.names(in: trace) == ["com.example.refresh"])
  }
}

/// A wait for the job quota names the standby bucket the trace last recorded
/// (`env.set bucket=`, docs/platform-model.md, "Standby buckets follow use").
@Suite struct RequestHistoryBucketTests {
  /// Rare since 172,860 s: the second period, due at 173,560.2 s, waits until the first
  /// run's ten minutes age out of the rare bucket's 24-hour window.
  @Test func aQuotaWaitNamesTheBucket() throws {
    let trace = try RecordedTrace(
      text: """
        bgtrace 1
        meta platform=android
        0 app.launch
        0 work.enqueue work=sync period=900
        172860 env.set bucket=rare
        172860.1 work.start work=sync attempt=0
        173460.1 work.result work=sync attempt=0 outcome=success
        174360.1 work.wait work=sync reasons=quota
        259260.1 work.start work=sync attempt=0

        """)
    let history = try #require(RequestHistory(of: "sync", in: trace))
    #expect(
      history.lines.contains(
        "  174360.1s to 259260.1s (84900s): waited: the app had spent the job quota of its standby bucket "
          + "(rare since 172860s)."))
  }
}
