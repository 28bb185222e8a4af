import BackgroundTrace

// docs/guides/capturing.md's BGTaskScheduler app, as the guide shows it (the snippet
// test checks that the guide's text is this file's).

/// Refreshes the app's feed in the background: registers the launch handler at launch,
/// asks for a refresh on leaving the app, and asks for the next one at each run.
final class FeedRefreshApp: BackgroundAppDelegate, @unchecked Sendable {
  static let refreshID = "com.example.feed.refresh"
  private let scheduler: any TaskScheduling
  private(set) var refreshes = 0

  init(scheduler: any TaskScheduling) {
    self.scheduler = scheduler
  }

  func didFinishLaunching() {
    scheduler.register(forTaskWithIdentifier: Self.refreshID, using: nil) { [self] task in
      scheduleRefresh()  // ask for the next run first thing
      task.expirationHandler = { task.setTaskCompleted(success: false) }
      refreshes += 1  // the refresh's work
      task.setTaskCompleted(success: true)
    }
  }

  func didEnterBackground() {
    scheduleRefresh()
  }

  private func scheduleRefresh() {
    try? scheduler.submit(.refresh(Self.refreshID, earliestBeginDelay: .seconds(3600)))
  }
}
