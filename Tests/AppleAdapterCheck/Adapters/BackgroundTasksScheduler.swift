// Off Apple platforms BackgroundTasks is only the test shim (Tests/AppleSDKShim), which the
// AppleAdapters check target compiles this file against with APPLE_SDK_SHIM set; other
// modules of the package may find the shim's module on the search path, so they skip it.
#if canImport(BackgroundTasks) && !os(macOS) && (canImport(Darwin) || APPLE_SDK_SHIM)
  public import BackgroundTasks
  public import Dispatch
  import Foundation
  #if APPLE_SDK_SHIM
    public import BackgroundTrace
  #endif

  /// `BGTaskScheduler` as a ``TaskScheduling``: the real scheduler behind the
  /// protocol, for apps that wrap it in ``TracingTaskScheduler``.
  ///
  /// A thin adapter, compiled only where BackgroundTasks exists (and on Linux against the
  /// SDK shim in Tests/AppleSDKShim), so nothing else in the package depends on it.
  public final class BackgroundTasksScheduler: TaskScheduling {
    private let scheduler: BGTaskScheduler

    /// Adapts `scheduler` (`BGTaskScheduler.shared` by default).
    public init(scheduler: BGTaskScheduler = .shared) {
      self.scheduler = scheduler
    }

    /// Registers with `BGTaskScheduler`, handing each launched `BGTask` to the handler as
    /// a ``ScheduledTask``.
    ///
    /// - Parameters:
    ///   - identifier: the task identifier, listed in `BGTaskSchedulerPermittedIdentifiers`.
    ///   - queue: where the handler runs; `nil` for a background queue the system picks.
    ///   - isolation: unused: on a device the handler's own code decides whether it traps
    ///     on the queue it runs on.
    ///   - launchHandler: called with the task at each launch.
    /// - Returns: `BGTaskScheduler`'s result: `false` when the identifier is not permitted.
    @discardableResult
    public func register(
      forTaskWithIdentifier identifier: String, using queue: DispatchQueue?, registeredFrom isolation: (any Actor)?,
      launchHandler: @escaping (any ScheduledTask) -> Void
    ) -> Bool {
      scheduler.register(forTaskWithIdentifier: identifier, using: queue) { task in
        // BGTask.h: `BGContinuedProcessingTask` is `API_AVAILABLE(ios(26.0))`, and the
        // package runs from iOS 18.
        if #available(iOS 26.0, *), let continued = task as? BGContinuedProcessingTask {
          launchHandler(BackgroundTasksContinuedTask(task: continued))
        } else {
          launchHandler(BackgroundTasksTask(task: task))
        }
      }
    }

    /// Submits the request as a `BGAppRefreshTaskRequest`, a `BGProcessingTaskRequest` or a
    /// `BGContinuedProcessingTaskRequest`, with its `earliestBeginDate`, or now plus its
    /// `earliestBeginDelay` (not for a continued request: BGTaskRequest.h, iOS 26.0 SDK,
    /// says its `earliestBeginDate` "will be outright ignored by the scheduler in favor of
    /// `NSDate.now`").
    ///
    /// - Parameter request: the request to submit.
    /// - Throws: ``TaskSchedulerError`` with the platform's code; a code this package does
    ///   not know becomes `immediateRunIneligible`, and any other error `unavailable`; a
    ///   continued request before iOS 26, which has no such request, `unavailable`.
    public func submit(_ request: TaskRequest) throws(TaskSchedulerError) {
      let platformRequest: BGTaskRequest
      switch request.type {
      case .refresh:
        platformRequest = BGAppRefreshTaskRequest(identifier: request.identifier)
      case .processing:
        let processing = BGProcessingTaskRequest(identifier: request.identifier)
        processing.requiresNetworkConnectivity = request.requiresNetworkConnectivity
        processing.requiresExternalPower = request.requiresExternalPower
        platformRequest = processing
      case .continued:
        // BGTaskRequest.h: `BGContinuedProcessingTaskRequest` is `API_AVAILABLE(ios(26.0))`.
        guard #available(iOS 26.0, *) else { throw TaskSchedulerError(.unavailable) }
        let continued = BGContinuedProcessingTaskRequest(
          identifier: request.identifier, title: request.title, subtitle: request.subtitle)
        continued.strategy = request.strategy == .fail ? .fail : .queue
        continued.requiredResources = request.requiredResources == .gpu ? .gpu : []
        platformRequest = continued
      }
      // A continued request's date is ignored by the scheduler (BGTaskRequest.h): left unset.
      if request.type != .continued, let date = request.earliestBeginDate {
        platformRequest.earliestBeginDate = date
      } else if request.type != .continued, let delay = request.earliestBeginDelay {
        let (seconds, attoseconds) = delay.components
        platformRequest.earliestBeginDate = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
      }
      do {
        try scheduler.submit(platformRequest)
      } catch BGTaskScheduler.Error.unavailable {
        throw TaskSchedulerError(.unavailable)
      } catch BGTaskScheduler.Error.tooManyPendingTaskRequests {
        throw TaskSchedulerError(.tooManyPendingTaskRequests)
      } catch BGTaskScheduler.Error.notPermitted {
        throw TaskSchedulerError(.notPermitted)
      } catch let error as BGTaskScheduler.Error {
        // `immediateRunIneligible`, or a code newer than this package.
        _ = error
        throw TaskSchedulerError(.immediateRunIneligible)
      } catch {
        throw TaskSchedulerError(.unavailable)
      }
    }

    /// Cancels the pending `BGTaskScheduler` request with this identifier.
    public func cancel(taskRequestWithIdentifier identifier: String) {
      scheduler.cancel(taskRequestWithIdentifier: identifier)
    }

    /// Cancels every pending `BGTaskScheduler` request.
    public func cancelAllTaskRequests() {
      scheduler.cancelAllTaskRequests()
    }

    /// The requests `BGTaskScheduler` holds, from
    /// `getPendingTaskRequests(completionHandler:)` (as `await pendingTaskRequests()`):
    /// each refresh, processing or continued-processing request with its identifier,
    /// earliest date, requirements, title, strategy and resources. Health research
    /// requests are left out: ``TaskRequest`` has no type for them.
    public func pendingTaskRequests() async -> [TaskRequest] {
      await scheduler.pendingTaskRequests().compactMap(Self.taskRequest(from:))
    }

    /// The ``TaskRequest`` a pending `BGTaskRequest` stands for; `nil` for a kind the trace
    /// has no type for.
    static func taskRequest(from platformRequest: BGTaskRequest) -> TaskRequest? {
      var request: TaskRequest
      if platformRequest is BGAppRefreshTaskRequest {
        request = .refresh(platformRequest.identifier)
      } else if let processing = platformRequest as? BGProcessingTaskRequest,
        // Exactly a processing request: `BGHealthResearchTaskRequest` subclasses it.
        type(of: processing) == BGProcessingTaskRequest.self
      {
        request = .processing(
          processing.identifier, requiresNetworkConnectivity: processing.requiresNetworkConnectivity,
          requiresExternalPower: processing.requiresExternalPower)
      } else if #available(iOS 26.0, *), let continued = platformRequest as? BGContinuedProcessingTaskRequest {
        // Its earliest date is ignored (BGTaskRequest.h): not part of the request.
        return .continued(
          continued.identifier, title: continued.title, subtitle: continued.subtitle,
          strategy: continued.strategy == .fail ? .fail : .queue,
          requiredResources: continued.requiredResources.contains(.gpu) ? .gpu : nil)
      } else {
        return nil
      }
      request.earliestBeginDate = platformRequest.earliestBeginDate
      return request
    }
  }

  /// A launched `BGContinuedProcessingTask` as a ``ContinuedProcessingTask``: the app's
  /// reports to ``progress`` go to the task's `progress`, which the system watches.
  @available(iOS 26.0, *)
  final class BackgroundTasksContinuedTask: BackgroundTasksTask, ContinuedProcessingTask, @unchecked Sendable {
    let continued: BGContinuedProcessingTask
    let progress = TaskProgress()

    init(task: BGContinuedProcessingTask) {
      self.continued = task
      super.init(task: task)
      let platformProgress = UncheckedProgress(progress: task.progress)
      progress.observe { completed, total in
        platformProgress.progress.totalUnitCount = total
        platformProgress.progress.completedUnitCount = completed
      }
    }

    var title: String { continued.title }
    var subtitle: String { continued.subtitle }

    func updateTitle(_ title: String, subtitle: String) {
      continued.updateTitle(title, subtitle: subtitle)
    }
  }

  /// `Progress` is thread-safe (Apple: "NSProgress is thread safe"), but not declared Sendable.
  private struct UncheckedProgress: @unchecked Sendable {
    let progress: Progress
  }

  /// A launched `BGTask` as a ``ScheduledTask``.
  class BackgroundTasksTask: ScheduledTask, @unchecked Sendable {
    let task: BGTask

    init(task: BGTask) {
      self.task = task
    }

    var identifier: String { task.identifier }

    var expirationHandler: (() -> Void)? {
      get { task.expirationHandler }
      set { task.expirationHandler = newValue }
    }

    func setTaskCompleted(success: Bool) {
      task.setTaskCompleted(success: success)
    }
  }

  /// Not Sendable: it calls `BGTaskScheduler`, which Apple does not declare Sendable.
  @available(*, unavailable)
  extension BackgroundTasksScheduler: Sendable {}
#endif
