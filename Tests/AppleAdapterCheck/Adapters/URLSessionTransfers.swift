// Off Apple platforms this is compiled only by the AppleAdapters check target (with
// APPLE_SDK_SHIM, against swift-corelibs' FoundationNetworking); other modules of the
// package skip it.
#if (canImport(Darwin) && !os(macOS)) || APPLE_SDK_SHIM
  // Internal imports: no Foundation type is in this file's public API.
  import Foundation
  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif
  #if APPLE_SDK_SHIM
    public import BackgroundTrace
  #endif

  /// Background `URLSession`s as ``BackgroundTransfers``: the real sessions behind the
  /// protocol, for apps that wrap them in ``TracingBackgroundTransfers``.
  ///
  /// Each session is made with `URLSessionConfiguration.background(withIdentifier:)`,
  /// `isDiscretionary` as asked and `sessionSendsLaunchEvents` on (so the system launches
  /// the app for the session's events), its delegate a bridge that hands
  /// `urlSession(_:task:didCompleteWithError:)` and
  /// `urlSessionDidFinishEvents(forBackgroundURLSession:)` to the app's
  /// ``BackgroundSessionDelegate``.
  public final class URLSessionTransfers: BackgroundTransfers, @unchecked Sendable {
    private let sessionActions = SessionActions()

    /// Creates the adapter.
    public init() {}

    /// Keeps `action` for ``handleEvents(forBackgroundSession:completionHandler:)``: a
    /// UIKit app delegate's `handleEventsForBackgroundURLSession` runs it there. (A
    /// SwiftUI app uses SwiftUI's own modifier, through the SwiftUI adapter's
    /// `Scene.backgroundTask(_:recordingWith:action:)`.)
    public func backgroundTask<Request: Sendable>(
      _ task: SwiftUIURLSessionTask<Request>, action: @escaping @Sendable (Request) async -> Void
    ) {
      sessionActions.add(task, action)
    }

    /// Runs the actions kept for the session `identifier` (``backgroundTask(_:action:)``)
    /// and calls `completionHandler` when they return, as SwiftUI does: call it from
    /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`.
    ///
    /// - Returns: `false` when no action matches `identifier`: `completionHandler` is
    ///   then the caller's to call.
    @discardableResult
    public func handleEvents(
      forBackgroundSession identifier: String, completionHandler: @escaping @Sendable () -> Void
    ) -> Bool {
      let actions = sessionActions.matching(identifier)
      guard !actions.isEmpty else { return false }
      _ = SessionActions.run(actions, for: identifier, on: nil, then: completionHandler)
      return true
    }

    /// A background session `identifier` (URLSession returns the existing one, with its
    /// first delegate, when the process made it before).
    public func session(identifier: String, discretionary: Bool, delegate: any BackgroundSessionDelegate)
      -> any BackgroundSession
    {
      let configuration = Self.configuration(identifier)
      configuration.isDiscretionary = discretionary
      #if !APPLE_SDK_SHIM  // iOS only: swift-corelibs has no launch events
        configuration.sessionSendsLaunchEvents = true
      #endif
      let bridge = URLSessionDelegateBridge(identifier: identifier, delegate: delegate)
      let session = URLSession(configuration: configuration, delegate: bridge, delegateQueue: nil)
      return URLSessionBackgroundSession(identifier: identifier, session: session)
    }

    /// `URLSessionConfiguration.background(withIdentifier:)`.
    static func configuration(_ identifier: String) -> URLSessionConfiguration {
      #if APPLE_SDK_SHIM
        // swift-corelibs marks background configurations unavailable ("Not available on
        // non-Darwin platforms"): the check compiles everything else against its API.
        let configuration = URLSessionConfiguration.default
        configuration.identifier = identifier
        return configuration
      #else
        return .background(withIdentifier: identifier)
      #endif
    }
  }

  /// One background `URLSession`: transfers become upload tasks from a file or
  /// download tasks, resumed at once.
  final class URLSessionBackgroundSession: BackgroundSession, @unchecked Sendable {
    let identifier: String
    let session: URLSession

    init(identifier: String, session: URLSession) {
      self.identifier = identifier
      self.session = session
    }

    func startTransfer(_ request: TransferRequest) -> Int? {
      guard let url = URL(string: request.url) else { return nil }
      let task: URLSessionTask
      switch (request.kind, request.file) {
      case (.upload, let file?):
        task = session.uploadTask(with: URLRequest(url: url), fromFile: URL(fileURLWithPath: file))
      case (.upload, nil):
        return nil  // a background session uploads only from a file
      case (.download, _):
        task = session.downloadTask(with: url)
      }
      task.resume()
      return task.taskIdentifier
    }
  }

  /// The session's `URLSession` delegate, handing what the system delivers to the app's
  /// ``BackgroundSessionDelegate``: a task's end as its ``TransferOutcome``, and the end
  /// of the session's events.
  final class URLSessionDelegateBridge: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    let identifier: String
    let delegate: any BackgroundSessionDelegate

    init(identifier: String, delegate: any BackgroundSessionDelegate) {
      self.identifier = identifier
      self.delegate = delegate
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
      delegate.transferDidComplete(session: identifier, task: task.taskIdentifier, outcome: Self.outcome(of: error))
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
      delegate.sessionDidFinishEvents(session: identifier)
    }

    /// `success` for no error, `cancelled` for `URLError.cancelled` (the app's cancel, or
    /// the system's after a force-quit), `failed` for any other.
    static func outcome(of error: (any Error)?) -> TransferOutcome {
      guard let error else { return .success }
      return (error as? URLError)?.code == .cancelled ? .cancelled : .failed
    }
  }
#endif
