import BackgroundTraceImport
import TestSupport
import Testing

/// One test per log style `bgtrace import` reads: hand-written lines in the style, and
/// the exact trace they tell (docs/import.md).
@Suite struct ImportStyleTests {
  @Test func xcodeConsoleLinesWithAndWithoutTheirHeader() throws {
    let log = """
      Could not schedule app refresh: Error Domain=BGTaskSchedulerErrorDomain Code=1 "(null)"
      2023-01-10 17:43:20.000000+0000 MyApp[381:1028] [BackgroundTask] Created background task <_UIBackgroundTaskInfo: 0x280883b00>: taskID = 4, taskName = Upload, creationTime = 943356 (elapsed = 0).
      2023-01-10 17:43:21.500000+0000 MyApp[381:1028] [BackgroundTask] Ending background task with UIBackgroundTaskIdentifier: 4
      2023-01-10 17:43:21.500100+0000 MyApp[381:1028] [BackgroundTask] Ending task with identifier 4 and description: <_UIBackgroundTaskInfo: 0x280883b00>: taskID = 4, taskName = Upload, creationTime = 943356 (elapsed = 1), _expireHandler: <__NSMallocBlock__: 0x2818e4f60>
      2023-01-10 17:43:22.250000+0000 MyApp[381:1028] Can't end BackgroundTask: no background task exists with identifier 4 (0x4), or it may have already been ended. Break in UIApplicationEndBackgroundTaskError() to debug.

      """
    let result = try imported(log)
    #expect(
      result.trace == """
        bgtrace 1
        meta platform=ios source=ios-log process=MyApp
        0 task.begin id=4 name=Upload
        1.5 task.end id=4
        2.25 task.end id=4

        """)
    #expect(result.summary.styles.map(\.style) == [.xcodeConsole])
  }

  @Test func logShowDefaultStyleWithItsHeaderAndZones() throws {
    // Two zones: 10:00:00-0700 is 17:00:00 UTC, 19:00:05+0200 is 17:00:05 UTC.
    let log = """
      Filtering the log data using "subsystem == "com.apple.BackgroundTasks""
      Timestamp                       Thread     Type        Activity             PID    TTL
      2024-03-01 10:00:00.000000-0700 0x1a2b3c   Default     0x0                  1234   0    Refresh: (BackgroundTasks) [com.apple.BackgroundTasks:Framework] Running task: <BGAppRefreshTask: com.example.refresh>
      2024-03-01 10:00:00.000200-0700 0x1a2b3c   Default     0x0                  1234   0    Refresh: (BackgroundTasks) [com.apple.BackgroundTasks:Framework] Starting task: <BGAppRefreshTask: com.example.refresh>
      2024-03-01 10:00:02.000000-0700 0x1a2b3d   Default     0x0                  1234   0    Refresh: (BackgroundTasks) [com.apple.BackgroundTasks:Framework] submitTaskRequest: <BGAppRefreshTaskRequest: com.example.refresh, earliestBeginDate: 2024-03-01 17:15:00 +0000>
      2024-03-01 19:00:05.000000+0200 0x1a2b3d   Default     0x0                  1234   0    Refresh: (BackgroundTasks) [com.apple.BackgroundTasks:Framework] Marking task <BGAppRefreshTask: com.example.refresh> complete with success: 1
      --------------------------------------------------------------------------------------------------------------------

      """
    let result = try imported(log)
    #expect(
      result.trace == """
        bgtrace 1
        meta platform=ios source=ios-log process=Refresh
        0 sched.register ident=com.example.refresh
        0 sched.launch ident=com.example.refresh run=1
        2 sched.submit ident=com.example.refresh type=refresh
        5 sched.complete run=1 success=true

        """)
    #expect(result.summary.styles.map(\.style) == [.logShowDefault])
  }

  @Test func logShowCompactStyle() throws {
    let log = """
      Timestamp               Ty Process[PID:TID]
      2026-10-01 07:40:20.169 Df Notes App[24946:12c59] [com.apple.dt.xctest:Default] Registering for test daemon availability notify post.
      2026-10-01 07:40:58.627 E  Notes App[24946:12c59] [com.apple.UIKit:BackgroundTask] Background Task 3 ("Saving library"), was created over 30 seconds ago. In applications running in the background, this creates a risk of termination. Remember to call UIApplication.endBackgroundTask(_:) for your task in a timely manner to avoid this.
      2026-10-01 07:41:00.169 Db Notes App[24946:12c59] [com.apple.UIKit:BackgroundTask] Calling expiration handler for task: <_UIBackgroundTaskInfo: 0x2808e8bc0>: taskID = 3, taskName = Saving library, creationTime = 943345 (elapsed = 40)

      """
    let result = try imported(log)
    #expect(
      result.trace == """
        bgtrace 1
        meta platform=ios source=ios-log process="Notes App"
        38.458 task.begin id=3 name="Saving library"
        40 task.expire id=3

        """)
    #expect(result.summary.styles.map(\.style) == [.logShowCompact])
  }

  @Test func logShowSyslogStyle() throws {
    let log = """
      2024-03-01 10:00:00.000000-0700  localhost Sync[77]: (UIKitCore) [com.apple.UIKit:BackgroundTask] Created background task <_UIBackgroundTaskInfo: 0x1>: taskID = 9, taskName = <private>, creationTime = 5 (elapsed = 0).
      2024-03-01 10:00:04.000000-0700  localhost Sync[77]: (UIKitCore) [com.apple.UIKit:BackgroundTask] Ending background task with UIBackgroundTaskIdentifier: 9

      """
    let result = try imported(log)
    #expect(
      result.trace == """
        bgtrace 1
        meta platform=ios source=ios-log process=Sync
        0 task.begin id=9 name="<private>"
        4 task.end id=9

        """)
    #expect(result.summary.styles.map(\.style) == [.logShowSyslog])
  }

  @Test func logShowJSONAndNDJSONStyles() throws {
    let pretty = """
      [{
        "traceID" : 4,
        "eventMessage" : "Created background task <_UIBackgroundTaskInfo: 0x1>: taskID = 2, taskName = \\"Save\\", creationTime = 5 (elapsed = 0).",
        "processImagePath" : "/private/var/containers/Bundle/Application/X/Docs.app/Docs",
        "subsystem" : "com.apple.UIKit",
        "category" : "BackgroundTask",
        "processID" : 501,
        "timestamp" : "2024-03-01 10:00:00.250000-0700"
      },{
        "eventMessage" : "Ending background task with UIBackgroundTaskIdentifier: 2",
        "processImagePath" : "/private/var/containers/Bundle/Application/X/Docs.app/Docs",
        "subsystem" : "com.apple.UIKit",
        "category" : "BackgroundTask",
        "processID" : 501,
        "timestamp" : "2024-03-01 10:00:01.000000-0700"
      }]

      """
    let expected = """
      bgtrace 1
      meta platform=ios source=ios-log process=Docs
      0 task.begin id=2 name="\\"Save\\""
      0.75 task.end id=2

      """
    let result = try imported(pretty)
    #expect(result.trace == expected)
    #expect(result.summary.styles.map(\.style) == [.logShowJSON])

    let ndjson = """
      {"eventMessage":"Created background task <_UIBackgroundTaskInfo: 0x1>: taskID = 2, taskName = \\"Save\\", creationTime = 5 (elapsed = 0).","processImagePath":"/A/Docs","subsystem":"com.apple.UIKit","category":"BackgroundTask","processID":501,"timestamp":"2024-03-01 10:00:00.250000-0700"}
      {"eventMessage":"Ending background task with UIBackgroundTaskIdentifier: 2","processImagePath":"/A/Docs","subsystem":"com.apple.UIKit","category":"BackgroundTask","processID":501,"timestamp":"2024-03-01 10:00:01.000000-0700"}

      """
    #expect(try imported(ndjson).trace == expected)

    // Two objects ended on one line (a compact array): both are read.
    let oneLine = "[" + ndjson.split(separator: "\n").joined(separator: ",") + "]\n"
    #expect(try imported(oneLine).trace == expected)
  }

  static let workLines = [
    "D WM-SystemJobScheduler: Scheduling work ID 9b6d0618-f951-4dfc-92a8-38c1e902c481Job ID 33",
    "D WM-GreedyScheduler: Starting work for 9b6d0618-f951-4dfc-92a8-38c1e902c481",
    "I WM-WorkerWrapper: Worker result RETRY for Work [ id=9b6d0618-f951-4dfc-92a8-38c1e902c481, tags={ com.example.SyncWorker } ]",
  ]

  static let workTrace = """
    bgtrace 1
    meta platform=android source=android-log process=com.example attempts=from-first-start-seen
    0 work.enqueue work=9b6d0618-f951-4dfc-92a8-38c1e902c481
    0.5 work.start work=9b6d0618-f951-4dfc-92a8-38c1e902c481 attempt=0
    2 work.result work=9b6d0618-f951-4dfc-92a8-38c1e902c481 attempt=0 outcome=retry tags=com.example.SyncWorker

    """

  @Test func logcatThreadtime() throws {
    let log = """
      --------- beginning of main
      12-31 23:59:59.000  7035  7050 \(Self.workLines[0])
      12-31 23:59:59.500  7035  7050 \(Self.workLines[1])
      01-01 00:00:01.000  7035  7051 \(Self.workLines[2])
      01-01 00:00:02.000  1500  1510 I ActivityManager: Process com.example (pid 7035) has died: cch+5 CEM

      """
    let result = try imported(log)
    // Across the year boundary: 12-31 23:59:59 to 01-01 00:00:01 is 2 s.
    #expect(result.trace == Self.workTrace + "3 app.terminate reason=died\n")
    #expect(result.summary.styles.map(\.style) == [.logcatThreadtime])
  }

  @Test func logcatYearAndEpoch() throws {
    let year = """
      2024-02-29 10:00:00.000  7035  7050 \(Self.workLines[0])
      2024-02-29 10:00:00.500  7035  7050 \(Self.workLines[1])
      2024-02-29 10:00:02.000  7035  7051 \(Self.workLines[2])
      2024-02-29 10:00:03.000  1500  1510 I ActivityManager: Killing 7035:com.example/u0a123 (adj 900): SwipeUpClean

      """
    var result = try imported(year)
    #expect(result.trace == Self.workTrace + "3 app.terminate reason=\"killed: SwipeUpClean\"\n")
    #expect(result.summary.styles.map(\.style) == [.logcatYear])

    let epoch = """
      1709200800.000  7035  7050 \(Self.workLines[0])
      1709200800.500  7035  7050 \(Self.workLines[1])
      1709200802.000  7035  7051 \(Self.workLines[2])
      1709200803.000  1500  1510 I ActivityManager: Process com.example (pid 7035) has died: fg TOP

      """
    result = try imported(epoch)
    #expect(result.trace == Self.workTrace + "3 app.terminate reason=died\n")
    #expect(result.summary.styles.map(\.style) == [.logcatEpoch])
  }

  @Test func logcatBriefHasNoTimes() throws {
    let log = """
      I/ActivityManager( 1500): Start proc 7035:com.example/u0a123 for service {com.example/androidx.work.impl.background.systemjob.SystemJobService}
      D/WM-SystemJobScheduler( 7035): Scheduling work ID 9b6d0618-f951-4dfc-92a8-38c1e902c481Job ID 33
      D/WM-Processor( 7035): Processor: processing WorkGenerationalId(workSpecId=9b6d0618-f951-4dfc-92a8-38c1e902c481, generation=0)
      I/WM-WorkerWrapper( 7035): Worker result SUCCESS for Work [ id=9b6d0618-f951-4dfc-92a8-38c1e902c481, tags={ com.example.SyncWorker } ]

      """
    let result = try imported(log)
    #expect(
      result.trace == """
        bgtrace 1
        meta platform=android source=android-log process=com.example attempts=from-first-start-seen
        0 app.launch
        0 work.enqueue work=9b6d0618-f951-4dfc-92a8-38c1e902c481
        0 work.start work=9b6d0618-f951-4dfc-92a8-38c1e902c481 attempt=0
        0 work.result work=9b6d0618-f951-4dfc-92a8-38c1e902c481 attempt=0 outcome=success tags=com.example.SyncWorker

        """)
    #expect(result.summary.styles.map(\.style) == [.logcatBrief])
  }

  @Test func logcatTimeAndLong() throws {
    let time = """
      03-02 00:27:58.000 D/WM-SystemJobScheduler( 7035): Scheduling work ID 9b6d0618-f951-4dfc-92a8-38c1e902c481Job ID 33
      03-02 00:27:58.500 D/WM-GreedyScheduler( 7035): Starting work for 9b6d0618-f951-4dfc-92a8-38c1e902c481
      03-02 00:28:00.000 I/WM-WorkerWrapper( 7035): Worker result RETRY for Work [ id=9b6d0618-f951-4dfc-92a8-38c1e902c481, tags={ com.example.SyncWorker } ]
      03-02 00:28:01.000 I/ActivityManager( 1500): Process com.example (pid 7035) has died: cch+5 CEM

      """
    var result = try imported(time)
    #expect(result.trace == Self.workTrace + "3 app.terminate reason=died\n")
    #expect(result.summary.styles.map(\.style) == [.logcatTime])

    let long = """
      [ 03-02 00:27:58.000  7035: 7050 D/WM-SystemJobScheduler ]
      Scheduling work ID 9b6d0618-f951-4dfc-92a8-38c1e902c481Job ID 33

      [ 03-02 00:27:58.500  7035: 7050 D/WM-GreedyScheduler ]
      Starting work for 9b6d0618-f951-4dfc-92a8-38c1e902c481

      [ 03-02 00:28:00.000  7035: 7051 I/WM-WorkerWrapper ]
      Worker result RETRY for Work [ id=9b6d0618-f951-4dfc-92a8-38c1e902c481, tags={ com.example.SyncWorker } ]

      [ 03-02 00:28:01.000  1500: 1510 I/ActivityManager ]
      Process com.example (pid 7035) has died: cch+5 CEM

      """
    result = try imported(long)
    #expect(result.trace == Self.workTrace + "3 app.terminate reason=died\n")
    #expect(result.summary.styles.map(\.style) == [.logcatLong])
  }

  /// WorkManager before 1.0.0-beta01 logged under its class names, without `WM-`
  /// (androidx commit 38e7c6ab52, 2018-12-13, added the prefix), and until 1.0.0-alpha05
  /// named a result's work by its id alone (WorkerWrapper:
  /// `Log.d(TAG, String.format("Worker result %s for %s", …, mWorkSpecId))`). They are
  /// read as the prefixed tags' in every style; `Processor` is not read. The verbatim
  /// excerpts are `Traces/import/android/*-prefixless-*`.
  @Test func workManagerBeforeItsPrefix() throws {
    let long = """
      [ 03-02 00:27:58.000  7035: 7050 D/SystemJobScheduler ]
      Scheduling work ID 9b6d0618-f951-4dfc-92a8-38c1e902c481 Job ID 33

      [ 03-02 00:27:58.500  7035: 7050 D/SystemJobService ]
      onStartJob for 9b6d0618-f951-4dfc-92a8-38c1e902c481

      [ 03-02 00:27:58.600  7035: 7050 D/Processor ]
      Processor: processing 9b6d0618-f951-4dfc-92a8-38c1e902c481

      [ 03-02 00:28:00.000  7035: 7051 D/WorkerWrapper ]
      Worker result RETRY for 9b6d0618-f951-4dfc-92a8-38c1e902c481

      [ 03-02 00:28:01.000  1500: 1510 I/ActivityManager ]
      Process com.example (pid 7035) has died: cch+5 CEM

      """
    let result = try imported(long)
    #expect(
      result.trace == """
        bgtrace 1
        meta platform=android source=android-log process=com.example attempts=from-first-start-seen
        0 work.enqueue work=9b6d0618-f951-4dfc-92a8-38c1e902c481
        0.5 work.start work=9b6d0618-f951-4dfc-92a8-38c1e902c481 attempt=0
        2 work.result work=9b6d0618-f951-4dfc-92a8-38c1e902c481 attempt=0 outcome=retry
        3 app.terminate reason=died

        """)
    #expect(result.summary.styles.map(\.style) == [.logcatLong])
  }

  @Test func androidStudioLogcatCopies() throws {
    let studio = """
      2024-11-29 07:48:54.000  7035-7050  WM-SystemJobScheduler   com.example                          D  Scheduling work ID 9b6d0618-f951-4dfc-92a8-38c1e902c481Job ID 33
      2024-11-29 07:48:54.500  7035-7050  WM-GreedyScheduler      com.example                          D  Starting work for 9b6d0618-f951-4dfc-92a8-38c1e902c481
      2024-11-29 07:48:56.000  7035-7051  WM-WorkerWrapper                                             I  Worker result RETRY for Work [ id=9b6d0618-f951-4dfc-92a8-38c1e902c481, tags={ com.example.SyncWorker } ]
                                                                      androidx.work.impl.WorkerStoppedException

      """
    var result = try imported(studio)
    #expect(result.trace == Self.workTrace)
    #expect(result.summary.styles.map(\.style) == [.androidStudio])

    let legacy = """
      2020-12-22 18:45:43.000 7035-7050/com.example D/WM-SystemJobScheduler: Scheduling work ID 9b6d0618-f951-4dfc-92a8-38c1e902c481 Job ID 0
      2020-12-22 18:45:43.500 7035-7050/com.example D/WM-GreedyScheduler: Starting work for 9b6d0618-f951-4dfc-92a8-38c1e902c481
      2020-12-22 18:45:45.000 7035-7051/com.example I/WM-WorkerWrapper: Worker result RETRY for Work [ id=9b6d0618-f951-4dfc-92a8-38c1e902c481, tags={ com.example.SyncWorker } ]

      """
    result = try imported(legacy)
    #expect(result.trace == Self.workTrace)
    #expect(result.summary.styles.map(\.style) == [.androidStudioLegacy])
  }
}
