package import BackgroundTrace

/// The seed's `AppDelegate` for BGTaskScheduler: registers the refresh handler at
/// launch, submits a refresh an hour out, and in the handler resubmits, sets an
/// expiration handler and completes when the fetch returns.
///
/// Its bugs can be switched on: forgetting to resubmit, never completing, and (as in
/// the seed) completing twice when the fetch returns after the expiration handler.
package final class RefreshAppDelegate: @unchecked Sendable {
  /// The refresh identifier.
  package static let refreshIdentifier = "com.example.refresh"
  private let scheduler: any TaskScheduling
  private let context: AsyncContext
  /// How long a fetch takes.
  package var fetchDuration: Duration
  /// How far out the next refresh is requested (the seed: an hour).
  package var refreshInterval: Duration = .seconds(3600)
  /// Whether the handler submits the next refresh (the seed does).
  package var resubmits: Bool
  /// Whether the handler calls `setTaskCompleted` (the seed does).
  package var completes: Bool
  /// Fetches that finished.
  package private(set) var fetches = 0

  /// Creates the delegate.
  package init(
    scheduler: any TaskScheduling, context: AsyncContext, fetchDuration: Duration = .seconds(5),
    resubmits: Bool = true, completes: Bool = true
  ) {
    self.scheduler = scheduler
    self.context = context
    self.fetchDuration = fetchDuration
    self.resubmits = resubmits
    self.completes = completes
  }

  /// `application(_:didFinishLaunchingWithOptions:)`: registers the handler.
  package func didFinishLaunching() {
    scheduler.register(forTaskWithIdentifier: Self.refreshIdentifier, using: nil) { [self] task in
      handleAppRefresh(task: task)
    }
  }

  /// Submits the next refresh, ``refreshInterval`` out.
  package func scheduleAppRefresh() {
    try? scheduler.submit(.refresh(Self.refreshIdentifier, earliestBeginDelay: refreshInterval))
  }

  private func handleAppRefresh(task: any ScheduledTask) {
    if resubmits { scheduleAppRefresh() }
    task.expirationHandler = { [completes] in
      if completes { task.setTaskCompleted(success: false) }
    }
    context.run { [self] in
      try? await context.sleep(fetchDuration)
      fetches += 1
      if completes { task.setTaskCompleted(success: true) }
    }
  }
}
