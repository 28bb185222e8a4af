package import BackgroundTrace

/// Nostur's background refresh (github.com/nostur-com/nostur-ios-public), a SwiftUI app
/// that checks the user's relays for new mentions in a `.backgroundTask(.appRefresh(_:))`
/// action, ported line for line onto ``TaskScheduling/backgroundTask(_:action:)``:
///
/// - the scene (`Nostur/NosturApp.swift`, commit 0bd1f1db) submits a refresh when the
///   app goes to the background (`.onChange(of: phase)`, `case .background:
///   scheduleAppRefresh()`), and its action schedules the next refresh 180 s out and
///   then runs `await checkForNotifications()`;
/// - `scheduleAppRefresh(seconds:)` (`BackgroundNotifications.swift`) submits a
///   `BGAppRefreshTaskRequest` with `earliestBeginDate = .now.addingTimeInterval(seconds)`
///   and `try?`.
///
/// What `checkForNotifications()` is decides the run (``Version``):
///
/// - ``Version/returnsAtOnce``: as `BackgroundNotifications.swift` has it at commit
///   046c21d, a synchronous function that hands the relay query to a Core Data
///   background context (`bg().perform { … reqTask.fetch() }`) and returns at once. The
///   action returns with it, SwiftUI completes the run, and the app is suspended 3 s later
///   with the query unanswered: the check runs only when the app next runs, if ever.
/// - ``Version/ignoresCancellation``: as at commit a965eba, an async function that waits
///   in `withCheckedContinuation` for a task of its own (`Task { @MainActor in … }`) to
///   get the relays' answer or give up after the query's 10 s timeout. The action now
///   waits, but its wait cannot be cancelled: a run whose time ends first is expired,
///   stays open, and the app is killed.
/// - ``Version/fixed``: the query awaited in the action's own task, so the expiration's
///   cancellation stops it (Apple: "Use withTaskCancellationHandler(operation:onCancel:)
///   to observe whether the task is low on runtime").
///
/// The relays' answer is an input (`input key=relays.mentions`): the number of unread
/// mentions, or `timeout` or `cancelled`.
package final class NotificationRefreshApp: BackgroundAppDelegate, @unchecked Sendable {
  /// What `checkForNotifications()` is: the commit it comes from, or the fix.
  package enum Version: Sendable {
    /// Commit 046c21d: returns at once, the query detached.
    case returnsAtOnce
    /// Commit a965eba: awaits a continuation that the expiration cannot cancel.
    case ignoresCancellation
    /// Awaits the query in the action's task, which the expiration cancels.
    case fixed
  }

  /// The refresh identifier Nostur registers.
  package static let refreshIdentifier = "com.nostur.app-refresh"
  /// The key of the relays' answer among the run's inputs.
  package static let answerKey = "relays.mentions"
  /// The ReqTask's timeout in commit a965eba (`timeout: 10.0`).
  package static let queryTimeout: Duration = .seconds(10)

  let scheduler: any TaskScheduling
  let context: AsyncContext
  let inputs: any RecordedInputs
  /// How long the relays take to answer.
  package let relayQuery: Duration
  /// Which `checkForNotifications()` the app has.
  package let version: Version
  /// Mention notifications scheduled (`scheduleMentionNotification`).
  package private(set) var notifications = 0

  /// Creates the app.
  package init(
    scheduler: any TaskScheduling, context: AsyncContext, inputs: any RecordedInputs, relayQuery: Duration,
    version: Version
  ) {
    self.scheduler = scheduler
    self.context = context
    self.inputs = inputs
    self.relayQuery = relayQuery
    self.version = version
  }

  /// SwiftUI registers the scene's background tasks as the app launches.
  package func didFinishLaunching() {
    // .backgroundTask(.appRefresh("com.nostur.app-refresh")) {
    scheduler.backgroundTask(.appRefresh(Self.refreshIdentifier)) { [self] in
      // guard ss.receiveLocalNotifications else { … return }  (on in this port)
      // Always schedule the next refresh
      scheduleAppRefresh(seconds: 180.0)

      // Check for any new notifications (relays), if there are unread mentions it will trigger a (iOS) notification
      switch version {
      case .returnsAtOnce:
        // Commit 046c21d's function is synchronous: the `await` Nostur writes has nothing to wait for.
        checkForNotificationsReturningAtOnce()
      case .ignoresCancellation:
        await checkForNotifications()
      case .fixed:
        await checkForNotificationsObservingCancellation()
      }
    }
  }

  /// `.onChange(of: phase)`: `case .background: … scheduleAppRefresh()`.
  package func didEnterBackground() {
    scheduleAppRefresh()
  }

  /// Schedule a background fetch task.
  func scheduleAppRefresh(seconds: Double = 60.0) {
    let request = TaskRequest.refresh(Self.refreshIdentifier, earliestBeginDelay: .seconds(seconds))
    try? scheduler.submit(request)
  }

  /// Commit 046c21d: `bg().perform { … reqTask.fetch() }`, and return.
  private func checkForNotificationsReturningAtOnce() {
    context.run { [self] in
      let answer = await askRelays(timeout: Self.queryTimeout)
      handle(answer)
    }
  }

  /// Commit a965eba: `await withCheckedContinuation { continuation in Task { @MainActor in
  /// … } }`, resumed by the ReqTask's response or its timeout.
  private func checkForNotifications() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      context.run { [self] in
        let answer = await askRelays(timeout: Self.queryTimeout)
        handle(answer)
        continuation.resume()
      }
    }
  }

  /// The fix: the query in the action's own task, so the expiration cancels it.
  private func checkForNotificationsObservingCancellation() async {
    let answer = await askRelays(timeout: Self.queryTimeout)
    guard !Task.isCancelled else { return }
    handle(answer)
  }

  /// `ConnectionPool.shared.connectAll()` and `reqTask.fetch()`: the relays answer after
  /// ``relayQuery`` with two unread mentions, or the ReqTask times out. A cancelled wait
  /// answers `cancelled`.
  private func askRelays(timeout: Duration) async -> String {
    let (sleep, query) = (context.sleep, relayQuery)
    return await inputs.value(for: Self.answerKey) {
      do {
        try await sleep(min(query, timeout))
      } catch {
        return "cancelled"
      }
      return query <= timeout ? "2" : "timeout"
    }
  }

  /// `processResponseCommand`: `checkForUnreadMentions()`, which schedules a notification.
  private func handle(_ answer: String) {
    if answer != "0" && Int(answer) != nil { notifications += 1 }
  }
}
