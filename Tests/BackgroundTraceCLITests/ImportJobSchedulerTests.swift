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
  /// was enqueued 51 min 29.853 s before the dump: the trace's 0. The job history after
  /// the jobs is not read.
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
      Job history:
           -1h35m26s440ms   START: #u0a107/9008 com.google.android.youtube/androidx.work.impl.background.systemjob.SystemJobService

      """
    let folder = try TraceFolder()
    let path = try folder.write(dump, to: "jobscheduler.txt")
    let result = run("import", path)
    #expect(result.status == .success, "\(result.errors)")
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
    let folder = try TraceFolder()
    let path = try folder.write(dump, to: "jobscheduler.txt")
    let result = run("import", Repository.path(logcat), path)
    #expect(result.status == .success, "\(result.errors)")
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
    let folder = try TraceFolder()
    let path = try folder.write(dump, to: "jobscheduler.txt")
    let result = run("import", path)
    #expect(result.status == .success, "\(result.errors)")
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
}
