import BackgroundTraceCLI
import Foundation
import TestSupport
import Testing

/// `adb shell dumpsys activity exit-info PACKAGE`: the process exits the system kept,
/// read into `app.terminate` with their reasons, alone or merged by time with a logcat
/// of the same run (docs/import.md, "Android: dumpsys activity exit-info"). The verbatim
/// dump is `Traces/import/android/dumpsys-exitinfo-eurosport-chromecast.log` (Android
/// 12's layout), which `ImportExcerptTests` imports.
@Suite struct ImportExitInfoTests {
  /// A dump in Android 12's layout (`ApplicationExitInfo.dump`, one field a line, as the
  /// verbatim excerpt prints it) for the process 26104 the verbatim logcat
  /// `time-nextcloud-start-proc-for-jobservice.log` starts at 23:11:46.892: force-stopped
  /// at 23:12:30.000, and an older process killed at 19:00, before the logcat begins.
  static let nextcloudDump = """
    ACTIVITY MANAGER PROCESS EXIT INFO (dumpsys activity exit-info)

    Last Timestamp of Persistence Into Persistent Storage: 2024-10-22 23:00:00.000
      package: com.nextcloud.talk2
        Historical Process Exit for uid=10396
            ApplicationExitInfo #0:
              timestamp=2024-10-22 23:12:30.000
              pid=26104
              realUid=10396
              packageUid=10396
              definingUid=10396
              user=0
              process=com.nextcloud.talk2
              reason=10 (USER REQUESTED)
              subreason=21 (FORCE STOP)
              status=0
              importance=400
              pss=52MB
              rss=140MB
              description=stop com.nextcloud.talk2 due to from pid 27001
              state=empty
              trace=null
            ApplicationExitInfo #1:
              timestamp=2024-10-22 19:00:00.000
              pid=25000
              realUid=10396
              packageUid=10396
              definingUid=10396
              user=0
              process=com.nextcloud.talk2
              reason=13 (OTHER KILLS BY SYSTEM)
              subreason=3 (TOO MANY EMPTY PROCS)
              status=0
              importance=400
              pss=24MB
              rss=77MB
              description=too many empty
              state=empty
              trace=null

    """

  /// The logcat has no year: the dump's times are put in its frame, and the force stop
  /// comes after its last line, 23:12:30.000 − 20:20:25.331 = 10,324.669 s in. The kill
  /// at 19:00 is before the logcat's first line, outside the capture: left out.
  @Test func aDumpMergesByTimeWithALogcatOfTheSameRun() throws {
    let logcat = "Traces/import/android/time-nextcloud-start-proc-for-jobservice.log"
    let folder = try TraceFolder()
    let dump = try folder.write(Self.nextcloudDump, to: "exit-info.txt")
    let result = run("import", Repository.path(logcat), dump)
    #expect(result.status == .success, "\(result.errors)")
    #expect(
      result.output.replacingOccurrences(of: Repository.root.path + "/", with: "") == """
        bgtrace 1
        meta platform=android source=android-log process=com.nextcloud.talk2 attempts=from-first-start-seen
        10281.561 app.launch # from \(logcat):3
        10324.669 app.terminate reason=force-stopped # from \(dump):6

        """)
    #expect(result.errors.contains("(logcat-time), \(dump) (dumpsys-exit-info)"))
  }

  /// Android 13's layout (AOSP `ApplicationExitInfo.dump` since "Intern the strings in
  /// ApplicationExitInfo … reformat the dump output", bug 204471732): a record on three
  /// lines. Alone, the dump's oldest exit is the trace's 0; each exit of a process the
  /// dump alone tells of is a launch and its end; a crash is `crash` and an ANR `anr`,
  /// `APP CRASH(EXCEPTION)`'s own parenthesis kept whole.
  @Test func androidThirteensLayoutIsReadAlone() throws {
    let dump = """
      ACTIVITY MANAGER PROCESS EXIT INFO (dumpsys activity exit-info)
      Last Timestamp of Persistence Into Persistent Storage: 2025-03-01 09:00:00.000
        package: com.example.sync
          Historical Process Exit for uid=10201
              ApplicationExitInfo #0:
                timestamp=2025-03-01 10:00:05.250 pid=4321 realUid=10201 packageUid=10201 definingUid=10201 user=0
                process=com.example.sync reason=6 (ANR) subreason=0 (UNKNOWN) status=0
                importance=400 pss=30MB rss=90MB description=user request after error: Input dispatching timed out state=empty trace=null
              ApplicationExitInfo #1:
                timestamp=2025-03-01 10:00:00.000 pid=4000 realUid=10201 packageUid=10201 definingUid=10201 user=0
                process=com.example.sync reason=4 (APP CRASH(EXCEPTION)) subreason=0 (UNKNOWN) status=0
                importance=100 pss=0.00 rss=0.00 description=crash state=empty trace=null

      """
    let folder = try TraceFolder()
    let path = try folder.write(dump, to: "exit-info.txt")
    let result = run("import", path)
    #expect(result.status == .success, "\(result.errors)")
    #expect(
      result.output == """
        bgtrace 1
        meta platform=android source=android-log process=com.example.sync attempts=from-first-start-seen
        0 app.launch # from \(path):9
        0 app.terminate reason=crash # from \(path):9
        5.25 app.launch # from \(path):5
        5.25 app.terminate reason=anr # from \(path):5

        """)
  }
}
