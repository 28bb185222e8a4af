package import BackgroundTrace
import Synchronization

/// Dulcet's background downloads (github.com/legitimate-apps/dulcet, commit 569f3fd), a
/// SwiftUI app whose scene hands the system's wakes for its background session to
/// `.backgroundTask(.urlSession(DulcetCoreDownloadController.productionBackgroundSessionIdentifier))
/// { await downloadController?.handleBackgroundSessionEvents() }`, ported onto
/// ``BackgroundTransfers/backgroundTask(_:action:)``:
///
/// - `handleBackgroundSessionEvents()` (`apple/DulcetAppleShared/DulcetCoreDownloads.swift`)
///   touches the lazily made background session (`_ = session`), which recreates it and
///   so gets its events delivered, and waits in `withCheckedContinuation` until
///   `urlSessionDidFinishEvents(forBackgroundURLSession:)` resumes it (or returns at
///   once when the events ended before the wait, `backgroundEventsFinishedBeforeWait`).
///   SwiftUI calls the wake's completion handler when the action returns: after the
///   session's events (``Version/waitsForEvents``).
/// - ``Version/returnsAtOnce`` is the same action without the wait: it recreates the
///   session and returns, as SwiftUI samples that only "re-attach" a singleton manager
///   do. SwiftUI then calls the completion handler before the session's events are
///   delivered, telling iOS the app is done while they are still on their way
///   (`net-handler-early`; Apple, `urlSessionDidFinishEvents(forBackgroundURLSession:)`:
///   call the handler once "all messages previously enqueued for this session have been
///   delivered").
///
/// A user action `download` starts one download in the session.
package final class SwiftUIDownloadsApp: BackgroundAppDelegate, BackgroundSessionDelegate, @unchecked Sendable {
  /// What `handleBackgroundSessionEvents()` does.
  package enum Version: Sendable {
    /// Commit 569f3fd: waits for `urlSessionDidFinishEvents`.
    case waitsForEvents
    /// Recreates the session and returns at once.
    case returnsAtOnce
  }

  /// The session's identifier (`<bundle>.downloads.background`).
  package static let sessionIdentifier = "com.legitimateapps.dulcet.downloads.background"

  let transfers: any BackgroundTransfers
  package let version: Version
  private var session: (any BackgroundSession)?
  /// `backgroundEventsContinuation` and `backgroundEventsFinishedBeforeWait`.
  private let events = Mutex<(continuation: CheckedContinuation<Void, Never>?, finishedBeforeWait: Bool)>((nil, false))
  /// The downloads that finished, in the order the session reported them.
  package private(set) var finished: [TransferOutcome] = []

  /// Creates the app on `transfers`, with `version`'s `handleBackgroundSessionEvents()`.
  package init(transfers: any BackgroundTransfers, version: Version) {
    self.transfers = transfers
    self.version = version
  }

  /// The scene's modifiers are set up at each launch.
  package func didFinishLaunching() {
    // .backgroundTask(.urlSession(DulcetCoreDownloadController.productionBackgroundSessionIdentifier)) {
    transfers.backgroundTask(.urlSession(Self.sessionIdentifier)) { [self] in
      // await downloadController?.handleBackgroundSessionEvents()
      await handleBackgroundSessionEvents()
    }
  }

  /// Starts a download on `download`.
  package func perform(userAction action: String) {
    guard action == "download" else { return }
    _ = backgroundSession().startTransfer(.download("https://example.com/track.flac"))
  }

  /// `private lazy var session: URLSession`: made on first use with the background
  /// configuration, `sessionSendsLaunchEvents` on.
  private func backgroundSession() -> any BackgroundSession {
    if let session { return session }
    let made = transfers.session(identifier: Self.sessionIdentifier, discretionary: false, delegate: self)
    session = made
    return made
  }

  func handleBackgroundSessionEvents() async {
    guard version == .waitsForEvents else {
      _ = backgroundSession()
      return
    }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = events.withLock { events in
        // if backgroundEventsFinishedBeforeWait { …; continuation.resume(); return }
        if events.finishedBeforeWait {
          events.finishedBeforeWait = false
          return true
        }
        // precondition(backgroundEventsContinuation == nil)
        events.continuation = continuation
        return false
      }
      if resumeNow { continuation.resume() }
      _ = backgroundSession()
    }
  }

  package func transferDidComplete(session: String, task: Int, outcome: TransferOutcome) {
    finished.append(outcome)
  }

  /// `urlSessionDidFinishEvents(forBackgroundURLSession:)`: resumes the wait, or notes
  /// that the events ended before it.
  package func sessionDidFinishEvents(session: String) {
    let continuation = events.withLock { events in
      guard let continuation = events.continuation else {
        events.finishedBeforeWait = true
        return CheckedContinuation<Void, Never>?.none
      }
      events.continuation = nil
      return continuation
    }
    continuation?.resume()
  }
}
