import BackgroundTrace
import BackgroundTraceImport
import Foundation

/// What the import section measured, per platform.
struct ImportFigures {
  /// Import throughput, MB/s.
  var throughput: [LogPlatform: Double] = [:]
  /// Import time over the time to split the same bytes into lines.
  var ratio: [LogPlatform: Double] = [:]
}

/// `bgtrace import` on a generated 100 MB log of each platform: throughput, and the
/// ratio to splitting the same bytes into lines (the floor any line-based reader pays),
/// both measured in the same run on the same file.
func runImportBenchmark(_ options: Options) throws -> ImportFigures {
  var figures = ImportFigures()
  for platform in LogPlatform.allCases {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("bgtrace-import-\(getpid()).log").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let bytes = try GeneratedLog.write(platform, megabytes: 100, to: path)
    print(
      "\n[import] a generated \(platform.rawValue) log of \(format(Double(bytes) / 1e6)) MB (\(GeneratedLog.style(platform)), one line in eight about background work)"
    )
    var lines = 0
    // Best of five: splitting takes a tenth of a second, and a build beside the run
    // slows some repeats by half; the ratio is taken against the fastest.
    let split = try measure(repeats: 5) {
      lines = 0
      var splitter = LogLineSplitter(try FileByteSource(path: path))
      try splitter.forEachLine { _ in lines += 1 }
    }
    var events = 0
    let imported = try measure(repeats: 3) {
      events = 0
      _ = try LogImporter.run([.file(path)], options: LogImportOptions(), meta: { _ in }, event: { _ in events += 1 })
    }
    let megabytes = Double(bytes) / 1e6
    row("split into lines", "\(format(megabytes / (split / 1e9))) MB/s", "\(lines) lines")
    row("bgtrace import", "\(format(megabytes / (imported / 1e9))) MB/s", "\(events) events")
    figures.throughput[platform] = megabytes / (imported / 1e9)
    figures.ratio[platform] = imported / split
  }
  return figures
}

func printImportSummary(_ figures: ImportFigures) {
  for platform in LogPlatform.allCases {
    guard let throughput = figures.throughput[platform], let ratio = figures.ratio[platform] else { continue }
    print(
      "  import \(platform.rawValue) log: \(format(throughput)) MB/s, \(format(ratio, 2))x splitting it into lines (target ≤ 5x)"
    )
  }
}

/// Realistic device logs, written line by line from templates: mostly other processes'
/// and the app's own lines, and one line in eight about background work (a task begun
/// or ended, a work started or its result).
enum GeneratedLog {
  static func style(_ platform: LogPlatform) -> String {
    platform == .ios ? "log show --style compact" : "adb logcat -v threadtime"
  }

  /// Writes about `megabytes` MB to `path` and returns the bytes written.
  static func write(_ platform: LogPlatform, megabytes: Int, to path: String) throws -> Int {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    guard let handle = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileWriteUnknown) }
    defer { try? handle.close() }
    var written = 0
    var block = ""
    var index = 0
    let limit = megabytes * 1_000_000
    if platform == .ios { block += "Timestamp               Ty Process[PID:TID]\n" }
    while written < limit {
      block += line(platform, index)
      index += 1
      if block.utf8.count > 1 << 20 {
        written += block.utf8.count
        handle.write(Data(block.utf8))
        block.removeAll(keepingCapacity: true)
      }
    }
    written += block.utf8.count
    handle.write(Data(block.utf8))
    return written
  }

  /// Line `index` of the log (from 0), with its line feed; iOS logs start with a
  /// column header besides.
  static func line(_ platform: LogPlatform, _ index: Int) -> String {
    platform == .ios ? appleLine(index) : logcatLine(index)
  }

  private static func clock(_ index: Int) -> (String, String) {
    let centis = index * 7
    let seconds = centis / 100
    let time =
      "\(padded((seconds / 3600) % 24, 2)):\(padded((seconds / 60) % 60, 2)):\(padded(seconds % 60, 2))"
      + ".\(padded((centis % 100) * 10, 3))"
    let day = 1 + (seconds / 86_400) % 28
    return (padded(day, 2), time)
  }

  /// `value`'s digits in `radix`, zero-padded to `width`, as `%0Nd` (`%0Nx` in radix 16)
  /// prints them. Not `String(format:)`: its formatting took most of the time of the
  /// watch section, which makes each line as it reads it.
  private static func padded(_ value: Int, _ width: Int, radix: Int = 10) -> String {
    let digits = String(value, radix: radix)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
  }

  private static func appleLine(_ index: Int) -> String {
    let (day, time) = clock(index)
    let prefix = "2026-10-\(day) \(time) "
    let task = index / 16
    switch index % 16 {
    case 0:
      return prefix
        + "Df Notes[2494:12c59] [com.apple.UIKit:BackgroundTask] Created background task <_UIBackgroundTaskInfo: 0x28088\(index % 10)b00>: taskID = \(task), taskName = Saving library, creationTime = \(943_000 + task) (elapsed = 0).\n"
    case 4:
      return prefix
        + "Df Notes[2494:12c59] [com.apple.UIKit:BackgroundTask] Ending background task with UIBackgroundTaskIdentifier: \(task)\n"
    case 1, 5, 9, 13:
      return prefix
        + "Df Notes[2494:12cac] [com.apple.network:activity] Create activity from XPC object <nw_activity 50:\(index % 9) [1930F6E1-3505-4FA9-968E-06D71E7DBD4C] (reporting strategy default)>\n"
    case 2, 6:
      return prefix
        + "Df dasd[112:3f1] [com.apple.duetactivityscheduler:scoring] Rescoring all 14 activities for policy Application Policy\n"
    default:
      return prefix
        + "I  SpringBoard[57:1b3] [com.apple.SpringBoard:Icon] Updated icon state for com.example.notes in 0.0031 seconds\n"
    }
  }

  private static func logcatLine(_ index: Int) -> String {
    let (day, time) = clock(index)
    let prefix = "10-\(day) \(time)  "
    let work = padded(index / 16, 8, radix: 16) + "-f951-4dfc-92a8-38c1e902c481"
    switch index % 16 {
    case 0: return prefix + "7035  7050 D WM-GreedyScheduler: Starting work for \(work)\n"
    case 8:
      return prefix
        + "7035  7051 I WM-WorkerWrapper: Worker result SUCCESS for Work [ id=\(work), tags={ com.example.SyncWorker } ]\n"
    case 1, 5:
      return prefix
        + "7035  7035 D TSLocationManager: [c.t.l.l.LifecycleManager onPause] onPause, location updates paused\n"
    case 2, 6:
      return prefix
        + "518  4946 D audio_hw_primary: disable_audio_route: reset and update mixer path: low-latency-playback\n"
    default:
      return prefix + "2037  6626 I ProcessManager: update DY:[com.facemoji.lite.xiaomi, com.miui.voip] state=18\n"
    }
  }
}
