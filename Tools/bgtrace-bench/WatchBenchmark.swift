import BackgroundTraceCLI
import BackgroundTraceCheck
import BackgroundTraceImport
import Foundation

/// What the watch section measured, per platform.
struct WatchFigures {
  /// The megabytes of the long stream.
  var megabytes = 0
  /// Peak resident memory over the long stream, over that over 100 MB.
  var memoryRatio: [LogPlatform: Double] = [:]
  /// Watch throughput over the long stream, MB/s.
  var throughput: [LogPlatform: Double] = [:]
}

/// `bgtrace watch` on an endless stream: the generated log of the import section
/// (``GeneratedLog``), handed to ``LogWatch`` line by line as it is made, 100 MB and
/// `megabytes` MB of it, each in a child process whose peak resident memory is its own.
/// Memory is flat when the two peaks are alike (target: within 1.2x).
func runWatchBenchmark(_ options: Options) throws -> WatchFigures {
  var figures = WatchFigures(megabytes: options.watchMegabytes)
  for platform in LogPlatform.allCases {
    print("\n[watch] a generated \(platform.rawValue) stream (\(GeneratedLog.style(platform))), checked as it is read")
    let (short, _, shortNote) = try measureChild(["--watch-stream", platform.rawValue, "100"])
    let (long, nanos, longNote) = try measureChild(["--watch-stream", platform.rawValue, "\(options.watchMegabytes)"])
    row("peak resident, 100 MB", "\(short / 1024) MiB", shortNote)
    row("peak resident, \(options.watchMegabytes) MB", "\(long / 1024) MiB", longNote)
    figures.memoryRatio[platform] = Double(long) / Double(short)
    figures.throughput[platform] = Double(options.watchMegabytes) / (nanos / 1e9)
  }
  return figures
}

func printWatchSummary(_ figures: WatchFigures) {
  for platform in LogPlatform.allCases {
    guard let ratio = figures.memoryRatio[platform], let throughput = figures.throughput[platform] else { continue }
    print(
      "  watch \(platform.rawValue) stream: peak memory over \(figures.megabytes) MB \(format(ratio, 2))x that over 100 MB "
        + "(target ≤ 1.2x), \(format(throughput)) MB/s")
  }
}

/// Child mode: watches `megabytes` MB of the generated `platform` stream and prints its
/// peak resident memory (KiB), then what it read.
func runWatchStream(_ platform: LogPlatform, megabytes: Int) throws {
  var watch = LogWatch(
    name: "stream", options: LogImportOptions(platform: platform), configuration: LogWatch.configuration)
  var read = 0
  var number = 0
  var findings = 0
  let limit = megabytes * 1_000_000
  var index = 0
  while read < limit {
    var line = GeneratedLog.line(platform, index)
    index += 1
    line.removeLast()  // the line feed
    read += line.utf8.count + 1
    number += 1
    findings += try line.withUTF8 { bytes in
      try watch.take(LogLineSplitter.Line(number: number, bytes: bytes, isOverlong: false)).count
    }
  }
  findings += try watch.finish().count
  print("\(peakResidentKiB()) \(number) lines, \(watch.events) events, \(findings) findings")
}
