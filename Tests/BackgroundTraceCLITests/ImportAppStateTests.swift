import BackgroundTraceImport
import Foundation
import TestSupport
import Testing

/// The app's state from RunningBoardServices' `Received state update for %d (%{public}@,
/// %{public}@%{public}@` (`-[RBSConnection async_observedProcessStatesDidChange:completion:]`,
/// `RunningBoardServices.framework/RunningBoardServices/RBSConnection.m` of the iOS 26.1
/// restore dump `EthanArbuckle/iPhone18-3_26.1_23B85_Restore`: the pid, the process's
/// identity, `NSStringFromRBSTaskState` and `-Visible` or `-NotVisible`), written by every
/// process that watches the app, and Console.app's copy of a device's log, where public
/// pastes hold those lines (`Traces/import/ios/consoleapp-livekit-suspended-observers`):
/// hand-written lines in each style, and the exact trace they tell (docs/import.md).
@Suite struct ImportAppStateTests {
  /// The app's own lines (pid 1234, `Refresh`) and dasd's and locationd's updates about
  /// pid 1234, as each style prints them: one app, joined by the pid.
  static let expected = """
    bgtrace 1
    meta platform=ios source=ios-log process=Refresh
    0 task.begin id=3 name=Sync
    1 app.state to=background
    4 task.end id=3
    5 app.state to=suspended

    """

  /// `(seconds, pid, process, category, message)` of the lines every style prints.
  static let lines: [(Int, Int, String, String, String)] = [
    (0, 1234, "Refresh", "com.apple.UIKit:BackgroundTask", "CREATED"),
    (1, 76, "dasd", "com.apple.runningboard:connection", "STATE_BG"),
    (1, 80, "locationd", "com.apple.runningboard:connection", "STATE_BG"),
    (4, 1234, "Refresh", "com.apple.UIKit:BackgroundTask", "ENDING"),
    (5, 76, "dasd", "com.apple.runningboard:connection", "STATE_SUSPENDED"),
  ]

  static func message(_ key: String) -> String {
    switch key {
    case "CREATED":
      "Created background task <_UIBackgroundTaskInfo: 0x1>: taskID = 3, taskName = Sync, creationTime = 1 (elapsed = 0)."
    case "ENDING": "Ending background task with UIBackgroundTaskIdentifier: 3"
    case "STATE_BG":
      "Received state update for 1234 (app<com.example.refresh(11111111-2222-3333-4444-555555555555)>, running-active-NotVisible"
    default:
      "Received state update for 1234 (app<com.example.refresh(11111111-2222-3333-4444-555555555555)>, running-suspended-NotVisible"
    }
  }

  /// Imports ``lines`` as `format` prints each, and expects ``expected`` read in `style`.
  static func expectTheTrace(
    in style: LogStyle, sourceLocation: SourceLocation = #_sourceLocation,
    _ format: ((Int, Int, String, String, String)) -> String
  ) throws {
    let result = try imported(lines.map(format).joined(separator: "\n") + "\n")
    #expect(result.trace == expected, sourceLocation: sourceLocation)
    #expect(result.summary.styles.map(\.style) == [style], sourceLocation: sourceLocation)
  }

  @Test func logShowDefaultStyle() throws {
    try Self.expectTheTrace(in: .logShowDefault) { line in
      let (seconds, pid, process, category, key) = line
      return
        "2024-03-01 10:00:0\(seconds).000000-0700 0x1a2b3c   Default     0x0                  \(pid)    0    \(process): (\(process == "Refresh" ? "UIKitCore" : "RunningBoardServices")) [\(category)] \(Self.message(key))"
    }
  }

  @Test func logShowCompactStyle() throws {
    try Self.expectTheTrace(in: .logShowCompact) { line in
      let (seconds, pid, process, category, key) = line
      return "2024-03-01 17:00:0\(seconds).000 Df \(process)[\(pid):99] [\(category)] \(Self.message(key))"
    }
  }

  @Test func logShowSyslogStyle() throws {
    try Self.expectTheTrace(in: .logShowSyslog) { line in
      let (seconds, pid, process, category, key) = line
      return
        "2024-03-01 10:00:0\(seconds).000000-0700  localhost \(process)[\(pid)]: (\(process == "Refresh" ? "UIKitCore" : "RunningBoardServices")) [\(category)] \(Self.message(key))"
    }
  }

  @Test func logStreamNDJSONStyle() throws {
    try Self.expectTheTrace(in: .logShowJSON) { line in
      let (seconds, pid, process, category, key) = line
      let parts = category.split(separator: ":")
      return
        #"{"eventMessage":"\#(Self.message(key))","processImagePath":"/A/\#(process)","subsystem":"\#(parts[0])","category":"\#(parts[1])","processID":\#(pid),"timestamp":"2024-03-01 10:00:0\#(seconds).000000-0700"}"#
    }
  }

  /// Xcode's console shows the app's own process only: the app's RunningBoardServices
  /// observer logs its own updates there (as in
  /// `Traces/import/ios/consoleapp-macios-unknown-state-own-process`).
  @Test func xcodeConsoleStyle() throws {
    try Self.expectTheTrace(in: .xcodeConsole) { line in
      let (seconds, _, _, category, key) = line
      let prefix = category.hasSuffix("BackgroundTask") ? "[BackgroundTask] " : ""
      return "2024-03-01 10:00:0\(seconds).000000-0700 Refresh[1234:5678] \(prefix)\(Self.message(key))"
    }
  }

  /// Console.app's copy carries no pid: the app's own lines (named by its executable) and
  /// the updates about it (named by its bundle identifier) cannot be joined, and are two
  /// apps; `--process` picks either.
  @Test func consoleAppCopyStyleCannotJoinTheAppsLinesToItsStates() throws {
    let log = Self.lines.map { line in
      let (seconds, _, process, _, key) = line
      return "default\t10:00:0\(seconds).000000-0700\t\(process)\t\(Self.message(key))"
    }.joined(separator: "\n")
    let result = try imported(log + "\n")
    #expect(
      result.trace == """
        bgtrace 1
        meta platform=ios source=ios-log process=Refresh
        0 task.begin id=3 name=Sync
        4 task.end id=3

        """)
    #expect(result.summary.styles.map(\.style) == [.consoleApp])
    #expect(Set(result.summary.apps.map(\.name)) == ["Refresh", "com.example.refresh"])
    let states = try imported(log + "\n", options: LogImportOptions(process: "com.example.refresh"))
    #expect(
      states.trace == """
        bgtrace 1
        meta platform=ios source=ios-log process=com.example.refresh
        1 app.state to=background
        5 app.state to=suspended

        """)
  }

  /// Other processes' states are not the app's: another app's (pid 999), a daemon's, and
  /// an XPC service of the app's own (its identity names the app inside). A task state
  /// that is not running (`unknown`) writes nothing; the identity before iOS 17
  /// (`application<BUNDLE>`) is read as `app<BUNDLE(UUID)>` is.
  @Test func onlyTheAppsOwnRunningStatesAreItsStates() throws {
    let log = """
      2024-03-01 17:00:00.000 Df Refresh[1234:99] [com.apple.UIKit:BackgroundTask] Created background task <_UIBackgroundTaskInfo: 0x1>: taskID = 3, taskName = Sync, creationTime = 1 (elapsed = 0).
      2024-03-01 17:00:01.000 Df dasd[76:99] [com.apple.runningboard:connection] Received state update for 999 (app<com.other.app(99999999-2222-3333-4444-555555555555)>, running-suspended-NotVisible
      2024-03-01 17:00:02.000 Df dasd[76:99] [com.apple.runningboard:connection] Received state update for 76 (daemon<com.apple.dasd>, running-active-NotVisible
      2024-03-01 17:00:03.000 Df dasd[76:99] [com.apple.runningboard:connection] Received state update for 1301 (xpcservice<com.apple.WebKit.Networking([app<com.example.refresh(11111111-2222-3333-4444-555555555555)>:1234])>, running-suspended-NotVisible
      2024-03-01 17:00:04.000 Df dasd[76:99] [com.apple.runningboard:connection] Received state update for 1234 (app<com.example.refresh(11111111-2222-3333-4444-555555555555)>, unknown-NotVisible
      2024-03-01 17:00:05.000 Df dasd[76:99] [com.apple.runningboard:connection] Received state update for 1234 (app<com.example.refresh(11111111-2222-3333-4444-555555555555)>, running-active-Visible
      2024-03-01 17:00:06.000 Df dasd[76:99] [com.apple.runningboard:connection] Received state update for 1234 (application<com.example.refresh>, running-active-NotVisible

      """
    let result = try imported(log)
    #expect(
      result.trace == """
        bgtrace 1
        meta platform=ios source=ios-log process=Refresh
        0 task.begin id=3 name=Sync
        5 app.state to=active
        6 app.state to=background

        """)
    #expect(result.summary.apps.map(\.name) == ["Refresh", "com.other.app"])
  }

  /// A task begun in the foreground and still open when the app goes to the background
  /// uses its budget from then (docs/rules.md, "Budget"); suspended with it still open,
  /// it leaked. And a launch after the process has a state writes no registration: made
  /// at launch, written there it would be a late one (sched-late-register); an imported
  /// trace's launch with no registration is quiet.
  @Test func statesMakeTheBudgetAndSuspensionRulesJudgeTheLog() throws {
    let log = """
      2024-03-01 17:00:00.000 Df dasd[76:99] [com.apple.runningboard:connection] Received state update for 1234 (app<com.example.refresh(11111111-2222-3333-4444-555555555555)>, running-active-Visible
      2024-03-01 17:00:02.000 Df Refresh[1234:99] [com.apple.UIKit:BackgroundTask] Created background task <_UIBackgroundTaskInfo: 0x1>: taskID = 3, taskName = Sync, creationTime = 1 (elapsed = 0).
      2024-03-01 17:00:05.000 Df dasd[76:99] [com.apple.runningboard:connection] Received state update for 1234 (app<com.example.refresh(11111111-2222-3333-4444-555555555555)>, running-active-NotVisible
      2024-03-01 17:00:09.000 Df Refresh[1234:99] [com.apple.BackgroundTasks:Framework] Running task: <BGAppRefreshTask: com.example.refresh>
      2024-03-01 17:00:10.000 Df Refresh[1234:99] [com.apple.BackgroundTasks:Framework] Marking task <BGAppRefreshTask: com.example.refresh> complete with success: 1
      2024-03-01 17:00:45.000 Df dasd[76:99] [com.apple.runningboard:connection] Received state update for 1234 (app<com.example.refresh(11111111-2222-3333-4444-555555555555)>, running-suspended-NotVisible

      """
    let result = try imported(log)
    #expect(
      result.trace == """
        bgtrace 1
        meta platform=ios source=ios-log process=Refresh
        0 app.state to=active
        2 task.begin id=3 name=Sync
        5 app.state to=background
        9 sched.launch ident=com.example.refresh run=1
        10 sched.complete run=1 success=true
        45 app.state to=suspended

        """)
    let directory = try TemporaryDirectory()
    let path = directory.path("states.txt")
    try result.trace.write(toFile: path, atomically: true, encoding: .utf8)
    let findings = run("check", path).output
    #expect(findings.contains("[task-over-budget]"), "\(findings)")
    #expect(findings.contains("[task-leaked]"), "\(findings)")
    #expect(!findings.contains("[sched-late-register]"), "\(findings)")
    #expect(!findings.contains("[sched-unregistered]"), "\(findings)")
  }

  /// Console.app's columns: the type, the time (with or without its date, a blank before
  /// the zone or none), the process, the Library column when shown, the message; a
  /// message of several lines goes on in lines with no header.
  @Test func consoleAppCopyColumns() throws {
    let log = """
      default\t23:59:58.500000 +0200\tRefresh\tCreated background task <_UIBackgroundTaskInfo: 0x1>: taskID = 3, taskName = Sync, creationTime = 1 (elapsed = 0).
      info\t23:59:59.000000+0200\tRefresh\tUIKitCore\tAcquiring assertion for the task: <RBSAssertionDescriptor| "Sync" attributes:[
      \t<RBSDomainAttribute| domain:"com.apple.common" name:"FinishTaskCanSleep">
      \t]>
      debug\t00:00:01.500000+0200\tRefresh\tUIKitCore\tEnding background task with UIBackgroundTaskIdentifier: 3

      """
    let result = try imported(log)
    // 23:59:58.5 to 00:00:01.5 the next day: 3 s.
    #expect(
      result.trace == """
        bgtrace 1
        meta platform=ios source=ios-log process=Refresh
        0 task.begin id=3 name=Sync
        3 task.end id=3

        """)
    #expect(result.summary.styles.map(\.style) == [.consoleApp])
    let dated = try imported(
      "error\t2024-05-11 10:19:47.176223 +0200\tRefresh\tCreated background task <_UIBackgroundTaskInfo: 0x1>: taskID = 3, taskName = Sync, creationTime = 1 (elapsed = 0).\nfault\t2024-05-11 10:19:49.176223 +0200\tRefresh\tEnding background task with UIBackgroundTaskIdentifier: 3\n"
    )
    #expect(
      dated.trace == """
        bgtrace 1
        meta platform=ios source=ios-log process=Refresh
        0 task.begin id=3 name=Sync
        2 task.end id=3

        """)
  }
  /// FrontBoard's `%{public}@ Setting process visibility to: %{public}@` and `… task state
  /// to: %{public}@` (`-[FBProcess _updateStateWithBlock:]`, `FrontBoard.framework/
  /// FrontBoard/FBProcess.mm` of the iOS 26.1 restore dump), written by SpringBoard with
  /// the process's `logProem` `[app<BUNDLE>:PID]`: visibility is active or background,
  /// `Suspended` suspended, and `Running` after a suspension background (the visibility,
  /// when it changes, comes on its own line). Another app's and an XPC service's lines,
  /// and a task state of no app state, write nothing.
  @Test func frontBoardVisibilityAndTaskState() throws {
    let log = """
      2024-03-01 17:00:00.000 Df Refresh[1234:99] [com.apple.UIKit:BackgroundTask] Created background task <_UIBackgroundTaskInfo: 0x1>: taskID = 3, taskName = Sync, creationTime = 1 (elapsed = 0).
      2024-03-01 17:00:01.000 Df SpringBoard[34:99] [com.apple.FrontBoard:Process] [app<com.example.refresh>:1234] Setting process visibility to: Background
      2024-03-01 17:00:02.000 Df SpringBoard[34:99] [com.apple.FrontBoard:Process] [app<com.other.app>:999] Setting process visibility to: Foreground
      2024-03-01 17:00:03.000 Df SpringBoard[34:99] [com.apple.FrontBoard:Process] [xpcservice<com.example.refresh.widget>:1301] Setting process task state to: Suspended
      2024-03-01 17:00:04.000 Df Refresh[1234:99] [com.apple.UIKit:BackgroundTask] Ending background task with UIBackgroundTaskIdentifier: 3
      2024-03-01 17:00:05.000 Df SpringBoard[34:99] [com.apple.FrontBoard:Process] [app<com.example.refresh>:1234] Setting process task state to: Suspended
      2024-03-01 17:00:09.000 Df SpringBoard[34:99] [com.apple.FrontBoard:Process] [app<com.example.refresh>:1234] Setting process task state to: Running
      2024-03-01 17:00:09.500 Df SpringBoard[34:99] [com.apple.FrontBoard:Process] [app<com.example.refresh>:1234] Setting process task state to: Unknown
      2024-03-01 17:00:10.000 Df SpringBoard[34:99] [com.apple.FrontBoard:Process] [app<com.example.refresh>:1234] Setting process visibility to: Foreground

      """
    let result = try imported(log)
    #expect(
      result.trace == """
        bgtrace 1
        meta platform=ios source=ios-log process=Refresh
        0 task.begin id=3 name=Sync
        1 app.state to=background
        4 task.end id=3
        5 app.state to=suspended
        9 app.state to=background
        10 app.state to=active

        """)
    #expect(Set(result.summary.apps.map(\.name)) == ["Refresh", "com.other.app"])
  }
}
