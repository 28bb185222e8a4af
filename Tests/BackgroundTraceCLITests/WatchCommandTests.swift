import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceImport
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import BackgroundTraceCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `bgtrace watch` checks a device log as its lines arrive: each finding at the line
/// that made it certain, the same findings as `check` on the whole log, read through a
/// pipe (docs/import.md, "Watching a running app").
@Suite struct WatchCommandTests {
  /// An Xcode console log: the app writes four lines of its own (at 0, 0.2, 0.4 and
  /// 0.6 s), UIKit says task 262 is still not ended after its expiration handlers were
  /// called (line 5, at 1.270137 s, UIKit's wording verbatim from
  /// Traces/import/ios/xcode-onesignal-still-not-ended-multi.log), then the app writes
  /// lines at 0.5 s, 1.5 s and 2 s after it.
  static let expiredTask = [
    "2023-01-10 17:43:23.000000+0000 ProjectX[38194:10287612] Launched",
    "2023-01-10 17:43:23.200000+0000 ProjectX[38194:10287612] Saved 1 photo",
    "2023-01-10 17:43:23.400000+0000 ProjectX[38194:10287612] Saved 2 photos",
    "2023-01-10 17:43:23.600000+0000 ProjectX[38194:10287612] Scene entered the background",
    "2023-01-10 17:43:24.270137+0000 ProjectX[38194:10287612] [BackgroundTask] Background task still not ended after "
      + "expiration handlers were called: <_UIBackgroundTaskInfo: 0x280883b00>: taskID = 262, taskName = Upload, "
      + "creationTime = 943356 (elapsed = 44). This app will likely be terminated by the system. Call "
      + "UIApplication.endBackgroundTask(_:) to avoid this.",
    "2023-01-10 17:43:24.770137+0000 ProjectX[38194:10287612] Saved 3 photos",
    "2023-01-10 17:43:25.770137+0000 ProjectX[38194:10287612] Saved 4 photos",
    "2023-01-10 17:43:26.270137+0000 ProjectX[38194:10287612] Upload done",
  ]

  /// The findings `watch` gives after each line of `lines`, and at the end.
  static func findingsByLine(_ lines: [String], options: LogImportOptions = LogImportOptions()) throws -> [[Finding]] {
    var watch = LogWatch(name: "device.log", options: options, configuration: CheckerConfiguration())
    var byLine: [[Finding]] = []
    for (index, text) in lines.enumerated() {
      let bytes = Array(text.utf8)
      byLine.append(
        try bytes.withUnsafeBufferPointer {
          try watch.take(LogLineSplitter.Line(number: index + 1, bytes: $0, isOverlong: false))
        })
    }
    byLine.append(try watch.finish())
    return byLine
  }

  /// The default grace is 1 s: the expiration not ended is certain at the first line
  /// more than 1 s after it (line 7, at 1.5 s), not at the log's end, and is reported
  /// once. An Xcode console entry is whole only when the next line starts (a message
  /// may go on over several lines): line 7's time is read, and the finding given, as
  /// line 8 arrives.
  @Test func anExpirationNotEndedIsReportedWhenTheLogsClockPassesTheGrace() throws {
    let byLine = try Self.findingsByLine(Self.expiredTask)
    #expect(byLine.map(\.count) == [0, 0, 0, 0, 0, 0, 0, 1, 0])
    let finding = try #require(byLine[7].first)
    #expect(finding.rule == .taskExpiredNotEnded)
    #expect(finding.location == 7)
    #expect(
      finding.line(path: "device.log")
        == "device.log:7: error: task 262 (\"Upload\") was not ended within 1s of its expiration at 1.270137s "
        + "[task-expired-not-ended]")
  }

  /// A double end is certain at once: UIKit's "Can't end BackgroundTask" line (line 4
  /// of Traces/import/ios/xcode-bggeo-cant-end-noise.log, verbatim) gives its finding
  /// as the line after it arrives (here a line of the app's own, added).
  @Test func aDoubleEndIsReportedAtItsLine() throws {
    let log = Repository.traces.appendingPathComponent("import/ios/xcode-bggeo-cant-end-noise.log")
    let lines =
      try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
      + ["2020-04-04 17:40:17.100000+0530 flawk[69425:1022443] [INFO] App is in foreground"]
    #expect(lines.count == 5)
    let byLine = try Self.findingsByLine(lines)
    // The log's .findings: line 4, task 3 ended twice.
    #expect(byLine.map(\.count) == [0, 0, 0, 0, 1, 0])
    #expect(byLine[4].map(\.rule) == [.taskDoubleEnd])
    #expect(byLine[4].first?.location == 4)
  }

  /// `--process` names the app: a log whose lines name no such process is refused at
  /// its end, as `bgtrace import` refuses it.
  @Test func aProcessTheLogNeverNamesIsAnError() throws {
    var options = LogImportOptions()
    options.process = "OtherApp"
    #expect {
      try Self.findingsByLine(Self.expiredTask, options: options)
    } throws: { error in
      "\(error)" == "device.log: --process OtherApp names no process of the log: expected one of ProjectX (pid 38194)"
    }
  }

  /// Writes `bytes` into a new pipe and closes its write end unless `keepOpen`; returns
  /// the read end and the write end (-1 when closed).
  static func filledPipe(with bytes: [UInt8], keepOpen: Bool = false) throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
    try #require(written == bytes.count)
    if !keepOpen {
      close(ends[1])
      return (ends[0], -1)
    }
    return (ends[0], ends[1])
  }

  /// Every import excerpt (Traces/import), read through a pipe, gives the findings
  /// `bgtrace check` gives on the file, at the same lines.
  @Test func throughAPipeEveryExcerptGivesChecksFindings() throws {
    let logs = Repository.files(under: Repository.traces.appendingPathComponent("import"), suffix: "log")
    #expect(logs.count >= 40)
    var compared = 0
    for log in logs {
      let checked = run("check", log.path)
      guard checked.status != .badInput else { continue }  // no background work: watch says so too
      let bytes = [UInt8](try Data(contentsOf: log))
      try #require(bytes.count < 60_000, "a pipe holds the excerpt before it is read")
      let ends = try Self.filledPipe(with: bytes)
      let console = CapturingConsole()
      let input = WatchedInput(descriptor: ends.read, name: "<stdin>", follows: false, interrupted: { false })
      let status = try WatchCommand.watch(
        input, name: "<stdin>", options: WatchOptions(), showsStatus: false, console: console)
      #expect(
        console.output == checked.output.replacingOccurrences(of: log.path + ":", with: "<stdin>:"),
        "\(log.lastPathComponent)")
      #expect(status == checked.status, "\(log.lastPathComponent)")
      compared += 1
    }
    #expect(compared >= 30)
  }

  /// Interrupted while the writer still holds the pipe open (Ctrl-C during `log stream`),
  /// the watch ends at its next read: what is still open is reported as at a trace's
  /// end, and the summary is printed.
  @Test func anInterruptEndsTheWatchWithItsSummary() throws {
    let text = Self.expiredTask[4] + "\n"
    let ends = try Self.filledPipe(with: Array(text.utf8), keepOpen: true)
    defer { close(ends.write) }
    let reads = Atomic<Int>(0)
    // The first read takes the line; the interrupt comes before the second.
    let input = WatchedInput(
      descriptor: ends.read, name: "<stdin>", follows: false,
      interrupted: { reads.add(1, ordering: .relaxed).newValue > 1 })
    let console = CapturingConsole()
    let status = try WatchCommand.watch(
      input, name: "<stdin>", options: WatchOptions(), showsStatus: false, console: console)
    #expect(status == .findings)
    #expect(
      console.output
        == "<stdin>:1: error: task 262 (\"Upload\") expired at 0s and was not ended before the trace ended "
        + "[task-expired-not-ended]\n")
    #expect(
      console.errors == """
        bgtrace: watching <stdin>: an iOS log (xcode-console)
        bgtrace: checking the events of ProjectX (the first with background work; --process chooses another)
        bgtrace: <stdin>: 1 line, 2 events of ProjectX, 1 error, 0 warnings

        """)
  }

  /// `--ignore` drops a rule's findings, as for `check`: the interrupted watch above with
  /// `task-expired-not-ended` ignored finds nothing and exits 0.
  @Test func ignoredRulesAreDropped() throws {
    let ends = try Self.filledPipe(with: Array((Self.expiredTask[4] + "\n").utf8))
    var options = WatchOptions()
    options.checker.ignoredRules = [.taskExpiredNotEnded]
    let console = CapturingConsole()
    let input = WatchedInput(descriptor: ends.read, name: "<stdin>", follows: false, interrupted: { false })
    let status = try WatchCommand.watch(input, name: "<stdin>", options: options, showsStatus: false, console: console)
    #expect(status == .success)
    #expect(console.output.isEmpty)
  }

  /// A log with no background work is an error, as for `check`.
  @Test func aLogWithNoBackgroundWorkIsAnError() throws {
    let ends = try Self.filledPipe(with: Array((Self.expiredTask[1] + "\n" + Self.expiredTask[2] + "\n").utf8))
    let input = WatchedInput(descriptor: ends.read, name: "<stdin>", follows: false, interrupted: { false })
    #expect(throws: LogImportError.self) {
      try WatchCommand.watch(
        input, name: "<stdin>", options: WatchOptions(), showsStatus: false, console: CapturingConsole())
    }
  }

  @Test func theCommandLineParses() throws {
    #expect(try CommandLineParser.parse(["watch"]) == .watch(path: "-", options: WatchOptions()))
    var options = WatchOptions()
    options.log.platform = .android
    options.log.process = "com.example"
    options.strict = true
    #expect(
      try CommandLineParser.parse(["watch", "log.txt", "--platform", "android", "--process", "com.example", "--strict"])
        == .watch(path: "log.txt", options: options))
    #expect(throws: UsageError.self) { try CommandLineParser.parse(["watch", "a.log", "b.log"]) }
    var checked = WatchOptions()
    checked.checker.grace = TraceInterval(nanoseconds: 5_000_000_000)
    checked.checker.ignoredRules = [.taskDoubleEnd]
    #expect(
      try CommandLineParser.parse(["watch", "-", "--grace", "5", "--ignore", "task-double-end"])
        == .watch(path: "-", options: checked))
  }
}
