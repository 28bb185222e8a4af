package import BackgroundTrace

extension BackgroundTransferExample {
  /// The sample's `BackgroundDownloader` (William Boles's, unchanged in the fork): the
  /// singleton that owns the download session, made in its `init` with itself as the
  /// delegate, and keeps a download item per remote URL with the completion handler of
  /// whoever asked for it.
  package final class BackgroundDownloader: BackgroundSessionDelegate, @unchecked Sendable {
    /// The sample's session identifier.
    package static let sessionIdentifier = "background.download.session"
    /// The handler of the wake, set by the app delegate, called in
    /// `urlSessionDidFinishEvents`.
    var backgroundCompletionHandler: (@Sendable () -> Void)?
    private let mainQueue: AsyncContext
    private let context = BackgroundDownloaderContext()
    private var session: (any BackgroundSession)!
    /// Each task's `originalRequest?.url`, which the sample reads off the task (the
    /// session hands out task numbers only). Empty after a relaunch, where the sample
    /// finds the item in `UserDefaults` without its handler: either way nothing is done.
    private var requestURLs: [Int: String] = [:]

    init(transfers: any BackgroundTransfers, mainQueue: AsyncContext) {
      self.mainQueue = mainQueue
      session = transfers.session(identifier: Self.sessionIdentifier, discretionary: false, delegate: self)
    }

    /// `download(remoteURL:filePathURL:completionHandler:)`: one download per URL; a
    /// second request for a URL being downloaded only takes over its handler.
    func download(remoteURL: String, filePath: String, completionHandler: @escaping ForegroundCompletionHandler) {
      if let downloadItem = context.loadDownloadItem(withURL: remoteURL) {
        downloadItem.foregroundCompletionHandler = completionHandler  // "Already downloading"
        return
      }
      let downloadItem = DownloadItem(remoteURL: remoteURL, filePath: filePath)
      downloadItem.foregroundCompletionHandler = completionHandler
      context.saveDownloadItem(downloadItem)
      // `task.earliestBeginDate` 20 s ahead is left out: the session takes no begin date.
      if let task = session.startTransfer(.download(remoteURL)) { requestURLs[task] = remoteURL }
    }

    /// `urlSessionDidFinishEvents(forBackgroundURLSession:)`: calls and clears the stored
    /// handler on the main queue.
    package func sessionDidFinishEvents(session: String) {
      mainQueue.run { [self] in
        backgroundCompletionHandler?()
        backgroundCompletionHandler = nil
      }
    }

    /// `urlSession(_:downloadTask:didFinishDownloadingTo:)`, which comes for a download
    /// that succeeded: the file moves to the item's path and the item's handler hears
    /// of it. The sample implements nothing for a failed download.
    package func transferDidComplete(session: String, task: Int, outcome: TransferOutcome) {
      guard outcome == .success, let url = requestURLs[task], let downloadItem = context.loadDownloadItem(withURL: url)
      else { return }
      downloadItem.foregroundCompletionHandler?(.success(downloadItem.filePath))
      context.deleteDownloadItem(downloadItem)
    }
  }

  /// `DownloadItem`: a download and the handler of whoever asked for it.
  final class DownloadItem {
    let remoteURL: String
    let filePath: String
    var foregroundCompletionHandler: ForegroundCompletionHandler?

    init(remoteURL: String, filePath: String) {
      self.remoteURL = remoteURL
      self.filePath = filePath
    }
  }

  /// `BackgroundDownloaderContext`: the download items by remote URL (the sample's copy
  /// in `UserDefaults` is left out: see ``BackgroundTransferExample``).
  final class BackgroundDownloaderContext {
    private var inMemoryDownloadItems: [String: DownloadItem] = [:]

    func loadDownloadItem(withURL url: String) -> DownloadItem? { inMemoryDownloadItems[url] }
    func saveDownloadItem(_ downloadItem: DownloadItem) { inMemoryDownloadItems[downloadItem.remoteURL] = downloadItem }
    func deleteDownloadItem(_ downloadItem: DownloadItem) { inMemoryDownloadItems[downloadItem.remoteURL] = nil }
  }
}
