package import BackgroundTrace

/// The NHS COVID-19 app's background work (ukhsa-collaboration/covid-19-app-ios-ag-public,
/// `BackgroundTaskAggregator.swift` and `ProcessingTaskRequestManager.swift`, © 2020
/// NHSX), ported onto ``TaskScheduling`` with `pendingTaskRequests()` as
/// `getPendingTaskRequests(completionHandler:)`:
///
/// - at each launch the app registers its processing task and makes the aggregator,
///   whose `init` calls `scheduleNextTaskIfNeeded()`: it asks the scheduler for its
///   pending requests and submits a processing request (network required, the jobs'
///   shortest preferred frequency out) only when none with its identifier is pending;
/// - `performBackgroundTask` runs the jobs (a Combine pipeline there, a task here); when
///   they finish it schedules the next task and completes the run;
/// - its expiration handler cancels the jobs and schedules the next task, and — as
///   written (``Version/asWritten``) — never calls `setTaskCompleted`, so the run is
///   never completed and iOS kills the app after its expiration (docs/platform-model.md,
///   "The watchdog"; `sched-not-completed`). ``Version/fixed`` completes the run
///   unsuccessfully there.
///
/// The identifier is this port's own (the app's is in its Info.plist, not in these
/// files); the job stands for the exposure-detection job, taking ``jobDuration``.
package final class ExposureTasksApp: BackgroundAppDelegate, @unchecked Sendable {
  /// What the expiration handler does.
  package enum Version: Sendable {
    /// Cancels the jobs and reschedules, never completing the run.
    case asWritten
    /// Also calls `setTaskCompleted(success: false)`.
    case fixed
  }

  /// The processing task's identifier.
  package static let identifier = "uk.nhs.covid-19.background-tasks"
  /// The jobs' shortest preferred frequency: two hours (the app's exposure detection).
  package static let minimumFrequency: Duration = .seconds(2 * 3600)

  let scheduler: any TaskScheduling
  let context: AsyncContext
  package let version: Version
  /// How long the jobs of one run take.
  package let jobDuration: Duration
  /// What each pending-request check answered: whether a request was pending.
  package private(set) var pendingChecks: [Bool] = []

  /// Creates the app on `scheduler`; the jobs take `jobDuration` on `context`'s clock.
  package init(scheduler: any TaskScheduling, context: AsyncContext, jobDuration: Duration, version: Version) {
    self.scheduler = scheduler
    self.context = context
    self.jobDuration = jobDuration
    self.version = version
  }

  /// Registers the launch handler, then makes the aggregator (`init`:
  /// `scheduleNextTaskIfNeeded()`).
  package func didFinishLaunching() {
    scheduler.register(forTaskWithIdentifier: Self.identifier, using: nil) { [self] task in
      performBackgroundTask(backgroundTask: task)
    }
    scheduleNextTaskIfNeeded()
  }

  func performBackgroundTask(backgroundTask: any ScheduledTask) {
    // let cancellable = Publishers.Sequence<[Job], Never>(sequence: jobs)
    //     .flatMap { $0.work() }.collect().eraseToAnyPublisher().sink { [weak self] _ in
    //         self?.scheduleNextTask()
    //         backgroundTask.setTaskCompleted(success: true)
    //     }
    let sleep = context.sleep
    let jobDuration = jobDuration
    let jobs = Task(executorPreference: context.executor()) { [self] in
      do { try await sleep(jobDuration) } catch { return }
      scheduleNextTask()
      backgroundTask.setTaskCompleted(success: true)
    }
    backgroundTask.expirationHandler = { [self, version] in
      // cancellable.cancel()
      // self?.scheduleNextTask()
      jobs.cancel()
      scheduleNextTask()
      if version == .fixed { backgroundTask.setTaskCompleted(success: false) }
    }
  }

  private func scheduleNextTask() {
    // request.requiresNetworkConnectivity = true
    // request.earliestBeginDate = Date(timeIntervalSinceNow: minimumFrequency)
    // try? manager.submit(request)
    try? scheduler.submit(
      .processing(Self.identifier, earliestBeginDelay: Self.minimumFrequency, requiresNetworkConnectivity: true))
  }

  private func scheduleNextTaskIfNeeded() {
    // manager.getPendingRequest { request in
    //     if request == nil { self.scheduleNextTask() } else { … "background task already scheduled" }
    // }
    context.run { [self] in
      let pending = await scheduler.pendingTaskRequests().contains {
        $0.identifier == Self.identifier && $0.type == .processing
      }
      pendingChecks.append(pending)
      if !pending { scheduleNextTask() }
    }
  }
}
