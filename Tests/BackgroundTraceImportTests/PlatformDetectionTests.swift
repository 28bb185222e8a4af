import BackgroundTraceImport
import Foundation
import TestSupport
import Testing

/// A log of one platform is never read as a log of the other (docs/import.md, "Bad
/// input"): every verbatim excerpt under Traces/import is detected as its own platform's,
/// and forced to the other platform's styles (`--platform`) it is refused as in no known
/// style, never written as a trace of the wrong platform. Together the excerpts cover
/// every style.
@Suite struct PlatformDetectionTests {
  /// Each excerpt with the platform of the folder it is in.
  static let excerpts: [(path: String, platform: LogPlatform)] = LogPlatform.allCases.flatMap { platform in
    Repository.files(under: Repository.traces.appendingPathComponent("import/\(platform.rawValue)"), suffix: "log")
      .map { ($0.path, platform) }
  }

  /// A log of each style no excerpt is in, in the lines ImportStyleTests reads.
  static let samples: [LogStyle: String] = [
    .logShowDefault: """
    Timestamp                       Thread     Type        Activity             PID    TTL
    2024-03-01 10:00:00.000000-0700 0x1a2b3c   Default     0x0                  1234   0    Refresh: (BackgroundTasks) [com.apple.BackgroundTasks:Framework] Running task: <BGAppRefreshTask: com.example.refresh>
    2024-03-01 10:00:00.000200-0700 0x1a2b3c   Default     0x0                  1234   0    Refresh: (BackgroundTasks) [com.apple.BackgroundTasks:Framework] Starting task: <BGAppRefreshTask: com.example.refresh>

    """,
    .logShowCompact: """
    Timestamp               Ty Process[PID:TID]
    2026-10-01 07:40:20.169 Df Notes App[24946:12c59] [com.apple.dt.xctest:Default] Registering for test daemon availability notify post.
    2026-10-01 07:40:58.627 E  Notes App[24946:12c59] [com.apple.UIKit:BackgroundTask] Background Task 3 ("Saving library"), was created over 30 seconds ago.

    """,
    .logShowSyslog: """
    2024-03-01 10:00:00.000000-0700  localhost Sync[77]: (UIKitCore) [com.apple.UIKit:BackgroundTask] Created background task <_UIBackgroundTaskInfo: 0x1>: taskID = 9, taskName = <private>, creationTime = 5 (elapsed = 0).
    2024-03-01 10:00:04.000000-0700  localhost Sync[77]: (UIKitCore) [com.apple.UIKit:BackgroundTask] Ending background task with UIBackgroundTaskIdentifier: 9

    """,
    .logShowJSON: """
    [{
      "eventMessage" : "Ending background task with UIBackgroundTaskIdentifier: 2",
      "processImagePath" : "/private/var/containers/Bundle/Application/X/Docs.app/Docs",
      "subsystem" : "com.apple.UIKit",
      "category" : "BackgroundTask",
      "processID" : 501,
      "timestamp" : "2024-03-01 10:00:01.000000-0700"
    }]

    """,
    .logcatYear: """
    2024-02-29 10:00:00.000  7035  7050 D WM-GreedyScheduler: Starting work for 9b6d0618-f951-4dfc-92a8-38c1e902c481
    2024-02-29 10:00:02.000  7035  7051 I WM-WorkerWrapper: Worker result RETRY for Work [ id=9b6d0618-f951-4dfc-92a8-38c1e902c481, tags={ com.example.SyncWorker } ]

    """,
    .logcatEpoch: """
    1709200800.000  7035  7050 D WM-GreedyScheduler: Starting work for 9b6d0618-f951-4dfc-92a8-38c1e902c481
    1709200802.000  7035  7051 I WM-WorkerWrapper: Worker result RETRY for Work [ id=9b6d0618-f951-4dfc-92a8-38c1e902c481, tags={ com.example.SyncWorker } ]

    """,
    .logcatLong: """
    [ 03-02 00:27:58.500  7035: 7050 D/WM-GreedyScheduler ]
    Starting work for 9b6d0618-f951-4dfc-92a8-38c1e902c481

    [ 03-02 00:28:00.000  7035: 7051 I/WM-WorkerWrapper ]
    Worker result RETRY for Work [ id=9b6d0618-f951-4dfc-92a8-38c1e902c481, tags={ com.example.SyncWorker } ]

    """,
  ]

  /// The excerpts and the samples together hold every style, and each sample is read in
  /// its own style as its own platform's, and refused as the other's.
  @Test func everyStyleIsNeverReadAsTheOtherPlatform() throws {
    var styles: Set<LogStyle> = []
    for excerpt in Self.excerpts {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: excerpt.path)))
      guard let summary = try? imported(bytes, name: excerpt.path).summary else { continue }
      styles.formUnion(summary.styles.map(\.style))
    }
    #expect(Self.excerpts.count >= 40)
    #expect(styles.union(Self.samples.keys) == Set(LogStyle.allCases))
    for (style, log) in Self.samples {
      #expect(try imported(log).summary.styles.map(\.style) == [style])
      let other: LogPlatform = style.platform == .ios ? .android : .ios
      #expect(throws: LogImportError.self, "\(style) read as \(other)") {
        try imported(log, options: LogImportOptions(platform: other))
      }
    }
  }

  @Test(arguments: excerpts.map(\.path))
  func anExcerptIsReadAsItsOwnPlatformOnly(path: String) throws {
    let platform = try #require(Self.excerpts.first { $0.path == path }?.platform)
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let name = URL(fileURLWithPath: path).lastPathComponent
    // Detected: its own platform (a log with no background work still has a style).
    if let summary = try? imported(bytes, name: name).summary {
      #expect(summary.platform == platform, "\(name)")
    }
    // Forced to the other platform: refused, with the error naming what was expected.
    let other: LogPlatform = platform == .ios ? .android : .ios
    #expect(throws: LogImportError.self, "\(name) read as \(other)") {
      try imported(bytes, name: name, options: LogImportOptions(platform: other))
    }
  }
}
