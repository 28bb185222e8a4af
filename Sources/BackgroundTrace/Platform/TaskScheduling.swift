public import Dispatch

#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// A request for the BackgroundTasks scheduler (`BGAppRefreshTaskRequest`,
/// `BGProcessingTaskRequest` or `BGContinuedProcessingTaskRequest`).
///
/// The earliest begin time is either Apple's ``earliestBeginDate`` (what code ported from
/// `BGTaskRequest` sets) or ``earliestBeginDelay``, a delay from submission. A delay is what
/// the simulation and replay run deterministically on their virtual clocks; a date is read
/// against the wall clock when the request is submitted.
public struct TaskRequest: Sendable, Hashable {
  /// When the request may start at the earliest: a date, or a delay from submission.
  enum EarliestBegin: Sendable, Hashable {
    case date(Date)
    case delay(Duration)
  }

  /// The identifier, listed in `BGTaskSchedulerPermittedIdentifiers`.
  public var identifier: String
  /// Refresh, processing or continued processing.
  public var type: SchedulerRequestType
  /// Processing only: run only with network connectivity.
  public var requiresNetworkConnectivity: Bool
  /// Processing only: run only on external power.
  public var requiresExternalPower: Bool
  /// Continued processing only: the `title` the system's progress UI shows.
  public var title: String = ""
  /// Continued processing only: the `subtitle` the system's progress UI shows.
  public var subtitle: String = ""
  /// Continued processing only: what the scheduler does when it cannot run the request
  /// at once (`queue` by default, as `BGContinuedProcessingTaskRequest`).
  public var strategy: ContinuedProcessingStrategy = .queue
  /// Continued processing only: a resource the task needs beyond the default
  /// (`requiredResources`; `nil`: the default).
  public var requiredResources: ContinuedProcessingResource?
  var earliestBegin: EarliestBegin?

  /// `BGTaskRequest.earliestBeginDate`: the earliest date to run; `nil` means no delay. A
  /// lower bound, never a promise. Setting it replaces an ``earliestBeginDelay``; it reads
  /// `nil` when the request was given a delay instead.
  public var earliestBeginDate: Date? {
    get {
      guard case .date(let date) = earliestBegin else { return nil }
      return date
    }
    set { earliestBegin = newValue.map { .date($0) } }
  }

  /// The earliest time to run, as a delay from submission (`earliestBeginDate` = now +
  /// delay); `nil` means no delay. Setting it replaces an ``earliestBeginDate``; it reads
  /// `nil` when the request was given a date instead.
  public var earliestBeginDelay: Duration? {
    get {
      guard case .delay(let delay) = earliestBegin else { return nil }
      return delay
    }
    set { earliestBegin = newValue.map { .delay($0) } }
  }

  /// Creates a request.
  public init(
    identifier: String, type: SchedulerRequestType, earliestBeginDelay: Duration? = nil,
    requiresNetworkConnectivity: Bool = false, requiresExternalPower: Bool = false
  ) {
    self.identifier = identifier
    self.type = type
    self.earliestBegin = earliestBeginDelay.map { .delay($0) }
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
  ///
  /// - Parameters:
  ///   - now: the trace time of the submission.
  ///   - wallClock: the date at `now`, to turn an ``earliestBeginDate`` into trace time
  ///     (a date already past is `now`); a delay does not read it.
  public func submission(at now: TraceTime, wallClock: Date = Date()) -> SchedulerSubmission {
    let earliest: TraceTime? =
      switch earliestBegin {
      case nil: nil
      case .delay(let delay): now.adding(nanoseconds: TraceTime(delay).nanoseconds)
      case .date(let date): now.adding(nanoseconds: TraceTime(seconds: date.timeIntervalSince(wallClock)).nanoseconds)
      }
    let continued = type == .continued
    return SchedulerSubmission(
      identifier: identifier, type: type,
      earliest: earliest,
      network: type == .processing && requiresNetworkConnectivity ? true : nil,
      power: type == .processing && requiresExternalPower ? true : nil,
      title: continued ? title : nil, subtitle: continued ? subtitle : nil, strategy: continued ? strategy : nil,
      resources: continued ? requiredResources : nil)
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
  /// The launch's number in the trace (`sched.launch run=`), when the task came through
  /// the tracing wrapper, the simulation or a replay; `nil` for a bare `BGTask`.
  var run: Int? { get }
  /// Called when the task's time is about to run out; with none set, the system marks
  /// the task complete and unsuccessful.
  var expirationHandler: (() -> Void)? { get set }
  /// Tells the system the work is done.
  func setTaskCompleted(success: Bool)
}

extension ScheduledTask {
  /// `nil`: a task straight from the system has no run number.
  public var run: Int? { nil }
}

/// The BackgroundTasks scheduler API (`BGTaskScheduler`).
///
/// App code calls ``register(forTaskWithIdentifier:using:isolation:launchHandler:)``,
/// `submit`, `cancel` and ``pendingTaskRequests()`` as it would call `BGTaskScheduler`;
/// conformers implement ``register(forTaskWithIdentifier:using:registeredFrom:launchHandler:)``,
/// which also gets the isolation the registering code runs on.
public protocol TaskScheduling: AnyObject {
  /// Registers the launch handler for an identifier, as
  /// `BGTaskScheduler.register(forTaskWithIdentifier:using:launchHandler:)`; must happen
  /// before the app finishes launching, once per identifier. App code calls
  /// ``register(forTaskWithIdentifier:using:isolation:launchHandler:)``, which passes
  /// its own isolation here.
  ///
  /// - Parameters:
  ///   - identifier: the task identifier.
  ///   - queue: where the handler runs; `nil` lets the scheduler pick (on iOS a serial
  ///     background queue, `com.apple.BGTaskScheduler (<identifier>)`).
  ///   - isolation: the actor the registering code was isolated to, which a handler
  ///     closure written there (not `@Sendable`) is isolated to as well: on iOS a
  ///     main-actor handler run on a background queue traps. `nil` for nonisolated code.
  ///   - launchHandler: called with the task at each launch.
  /// - Returns: `false` when the identifier is not permitted.
  @discardableResult
  func register(
    forTaskWithIdentifier identifier: String, using queue: DispatchQueue?, registeredFrom isolation: (any Actor)?,
    launchHandler: @escaping (any ScheduledTask) -> Void
  ) -> Bool

  /// Submits a request, replacing a pending one with the same identifier.
  ///
  /// - Throws: ``TaskSchedulerError``.
  func submit(_ request: TaskRequest) throws(TaskSchedulerError)

  /// Submits a request, as iOS 27's `try await submitTaskRequest(_:)`, which replaces
  /// the throwing `submit(_:)`. By default it calls ``submit(_:)``.
  ///
  /// - Throws: ``TaskSchedulerError``.
  func submitTaskRequest(_ request: TaskRequest) async throws(TaskSchedulerError)

  /// Cancels the pending request with this identifier.
  func cancel(taskRequestWithIdentifier identifier: String)

  /// Cancels every pending request.
  func cancelAllTaskRequests()

  /// The requests waiting to launch, as `getPendingTaskRequests(completionHandler:)`
  /// (`await pendingTaskRequests()` in Swift) answers.
  func pendingTaskRequests() async -> [TaskRequest]

  /// The executor the actions of ``backgroundTask(_:action:)`` run on; `nil` (the
  /// default) for the global concurrent executor, as on a device.
  var actionExecutor: (any TaskExecutor)? { get }
}

extension TaskScheduling {
  /// Registers the launch handler for an identifier, as
  /// `BGTaskScheduler.register(forTaskWithIdentifier:using:launchHandler:)`: the call app
  /// code makes. It passes the caller's isolation (`#isolation`) to the conformer, since
  /// a handler closure written in main-actor code is main-actor code, which iOS runs on
  /// a background queue when `queue` is `nil`.
  ///
  /// - Parameters:
  ///   - identifier: the task identifier.
  ///   - queue: where the handler runs; `nil` lets the scheduler pick.
  ///   - isolation: the caller's isolation; leave the default.
  ///   - launchHandler: called with the task at each launch.
  /// - Returns: `false` when the identifier is not permitted.
  @discardableResult
  public func register(
    forTaskWithIdentifier identifier: String, using queue: DispatchQueue?, isolation: (any Actor)? = #isolation,
    launchHandler: @escaping (any ScheduledTask) -> Void
  ) -> Bool {
    register(forTaskWithIdentifier: identifier, using: queue, registeredFrom: isolation, launchHandler: launchHandler)
  }

  /// Calls ``submit(_:)``: the same request, the same answer.
  ///
  /// - Throws: ``TaskSchedulerError``.
  public func submitTaskRequest(_ request: TaskRequest) async throws(TaskSchedulerError) {
    try submit(request)
  }
}
