import BackgroundTrace
import Synchronization

/// Syncs the news feed: what a `CoroutineWorker` is in Kotlin. It retries a failed
/// fetch until its third retry, then gives up; WorkManager itself never stops retrying.
struct NewsSyncWorker: BackgroundWorker {
  /// Fetches the feed; `false` when the network call fails.
  let fetch: @Sendable () async -> Bool

  func doWork(_ context: WorkContext) async -> WorkResult {
    if await fetch() { return .success }
    return context.runAttemptCount < 3 ? .retry : .failure
  }
}

/// The app's two requests: a sync now, on Wi-Fi, and one every 6 hours on any network
/// with the battery not low, the first no sooner than 10 minutes from now.
func enqueueNewsSyncs(on queue: some WorkQueue, fetch: @escaping @Sendable () async -> Bool) throws {
  let worker = NewsSyncWorker(fetch: fetch)
  try queue.enqueue(
    WorkRequest(
      work: "news-now", name: "NewsSyncWorker", backoff: .linear, backoffDelay: .seconds(30), retryLimit: 3,
      tags: ["news"], requiredNetworkType: .unmetered, worker: worker),
    policy: .replace)
  try queue.enqueue(
    WorkRequest(
      work: "news-periodic", name: "NewsSyncWorker", retryLimit: 3, period: .seconds(6 * 3600),
      flex: .seconds(3600), tags: ["news"], initialDelay: .seconds(600), requiredNetworkType: .connected,
      requiresBatteryNotLow: true, worker: worker),
    policy: .keep)
}

/// The app: it enqueues its syncs each time its process starts, as an Android app does
/// in `Application.onCreate`. KEEP and REPLACE make that safe to repeat.
final class NewsApp: BackgroundAppDelegate {
  let queue: any WorkQueue
  let fetch: @Sendable () async -> Bool

  init(queue: any WorkQueue, fetch: @escaping @Sendable () async -> Bool) {
    self.queue = queue
    self.fetch = fetch
  }

  func didFinishLaunching() {
    try! enqueueNewsSyncs(on: queue, fetch: fetch)  // both requests pass WorkManager's checks
  }
}

/// A network that fails the first `failures` fetches, then works.
final class FlakyNetwork: Sendable {
  private let failures: Int
  private let fetches = Mutex(0)

  init(failures: Int) { self.failures = failures }

  /// One fetch: `false` while failures are left.
  func fetch() -> Bool {
    fetches.withLock { count in
      count += 1
      return count > failures
    }
  }
}
