/// One entry of a device log, as a style's parser reads it: when, which process, which
/// source (logcat tag, or Apple subsystem and category), and the message.
package struct LogRecord: Sendable, Hashable {
  /// When the entry was written, if the line carries a time.
  package var time: LogTimestamp?
  /// The writing process's id, if the line carries it.
  package var pid: Int?
  /// The writing process's name, if the line carries it.
  package var process: String?
  /// Where the entry comes from: a logcat tag (`WM-WorkerWrapper`, `ActivityManager`),
  /// or an Apple log's `subsystem:category` (`com.apple.UIKit:BackgroundTask`), or
  /// empty when the style carries neither.
  package var source: String
  /// The message, as the platform wrote it.
  package var message: String
  /// The line the entry starts on, from 1.
  package var line: Int
  /// What wrote it: a log, or a `dumpsys` dump read whole.
  package var origin: Origin

  /// What wrote a record.
  package enum Origin: Sendable, Hashable {
    /// A log's line (logcat, Apple's unified log): the source is its tag or subsystem.
    case log
    /// A record of `dumpsys activity exit-info` (``DumpsysExitInfoReader``).
    case exitInfo
    /// A job of `dumpsys jobscheduler` (``DumpsysJobSchedulerReader``).
    case jobScheduler
  }

  /// Creates a record of a log's line.
  package init(time: LogTimestamp?, pid: Int?, process: String?, source: String, message: String, line: Int) {
    self.init(time: time, pid: pid, process: process, source: source, message: message, line: line, origin: .log)
  }

  /// Creates a record written by `origin`.
  package init(
    time: LogTimestamp?, pid: Int?, process: String?, source: String, message: String, line: Int, origin: Origin
  ) {
    self.time = time
    self.pid = pid
    self.process = process
    self.source = source
    self.message = message
    self.line = line
    self.origin = origin
  }
}

/// A log line's time: nanoseconds since 1970-01-01 UTC, and whether its year was
/// written (logcat's threadtime leaves it out).
package struct LogTimestamp: Sendable, Hashable, Comparable {
  /// Nanoseconds since 1970-01-01 00:00 UTC (for a yearless time, as if in 2000, plus
  /// the years the reader counted across year boundaries).
  package var nanoseconds: Int64
  /// Whether the line wrote its year.
  package var hasYear: Bool

  /// Creates a timestamp.
  package init(nanoseconds: Int64, hasYear: Bool = true) {
    self.nanoseconds = nanoseconds
    self.hasYear = hasYear
  }

  /// Orders by time.
  package static func < (lhs: LogTimestamp, rhs: LogTimestamp) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}
