package import BackgroundTrace

/// A background download as the public sample daferpi/DownloadBackground writes it
/// (github.com/daferpi/DownloadBackground, `DownloadBackground/ViewController.swift` and
/// `AppDelegate.swift`, commit 0f479a8), ported onto ``BackgroundTransfers`` with its
/// structure kept:
///
/// - the view controller owns the session, made lazily (a `lazy var` over
///   `URLSessionConfiguration.background(withIdentifier: "MySession")` with
///   `isDiscretionary = false` and `sessionSendsLaunchEvents = true`, itself the
///   delegate), and starts the download in `viewDidLoad`;
/// - the app delegate keeps the handler of `handleEventsForBackgroundURLSession` in
///   `backgroundCompletionHandler`, and the view controller calls it from
///   `urlSessionDidFinishEvents`, without clearing it.
///
/// The bug: only a launch into the foreground loads the view, so after the system
/// terminated the app during the download, the background launch for its events never
/// creates the session — the events are never delivered and the handler never called
/// (`net-not-recreated`). It shows only when the termination falls before the download
/// ends. The fix (`createsSessionAtLaunch`) makes the session at launch, in the app
/// delegate, and clears the handler once called.
package final class DownloadAppDelegate: BackgroundAppDelegate, @unchecked Sendable {
  /// The configuration identifier the sample uses.
  package static let sessionIdentifier = "MySession"
  let transfers: any BackgroundTransfers
  /// Whether the session is made at launch (the fix), not by the view.
  package let createsSessionAtLaunch: Bool
  var backgroundCompletionHandler: (@Sendable () -> Void)?
  /// The view controller, once UIKit loaded the view (a foreground launch).
  package private(set) var viewController: DownloadViewController?
  /// The fix's session owner, made at launch.
  private var downloads: DownloadViewController?

  /// Creates the app delegate over `transfers`.
  package init(transfers: any BackgroundTransfers, createsSessionAtLaunch: Bool = false) {
    self.transfers = transfers
    self.createsSessionAtLaunch = createsSessionAtLaunch
  }

  package func didFinishLaunching() {
    guard createsSessionAtLaunch else { return }  // the sample's returns true and does nothing
    let downloads = DownloadViewController(app: self)
    downloads.connect()
    self.downloads = downloads
  }

  /// A foreground launch shows the window, which loads the view and starts a download.
  package func didBecomeActive() {
    guard viewController == nil else { return }
    let controller = downloads ?? DownloadViewController(app: self)
    viewController = controller
    controller.viewDidLoad()
  }

  package func handleEvents(
    forBackgroundSession identifier: String, completionHandler: @escaping @Sendable () -> Void
  ) {
    backgroundCompletionHandler = completionHandler
  }

  /// The stored handler, called from the session delegate; the fix clears it.
  func callBackgroundCompletionHandler() {
    backgroundCompletionHandler?()
    if createsSessionAtLaunch { backgroundCompletionHandler = nil }
  }
}

/// The sample's view controller: the session's owner and delegate.
package final class DownloadViewController: BackgroundSessionDelegate, @unchecked Sendable {
  unowned let app: DownloadAppDelegate
  private var session: (any BackgroundSession)?
  /// The download's task number, once started.
  package private(set) var backgroundTask: Int?
  /// Downloads whose file arrived (`didFinishDownloadingTo`).
  package private(set) var finished: [Int] = []

  init(app: DownloadAppDelegate) { self.app = app }

  /// The `lazy var session`: made at first use.
  @discardableResult
  func connect() -> any BackgroundSession {
    if let session { return session }
    let made = app.transfers.session(
      identifier: DownloadAppDelegate.sessionIdentifier, discretionary: false, delegate: self)
    session = made
    return made
  }

  /// `viewDidLoad`: starts the download (the sample's URL).
  func viewDidLoad() {
    backgroundTask = connect().startTransfer(
      .download("https://download.blender.org/peach/bigbuckbunny_movies/BigBuckBunny_320x180.mp4"))
  }

  package func transferDidComplete(session: String, task: Int, outcome: TransferOutcome) {
    if outcome == .success { finished.append(task) }
  }

  package func sessionDidFinishEvents(session: String) {
    app.callBackgroundCompletionHandler()
  }
}
