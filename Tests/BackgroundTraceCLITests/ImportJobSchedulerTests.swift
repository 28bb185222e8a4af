import BackgroundTraceCLI
import Foundation
import TestSupport
import Testing

/// `adb shell dumpsys jobscheduler`: each job of the app is its work `job-ID`, enqueued
/// at its `Enqueue time:`, and a due job's unsatisfied constraints are the reasons it
/// waits at the dump's moment (docs/import.md, "Android: dumpsys jobscheduler"). The
/// verbatim dump is `Traces/import/android/dumpsys-jobscheduler-so-within-quota.log`
/// (Android 11), which `ImportExcerptTests` imports.
@Suite struct ImportJobSchedulerTests {
  /// Two jobs in the layout of developer.android.com's "Debug WorkManager" page
  /// (Android 9 and 10's `JobStatus.dump`): job 4 waits for its minimum latency
  /// (`TIMING_DELAY`: not due, so no reason is written, the enqueue says until when it
  /// is not due) and a network; job 7, enqueued 10 min before the dump and due, waits
  /// for `CONNECTIVITY` and `DEVICE_NOT_DOZING`: a network and the end of Doze. Job 4
  /// was enqueued 51 min 29.853 s before the dump: the trace's 0.
  @Test func aJobNotYetDueHasNoReasonAndADueOneWaits() throws {
    let dump = """
      JOB #u0a172/4: 6412553 com.google.android.youtube/androidx.work.impl.background.systemjob.SystemJobService
        u0a172 tag=*job*/com.google.android.youtube/androidx.work.impl.background.systemjob.SystemJobService
        Source: uid=u0a172 user=0 pkg=com.google.android.youtube
        Required constraints: TIMING_DELAY CONNECTIVITY [0x90000000]
        Satisfied constraints: DEVICE_NOT_DOZING BACKGROUND_NOT_RESTRICTED WITHIN_QUOTA [0x3400000]
        Unsatisfied constraints: TIMING_DELAY CONNECTIVITY [0x90000000]
        Standby bucket: RARE
        Enqueue time: -51m29s853ms
        Run time: earliest=+38m29s834ms, latest=none, original latest=none
      JOB #u0a172/7: 1b2c3d4 com.google.android.youtube/androidx.work.impl.background.systemjob.SystemJobService
        u0a172 tag=*job*/com.google.android.youtube/androidx.work.impl.background.systemjob.SystemJobService
        Source: uid=u0a172 user=0 pkg=com.google.android.youtube
        Required constraints: CONNECTIVITY [0x10000000]
        Satisfied constraints: BACKGROUND_NOT_RESTRICTED WITHIN_QUOTA [0x1400000]
        Unsatisfied constraints: CONNECTIVITY DEVICE_NOT_DOZING [0x12000000]
        Standby bucket: RARE
        Enqueue time: -10m0s0ms
        Run time: earliest=none, latest=none, original latest=none

      """
    let (path, result) = try Self.importDump(dump)
    #expect(
      result.output == """
        bgtrace 1
        meta platform=android source=android-log process=com.google.android.youtube attempts=from-first-start-seen
        0 work.enqueue work=job-4 # from \(path):1
        2489.853 work.enqueue work=job-7 # from \(path):10
        3089.853 work.wait work=job-7 reasons=network+doze # from \(path):10

        """)
  }

  /// Beside a logcat, the dump is taken as the capture ended: its moment is the time of
  /// the last line the import read of the logcat (PackageManager's at 23:11:47.129,
  /// 10,281.798 s in; the two after it are skipped unread). Job 3 was enqueued 2 min
  /// before it; job 2, 4 h before, before the logcat's first line (20:20:25.331), is
  /// written at its start.
  @Test func besideALogcatTheDumpIsTakenAsTheCaptureEnded() throws {
    let logcat = "Traces/import/android/time-nextcloud-start-proc-for-jobservice.log"
    let dump = """
      JOB #u0a396/2: 1a2b3c4 com.nextcloud.talk2/androidx.work.impl.background.systemjob.SystemJobService
        Source: uid=u0a396 user=0 pkg=com.nextcloud.talk2
        Unsatisfied constraints: WITHIN_QUOTA [0x1000000]
        Enqueue time: -4h0m0s0ms
      JOB #u0a396/3: 9f8e7d6 com.nextcloud.talk2/androidx.work.impl.background.systemjob.SystemJobService
        Source: uid=u0a396 user=0 pkg=com.nextcloud.talk2
        Unsatisfied constraints: CONNECTIVITY [0x10000000]
        Enqueue time: -2m0s0ms

      """
    let (path, result) = try Self.importDump(dump, beside: Repository.path(logcat))
    #expect(
      result.output.replacingOccurrences(of: Repository.root.path + "/", with: "") == """
        bgtrace 1
        meta platform=android source=android-log process=com.nextcloud.talk2 attempts=from-first-start-seen
        0 work.enqueue work=job-2 # from \(path):1
        10161.798 work.enqueue work=job-3 # from \(path):5
        10281.561 app.launch # from \(logcat):3
        10281.798 work.wait work=job-2 reasons=quota # from \(path):1
        10281.798 work.wait work=job-3 reasons=network # from \(path):5

        """)
  }

  /// The start of each job-link logcat, verbatim pieces: the `Start proc` line of
  /// `time-nextcloud-start-proc-for-jobservice.log`, and WorkManager 2.7's scheduling
  /// line of `threadtime-lavender-cancel-reschedule.log` (no space before `Job`), here
  /// for job 594 in the same process.
  static let linkingLogcat = """
    10-22 23:11:46.892 I/ActivityManager( 1703): Start proc 26104:com.nextcloud.talk2/u0a396 for service {com.nextcloud.talk2/androidx.work.impl.background.systemjob.SystemJobService} caller=android
    10-22 23:11:47.310 D/WM-SystemJobScheduler(26104): Scheduling work ID 31e42591-8154-4aee-a198-8bd7e37d8515Job ID 594
    """

  /// The dump's job 594, waiting for its network, up to its enqueue time.
  static let job594 = """
    JOB #u0a396/594: 9f8e7d6 com.nextcloud.talk2/androidx.work.impl.background.systemjob.SystemJobService
      Source: uid=u0a396 user=0 pkg=com.nextcloud.talk2
      Unsatisfied constraints: CONNECTIVITY [0x10000000]
    """

  /// Beside a logcat whose WorkManager printed `Scheduling work ID ID Job ID N`
  /// (SystemJobScheduler, at DEBUG), job N's records are about that work: job 594 is
  /// the work 31e42591-…, whose enqueue the dump gives first (0.2 s before the dump's
  /// moment, the logcat's last line at 0.418 s), so the logcat's own line adds nothing;
  /// job 595, which no line links, stays `job-595`. The pair is built from verbatim
  /// pieces (``linkingLogcat``).
  @Test func aJobLinkedByTheLogcatIsItsWork() throws {
    let folder = try TraceFolder()
    let logcat = try folder.write(Self.linkingLogcat + "\n", to: "logcat.txt")
    let dump = """
      \(Self.job594)
        Enqueue time: -0s200ms
      JOB #u0a396/595: 1a2b3c4 com.nextcloud.talk2/androidx.work.impl.background.systemjob.SystemJobService
        Source: uid=u0a396 user=0 pkg=com.nextcloud.talk2
        Unsatisfied constraints: WITHIN_QUOTA [0x1000000]
        Enqueue time: -0s100ms

      """
    let (path, result) = try Self.importDump(dump, beside: logcat)
    #expect(
      result.output == """
        bgtrace 1
        meta platform=android source=android-log process=com.nextcloud.talk2 attempts=from-first-start-seen
        0 app.launch # from \(logcat):1
        0.218 work.enqueue work=31e42591-8154-4aee-a198-8bd7e37d8515 # from \(path):1
        0.318 work.enqueue work=job-595 # from \(path):5
        0.418 work.wait work=31e42591-8154-4aee-a198-8bd7e37d8515 reasons=network # from \(path):1
        0.418 work.wait work=job-595 reasons=quota # from \(path):5

        """)
  }

  /// Two of the logcat's lines link job 594 to two works (two apps, or two devices'
  /// logs given as one): the link is ambiguous, and the job stays `job-594`. The dump's
  /// moment is the logcat's last line, PackageManager's at 0.536 s.
  @Test func aJobLinkedToTwoWorksStaysAJob() throws {
    let folder = try TraceFolder()
    let logcat = try folder.write(
      """
      \(Self.linkingLogcat)
      10-22 23:11:47.410 D/SystemJobScheduler(26104): Scheduling work ID 78e95445-4759-4cfa-ade6-3dea7c66ae32 Job ID 594
      10-22 23:11:47.428 D/PackageManager( 1703): set app  component=com.nextcloud.talk2/androidx.work.impl.background.systemalarm.RescheduleReceiver enabled state: 1 from null,uid=10396,pid=26104

      """, to: "logcat.txt")
    let dump = """
      \(Self.job594)
        Enqueue time: -0s218ms

      """
    let (path, result) = try Self.importDump(dump, beside: logcat)
    #expect(
      result.output == """
        bgtrace 1
        meta platform=android source=android-log process=com.nextcloud.talk2 attempts=from-first-start-seen
        0 app.launch # from \(logcat):1
        0.318 work.enqueue work=job-594 # from \(path):1
        0.418 work.enqueue work=31e42591-8154-4aee-a198-8bd7e37d8515 # from \(logcat):2
        0.518 work.enqueue work=78e95445-4759-4cfa-ade6-3dea7c66ae32 # from \(logcat):3
        0.536 work.wait work=job-594 reasons=network # from \(path):1

        """)
  }

  /// Android 7's job history names the app's uid and the job's service, not the job
  /// (`JobPackageTracker.dumpHistory` in Nougat: `START: u0a71 TAG`), and every
  /// WorkManager job of an app runs one service: its entries are not read, and the
  /// summary counts them as such, where they were once lines "not in the log's style".
  /// The six entries are verbatim, from the Nougat 7.1.1 dump in
  /// github.com/operando/JobScheduler-Code-Reading (README.md, "Job history"); the job
  /// block before them is written by hand. Alone, the history is read as a dump that
  /// holds nothing the import reads, an error that says so.
  @Test func androidSevensJobHistoryIsCountedAsNotRead() throws {
    let history = """
        Job history:
             -33m57s905ms START: u0a71 tv.abema/com.evernote.android.job.v21.PlatformJobService
             -33m54s103ms  STOP: u0a71 tv.abema/com.evernote.android.job.v21.PlatformJobService
             -19m06s748ms START: u0a78 com.facebook.orca/com.facebook.analytics2.logger.LollipopUploadService
             -19m05s954ms  STOP: u0a78 com.facebook.orca/com.facebook.analytics2.logger.LollipopUploadService
              -2m45s701ms START: u0a71 tv.abema/com.evernote.android.job.v21.PlatformJobService
              -2m43s883ms  STOP: u0a71 tv.abema/com.evernote.android.job.v21.PlatformJobService

      """
    let job = """
      JOB #u0a71/5: 4f3a189 tv.abema/com.evernote.android.job.v21.PlatformJobService
        Source: uid=u0a71 user=0 pkg=tv.abema
        Enqueue time: -40m0s0ms

      """
    let (path, result) = try Self.importDump(job + history)
    #expect(
      result.output == """
        bgtrace 1
        meta platform=android source=android-log process=tv.abema attempts=from-first-start-seen
        0 work.enqueue work=job-5 # from \(path):1

        """)
    #expect(
      result.errors.contains(
        "bgtrace: lines: 10 read, 6 skipped (6 job history entries of Android 7, which name no job, not read)\n"),
      "\(result.errors)")
    let folder = try TraceFolder()
    let alone = try folder.write(history, to: "history.txt")
    let refused = run(["import", alone])
    #expect(refused.status == .badInput)
    #expect(
      refused.errors.contains(
        "found no background work to import (7 lines read, none from WorkManager, JobScheduler or ActivityManager; "
          + "6 job history entries of Android 7, which name no job, not read)"), "\(refused.errors)")
  }

  /// `Active jobs:` says which job each slot runs, and for how long: the job runs from
  /// `Running for:` before the dump's moment. The verbatim slot is in
  /// `Traces/import/android/dumpsys-jobscheduler-kmansoft-active-job.log`; here the
  /// same job also has its block and its history entry (Android 9's form, written by
  /// hand), whose start at the same moment is the one written: the slot's adds nothing.
  @Test func aRunningJobStartedOnceFromItsHistoryAndItsSlot() throws {
    let dump = """
      JOB #u0a88/1: 4f3a189 org.kman.test.jobworkservicetest/.JobWorkService
        Source: uid=u0a88 user=0 pkg=org.kman.test.jobworkservicetest
        Enqueue time: -3s741ms
      Job history:
           -3s741ms   START: #u0a88/1 org.kman.test.jobworkservicetest/.JobWorkService
      Active jobs:
        Slot #0: 4f3a189 #u0a88/1 org.kman.test.jobworkservicetest/.JobWorkService
          Running for: +3s741ms, timeout at: +9m56s293ms
          Source: uid=u0a88 user=0 pkg=org.kman.test.jobworkservicetest
        Slot #1: inactive since -1h2m3s4ms

      """
    let (path, result) = try Self.importDump(dump)
    #expect(
      result.output == """
        bgtrace 1
        meta platform=android source=android-log process=org.kman.test.jobworkservicetest attempts=from-first-start-seen
        0 work.enqueue work=job-1 # from \(path):1
        0 work.start work=job-1 attempt=0 # from \(path):5

        """)
  }

  /// An offset past ten years, or one whose digits overflow, is not read: the job counts
  /// as enqueued at the dump's moment, and nothing traps.
  @Test func anOffsetBeyondTenYearsIsNotRead() throws {
    let dump = """
      JOB #u0a396/3: 9f8e7d6 com.nextcloud.talk2/androidx.work.impl.background.systemjob.SystemJobService
        Source: uid=u0a396 user=0 pkg=com.nextcloud.talk2
        Unsatisfied constraints: CONNECTIVITY [0x10000000]
        Enqueue time: -200000d0ms
      JOB #u0a396/4: 9f8e7d7 com.nextcloud.talk2/androidx.work.impl.background.systemjob.SystemJobService
        Source: uid=u0a396 user=0 pkg=com.nextcloud.talk2
        Unsatisfied constraints: CONNECTIVITY [0x10000000]
        Enqueue time: -99999999999999999999ms

      """
    let (path, result) = try Self.importDump(dump)
    #expect(
      result.output == """
        bgtrace 1
        meta platform=android source=android-log process=com.nextcloud.talk2 attempts=from-first-start-seen
        0 work.enqueue work=job-3 # from \(path):1
        0 work.wait work=job-3 reasons=network # from \(path):1
        0 work.enqueue work=job-4 # from \(path):5
        0 work.wait work=job-4 reasons=network # from \(path):5

        """)
  }

  /// The job history (AOSP `JobPackageTracker.dumpHistory`): each `START` is a start of
  /// the job's work, each `STOP` a stop with the reason it names, and a stop the app made
  /// (`app called jobFinished`) ends the attempt with no event, the result being untold.
  /// The first two entries are verbatim from developer.android.com's "Debug WorkManager"
  /// page; the rest follow its layout (the time right-aligned to 19 characters). `STOP-P`
  /// marks a one-time job's stop, as `noteInactive` swaps the labels. The history starts
  /// 1 h 35 min 26.440 s before the dump: the trace's 0. Job 9009, stopped at its time
  /// limit 10 min before the dump, is enqueued again 2 min before it (a reschedule, not
  /// written) and waits for a network; `com.other.app`'s entry is another app's.
  @Test func theJobHistoryGivesStartsAndStops() throws {
    let dump = """
      JOB #u0a107/9009: 1b2c3d4 \(Self.youtube)
        Source: uid=u0a107 user=0 pkg=com.google.android.youtube
        Unsatisfied constraints: CONNECTIVITY [0x10000000]
        Enqueue time: -2m0s0ms
      Job history:
           -1h35m26s440ms   START: #u0a107/9008 \(Self.youtube)
           -1h35m26s362ms  STOP-P: #u0a107/9008 \(Self.youtube) app called jobFinished
                -20m0s0ms   START: #u0a107/9009 \(Self.youtube)
                -10m0s0ms  STOP-P: #u0a107/9009 \(Self.youtube) timeout
                 -5m0s0ms   START: #u0a107/9008 \(Self.youtube)
                 -4m0s0ms  STOP-P: #u0a107/9008 \(Self.youtube) constraints
                 -3m0s0ms   START: #u0a108/12 com.other.app/.SyncService
      Pending queue:

      """
    let (path, result) = try Self.importDump(dump)
    #expect(
      result.output == """
        bgtrace 1
        meta platform=android source=android-log process=com.google.android.youtube attempts=from-first-start-seen
        0 work.start work=job-9008 attempt=0 # from \(path):6
        4526.44 work.start work=job-9009 attempt=0 # from \(path):8
        5126.44 work.stop work=job-9009 attempt=0 reason=timeout # from \(path):9
        5426.44 work.start work=job-9008 attempt=1 # from \(path):10
        5486.44 work.stop work=job-9008 attempt=1 reason=constraint # from \(path):11
        5726.44 work.wait work=job-9009 reasons=network # from \(path):1

        """)
    #expect(
      result.errors.contains(
        "the log could not tell: the results of job runs the app finished: dumpsys jobscheduler's job history says "
          + "only `app called jobFinished`"))
  }

  /// A stop's reason as JobScheduler prints it (`getInternalReasonCodeDescription` from
  /// Android 12, or the string `JobServiceContext` closed the job with): `canceled` is
  /// the app's cancel, `device_idle` Doze, `restricted_bucket` the standby bucket;
  /// `thermal` and `timed out while starting` name no reason of the vocabulary
  /// (`interrupted`), and `onStartJob returned false` is the app finishing the job.
  @Test func eachStopReasonIsReadAsJobSchedulerMeansIt() throws {
    let dump = """
      Job history:
                 -9m0s0ms   START: #u0a50/3 \(Self.sync)
                 -8m0s0ms    STOP: #u0a50/3 \(Self.sync) canceled
                 -7m0s0ms   START: #u0a50/3 \(Self.sync)
                 -6m0s0ms    STOP: #u0a50/3 \(Self.sync) device_idle
                 -5m0s0ms   START: #u0a50/3 \(Self.sync)
                 -4m0s0ms    STOP: #u0a50/3 \(Self.sync) restricted_bucket
                 -3m0s0ms   START: #u0a50/3 \(Self.sync)
                 -2m0s0ms    STOP: #u0a50/3 \(Self.sync) thermal
                 -1m0s0ms   START: #u0a50/3 \(Self.sync)
                  -30s0ms    STOP: #u0a50/3 \(Self.sync) onStartJob returned false
                  -10s0ms   START: #u0a50/3 \(Self.sync)
                   -5s0ms    STOP: #u0a50/3 \(Self.sync) timed out while starting

      """
    let (path, result) = try Self.importDump(dump)
    #expect(
      result.output == """
        bgtrace 1
        meta platform=android source=android-log process=com.example.sync attempts=from-first-start-seen
        0 work.start work=job-3 attempt=0 # from \(path):2
        60 work.stop work=job-3 attempt=0 reason=cancelled # from \(path):3
        120 work.start work=job-3 attempt=1 # from \(path):4
        180 work.stop work=job-3 attempt=1 reason=doze # from \(path):5
        240 work.start work=job-3 attempt=2 # from \(path):6
        300 work.stop work=job-3 attempt=2 reason=standby # from \(path):7
        360 work.start work=job-3 attempt=3 # from \(path):8
        420 work.stop work=job-3 attempt=3 reason=interrupted # from \(path):9
        480 work.start work=job-3 attempt=4 # from \(path):10
        530 work.start work=job-3 attempt=5 # from \(path):12
        535 work.stop work=job-3 attempt=5 reason=interrupted # from \(path):13

        """)
  }

  private static let youtube = "com.google.android.youtube/androidx.work.impl.background.systemjob.SystemJobService"
  private static let sync = "com.example.sync/androidx.work.impl.background.systemjob.SystemJobService"

  /// Writes `dump` to a file and imports it (after `logcat`, when given), expecting
  /// success: the dump's path, and the command's result.
  static func importDump(_ dump: String, beside logcat: String? = nil) throws -> (
    path: String, result: (status: BackgroundTraceCLI.ExitStatus, output: String, errors: String)
  ) {
    let folder = try TraceFolder()
    let path = try folder.write(dump, to: "jobscheduler.txt")
    let result = run(["import"] + (logcat.map { [$0] } ?? []) + [path])
    #expect(result.status == .success, "\(result.errors)")
    return (path, result)
  }
}
