package import BackgroundTrace

/// The public background-transfer sample davidlamys/BackgroundTransfer-Example
/// (github.com/davidlamys/BackgroundTransfer-Example, branch `backgroundupload`, commit
/// 5d6bba75d1cc1cd49edd8e76d9a255a6737541d9: David Lam's fork of William Boles's
/// wibosco/BackgroundTransfer-Example, adding a background uploader to its background
/// downloader), ported onto ``BackgroundTransfers`` with its structure, names and bugs
/// kept. The files ported:
///
/// - `Application/AppDelegate.swift` (``AppDelegate``): `handleEventsForBackgroundURLSession`
///   hands the completion handler to `BackgroundDownloader.shared` and to
///   `BackgroundUploader.shared` alike, whichever session it is for;
/// - `Data/Downloader/BackgroundDownloader.swift` (``BackgroundDownloader``) and
///   `Data/Downloader/BackgroundUploader.swift` (``BackgroundUploader``): two singletons,
///   each owning a background session it makes in its `init` and is the delegate of,
///   each calling its stored handler on the main queue in `urlSessionDidFinishEvents`
///   and clearing it;
/// - `Data/Managers/GalleryAssetDataManager.swift` (``GalleryAssetDataManager``): each
///   gallery asset is downloaded, and once downloaded queued for upload;
/// - `ViewControllers/DetailViewController.swift`: its Upload button queues the asset
///   (the user action `upload:<asset id>`).
///
/// Left out, as nothing the trace shows depends on them: the gallery's album search (a
/// request on a default session, here a fixed ``album``), the cached-image check (every
/// foreground launch here is the first), the image decoding and the multipart body,
/// the `print`s, `applicationDidEnterBackground`'s block (it prints only; its `exit(0)`
/// is commented out at that commit), the download's `earliestBeginDate` 20 s ahead
/// ("for demonstration purposes only"; ``BackgroundSession`` takes no begin date, and
/// the system's transfer duration stands for it) and the download context's copy in
/// `UserDefaults` (after a relaunch its items come back without their completion
/// handlers, which it does not store, so nothing more is done with them either way).
///
/// The bug: the handler of every wake goes to both singletons. When one session's wake
/// comes while another session's events are still being delivered (its
/// `urlSessionDidFinishEvents` not yet come), the second wake's handler overwrites the
/// first in both: the first session's owner calls the second session's handler before
/// that session's events are done (`net-handler-early`), the second's owner calls it
/// again (`net-handler-unknown`), and the first session's handler is never called; the
/// app is suspended with it owed (`net-handler-not-called`). One wake at a time, the
/// sample works. The fix (`routesHandlerBySession`) hands the handler to the owner of
/// the session it names.
///
/// The sample has bugs no rule sees, kept too: its upload queue and its task-to-job map
/// live in memory, so after a relaunch finished uploads start no next one; a job whose
/// asset was queued before never starts a task (its upload item is never removed), and
/// the queue stops behind it; a failed upload counts as done.
package enum BackgroundTransferExample {
  /// A picture in the gallery (`GalleryAsset`).
  package struct GalleryAsset: Sendable, Hashable {
    /// The asset's identifier, also the user action's argument (`upload:<id>`).
    package let id: String
    /// Where it is downloaded from.
    package let url: String

    /// The asset `id` at `url`.
    package init(id: String, url: String) {
      self.id = id
      self.url = url
    }

    /// `cachedLocalAssetURL()`: where the downloaded file is kept, and what an upload sends.
    var cachedLocalAssetPath: String { "Documents/\(id)" }
  }

  /// The gallery the search for "cats" returns, in place of the request the sample makes.
  package static let album = [
    GalleryAsset(id: "cat1", url: "https://i.imgur.com/cat1.jpg"),
    GalleryAsset(id: "cat2", url: "https://i.imgur.com/cat2.jpg"),
    GalleryAsset(id: "cat3", url: "https://i.imgur.com/cat3.jpg"),
  ]

  /// The sample's `AppDelegate`, made afresh for each process, with the process's
  /// singletons.
  package final class AppDelegate: BackgroundAppDelegate, @unchecked Sendable {
    let transfers: any BackgroundTransfers
    /// Where `DispatchQueue.main.async` work runs.
    let mainQueue: AsyncContext
    /// Whether the handler goes only to the session it names (the fix).
    package let routesHandlerBySession: Bool
    /// The assets the gallery shows.
    package let album: [GalleryAsset]
    /// `BackgroundDownloader.shared`: made at first use, with its session, as a
    /// `static let` is made once per process.
    package private(set) lazy var downloader = BackgroundDownloader(transfers: transfers, mainQueue: mainQueue)
    /// `BackgroundUploader.shared`, likewise.
    package private(set) lazy var uploader = BackgroundUploader(transfers: transfers, mainQueue: mainQueue)
    /// Whether UIKit loaded the gallery view (a foreground launch does).
    private var galleryLoaded = false

    /// Creates the app delegate over `transfers`.
    ///
    /// - Parameters:
    ///   - mainQueue: runs what the sample sends to the main queue.
    ///   - routesHandlerBySession: the fix.
    ///   - album: the gallery's assets, one download each.
    package init(
      transfers: any BackgroundTransfers, mainQueue: AsyncContext, routesHandlerBySession: Bool = false,
      album: [GalleryAsset] = [BackgroundTransferExample.album[0]]
    ) {
      self.transfers = transfers
      self.mainQueue = mainQueue
      self.routesHandlerBySession = routesHandlerBySession
      self.album = album
    }

    /// The storyboard's gallery loads in the foreground: `viewDidLoad` retrieves the
    /// album, and each cell loads its asset through the data manager.
    package func didBecomeActive() {
      guard !galleryLoaded else { return }
      galleryLoaded = true
      let dataManager = GalleryAssetDataManager(app: self)
      for asset in album { dataManager.load(galleryItemAsset: asset) }
    }

    /// `DetailViewController.didTapUpload`: queues the asset the detail view shows.
    package func perform(userAction action: String) {
      let prefix = "upload:"
      guard action.hasPrefix(prefix), let asset = album.first(where: { $0.id == action.dropFirst(prefix.count) })
      else { return }
      uploader.queueUpload(asset: asset) { _ in }  // the sample's handler prints the result
    }

    package func handleEvents(
      forBackgroundSession identifier: String, completionHandler: @escaping @Sendable () -> Void
    ) {
      guard routesHandlerBySession else {
        // As written: both singletons get the handler, whichever session woke the app.
        downloader.backgroundCompletionHandler = completionHandler
        uploader.backgroundCompletionHandler = completionHandler
        return
      }
      // The fix: the handler goes to the session's owner only.
      switch identifier {
      case BackgroundDownloader.sessionIdentifier: downloader.backgroundCompletionHandler = completionHandler
      case BackgroundUploader.sessionIdentifier: uploader.backgroundCompletionHandler = completionHandler
      default: break
      }
    }
  }

  /// `GalleryAssetDataManager`: loads an asset by downloading it, then queues its upload.
  final class GalleryAssetDataManager {
    unowned let app: AppDelegate

    init(app: AppDelegate) { self.app = app }

    /// `load(galleryItemAsset:remoteLoadHandler:)`, for an asset not yet cached.
    func load(galleryItemAsset asset: GalleryAsset) {
      remotelyLoadAsset(asset)
    }

    private func remotelyLoadAsset(_ asset: GalleryAsset) {
      let downloader = app.downloader
      // Reaching `BackgroundUploader.shared` here makes the upload session too.
      let uploader = app.uploader
      downloader.download(remoteURL: asset.url, filePath: asset.cachedLocalAssetPath) { result in
        switch result {
        case .success:
          // The image goes to the gallery's cell on the main queue, and the asset is
          // queued for upload (its handler prints the URL).
          uploader.queueUpload(asset: asset) { _ in }
        case .failure:
          break
        }
      }
    }
  }

  /// `DataRequestResult<URL>`: a download's file, or its failure.
  enum DataRequestResult {
    case success(String)
    case failure
  }

  /// `ForegroundDownloadCompletionHandler`.
  typealias ForegroundCompletionHandler = (DataRequestResult) -> Void
}
