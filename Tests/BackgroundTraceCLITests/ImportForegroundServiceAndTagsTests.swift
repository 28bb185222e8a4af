import BackgroundTraceImport
import Testing

/// ActivityManager's foreground-service lines and WorkManager's work tags, imported from
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
  /// (loge: the attempt fails). Each line's tags follow its event as a `mark`.
  @Test func workTagsAreKeptAsAMarkAfterTheirLinesEvent() throws {
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
        0.096 work.result work=422e36a1-368e-4609-b77d-2bc7fef3d615 attempt=0 outcome=failure
        0.096 mark label="work 422e36a1-368e-4609-b77d-2bc7fef3d615 tags: com.example.SyncWorker,sync"
        0.5 work.result work=31b50438-bc0a-42cc-a043-12503658cac0 attempt=0 outcome=retry
        0.5 mark label="work 31b50438-bc0a-42cc-a043-12503658cac0 tags: com.example.UploadWorker"

        """)
  }
}
