/// A request for the BackgroundTasks scheduler (`BGAppRefreshTaskRequest` or
/// `BGProcessingTaskRequest`).
public struct TaskRequest: Sendable, Hashable {
  /// The identifier, listed in `BGTaskSchedulerPermittedIdentifiers`.
  public var identifier: String
  /// Refresh or processing.
  public var type: SchedulerRequestType
  /// The earliest time to run, as a delay from submission (`earliestBeginDate` =
  /// now + delay); `nil` means no delay. A lower bound, never a promise.
  public var earliestBeginDelay: Duration?
  /// Processing only: run only with network connectivity.
  public var requiresNetworkConnectivity: Bool
  /// Processing only: run only on external power.
  public var requiresExternalPower: Bool

  /// Creates a request.
  public init(
    identifier: String, type: SchedulerRequestType, earliestBeginDelay: Duration? = nil,
    requiresNetworkConnectivity: Bool = false, requiresExternalPower: Bool = false
  ) {
    self.identifier = identifier
    self.type = type
    self.earliestBeginDelay = earliestBeginDelay
    self.requiresNetworkConnectivity = requiresNetworkConnectivity
    self.requiresExternalPower = requiresExternalPower
  }

  /// A refresh request.
  public static func refresh(_ identifier: String, earliestBeginDelay: Duration? = nil) -> TaskRequest {
    TaskRequest(identifier: identifier, type: .refresh, earliestBeginDelay: earliestBeginDelay)
  }

  /// A processing request.
  public static func processing(
    _ identifier: String, earliestBeginDelay: Duration? = nil, requiresNetworkConnectivity: Bool = false,
    requiresExternalPower: Bool = false
  ) -> TaskRequest {
    TaskRequest(
      identifier: identifier, type: .processing, earliestBeginDelay: earliestBeginDelay,
      requiresNetworkConnectivity: requiresNetworkConnectivity, requiresExternalPower: requiresExternalPower)
  }
}

extension TaskRequest {
  /// The `sched.submit` fields of this request submitted at `now`: the earliest date
  /// as trace time, and the requirements only for processing requests (a refresh
  /// request has none), recorded only when set.
  public func submission(at now: TraceTime) -> SchedulerSubmission {
    SchedulerSubmission(
      ident: identifier, type: type,
      earliest: earliestBeginDelay.map { now.adding(nanoseconds: TraceTime($0).nanoseconds) },
      network: type == .processing && requiresNetworkConnectivity ? true : nil,
      power: type == .processing && requiresExternalPower ? true : nil)
  }
}

/// Why `submit` failed (`BGTaskScheduler.Error`).
///
/// Its description names the code, as in `BGTaskScheduler error: notPermitted`.
public struct TaskSchedulerError: BackgroundTraceError, Hashable {
  /// The error code, as in the trace's `sched.reject error=`.
  public var code: SchedulerRejection

  /// Creates an error.
  public init(_ code: SchedulerRejection) {
    self.code = code
  }

  /// Always ``TraceErrorKind/schedulerRejection``.
  public var kind: TraceErrorKind { .schedulerRejection }
  /// `nil`: a rejection is not about an input file.
  public var file: String? { nil }
  /// `nil`: a rejection is not about a place in a trace.
  public var position: TracePosition? { nil }
  /// Names the code, as in `BGTaskScheduler error: notPermitted`.
  public var message: String { "BGTaskScheduler error: \(code.rawValue)" }
}

/// A task the scheduler launched (`BGTask`): the app must call
/// ``setTaskCompleted(success:)`` before it expires.
public protocol ScheduledTask: AnyObject, Sendable {
  /// The identifier it was launched for.
  var identifier: String { get }
  /// Called when the task's time is about to run out; with none set, the system marks
  /// the task complete and unsuccessful.
  var expirationHandler: (() -> Void)? { get set }
  /// Tells the system the work is done.
  func setTaskCompleted(success: Bool)
}

/// The BackgroundTasks scheduler API (`BGTaskScheduler`).
public protocol TaskScheduling: AnyObject {
  /// Registers the launch handler for an identifier; must happen before the app
  /// finishes launching, once per identifier. Returns `false` when the identifier is
  /// not permitted.
  @discardableResult
  func register(forTaskWithIdentifier identifier: String, launchHandler: @escaping (any ScheduledTask) -> Void) -> Bool

  /// Submits a request, replacing a pending one with the same identifier.
  ///
  /// - Throws: ``TaskSchedulerError``.
  func submit(_ request: TaskRequest) throws(TaskSchedulerError)

  /// Cancels the pending request with this identifier.
  func cancel(taskRequestWithIdentifier identifier: String)

  /// Cancels every pending request.
  func cancelAllTaskRequests()

  /// The requests waiting to launch.
  func pendingTaskRequests() -> [TaskRequest]
}
