import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceReplay
import Foundation
import TestSupport
import Testing

/// Every golden trace of the simulated examples replays against the unchanged code
/// with no divergence, comparing actions in order and at their recorded times. The
/// scenarios record what the user does with `SimulatedSystem.userAction`
/// (`mark label=user:…`), so a replay performs it again.
@Suite struct GoldenReplayTests {
  static let goldens = Repository.goldens

  /// The app of each replayable golden (its path under `Traces/golden`, one folder per
  /// platform), as a delegate built for each process.
  static let apps: [(golden: String, make: @Sendable (ReplayPlatform) -> any BackgroundAppDelegate)] = [
    ("ios/document-manager-save-outlasts-budget", { SavingApp(platform: $0, guards: false, save: .seconds(45)) }),
    ("ios/document-manager-guarded", { SavingApp(platform: $0, guards: true, save: .seconds(45)) }),
    ("ios/document-manager-short-save", { SavingApp(platform: $0, guards: false, save: .seconds(10)) }),
    ("ios/refresh-fetch-within-runtime", { RefreshingApp(platform: $0, fetch: .seconds(5)) }),
    ("ios/refresh-fetch-outlasts-runtime", { RefreshingApp(platform: $0, fetch: .seconds(45)) }),
    ("ios/refresh-not-resubmitted", { RefreshingApp(platform: $0, fetch: .seconds(5), resubmits: false) }),
    ("ios/refresh-not-completed", { RefreshingApp(platform: $0, fetch: .seconds(5), completes: false) }),
    ("ios/swiftui-refresh-returns-at-once", { NotificationRefreshExampleTests.app(on: $0, version: .returnsAtOnce) }),
    (
      "ios/swiftui-refresh-ignores-cancellation",
      { NotificationRefreshExampleTests.app(on: $0, version: .ignoresCancellation) }
    ),
    ("ios/swiftui-refresh-fixed-cancelled", { NotificationRefreshExampleTests.app(on: $0, version: .fixed) }),
    // The NHS app's aggregator: its launch-time pending check reads the replay's pending requests.
    (
      "ios/exposure-tasks-never-completed",
      { ExposureTasksExampleTests.app(on: $0, context: AsyncContext(simulation: $0.scheduler), version: .asWritten) }
    ),
    (
      "ios/exposure-tasks-fixed",
      { ExposureTasksExampleTests.app(on: $0, context: AsyncContext(simulation: $0.scheduler), version: .fixed) }
    ),
    ("ios/swiftui-urlsession-returns-at-once", { SwiftUIDownloadsApp(transfers: $0, version: .returnsAtOnce) }),
    ("ios/swiftui-urlsession-waits-for-events", { SwiftUIDownloadsApp(transfers: $0, version: .waitsForEvents) }),
    // The demo's user actions are recorded as `mark label=user:…` and performed again.
    ("ios/demo-scenario", { DemoScenario.app(on: $0, scheduler: $0.scheduler) }),
    ("ios/demo-scenario-fixed", { DemoScenario.app(on: $0, scheduler: $0.scheduler, fixed: true) }),
    ("ios/critical-data-twice-leaks", criticalData),
    ("ios/critical-data-twice-watchdog", criticalData),
    ("ios/critical-data-once", criticalData),
    // A continued-processing upload whose progress stalls, and the fix.
    ("ios/continued-upload-stalled", { ContinuedUploadExampleTests.app(on: $0, fixed: false) }),
    ("ios/continued-upload-fixed", { ContinuedUploadExampleTests.app(on: $0, fixed: true) }),
    ("android/data-sync-retries-then-fails", { dataSync(on: $0, checksAttemptLimit: true) }),
    ("android/data-sync-retries-forever", { dataSync(on: $0, checksAttemptLimit: false) }),
    // docs/guides/android.md: the app enqueues its two syncs at launch.
    ("android/news-sync", AndroidGuideTests.app),
    // The process killed mid-attempt: the replay applies the kill and WorkManager's restart.
    ("android/sync-process-killed", { AndroidSyncScenario.app(on: $0, scheduler: $0.scheduler) }),
    // The seed's SyncService: the crash of its untyped startForeground is the recording's.
    (
      "android/sync-service-untyped-crashes",
      { SyncServiceExampleTests.app(on: $0, scheduler: $0.scheduler, type: nil) }
    ),
    ("android/sync-service-android-13", { SyncServiceExampleTests.app(on: $0, scheduler: $0.scheduler, type: nil) }),
    ("android/sync-service-typed", { SyncServiceExampleTests.app(on: $0, scheduler: $0.scheduler, type: .dataSync) }),
    // A 45-minute upload worker, promoted with setForeground or stopped at its job time limit.
    (
      "android/long-upload-foreground",
      { LongUploadWorkerExampleTests.app(on: $0, scheduler: $0.scheduler, goesForeground: true) }
    ),
    (
      "android/long-upload-stopped-as-a-job",
      { LongUploadWorkerExampleTests.app(on: $0, scheduler: $0.scheduler, goesForeground: false) }
    ),
    // Its setForeground from the background refused: the recording's work.refuse answers it.
    (
      "android/long-upload-refused-in-background",
      { LongUploadWorkerExampleTests.app(on: $0, scheduler: $0.scheduler, goesForeground: true) }
    ),
    // Background transfers: the recorded finish, wake and events-done handed to the app.
    ("ios/background-download", { DownloadAppDelegate(transfers: $0) }),
    ("ios/background-upload", { BackgroundTransferReplayTests.UploadApp(transfers: $0, callsHandler: true) }),
    ("ios/background-download-killed", { DownloadAppDelegate(transfers: $0) }),
    ("ios/background-download-fixed", { DownloadAppDelegate(transfers: $0, createsSessionAtLaunch: true) }),
    // Two sessions' wakes, one at a time, overlapping, and the fix.
    ("ios/background-transfer", { BackgroundTransferExampleTests.app(on: $0, scheduler: $0.scheduler, fixed: false) }),
    (
      "ios/background-transfer-overlapping-wakes",
      { BackgroundTransferExampleTests.app(on: $0, scheduler: $0.scheduler, fixed: false) }
    ),
    (
      "ios/background-transfer-fixed",
      { BackgroundTransferExampleTests.app(on: $0, scheduler: $0.scheduler, fixed: true) }
    ),
    (
      "ios/task-manager-named-tasks",
      { platform in
        let manager = BackgroundTaskManager(host: platform)
        return UserActionApp { ExampleActions.taskManager($0, manager) { _ in } }
      }
    ),
  ]

  static let criticalData: @Sendable (ReplayPlatform) -> any BackgroundAppDelegate = { platform in
    let sender = CriticalDataSender(host: platform, context: AsyncContext(simulation: platform.scheduler))
    return UserActionApp { ExampleActions.criticalData($0, sender) }
  }

  static func dataSync(on platform: ReplayPlatform, checksAttemptLimit: Bool) -> any BackgroundAppDelegate {
    let worker = DataSyncWorker(
      context: AsyncContext(simulation: platform.scheduler), checksAttemptLimit: checksAttemptLimit
    ) { _ in false }
    return UserActionApp { if $0 == "sync" { try! platform.enqueue(worker.request(work: "sync-1"), policy: nil) } }
  }

  @Test(arguments: apps.map(\.golden))
  func theGoldenReplaysWithNoDivergence(_ golden: String) throws {
    let make = try #require(Self.apps.first { $0.golden == golden }?.make)
    var reader = try TraceReader(path: Self.goldens.appendingPathComponent(golden + ".txt").path)
    let recorded = try reader.readAll()
    for timing in [Replayer.Timing.order, .exact] {
      let result = Replayer.replay(recorded, timing: timing, makeApp: make)
      #expect(result.divergence == nil, "\(golden) \(timing): \(result.divergence.map(String.init(describing:)) ?? "")")
      #expect(result.unapplied.isEmpty, "\(golden): \(result.unapplied)")
      #expect(result.trace.events == recorded.events)
    }
  }

  /// A golden added under Traces/golden without its app here would never be replayed.
  @Test func everyGoldenIsReplayed() throws {
    let files = try ["ios", "android"].flatMap { platform in
      try FileManager.default.contentsOfDirectory(atPath: Self.goldens.appendingPathComponent(platform).path)
        .filter { $0.hasSuffix(".txt") }.map { "\(platform)/" + $0.dropLast(4) }
    }
    #expect(Set(files) == Set(Self.apps.map(\.golden)))
  }

  @Test func theReplayAnswersBackgroundTimeRemainingAsTheSimulationDid() throws {
    var reader = try TraceReader(path: Self.goldens.appendingPathComponent("ios/task-manager-named-tasks.txt").path)
    let recorded = try reader.readAll()
    var manager: BackgroundTaskManager?
    let result = Replayer.replay(recorded, timing: .exact) { platform in
      let made = BackgroundTaskManager(host: platform)
      manager = made
      return UserActionApp { ExampleActions.taskManager($0, made) { _ in } }
    }
    #expect(result.divergence == nil)
    // As in TaskManagerExampleTests: two starts in the foreground, then 30 s (5 s into
    // the background, a task open) and 26 s (at 9 s).
    #expect(manager?.remainingAtStart == [.greatestFiniteMagnitude, .greatestFiniteMagnitude, 30, 26])
  }

  @Test func changingTheCodeShowsTheFirstDivergence() throws {
    var reader = try TraceReader(path: Self.goldens.appendingPathComponent("ios/refresh-fetch-within-runtime.txt").path)
    let recorded = try reader.readAll()
    // Dropping the resubmit: the handler's first action differs.
    let result = Replayer.replay(recorded, timing: .exact) {
      RefreshingApp(platform: $0, fetch: .seconds(5), resubmits: false)
    }
    let divergence = try #require(result.divergence)
    #expect(
      divergence.expected?.hasSuffix("sched.submit ident=com.example.refresh type=refresh earliest=11265.264") == true)
    #expect(divergence.actual?.hasSuffix("sched.complete run=1 success=true") == true)
    #expect(divergence.eventNumber == 11)  // after the request's `sched.wait` at its earliest date
    #expect(divergence.context.last?.hasPrefix("3: 0 sched.submit") == true)
  }
}

/// The DocumentManager scenario as an app: save the document on entering the background.
final class SavingApp: BackgroundAppDelegate {
  let documents: DocumentManager
  let save: Duration

  init(platform: ReplayPlatform, guards: Bool, save: Duration) {
    documents = DocumentManager(
      host: platform, context: AsyncContext(simulation: platform.scheduler), guardsInvalidID: guards)
    self.save = save
  }

  func didEnterBackground() { documents.save(taking: save) }
}

/// The refresh AppDelegate scenario as an app: register and submit at launch.
final class RefreshingApp: BackgroundAppDelegate {
  let delegate: RefreshAppDelegate

  init(platform: ReplayPlatform, fetch: Duration, resubmits: Bool = true, completes: Bool = true) {
    delegate = RefreshAppDelegate(
      scheduler: platform, context: AsyncContext(simulation: platform.scheduler), fetchDuration: fetch,
      resubmits: resubmits, completes: completes)
  }

  func didFinishLaunching() {
    delegate.didFinishLaunching()
    delegate.scheduleAppRefresh()
  }
}
