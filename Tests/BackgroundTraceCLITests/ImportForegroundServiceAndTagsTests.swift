import BackgroundTraceImport
import Foundation
import TestSupport
import Testing

/// ActivityManager's foreground-service lines, the activity lifecycle's events and
/// WorkManager's work tags, imported from
/// hand-written lines in the formats their sources write (docs/import.md): the exact
/// trace each tells.
@Suite struct ImportForegroundServiceAndTagsTests {
  /// AOSP `services/core/java/com/android/server/am/ActiveServices.java`,
  /// `startServiceLocked`: `String msg = "startForegroundService() not allowed due to
  /// mAllowStartForeground false: service " + r.shortInstanceName; Slog.w(TAG, msg);`,
  /// then `throw new ForegroundServiceStartNotAllowedException(msg)` (Android 12 and
  /// later). The line is the system server's (pid 1383): it names the app by the
  /// service's package.
  @Test func aRefusedStartIsTheStartAndItsRefusal() throws {
    let log = """
      12-17 01:14:55.100  4321  4321 D WM-GreedyScheduler: Starting work for 0f0f7aa0-5012-4479-a593-58b2cc1cc621
      12-17 01:14:55.156  1383 12145 W ActivityManager: startForegroundService() not allowed due to mAllowStartForeground false: service com.example/.SyncService

      """
    let result = try imported(log, options: LogImportOptions(process: "com.example"))
    #expect(
      result.trace == """
        bgtrace 1
        meta platform=android source=android-log process=com.example attempts=from-first-start-seen
        0.056 fgs.start service=com.example/.SyncService
        0.056 fgs.refuse service=com.example/.SyncService reason=background

        """)
  }

  /// `ActiveServices.setServiceForegroundInnerLocked`: `"Service.startForeground() not
  /// allowed due to mAllowStartForeground false: service " + r.shortInstanceName`. The
  /// start came earlier (perhaps as a plain `startService`): only the refusal is written.
  @Test func aRefusedStartForegroundIsARefusalAlone() throws {
    let log = """
      12-17 01:14:55.156  1383 12145 W ActivityManager: Service.startForeground() not allowed due to mAllowStartForeground false: service com.example/com.example.sync.SyncService

      """
    let result = try imported(log)
    #expect(
      result.trace == """
        bgtrace 1
        meta platform=android source=android-log process=com.example attempts=from-first-start-seen
        0 fgs.refuse service=com.example/com.example.sync.SyncService reason=background

        """)
  }

  /// A service of a process that the log showed dying went with it: ActiveServices'
  /// later bring-down of it writes no event (and no launch of a process the log never
  /// showed starting).
  @Test func aServiceBroughtDownAfterItsProcessDiedWritesNothing() throws {
    let log = """
      11-27 00:18:40.000  1338  1367 I ActivityManager: Process com.example (pid 17708) has died: fg  SVC
      11-27 00:18:45.238  1338  1367 W ActivityManager: Bringing down service while still waiting for start foreground: ServiceRecord{2520e9 u0 com.example/.SyncService}

      """
    let result = try imported(log)
    #expect(
      result.trace == """
        bgtrace 1
        meta platform=android source=android-log process=com.example attempts=from-first-start-seen
        0 app.terminate reason=died

        """)
  }

  @Test func aBringDownLineThatNamesNoServiceDoesNotParse() throws {
    let log = """
      11-27 00:18:45.238  1338  1367 W ActivityManager: Bringing down service while still waiting for start foreground: ServiceRecord{2520e9}

      """
    #expect(throws: LogImportError.self) { try imported(log, options: LogImportOptions(strict: true)) }
    let result = try imported(log)
    #expect(result.summary.malformedLines == 1)
  }

  /// androidx `work/work-runtime/src/main/java/androidx/work/impl/WorkerWrapper.kt`:
  /// `createWorkDescription(tags) = "Work [ id=$workSpecId, tags={ ${tags.joinToString(",")} } ]"`,
  /// logged in `Worker result SUCCESS|RETRY|FAILURE for $workDescription`, `$workDescription
  /// was cancelled` and `$workDescription failed because it threw an exception/error`
  /// (loge: the attempt fails). Each line's tags are its event's `tags=`, as the line
  /// prints them.
  @Test func workTagsAreTheTagsFieldOfTheirLinesEvent() throws {
    let log = """
      03-02 00:27:58.500  4321  4400 D WM-GreedyScheduler: Starting work for 422e36a1-368e-4609-b77d-2bc7fef3d615
      03-02 00:27:58.596  4321  4400 E WM-WorkerWrapper: Work [ id=422e36a1-368e-4609-b77d-2bc7fef3d615, tags={ com.example.SyncWorker,sync } ] failed because it threw an exception/error
      03-02 00:27:59.000  4321  4400 I WM-WorkerWrapper: Worker result RETRY for Work [ id=31b50438-bc0a-42cc-a043-12503658cac0, tags={ com.example.UploadWorker } ]

      """
    let result = try imported(log)
    #expect(
      result.trace == """
        bgtrace 1
        meta platform=android source=android-log process="(unnamed)" attempts=from-first-start-seen
        0 work.start work=422e36a1-368e-4609-b77d-2bc7fef3d615 attempt=0
        0.096 work.result work=422e36a1-368e-4609-b77d-2bc7fef3d615 attempt=0 outcome=failure tags="com.example.SyncWorker,sync"
        0.5 work.result work=31b50438-bc0a-42cc-a043-12503658cac0 attempt=0 outcome=retry tags=com.example.UploadWorker

        """)
  }

  /// androidx `impl/Processor.java` logs `WorkerWrapper interrupted for $id` (DEBUG, no
  /// tags) when it stops a worker, and `WorkerWrapper.kt` then `$workDescription was
  /// cancelled` (INFO, with them) for the same stop, which is written once, at the first
  /// line: its tags are the ones the log prints for the work, even on a later line. A
  /// work no line prints tags for has none.
  @Test func aStopFromALineWithoutTagsTakesTheWorksTagsFromALaterLine() throws {
    let log = """
      03-02 00:27:58.500  4321  4400 D WM-GreedyScheduler: Starting work for 422e36a1-368e-4609-b77d-2bc7fef3d615
      03-02 00:27:58.600  4321  4400 D WM-Processor: WorkerWrapper interrupted for 422e36a1-368e-4609-b77d-2bc7fef3d615
      03-02 00:27:58.610  4321  4400 D WM-Processor: WorkerWrapper interrupted for 31b50438-bc0a-42cc-a043-12503658cac0
      03-02 00:27:58.700  4321  4400 I WM-WorkerWrapper: Work [ id=422e36a1-368e-4609-b77d-2bc7fef3d615, tags={ com.example.SyncWorker } ] was cancelled

      """
    let result = try imported(log)
    #expect(
      result.trace == """
        bgtrace 1
        meta platform=android source=android-log process="(unnamed)" attempts=from-first-start-seen
        0 work.start work=422e36a1-368e-4609-b77d-2bc7fef3d615 attempt=0
        0.1 work.stop work=422e36a1-368e-4609-b77d-2bc7fef3d615 attempt=0 reason=interrupted tags=com.example.SyncWorker
        0.11 work.stop work=31b50438-bc0a-42cc-a043-12503658cac0 attempt=0 reason=interrupted

        """)
  }

  /// `frameworks/base/core/java/android/app/EventLogTags.logtags`: `30059
  /// wm_on_start_called`, `30022 wm_on_resume_called`, `30021 wm_on_paused_called`,
  /// `30049 wm_on_stop_called`, each `(Token|1|5),(Component Name|3),(Reason|3),(time|2|3)`,
  /// written by the app's own process. The user opens a second activity, then goes home:
  /// active, inactive when the last resumed one pauses, background when the last started
  /// one stops. A start refused in the background is then judged as one; a bring-down
  /// while the log says the app is in the background writes nothing (its start was
  /// allowed, so it came while the app was visible or exempt, which the log does not
  /// tell).
  @Test func activityLifecycleLinesAreTheAppsStates() throws {
    // ActivityManager's `Start proc` names the app's pid, so that its own lines and the
    // system server's lines about its services are one app's.
    let log = """
      03-02 15:48:09.000  1383  1400 I ActivityManager: Start proc 9046:com.example/u0a123 for top-activity {com.example/com.example.Main}
      03-02 15:48:10.000  9046  9046 I wm_on_start_called: [Token=143069912,Component Name=com.example.Main,Reason=handleStartActivity,time=5ms]
      03-02 15:48:10.010  9046  9046 I wm_on_resume_called: [Token=143069912,Component Name=com.example.Main,Reason=RESUME_ACTIVITY,time=1ms]
      03-02 15:48:11.000  9046  9046 I wm_on_paused_called: [Token=143069912,Component Name=com.example.Main,Reason=performPause,time=1ms]
      03-02 15:48:11.100  9046  9046 I wm_on_start_called: [Token=251757025,Component Name=com.example.Settings,Reason=handleStartActivity,time=5ms]
      03-02 15:48:11.110  9046  9046 I wm_on_resume_called: [Token=251757025,Component Name=com.example.Settings,Reason=RESUME_ACTIVITY,time=1ms]
      03-02 15:48:11.500  9046  9046 I wm_on_stop_called: [Token=143069912,Component Name=com.example.Main,Reason=STOP_ACTIVITY_ITEM,time=1ms]
      03-02 15:48:20.000  9046  9046 I wm_on_paused_called: [Token=251757025,Component Name=com.example.Settings,Reason=performPause,time=1ms]
      03-02 15:48:20.400  9046  9046 I wm_on_stop_called: [Token=251757025,Component Name=com.example.Settings,Reason=STOP_ACTIVITY_ITEM,time=1ms]
      03-02 15:48:30.000  1383 12145 W ActivityManager: startForegroundService() not allowed due to mAllowStartForeground false: service com.example/.SyncService
      03-02 15:48:31.000  1383 12145 W ActivityManager: Bringing down service while still waiting for start foreground: ServiceRecord{2520e9 u0 com.example/.UploadService}

      """
    let result = try imported(log)
    #expect(
      result.trace == """
        bgtrace 1
        meta platform=android source=android-log process=com.example attempts=from-first-start-seen
        0 app.launch
        1.01 app.state to=active
        2 app.state to=inactive
        2.11 app.state to=active
        11 app.state to=inactive
        11.4 app.state to=background
        21 fgs.start service=com.example/.SyncService
        21 fgs.refuse service=com.example/.SyncService reason=background

        """)
    // The checker judges the refused start as one from the background: 9.6 s after the
    // app left the foreground, past the 5 s grace.
    let directory = try TemporaryDirectory()
    let path = directory.path("lifecycle.txt")
    try result.trace.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(
      run("check", path).output == """
        \(path):9: error: foreground service com.example/.SyncService was started while the app was in the background on android 16: startForegroundService throws ForegroundServiceStartNotAllowedException [fgs-started-in-background]

        """)
  }
}
