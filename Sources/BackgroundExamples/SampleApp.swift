package import BackgroundTrace

/// A small app built from the code of common background-task tutorials: it registers and submits a
/// refresh at launch, saves its document when it goes to the background, keeps named
/// tasks for short jobs, and syncs analytics with a retrying worker.
package final class SampleApp: BackgroundAppDelegate, @unchecked Sendable {
  /// The app's parts, each a tutorial's code.
  package let documents: DocumentManager
  /// The seed's refresh code: registers the handler at launch and keeps a refresh submitted.
  package let refresh: RefreshAppDelegate
  /// The seed's named tasks, for short jobs such as flushing logs.
  package let tasks: BackgroundTaskManager
  private let work: any WorkQueue
  private let context: AsyncContext
  private var nextSync = 1
  /// How long the document save takes when the app enters the background.
  package var saveDuration: Duration = .seconds(45)
  /// How many attempts of a user-started sync fail before one succeeds.
  package var syncFailures = 2
  /// Whether a quick task is not started while one of the same name runs. Off, a
  /// second `flush-logs` before the first ends overwrites the first's id in the
  /// ``BackgroundTaskManager`` (keyed by name): the first task is never ended, and in the
  /// background its expiration gets the app killed. `bgtrace explore sample-app` found
  /// it (docs/guides/exploration.md).
  package var skipsOverlappingQuickTasks = false
  private var runningQuickTasks: Set<String> = []

  /// Creates the app on the platform's APIs.
  ///
  /// - Parameter guardsInvalidID: fixes the `DocumentManager` bug (ending `.invalid`
  ///   after the expiration handler already ended the task).
  package init(
    host: any BackgroundTaskHost, scheduler: any TaskScheduling, work: any WorkQueue, context: AsyncContext,
    guardsInvalidID: Bool = false
  ) {
    documents = DocumentManager(host: host, context: context, guardsInvalidID: guardsInvalidID)
    refresh = RefreshAppDelegate(scheduler: scheduler, context: context)
    tasks = BackgroundTaskManager(host: host)
    self.work = work
    self.context = context
  }

  /// `didFinishLaunching`: registers the refresh handler and submits a refresh.
  package func didFinishLaunching() {
    refresh.didFinishLaunching()
    refresh.scheduleAppRefresh()
  }

  /// `applicationDidEnterBackground`: saves the document, which takes `saveDuration`.
  package func didEnterBackground(saveDuration: Duration) {
    documents.save(taking: saveDuration)
  }

  /// `applicationDidEnterBackground`: saves the document (``saveDuration``).
  package func didEnterBackground() {
    didEnterBackground(saveDuration: saveDuration)
  }

  /// The user taps "Sync" (`sync`) or the app flushes its logs (`flush-logs`).
  package func perform(userAction action: String) {
    switch action {
    case "sync": sync(failures: syncFailures)
    case "flush-logs": quickTask(named: "FlushLogs", taking: .milliseconds(800))
    default: break
    }
  }

  /// Enqueues an analytics sync whose upload fails on the first `failures` attempts.
  @discardableResult
  package func sync(failures: Int) -> String {
    let work = "sync-\(nextSync)"
    nextSync += 1
    let worker = DataSyncWorker(context: context) { attempt in attempt >= failures }
    // A valid request: like androidx's `build()`, enqueue throws only for one WorkManager refuses.
    try! self.work.enqueue(worker.request(work: work), policy: .keep)
    return work
  }

  /// Runs a short named task that takes `duration`.
  package func quickTask(named name: String, taking duration: Duration) {
    if skipsOverlappingQuickTasks {
      guard runningQuickTasks.insert(name).inserted else { return }
    }
    tasks.startTask(name: name)
    context.run { [self] in
      try? await context.sleep(duration)
      tasks.endTask(name: name)
      runningQuickTasks.remove(name)
    }
  }
}
