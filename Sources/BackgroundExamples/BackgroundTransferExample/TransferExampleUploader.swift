package import BackgroundTrace

extension BackgroundTransferExample {
  /// The sample's `BackgroundUploader` (David Lam's): the singleton that owns the upload
  /// session, made in its `init` with itself as the delegate, and uploads queued jobs
  /// one at a time, the next one when the last completes.
  package final class BackgroundUploader: BackgroundSessionDelegate, @unchecked Sendable {
    /// The sample's session identifier.
    package static let sessionIdentifier = "background.upload.session"
    /// Where every upload is posted.
    static let uploadURL = "https://api.imgur.com/3/image"
    /// The handler of the wake, set by the app delegate, called in
    /// `urlSessionDidFinishEvents`.
    var backgroundCompletionHandler: (@Sendable () -> Void)?
    private let mainQueue: AsyncContext
    private let context = BackgroundUploaderContext()
    private var session: (any BackgroundSession)!
    /// The jobs in the order they were queued, done or not.
    package private(set) var queue: [Job] = []
    /// The job of each upload task.
    var dict: [Int: Job] = [:]

    init(transfers: any BackgroundTransfers, mainQueue: AsyncContext) {
      self.mainQueue = mainQueue
      session = transfers.session(identifier: Self.sessionIdentifier, discretionary: false, delegate: self)
    }

    /// `queueUpload(asset:completionHandler:)`: queues a job, and uploads it at once when
    /// it is the first not completed.
    func queueUpload(asset: GalleryAsset, completionHandler: @escaping ForegroundCompletionHandler) {
      let job = Job(asset: asset, didComplete: completionHandler)
      queue.append(job)
      if queue.first(where: { !$0.isCompleted }) === job {
        upload(job: job, completionHandler: completionHandler)
      }
    }

    /// `uploadNext()`: uploads the first job not completed.
    func uploadNext() {
      if let job = queue.first(where: { !$0.isCompleted }) {
        upload(job: job, completionHandler: job.didComplete)
      }
    }

    /// `upload(job:completionHandler:)`: an asset with an upload item already only takes
    /// the new handler (and starts no task, so its job never completes); otherwise the
    /// item is saved and the multipart body, written to the one temporary file
    /// `throwaway`, uploaded.
    func upload(job: Job, completionHandler: @escaping ForegroundCompletionHandler) {
      if let uploadItem = context.uploadItem(uploadItem: job.asset) {
        uploadItem.foregroundCompletionHandler = completionHandler  // "Already uploading"
        return
      }
      let uploadItem = UploadItem(filePath: job.asset.cachedLocalAssetPath)
      context.saveUploadItem(uploadItem, asset: job.asset)
      uploadItem.foregroundCompletionHandler = completionHandler
      if let task = session.startTransfer(.upload(file: "tmp/throwaway", to: Self.uploadURL)) {
        dict[task] = job
      }
    }

    /// `urlSessionDidFinishEvents(forBackgroundURLSession:)`: calls and clears the stored
    /// handler on the main queue.
    package func sessionDidFinishEvents(session: String) {
      mainQueue.run { [self] in
        backgroundCompletionHandler?()
        backgroundCompletionHandler = nil
      }
    }

    /// `urlSession(_:task:didCompleteWithError:)`: whatever the outcome, the task's job
    /// is done and the next one uploads (the job's own handler is commented out).
    package func transferDidComplete(session: String, task: Int, outcome: TransferOutcome) {
      if let job = dict[task] {
        job.isCompleted = true
        uploadNext()
      }
    }
  }

  /// `Job`: an asset queued for upload.
  package final class Job {
    /// The asset to upload.
    package let asset: GalleryAsset
    /// Whether its upload task completed.
    package var isCompleted = false
    let didComplete: ForegroundCompletionHandler

    init(asset: GalleryAsset, didComplete: @escaping ForegroundCompletionHandler) {
      self.asset = asset
      self.didComplete = didComplete
    }
  }

  /// `UploadItem`: an upload and the handler of whoever asked for it.
  final class UploadItem {
    let filePath: String
    var foregroundCompletionHandler: ForegroundCompletionHandler?

    init(filePath: String) { self.filePath = filePath }
  }

  /// `BackgroundUploaderContext`: the upload items by asset, never removed (the sample's
  /// `UserDefaults` copy is commented out).
  final class BackgroundUploaderContext {
    private var inMemoryUploadItems: [String: UploadItem] = [:]

    func uploadItem(uploadItem asset: GalleryAsset) -> UploadItem? { inMemoryUploadItems[asset.id] }
    func saveUploadItem(_ uploadItem: UploadItem, asset: GalleryAsset) { inMemoryUploadItems[asset.id] = uploadItem }
  }
}
