/// Background `URLSession`s as app code uses them: a session made with
/// `URLSessionConfiguration.background(withIdentifier:)` and a delegate, transfer tasks
/// resumed in it, the delegate's `urlSession(_:task:didCompleteWithError:)` and
/// `urlSessionDidFinishEvents(forBackgroundURLSession:)`. The system performs the
/// transfers out of process; when they are done it wakes or launches the app with
/// ``BackgroundAppDelegate/handleEvents(forBackgroundSession:completionHandler:)``,
/// and the app recreates the session to receive them (docs/rules.md, "Background
/// transfers").
///
/// ```swift
/// let session = transfers.session(identifier: "com.example.upload", discretionary: false, delegate: uploads)
/// let task = session.startTransfer(.upload(file: photo, to: "https://example.com/photos"))
/// // net.submit session=com.example.upload task=1 kind=upload
/// ```
public protocol BackgroundTransfers: AnyObject, Sendable {
  /// Creates the background session `identifier` in this process, its events delivered
  /// to `delegate` (on a device, a second creation returns the first session, with its
  /// first delegate).
  ///
  /// - Parameters:
  ///   - identifier: The session's identifier, as in
  ///     `URLSessionConfiguration.background(withIdentifier:)`.
  ///   - discretionary: `isDiscretionary`: the system may wait for Wi-Fi and power
  ///     before transferring.
  ///   - delegate: Receives the session's events
  ///     (``BackgroundSessionDelegate/transferDidComplete(session:task:outcome:)``,
  ///     ``BackgroundSessionDelegate/sessionDidFinishEvents(session:)``).
  func session(identifier: String, discretionary: Bool, delegate: any BackgroundSessionDelegate)
    -> any BackgroundSession

  /// Runs `action` each time the system launches or wakes the app for the events of a
  /// background session `task` matches, as SwiftUI's
  /// `Scene.backgroundTask(.urlSession(identifier)) { … }` does
  /// (https://developer.apple.com/documentation/swiftui/scene/backgroundtask(_:action:)):
  /// SwiftUI stands in for the app delegate's
  /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)` (`net.wake`)
  /// and calls its completion handler (`net.handler`) when the action returns — "The
  /// system considers the task completed when the action closure that you provide
  /// returns". So an action that returns before the session's events are delivered
  /// (`urlSessionDidFinishEvents`, `net.events-done`) calls the handler early
  /// (`net-handler-early`); the action should recreate the session and await the end of
  /// its events. When the wake's time runs out first, the action's task is cancelled.
  ///
  /// Register in `didFinishLaunching`, as a scene's modifiers are set up at each launch;
  /// a process's actions go with it. A wake for a session no action matches goes to the
  /// app delegate's ``BackgroundAppDelegate/handleEvents(forBackgroundSession:completionHandler:)``.
  ///
  /// - Parameters:
  ///   - task: the sessions: ``SwiftUIURLSessionTask/urlSession(_:)`` (the action gets
  ///     nothing), ``SwiftUIURLSessionTask/urlSession`` or
  ///     ``SwiftUIURLSessionTask/urlSession(matching:)`` (it gets the session's
  ///     identifier).
  ///   - action: the async closure run at each wake for a matching session.
  func backgroundTask<Request: Sendable>(
    _ task: SwiftUIURLSessionTask<Request>, action: @escaping @Sendable (Request) async -> Void)
}

/// One background `URLSession`.
public protocol BackgroundSession: AnyObject, Sendable {
  /// The configuration identifier.
  var identifier: String { get }
  /// Resumes a new transfer task (`uploadTask(with:fromFile:)` or `downloadTask(with:)`,
  /// then `resume()`) and returns its task identifier, unique within the session; `nil`
  /// when `request` cannot be made (its URL does not parse), and no task was started.
  func startTransfer(_ request: TransferRequest) -> Int?
}

/// What a background transfer moves: a file uploaded to a URL, or a URL downloaded.
public struct TransferRequest: Sendable, Hashable {
  /// Upload or download.
  public var kind: TransferKind
  /// The URL uploaded to or downloaded from.
  public var url: String
  /// The file an upload sends (background sessions upload only from files); `nil` for
  /// a download.
  public var file: String?

  /// A request of `kind` for `url`, sending `file` when it is an upload.
  public init(kind: TransferKind, url: String, file: String?) {
    self.kind = kind
    self.url = url
    self.file = file
  }

  /// An upload of `file` to `url` (`uploadTask(with:fromFile:)`).
  public static func upload(file: String, to url: String) -> TransferRequest {
    TransferRequest(kind: .upload, url: url, file: file)
  }

  /// A download of `url` (`downloadTask(with:)`).
  public static func download(_ url: String) -> TransferRequest {
    TransferRequest(kind: .download, url: url, file: nil)
  }
}

/// A background session's delegate: what the system delivers when the app holds the
/// session.
public protocol BackgroundSessionDelegate: AnyObject, Sendable {
  /// `urlSession(_:task:didCompleteWithError:)`: transfer `task` ended with `outcome`.
  func transferDidComplete(session: String, task: Int, outcome: TransferOutcome)
  /// `urlSessionDidFinishEvents(forBackgroundURLSession:)`: every event of the session
  /// was delivered. Call the completion handler of the wake here, on the main thread.
  func sessionDidFinishEvents(session: String)
}
